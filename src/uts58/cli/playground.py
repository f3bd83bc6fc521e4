"""What ``uts58 serve`` answers (D129, D130): a request of the playground
page, a JSON object, checked field by field, and the library's answer as
plain JSON values — every link with its kind, href, display form, UTF-16
offsets and §8 verdict, and the text linkified as HTML and as Markdown.

The HTTP server (:mod:`uts58.cli.serve`) only reads bodies and writes these
answers; everything here is pure and runs without it.

>>> report = analyze({"text": "🎉 see bücher.de", "policy": "strict"})
>>> [(link["text"], link["href"], link["utf16"]) for link in report["links"]]
[('bücher.de', 'https://xn--bcher-kva.de/', [7, 16])]
>>> report["html"]
'🎉 see <a href="https://xn--bcher-kva.de/">bücher.de</a>'

:func:`answer` is the API without HTTP:

>>> status, data = answer("/api/links", '{"text": "see bücher.de"}'.encode())
>>> status, [link["href"] for link in data["links"]]
(200, ['https://xn--bcher-kva.de/'])
>>> answer("/api/links", b'{"text": "x", "schemes": "http"}')
(400, {'error': 'schemes must be an array of strings, not a string', 'field': 'schemes'})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..detect.options import PRESETS, SWITCHES
from ..errors import OptionError, about
from ..output.display import DisplayOptions
from ..output.linkifier import Linkifier
from ..output.offsets import link_offsets, unit_length
from ..output.policy import NAMED_POLICIES, Policy, check_link
from ..spec.email import format_email
from ..spec.formatting import format_url
from ..unicode.properties import DEFAULT_UNICODE_VERSION, available_versions

__all__ = [
    "API",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "LIMITS",
    "MAX_BODY",
    "POLICIES",
    "analyze",
    "answer",
    "defaults",
    "format_address",
    "settings",
]

# uts58 serve's address unless told (D129): this machine only; 8058 for UTS #58.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8058
# D130: the most a request may hold.  The body limit (the server's) bounds
# the text in bytes; this bounds it in code points as well, so that the time
# of one request, linear in the text, is bounded whatever the encoding.
LIMITS: dict[str, int] = {
    "body_bytes": 256 * 1024,
    "text_chars": 100_000,
    "address_chars": 4_096,
    "schemes": 32,
    "truncate": 10_000,
}
MAX_BODY = LIMITS["body_bytes"]  # (bytes of a request's body: the server reads no more)
POLICIES = NAMED_POLICIES
_LOCATIONS = ("end", "middle", "smart")
_FLAGS = SWITCHES
# Every field a links request may have (D130: any other is refused by name).
_FIELDS = frozenset(
    {"text", "schemes", "unicode_version", "policy", "preset", "truncate", "truncate_location", "strip_prefix", *_FLAGS}
)


def defaults() -> dict[str, Any]:
    """The options a request without them gets: the library's defaults.

    >>> defaults()["schemes"], defaults()["policy"]
    (['ftp', 'http', 'https'], 'default')
    """
    return {
        "schemes": ["ftp", "http", "https"],
        "unicode_version": DEFAULT_UNICODE_VERSION,
        "policy": "default",
        "preset": None,
        "truncate": None,
        "truncate_location": "end",
        "strip_prefix": False,
        **dict.fromkeys(_FLAGS, False),
    }


def settings() -> dict[str, Any]:
    """What the page offers: the choices of each option, the defaults and the limits.

    >>> sorted(settings()["choices"])
    ['policy', 'preset', 'truncate_location', 'unicode_version']
    """
    return {
        "choices": {
            "unicode_version": list(available_versions()),
            "policy": list(POLICIES),
            "preset": sorted(PRESETS),
            "truncate_location": list(_LOCATIONS),
        },
        "defaults": defaults(),
        "limits": dict(LIMITS),
    }


def _request(request: object, fields: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(request, Mapping):
        raise TypeError(f"request must be a JSON object (a mapping), not {type(request).__name__}")
    for key in request:
        if key not in fields:
            known = ", ".join(sorted(fields))
            raise OptionError(f"unknown option {str(key)[:64]!r} (known: {known})", option=str(key)[:64])
    return request


def _string(request: Mapping[str, Any], name: str, limit: int, default: str | None = None) -> str:
    if name not in request and default is None:
        raise OptionError(f"{name} is missing: the request must give it (a string)", option=name)
    value = request.get(name, default)
    if not isinstance(value, str):
        raise OptionError(f"{name} must be a string, not {_json_type(value)}", option=name)
    if len(value) > limit:
        raise OptionError(f"{name} is {len(value):,} characters long; the most is {limit:,}", option=name)
    return value


def _choice(request: Mapping[str, Any], name: str, choices: tuple[str, ...] | list[str], default: str) -> str:
    value = request.get(name, default)
    if value not in choices or not isinstance(value, str):
        shown = repr(value)[:64] if isinstance(value, str) else _json_type(value)
        raise OptionError(f"{name} must be one of {', '.join(map(repr, choices))}, not {shown}", option=name)
    return value


def _flag(request: Mapping[str, Any], name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be true or false, not {_json_type(value)}", option=name)
    return value


def _json_type(value: object) -> str:
    """The JSON name of a value's type, for the messages (a request is JSON)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list | tuple) else "an object"


