"""From links to output: the §8 ``Policy`` (``policy``), what goes on an ``<a>`` (``anchor``), the
``Linkifier`` and ``linkify`` (``linkifier``), display forms (``display``), offsets in UTF-8 and
UTF-16 (``offsets``), Markdown link text (``markdown_text``) and terminal hyperlinks (``terminal``)."""
