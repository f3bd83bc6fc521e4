"""The foundation every layer stands on: argument checks (``checks``), regex builders (``regex``),
the registry of bounded caches (``caches``, D104) and UTF-8 decoding with byte offsets (``decoding``)."""
