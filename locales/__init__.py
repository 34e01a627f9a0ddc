"""Every user-facing string, in gettext catalogs: ``locales/<lang>/LC_MESSAGES/<domain>.po``.

Layout. One directory per language (``es``, the default, and ``en``), each with the same
domains: ``tapete.po`` holds the shared texts (tables, lobby, commands, refusals, Mus) and every
other domain one part of the bot (``envite.po``, ``piedras.po``, ``senas.po``, ``records.po``...),
so a new game brings its own file and touches no shared one. The catalog of a language is the
union of its domains; a key may be defined in only one of them.

Entries are key-based: ``msgid`` is the dotted key the code asks for (``"table.to_act"``),
``msgstr`` a ``str.format`` template with named placeholders (``"▶ Le toca a {names}"``), marked
``#, python-brace-format``. A text that depends on a number is a plural entry (``msgid_plural``,
the same key, and ``msgstr[0..]``): the language's ``Plural-Forms`` header picks the form, and
the number is the ``n`` placeholder (:func:`tn`). A form that the rule uses for a single number
may leave ``{n}`` out ("one chico"). Texts sent with ``parse_mode=HTML`` may use Telegram's HTML
tags; anything a user typed (names, titles) must go through :func:`escape` first.

Compiling. The bot reads the compiled ``.mo`` files with the standard :mod:`gettext` module
(build output, not in git): ``make locales`` compiles each ``.po`` with Babel's
``pybabel compile`` (``make run``, ``play`` and ``test`` do it first; so does the Dockerfile,
and a package built afterwards ships the ``.mo`` files). A ``.mo`` missing or older than its
``.po`` (a ``.po`` just edited) is never served: that domain is compiled in memory with Babel
instead, with one warning, so the texts are always those of the ``.po``.

Adding a language ``xx``: copy ``locales/es`` to ``locales/xx``; in every file set the
``Language: xx`` header and the language's ``Plural-Forms`` (as many ``msgstr[i]`` per plural
entry as its ``nplurals``); translate every ``msgstr`` (keep the placeholders; any PO editor
works: the ``msgid`` is only the key, the Spanish file is the reference); add ``"xx"`` to
:data:`LANGUAGES`; ``make locales test`` (``tests/test_locales.py`` checks keys, placeholders and
plural forms against Spanish).

>>> t("es", "no.such.key")
'no.such.key'
>>> tn("es", "score.amarracos", 1), tn("en", "piedras.opt.stones", 5)
('1 amarraco', '5 stones')
>>> escape("<Ana & Bea>")
'&lt;Ana &amp; Bea&gt;'
>>> language_of("en-GB"), language_of("pt-BR"), language_of(None)
('en', 'es', 'es')
"""

from __future__ import annotations

import functools
import gettext
import html
import io
import logging
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALEDIR",
    "MAIN_DOMAIN",
    "Text",
    "catalog",
    "domains",
    "escape",
    "language_of",
    "placeholders",
    "t",
    "tn",
]

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"
LOCALEDIR = Path(__file__).resolve().parent
"""``<LOCALEDIR>/<lang>/LC_MESSAGES/<domain>.po`` (and the compiled ``.mo`` beside it)."""
MAIN_DOMAIN = "tapete"

Text = str | tuple[str, ...]
"""A catalog entry: one template, or one per plural form (in the order of ``Plural-Forms``)."""

log = logging.getLogger(__name__)
_reported: set[tuple[str, str, str]] = set()


class Translations(gettext.GNUTranslations):
    """The compiled catalog of one domain, or of all of a language's domains once merged."""

    # Both are set by GNUTranslations._parse: the messages (plural ones under (msgid, form))
    # and the header's plural rule.
    _catalog: dict[str | tuple[str, int], str]
    plural: Callable[[int], int]

    def texts(self) -> dict[str, Text]:
        """Every entry by key: a template, or the tuple of forms of a plural entry."""
        plain: dict[str, Text] = {}
        forms: dict[str, dict[int, str]] = {}
        for key, text in self._catalog.items():
            if isinstance(key, tuple):
                forms.setdefault(key[0], {})[key[1]] = text
            elif key:  # "" is the header
                plain[key] = text
        plain.update({k: tuple(v[i] for i in sorted(v)) for k, v in forms.items()})
        return plain

    def merge(self, other: Translations, where: str) -> None:
        """Add the messages of another domain (same plural rule, no key defined twice)."""
        mine, theirs = self.info().get("plural-forms"), other.info().get("plural-forms")
        if mine != theirs:
            raise ValueError(f"{where}: Plural-Forms {theirs!r} differs from {mine!r}")
        twice = sorted(set(self.texts()) & set(other.texts()))
        if twice:
            raise ValueError(f"{where} defines keys defined elsewhere: {twice[:5]}")
        self._catalog.update((k, v) for k, v in other._catalog.items() if k != "")


