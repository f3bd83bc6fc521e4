"""The linkifiers a Python user would pick instead of uts58, on the same text.

Installed with the ``bench`` extra (``pip install -e '.[bench]'``); a peer
that is missing is reported as such, not silently left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Each peer: a function from text to the number of links it finds.


def _linkify_it() -> Callable[[str], int]:
    from linkify_it import LinkifyIt
    from linkify_it.tlds import TLDS

    li = LinkifyIt().tlds(TLDS)  # with its TLD list, as the issue asks
    return lambda text: len(li.match(text) or [])


def _urlextract() -> Callable[[str], int]:
    from urlextract import URLExtract

    ex = URLExtract()
    return lambda text: len(ex.find_urls(text))


def _django() -> Callable[[str], int]:
    from django.conf import settings

    if not settings.configured:
        settings.configure()
    from django.utils.html import urlize

    return lambda text: urlize(text).count("<a ")


def _bleach() -> Callable[[str], int]:
    import bleach

    return lambda text: bleach.linkify(text).count("<a ")


PEERS: dict[str, Callable[[], Callable[[str], int]]] = {
    "linkify-it-py": _linkify_it,
    "urlextract": _urlextract,
    "django urlize": _django,
    "bleach.linkify": _bleach,
}

# The floor: one pass of the regex engine over the characters where a link
# can start at all (what any detector has to look at).
_CANDIDATES = re.compile("[.@:\u3002\uff0e\uff61]")


def floor(text: str) -> int:
    return sum(1 for _ in _CANDIDATES.finditer(text))


def load() -> dict[str, Callable[[str], int] | str]:
    """Each peer's counting function, or the reason it is not available."""
    out: dict[str, Callable[[str], int] | str] = {}
    for name, make in PEERS.items():
        try:
            out[name] = make()
        except ImportError as exc:
            out[name] = f"not installed ({exc.name}); pip install -e '.[bench]'"
    return out
