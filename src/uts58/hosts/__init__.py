"""What a host is: WHATWG URL parsing and UTS #46 through ada-url (``whatwg``, its only caller),
the TLD lists (``tlds``) and domain validation with registrable names (``domains``)."""