@dataclass(frozen=True)
class _Language:
    translations: Translations
    texts: dict[str, Text]


def domains(lang: str, root: Path | None = None) -> list[str]:
    """The domains of ``lang`` (its ``.po`` or ``.mo`` files), the main one first."""
    folder = (root or LOCALEDIR) / lang / "LC_MESSAGES"
    found = {p.stem for p in folder.glob("*.po")} | {p.stem for p in folder.glob("*.mo")}
    return sorted(found, key=lambda name: (name != MAIN_DOMAIN, name))


def _compile_in_memory(po: Path) -> bytes:
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError as error:  # pragma: no cover - Babel is a dependency
        raise RuntimeError(f"{po} needs compiling and Babel is missing: make locales") from error
    with po.open("rb") as source:
        parsed = read_po(source, abort_invalid=True)
    out = io.BytesIO()
    write_mo(out, parsed)
    return out.getvalue()


def _compiled(lang: str, domain: str, root: Path, stale: list[str]) -> bytes:
    """The ``.mo`` of a domain; compiled from the ``.po`` when missing or older than it."""
    po = root / lang / "LC_MESSAGES" / f"{domain}.po"
    mo = po.with_suffix(".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        return mo.read_bytes()
    stale.append(domain)
    return _compile_in_memory(po)


def _read(lang: str, root: Path) -> Translations:
    merged: Translations | None = None
    stale: list[str] = []
    for domain in domains(lang, root):
        part = Translations(io.BytesIO(_compiled(lang, domain, root, stale)))
        if merged is None:
            merged = part
        else:
            merged.merge(part, f"locales/{lang}/LC_MESSAGES/{domain}")
    if stale:
        log.warning(
            "locale %s: %s compiled in memory (no .mo, or older than the .po): run make locales",
            lang,
            ", ".join(f"{d}.po" for d in stale),
        )
    if merged is None:
        log.warning("locale %s: no catalog in %s", lang, root / lang / "LC_MESSAGES")
        merged = Translations()
        merged._catalog, merged.plural = {}, lambda n: int(n != 1)
    return merged


@functools.cache
def _catalogs() -> dict[str, _Language]:
    loaded = {lang: _read(lang, LOCALEDIR) for lang in LANGUAGES}
    for lang, translations in loaded.items():
        if lang != DEFAULT_LANGUAGE:
            translations.add_fallback(loaded[DEFAULT_LANGUAGE])
    return {lang: _Language(tr, tr.texts()) for lang, tr in loaded.items()}


def _language(lang: str) -> _Language:
    catalogs = _catalogs()
    return catalogs.get(lang, catalogs[DEFAULT_LANGUAGE])


def catalog(lang: str) -> Mapping[str, Text]:
    """The entries of ``lang`` (loaded once); an unknown language gives the default one."""
    return _language(lang).texts


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


def _template(lang: str, key: str, params: Mapping[str, Any]) -> str | None:
    language = _language(lang)
    entry = language.texts.get(key)
    if entry is None:
        entry = _language(DEFAULT_LANGUAGE).texts.get(key)
        if entry is None:
            _report("missing key", lang, repr(key))
            return None
        if lang != DEFAULT_LANGUAGE:
            _report("missing key (using es)", lang, repr(key))
    # The lookups go through gettext, so a missing entry or form falls back to Spanish.
    if isinstance(entry, str):
        return language.translations.gettext(key)
    n = params.get("n")
    if not isinstance(n, int):
        _report("plural text without a whole number n", lang, repr(key))
        n = 2
    return language.translations.ngettext(key, key, n)


def t(lang: str, key: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in; never raises.

    A plural entry takes the form the language's rule gives for ``params["n"]``. Falls back to
    the default language (es), then to the key itself; a placeholder without a value is left as
    ``{name}``; both are logged once.
    """
    template = _template(lang, key, params)
    if template is None:
        return key
    try:
        return template.format_map(_Params(lang, key, params))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError) as error:
        _report("bad template", lang, f"{key!r}: {error}")
        return template


def tn(lang: str, key: str, n: int, **params: Any) -> str:
    """The text ``key`` for ``n`` things: the plural form of ``n`` (which fills ``{n}``).

    >>> [tn("es", "piedras.tag.losses", n) for n in (0, 1, 2)]
    ['0 perdidos', '1 perdido', '2 perdidos']
    """
    return t(lang, key, n=n, **params)


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
