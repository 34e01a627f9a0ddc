"""Every user-facing string, one flat JSON catalog per language (``es.json``, ``en.json``).

A game's own texts may live in its own files beside them (``es.envite.json``, ``en.envite.json``):
the catalog of a language is the union of ``<lang>.json`` and every ``<lang>.<part>.json``, and a
key may be defined in only one of them.

Keys are dotted names, values are ``str.format`` templates with named placeholders. Texts sent
with ``parse_mode=HTML`` may use Telegram's HTML tags; anything a user typed (names, titles) must
go through :func:`escape` before it is put into a template.

>>> t("es", "no.such.key")
'no.such.key'
>>> escape("<Ana & Bea>")
'&lt;Ana &amp; Bea&gt;'
>>> language_of("en-GB"), language_of("pt-BR"), language_of(None)
('en', 'es', 'es')
"""

from __future__ import annotations

import functools
import html
import json
import logging
import string
from collections.abc import Mapping
from importlib import resources
from typing import Any

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalog",
    "catalog_files",
    "escape",
    "language_of",
    "placeholders",
    "t",
]

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"

log = logging.getLogger(__name__)
_reported: set[tuple[str, str, str]] = set()


def catalog_files(lang: str) -> list[str]:
    """The file names that make up the catalog of ``lang``, the main one first."""
    names = [p.name for p in resources.files(__name__).iterdir() if p.name.endswith(".json")]
    parts = sorted(n for n in names if n.startswith(f"{lang}.") and n.count(".") == 2)
    return ([f"{lang}.json"] if f"{lang}.json" in names else []) + parts


def _read(lang: str) -> dict[str, str]:
    files = catalog_files(lang)
    if not files:
        log.warning("locale catalog %s.json is missing", lang)
    merged: dict[str, str] = {}
    for name in files:
        data = json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise ValueError(f"locales/{name} must be an object of strings")
        twice = sorted(set(merged) & set(data))
        if twice:
            raise ValueError(f"locales/{name} defines keys defined elsewhere: {twice[:5]}")
        merged.update(data)
    return merged


@functools.cache
def _catalogs() -> dict[str, dict[str, str]]:
    return {lang: _read(lang) for lang in LANGUAGES}


def catalog(lang: str) -> Mapping[str, str]:
    """The catalog of ``lang`` (loaded once); an unknown language gives the default one."""
    catalogs = _catalogs()
    return catalogs.get(lang, catalogs[DEFAULT_LANGUAGE])


def _report(kind: str, lang: str, detail: str) -> None:
    if (kind, lang, detail) not in _reported:
        _reported.add((kind, lang, detail))
        log.warning("locale %s: %s %s", lang, kind, detail)


class _Params(dict[str, Any]):
    def __init__(self, lang: str, key: str, params: Mapping[str, Any]) -> None:
        super().__init__(params)
        self.lang, self.key = lang, key

    def __missing__(self, name: str) -> str:
        _report("missing placeholder", self.lang, f"{{{name}}} in {self.key!r}")
        return "{" + name + "}"


def t(lang: str, key: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in; never raises.

    Falls back to the default language (es), then to the key itself; a placeholder without a
    value is left as ``{name}``; both are logged once.
    """
    template = catalog(lang).get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key)
        if template is None:
            _report("missing key", lang, repr(key))
            return key
        if lang != DEFAULT_LANGUAGE:
            _report("missing key (using es)", lang, repr(key))
    try:
        return template.format_map(_Params(lang, key, params))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError) as error:
        _report("bad template", lang, f"{key!r}: {error}")
        return template


def placeholders(template: str) -> frozenset[str]:
    """The placeholder names of a template (raises ``ValueError`` if it is malformed).

    >>> sorted(placeholders("{who} envida {n:d} {{no}}"))
    ['n', 'who']
    """
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(template) if name is not None
    )


def escape(text: object) -> str:
    """User-supplied text made safe for ``parse_mode=HTML``."""
    return html.escape(str(text), quote=False)


def language_of(code: str | None) -> str:
    """Our language for a Telegram ``language_code`` (``"en-US"`` -> ``"en"``), else es."""
    base = (code or "").split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE
