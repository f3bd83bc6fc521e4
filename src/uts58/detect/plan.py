"""What a :class:`~uts58.detect.finder.Finder` compiles from its options:
the plan that the scanner (:mod:`uts58.detect.scanner`) follows.

A plan holds the options the scan reads and everything they make — the
property tables, the domain rules of the TLD set, the host-run patterns,
the candidate pattern, the arguments of the C scan, and the bounded caches
of hosts and link forms — built once per finder and shared by every call.
The scanner reads the plan alone, never the finder.

>>> plan = compile_plan(schemes=frozenset({"http", "https"}), known_tlds=None)
>>> plan.candidate.search("see a.com") is not None, plan.scheme_lengths
(True, (5, 4))
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..base.caches import bounded
from ..hosts.domains import (
    HOST_CACHE_SIZE,
    DomainRules,
    HostPatterns,
    default_tlds,
    domain_rules,
    host_patterns,
)
from ..spec.formatting import SPECIAL_SCHEMES
from ..unicode.parts import LABEL_SEPARATORS
from ..unicode.properties import DEFAULT_UNICODE_VERSION, LinkProperties, link_properties
from .candidates import _CJK_RANGES, _SCAN_CLASSES, _candidate_pattern, _schemed_host
from .evidence import CODE_TLDS
from .link import Host, HostKind, Kind, _host, link_forms

__all__ = ["Plan", "compile_plan"]


@dataclass(frozen=True, slots=True, eq=False)
class Plan:
    """A finder's options as the scan reads them, and what they make."""

    # The options (checked and normalized by the Finder)
    urls: bool
    emails: bool
    schemes: frozenset[str]
    require_scheme: bool
    bare_ipv4: bool
    bare_localhost: bool
    single_label_hosts: bool
    file_extensions: frozenset[str]
    file_names: bool
    bare_domains: bool
    cjk_prose: bool
    cjk_boundary: bool
    # What they make
    props: LinkProperties
    rules: DomainRules
    patterns: HostPatterns
    candidate: re.Pattern[str]
    scheme_lengths: tuple[int, ...]
    scan_args: tuple[Any, ...]
    quick_tlds: frozenset[str] | None
    hosts: Callable[[str, str, HostKind], Host]
    link_forms: Callable[[Kind, str, str | None, Host, str], tuple[str, str]]
    schemed_hosts: Callable[[str], tuple[int, Host] | None]


def compile_plan(
    *,
    urls: bool = True,
    emails: bool = True,
    schemes: frozenset[str],
    require_scheme: bool = False,
    known_tlds: frozenset[str] | None,
    bare_ipv4: bool = False,
    bare_localhost: bool = False,
    single_label_hosts: bool = False,
    file_extensions: frozenset[str] = CODE_TLDS,
    unicode_version: str = DEFAULT_UNICODE_VERSION,
    file_names: bool = True,
    bare_domains: bool = True,
    cjk_prose: bool = False,
    cjk_boundary: bool = False,
) -> Plan:
    """The plan of a finder's (checked, normalized) options: once per finder
    (an unpickled one too: it is constructed again)."""
    props = link_properties(unicode_version)
    tlds = default_tlds() if known_tlds is None else known_tlds
    patterns = host_patterns(props)
    rules = domain_rules(tlds, props.version)
    opaque = tuple(sorted(schemes - SPECIAL_SCHEMES))
    longest_first = tuple(sorted(schemes, key=lambda s: (-len(s), s)))
    return Plan(
        urls=urls,
        emails=emails,
        schemes=schemes,
        require_scheme=require_scheme,
        bare_ipv4=bare_ipv4,
        bare_localhost=bare_localhost,
        single_label_hosts=single_label_hosts,
        file_extensions=file_extensions,
        file_names=file_names,
        bare_domains=bare_domains,
        cjk_prose=cjk_prose,
        cjk_boundary=cjk_boundary,
        props=props,
        rules=rules,
        patterns=patterns,
        candidate=_candidate_pattern(patterns, opaque, bare_localhost, single_label_hosts),
        scheme_lengths=tuple(sorted({len(scheme) for scheme in schemes}, reverse=True)),
        # The C parts of the scan (kernels.candidate_scan): the schemes longest
        # first, which are special, whether the pattern matches names before
        # ":" (opaque schemes, localhost); the CJK characters of D22; the TLDs
        # and whether D91 applies (the candidates refused at a first look, D106).
        scan_args=(
            longest_first,
            tuple(scheme in SPECIAL_SCHEMES for scheme in longest_first),
            bool(opaque) or bare_localhost,
            _CJK_RANGES,
            tlds,
            not bare_ipv4,
            _SCAN_CLASSES,
            LABEL_SEPARATORS,
        ),
        # D91: the TLDs of the quick rejection of a run whose last label is no
        # TLD; None with bare_ipv4 (a dotted quad ends in digits and is linked).
        quick_tlds=None if bare_ipv4 else tlds,
        # The Host of each (Unicode form, A-label form, kind): hosts repeat,
        # and a Host is immutable (D93: bounded as the host caches are).
        hosts=bounded(HOST_CACHE_SIZE, "hosts")(_host),
        # The href and display of each link (D95): link texts repeat in real
        # text (80% of the links of the bench corpus are repeats).
        link_forms=bounded(HOST_CACHE_SIZE, "link forms")(link_forms),
        # The host after "://" of each run of host characters (_schemed_host).
        schemed_hosts=bounded(HOST_CACHE_SIZE, "schemed hosts")(
            partial(_schemed_host, patterns, rules, single_label_hosts)
        ),
    )