def _schemes(request: Mapping[str, Any]) -> list[str]:
    value = request.get("schemes", defaults()["schemes"])
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise OptionError(f"schemes must be an array of strings, not {_json_type(value)}", option="schemes")
    if len(value) > LIMITS["schemes"]:
        raise OptionError(f"schemes: at most {LIMITS['schemes']} schemes, not {len(value)}", option="schemes")
    if any(len(s) > 64 for s in value):
        raise OptionError("schemes: a scheme is at most 64 characters long", option="schemes")
    return value


def _display(request: Mapping[str, Any]) -> DisplayOptions | None:
    truncate = request.get("truncate")
    if truncate is not None and (isinstance(truncate, bool) or not isinstance(truncate, int)):
        raise OptionError(f"truncate must be a whole number or null, not {_json_type(truncate)}", option="truncate")
    if truncate is not None and not 1 <= truncate <= LIMITS["truncate"]:
        raise OptionError(f"truncate must be from 1 to {LIMITS['truncate']:,}, not {truncate}", option="truncate")
    location = _choice(request, "truncate_location", _LOCATIONS, "end")
    display: DisplayOptions = {}
    if truncate is not None:
        display["max_length"] = truncate
        display["location"] = location  # type: ignore[typeddict-item]  # (one of _LOCATIONS, checked)
    if _flag(request, "strip_prefix"):
        display["strip_scheme"] = display["strip_www"] = True
    return display or None


def _linkifier(request: Mapping[str, Any]) -> tuple[Linkifier, Policy]:
    """The Linkifier of the request's options, made as ``uts58 linkify``
    makes it: one finder of the detection options, whatever the policy (D65)."""
    policy = POLICIES[_choice(request, "policy", tuple(POLICIES), "default")]()
    detection: dict[str, Any] = {name: _flag(request, name) for name in _FLAGS}
    detection["schemes"] = _schemes(request)
    detection["unicode_version"] = _choice(request, "unicode_version", available_versions(), DEFAULT_UNICODE_VERSION)
    preset = request.get("preset")
    if preset is not None:
        detection["preset"] = _choice(request, "preset", sorted(PRESETS), "")
    display = _display(request)
    try:
        return Linkifier(policy=policy, display=display, **detection), policy
    except TypeError as exc:  # (every type was checked above: a value the library refuses)
        raise OptionError(str(exc)) from None


def analyze(request: Mapping[str, Any]) -> dict[str, Any]:
    """The playground's answer for ``request`` (a decoded JSON object): its
    ``text`` (at most ``LIMITS["text_chars"]`` code points) and options, as
    in :func:`settings`.  Each link that detection finds, in order, with
    ``start``/``end`` (code points), ``utf16`` (the same in UTF-16 code
    units, for JavaScript: :func:`uts58.output.offsets.link_offsets`), ``kind``,
    ``text``, ``href``, ``display`` (§4), ``shown`` and ``title`` (what its
    anchor shows, after ``truncate``), ``host``, ``linked`` and ``reasons``
    (the §8 verdict: :func:`uts58.check_link`); and the text
    linkified as ``html`` and ``markdown``.  A bad field raises
    :class:`uts58.OptionError` whose ``option`` names it.

    >>> report = analyze({"text": "раураl.com and https://example.org/docs/guide", "truncate": 20})
    >>> [(l["text"], l["linked"], [r["code"] for r in l["reasons"]]) for l in report["links"]]
    [('раураl.com', False, ['mixed-script', 'confusable']), ('https://example.org/docs/guide', True, [])]
    >>> report["markdown"]
    'раураl.com and [https://example.org…](<https://example.org/docs/guide>)'
    >>> analyze({"text": "x", "colour": "red"})
    Traceback (most recent call last):
    ...
    uts58.errors.OptionError: unknown option 'colour' (known: bare_ipv4, ...)
    """
    request = _request(request, _FIELDS)
    text = _string(request, "text", LIMITS["text_chars"])
    linkifier, policy = _linkifier(request)
    with about("text"):
        links = list(linkifier.finder.find_links(text))
        anchors = {(a.start, a.end): a for a in linkifier.anchors(text)}
        units = link_offsets(text, links, "utf16")
        records = []
        for link, (start16, end16) in zip(links, units, strict=True):
            anchor = anchors.get((link.start, link.end))
            records.append(
                {
                    "start": link.start,
                    "end": link.end,
                    "utf16": [start16, end16],
                    "kind": link.kind,
                    "text": link.text,
                    "href": link.href,
                    "display": link.display,
                    "shown": link.display if anchor is None else anchor.text,
                    "title": None if anchor is None else anchor.attrs.get("title"),
                    "scheme": link.scheme,
                    "host": link.host.unicode,
                    "host_ascii": link.host.ascii,
                    "host_kind": link.host.kind,
                    "linked": anchor is not None,
                    "reasons": [{"code": r.code, "message": r.message} for r in check_link(link, policy)],
                }
            )
        html = linkifier.render(text)
        markdown = linkifier.with_options(format="markdown").render(text)
    return {
        "links": records,
        "html": html,
        "markdown": markdown,
        "utf16_length": unit_length(text, "utf16"),
        "unicode_version": linkifier.finder.unicode_version,
    }


