"""The options of a :class:`~uts58.Linkifier`, each declared once (D136):
name, default, check, command-line flag, text (a Policy's are
``uts58.output.policy.POLICY_OPTIONS``).
What a Linkifier makes of several options together (its attributes, its
finder) is made after each is checked alone, in :mod:`uts58.output.linkifier`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..base.options import Option, Options, check_bool, check_choice, unchecked
from ..errors import OptionError
from .anchor import attrs_dict, check_callback
from .display import check_display

if TYPE_CHECKING:
    from .policy import Policy

__all__ = ["LINKIFIER_OPTIONS"]


def _callback(callback: object) -> object:
    check_callback(callback)
    return callback


def _display(display: object) -> Mapping[str, Any] | None:
    return None if display is None else MappingProxyType(dict(check_display(display)))


def _attrs(attrs: object) -> Mapping[str, str]:
    # (the names and values are checked with rel, target and the rest: link_attributes)
    return MappingProxyType(attrs_dict(attrs))


def _hosts(hosts: object) -> object:
    # (a str is refused, naming the option, with the other attributes)
    return tuple(hosts) if not isinstance(hosts, (str, bytes)) and isinstance(hosts, Iterable) else hosts


def _kinds(kinds: object) -> frozenset[str]:
    if not isinstance(kinds, Iterable):
        raise TypeError(f"kinds must be 'url', 'email' or an iterable of them, not {type(kinds).__name__}")
    wanted = frozenset((kinds,) if isinstance(kinds, str) else kinds)
    if not wanted <= {"url", "email"}:
        raise OptionError(f"kinds must hold 'url' and/or 'email', not {sorted(wanted)}", option="kinds")
    return wanted


def _policy(policy: object) -> Policy:
    from .policy import Policy  # (the policy's module imports this one for its table)

    policy = Policy.default() if policy is None else policy
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a uts58.Policy, not {type(policy).__name__}")
    return policy


# Each option of a Linkifier, once, in the order they are checked, shown and compared.
LINKIFIER_OPTIONS = Options(
    "Linkifier",
    (
        Option("format", "html", check_choice("format", "html", "markdown"), "--markdown", "HTML or Markdown"),
        Option(
            "link_text",
            "display",
            check_choice("link_text", "original", "display"),
            None,
            "the §4 display form, or the text as found",
        ),
        Option("callback", None, _callback, None, "callback(link, attrs): change or drop each link (D28, D84)"),
        Option("display", None, _display, "--truncate", "shorten the shown text (D90)"),
        Option("attrs", None, _attrs, "--attr", "attributes of each <a>"),
        Option("rel", None, unchecked, "--rel", "the rel of each web link (D82, D113)"),
        Option("target", None, unchecked, "--target", "the target of each web link; _blank adds noopener"),
        Option(
            "external_only",
            False,
            check_bool("external_only"),
            "--external-only",
            "rel and target on external links only",
        ),
        Option("internal_hosts", (), _hosts, "--internal-host", "hosts that are not external"),
        Option("rel_target_on", "web", unchecked, "--rel-target-on", "rel and target on web links, or on all"),
        Option("kinds", ("url", "email"), _kinds, "--only", "the kinds linked"),
        Option("policy", None, _policy, "--policy", "the §8 checks (None: Policy.default())"),
        Option("finder", None, unchecked, None, "the Finder that detects (None: one of the detection options)"),
        Option("link_class", None, unchecked, "--class", "the class of each <a>"),
    ),
)
