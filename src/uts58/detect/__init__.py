"""Detection: the ``Finder`` and ``find_links`` (``finder``), its options (``options``), the one pass
over a text (``scanner``) and what it reads (``candidates``), the evidence that a name is a file
(``evidence``, D97), and the ``Link`` and ``Host`` values (``link``)."""