def _is_email(item: str) -> bool:
    """As ``uts58 format`` tells them apart: a ``mailto:``, or no ``://``
    and an ``@`` before any ``/``."""
    if item[:7].lower() == "mailto:":
        return True
    return "://" not in item and "@" in item.split("/", 1)[0]


def format_address(request: Mapping[str, Any]) -> dict[str, Any]:
    """``uts58 format`` for the page: the ``input`` (a URL or an email
    address) formatted with :func:`uts58.format_url` (its minimal and its
    maximal, ASCII form) or :func:`uts58.format_email`; a value they refuse
    gives ``error`` (their message) instead.

    >>> format_address({"input": "https://xn--bcher-kva.de/stra%C3%9Fe"})
    {'kind': 'url', 'minimal': 'https://bücher.de/straße', 'maximal': 'https://xn--bcher-kva.de/stra%C3%9Fe'}
    >>> format_address({"input": "mailto:x@xn--bcher-kva.de"})["minimal"]
    'mailto:x@bücher.de'
    """
    request = _request(request, frozenset({"input", "unicode_version"}))
    item = _string(request, "input", LIMITS["address_chars"]).strip()
    version = _choice(request, "unicode_version", available_versions(), DEFAULT_UNICODE_VERSION)
    try:
        if _is_email(item):
            return {"kind": "email", "minimal": format_email(item, unicode_version=version)}
        return {
            "kind": "url",
            "minimal": format_url(item, unicode_version=version),
            "maximal": format_url(item, unicode_version=version, escape="maximal"),
        }
    except ValueError as exc:  # (URLError, AddressError: the input is not one; say why)
        return {"kind": "email" if _is_email(item) else "url", "error": str(exc)}


# --------------------------------------------------------------------------
# The API: a POST's path and body to its status and JSON answer

API: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "/api/links": analyze,
    "/api/format": format_address,
}


class _NotJSON(ValueError):
    """A request body the playground's JSON reader refuses (answered 400, never raised further)."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (a repeated key is refused, not silently overwritten)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _NotJSON(f"the key {key[:64]!r} is given twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not JSON")


def answer(path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """The HTTP status and the JSON object answering a POST of ``body`` to
    ``path`` of the API: 200 and the answer, or 400 (not UTF-8, not JSON, a
    bad field: ``field`` names it), 404, 413 with ``error`` saying why.

    >>> answer("/api/format", b'{"input": "x@xn--bcher-kva.de"}')
    (200, {'kind': 'email', 'minimal': 'x@bücher.de'})
    >>> answer("/api/links", b'{"text": "x"')[0], answer("/api/nothing", b"{}")[0]
    (400, 404)
    """
    handler = API.get(path)
    if handler is None:
        return 404, {"error": f"no API at {path[:200]}"}
    if len(body) > MAX_BODY:
        return 413, {"error": f"the body is {len(body):,} bytes; the most is {MAX_BODY:,}"}
    try:
        decoded = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return 400, {"error": f"the body is not UTF-8 (byte {exc.start})"}
    try:
        request = json.loads(decoded, object_pairs_hook=_unique, parse_constant=_no_constant)
    except RecursionError:
        return 400, {"error": "the body is not JSON the server reads: nested too deeply"}
    except ValueError as exc:  # (JSONDecodeError; a number of too many digits; a key twice)
        return 400, {"error": f"the body is not JSON: {str(exc)[:200]}"}
    if not isinstance(request, dict):
        return 400, {"error": "the body must be a JSON object"}
    try:
        return 200, handler(request)
    except OptionError as exc:
        return 400, {"error": str(exc), "field": exc.option}
