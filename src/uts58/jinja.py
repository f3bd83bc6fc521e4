"""Former name of :mod:`uts58.templates` (the filter serves Django too): the same names.

>>> import uts58.templates
>>> linkify_filter is uts58.templates.linkify_filter
True
"""

from __future__ import annotations

from typing import Any

from . import templates
from .templates import REL_VALUES, django_filter, install, linkify_filter, mark_safe, parse_argument, template_error

__all__ = ["REL_VALUES", "django_filter", "install", "linkify_filter", "mark_safe", "parse_argument", "template_error"]


def __getattr__(name: str) -> Any:
    return getattr(templates, name)  # ``register``, built on first use
