"""The catalogs (gettext, ``locales/<lang>/LC_MESSAGES/<domain>.po``): well-formed files, the same
keys, placeholders and plural entries in every language, the plural rules of es and en, the
compiled ``.mo`` files in step with the ``.po``, and the loader's forms and fallbacks."""

from __future__ import annotations

import io
import logging
import os
import re
import string
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import locales
from locales import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALEDIR,
    Text,
    catalog,
    domains,
    escape,
    placeholders,
    t,
    tn,
)

# Tags Telegram accepts with parse_mode=HTML.
TELEGRAM_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "span", "blockquote", "tg-emoji",
}  # fmt: skip
GERMANIC = "nplurals=2; plural=(n != 1);"
"""The Plural-Forms of Spanish and English (GNU gettext's table): one thing, or any other number."""


def po_path(lang: str, domain: str, root: Path = LOCALEDIR) -> Path:
    return root / lang / "LC_MESSAGES" / f"{domain}.po"


def po_files(lang: str) -> list[Path]:
    return [po_path(lang, d) for d in domains(lang)]


def read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, abort_invalid=True)


def entries(lang: str) -> Iterator[tuple[str, str, Text]]:
    """(domain, key, text or forms) of every entry of a language's .po files."""
    for path in po_files(lang):
        for message in read(path):
            if message.id:
                key = message.id if isinstance(message.id, str) else message.id[0]
                yield path.stem, key, message.string


def forms(entry: Text) -> tuple[str, ...]:
    return (entry,) if isinstance(entry, str) else entry


def plural_rule(lang: str) -> locales.Translations:
    """The main domain of a language compiled (from its .po), for its plural rule."""
    out = io.BytesIO()
    write_mo(out, read(po_path(lang, locales.MAIN_DOMAIN)))
    return locales.Translations(io.BytesIO(out.getvalue()))


def all_keys() -> list[str]:
    return sorted({key for lang in LANGUAGES for key in catalog(lang)})


# --- the .po files -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_po_files_are_clean_key_based_brace_format_catalogs(lang: str) -> None:
    """No duplicate, fuzzy (pybabel would leave it out) or obsolete entry, no empty text, and
    every entry marked python-brace-format (``{`` is special to str.format)."""
    problems = []
    for path in po_files(lang):
        text = path.read_text(encoding="utf-8")
        if "\n#~" in text:
            problems.append(f"{path.name}: obsolete entries")
        blocks = [b for b in text.split("\n\n") if re.search(r'^msgid "[^"]', b, re.M)]
        keys = [re.search(r'^msgid "(.*)"$', b, re.M).group(1) for b in blocks]  # type: ignore[union-attr]
        problems += [
            f"{path.name}: {k} twice" for k in sorted({k for k in keys if keys.count(k) > 1})
        ]
        problems += [
            f"{path.name}: {k} not python-brace-format"
            for k, b in zip(keys, blocks, strict=True)
            if not re.search(r"^#, (.*, )?python-brace-format\b", b, re.M)
        ]
        problems += [
            f"{path.name}: {k} fuzzy" for k, b in zip(keys, blocks, strict=True) if "fuzzy" in b
        ]
        for message in read(path):
            key = message.id if isinstance(message.id, str) else message.id[0]
            if message.id and not all(f.strip() for f in forms(message.string)):
                problems.append(f"{path.name}: {key} has an empty text")
            if message.id and (key != key.strip() or " " in key):
                problems.append(f"{path.name}: bad key {key!r}")
            if not isinstance(message.id, str) and message.id[1] != key:
                problems.append(f"{path.name}: {key}'s msgid_plural is not the key")
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_headers_name_the_language_and_one_plural_rule(lang: str) -> None:
    rules = set()
    for path in po_files(lang):
        parsed = read(path)
        assert str(parsed.locale) == lang, path
        rules.add((parsed.num_plurals, parsed.plural_expr))
    assert len(rules) == 1, rules


@pytest.mark.parametrize("lang", ["es", "en"])
def test_spanish_and_english_plural_forms(lang: str) -> None:
    """GNU gettext's rule for both: one form for 1, the other for any other number (0 too)."""
    for path in po_files(lang):
        assert f'"Plural-Forms: {GERMANIC}\\n"' in path.read_text(encoding="utf-8"), path
    rule = plural_rule(lang)
    assert [rule.ngettext("one", "other", n) for n in (0, 1, 2, 21, 1000000)] == [
        "other", "one", "other", "other", "other",
    ]  # fmt: skip


def test_every_language_has_the_same_domains_and_each_key_in_the_same_one() -> None:
    where = {lang: {key: domain for domain, key, _ in entries(lang)} for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert domains(lang) == domains(DEFAULT_LANGUAGE), lang
        assert where[lang] == where[DEFAULT_LANGUAGE], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang: str) -> None:
    assert sorted(set(all_keys()) - set(catalog(lang))) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_as_many_forms_as_the_header_says(lang: str) -> None:
    """Every plural entry of every .po has ``nplurals`` forms, and so has the loaded catalog."""
    for path in po_files(lang):
        parsed = read(path)
        for message in parsed:
            if message.id and not isinstance(message.id, str):
                assert len(message.string) == parsed.num_plurals, (path.name, message.id[0])
    plural = {k: v for k, v in catalog(lang).items() if not isinstance(v, str)}
    nplurals = read(po_path(lang, locales.MAIN_DOMAIN)).num_plurals
    assert plural and all(len(v) == nplurals for v in plural.values())


def test_the_same_entries_are_plural_in_every_language() -> None:
    kind = {lang: {k: isinstance(v, str) for k, v in catalog(lang).items()} for lang in LANGUAGES}
    assert all(kind[lang] == kind[DEFAULT_LANGUAGE] for lang in LANGUAGES)


def single_numbers(lang: str) -> dict[int, bool]:
    """For each plural form of a language, whether its rule uses it for one number only."""
    rule = plural_rule(lang)
    used: dict[int, set[int]] = {}
    for n in range(1001):
        used.setdefault(rule.plural(n), set()).add(n)
    return {form: len(numbers) == 1 for form, numbers in used.items()}


def test_placeholders_match_across_languages_and_plural_forms() -> None:
    """The same placeholders in every language and in every plural form; only a form that the
    language's rule uses for a single number ("one chico") may leave the count ``{n}`` out, and
    a form for several numbers must show it whenever the entry does."""
    single = {lang: single_numbers(lang) for lang in LANGUAGES}
    mismatched = {}
    for key in all_keys():
        found = {lang: forms(catalog(lang)[key]) for lang in LANGUAGES if key in catalog(lang)}
        names = {lang: [placeholders(form) for form in texts] for lang, texts in found.items()}
        every = set().union(*(s for sets in names.values() for s in sets))
        for lang, sets in names.items():
            plural = not isinstance(catalog(lang)[key], str)
            for i, got in enumerate(sets):
                may_drop = {"n"} if plural and ("n" not in every or single[lang].get(i)) else set()
                if not (every - may_drop <= got <= every):
                    mismatched[(lang, key, i)] = sorted(got ^ every)
    assert mismatched == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_templates_are_valid_format_strings_with_named_fields(lang: str) -> None:
    bad = {}
    for key, entry in catalog(lang).items():
        for template in forms(entry):
            try:
                fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
            except ValueError as error:
                bad[key] = str(error)
                continue
            if not all(f.isidentifier() for f in fields):
                bad[key] = f"fields must be plain names: {fields}"
                continue
            try:
                template.format(**{f: "x" for f in fields})
            except (ValueError, IndexError, KeyError) as error:
                bad[key] = str(error)
    assert bad == {}


class _TagChecker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TELEGRAM_TAGS:
            self.problems.append(f"<{tag}> is not a Telegram tag")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"</{tag}> does not close the last open tag")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_html_tags_are_telegram_tags_and_balanced(lang: str) -> None:
    problems = {}
    for key, entry in catalog(lang).items():
        for template in forms(entry):
            checker = _TagChecker()
            checker.feed(template.replace("{", "").replace("}", ""))
            checker.close()
            if checker.stack:
                checker.problems.append(f"unclosed {checker.stack}")
            if checker.problems:
                problems[key] = checker.problems
    assert problems == {}


@pytest.mark.parametrize("path", [p for lang in LANGUAGES for p in po_files(lang)], ids=str)
def test_compiled_mo_files_are_up_to_date(path: Path) -> None:
    """What ``make locales`` compiled (and a build ships) says what the .po says. Without a .mo
    (a checkout nobody compiled) the loader compiles in memory: see the loader tests below."""
    mo = path.with_suffix(".mo")
    if not mo.exists():
        pytest.skip(f"{mo} not compiled (make locales)")
    fresh = io.BytesIO()
    write_mo(fresh, read(path))
    with mo.open("rb") as compiled:
        shipped = locales.Translations(compiled).texts()
    assert shipped == locales.Translations(io.BytesIO(fresh.getvalue())).texts(), (
        f"{mo} is stale: make locales"
    )
    assert mo.stat().st_mtime >= path.stat().st_mtime, f"{mo} is older than its .po: make locales"


# --- t() and tn() on the real catalogs --------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "key", "texts"),
    [
        ("es", "score.amarracos", ["0 amarracos", "1 amarraco", "2 amarracos"]),
        ("en", "score.amarracos", ["0 amarracos", "1 amarraco", "2 amarracos"]),
        ("es", "mus.opt.juegos", ["0 juegos la vaca", "1 juego la vaca", "2 juegos la vaca"]),
        ("en", "mus.opt.juegos", ["0 juegos per vaca", "1 juego per vaca", "2 juegos per vaca"]),
        ("en", "envite.opt.chicos", ["0 chicos to win", "one chico", "2 chicos to win"]),
        ("es", "phone.clock", ["⏱ quedan 0 min", "⏱ queda 1 min", "⏱ quedan 2 min"]),
        ("en", "piedras.opt.stones", ["0 stones", "1 stone", "2 stones"]),
    ],
)
def test_tn_picks_the_form_for_0_1_and_2(lang: str, key: str, texts: list[str]) -> None:
    assert [tn(lang, key, n) for n in (0, 1, 2)] == texts
    assert [t(lang, key, n=n) for n in (0, 1, 2)] == texts  # a (key, {"n": ...}) label too


def test_hand_made_plural_keys_are_gone() -> None:
    """Issue 10: the pairs of keys picked by hand (``x_one``/``x``) became plural entries."""
    for lang in LANGUAGES:
        keys = set(catalog(lang))
        assert not {k for k in keys if k.endswith(("_one", ".one", ".many", "_n"))} - {
            "action.envido_n",  # "Envido 5" against "Envido": a number said or not, no plural
            "said.envido_n",
            "reasons.part_n",  # "{part} {n}": the points beside each part, no plural
        }, lang
        assert "score.amarraco" not in keys


def test_real_catalogs_render_every_key_and_form_with_its_placeholders() -> None:
    for lang in LANGUAGES:
        rule = plural_rule(lang)
        number = {rule.plural(n): n for n in range(1000, -1, -1)}  # the smallest n of each form
        for key, entry in catalog(lang).items():
            for i, template in enumerate(forms(entry)):
                params: dict[str, object] = {name: f"<{name}>" for name in placeholders(template)}
                if not isinstance(entry, str):
                    params["n"] = number[i]
                text = t(lang, key, **params)
                assert all(f"<{name}>" in text for name in placeholders(template) - {"n"})
                assert text == template.format(**params), (lang, key, i)


def test_escape_and_languages() -> None:
    assert escape('<b>"Pepe" & co</b>') == '&lt;b&gt;"Pepe" &amp; co&lt;/b&gt;'
    assert escape(12) == "12"
    assert DEFAULT_LANGUAGE == "es" and LANGUAGES == ("es", "en")
    assert catalog("xx") is catalog("es")


def test_docstring_examples() -> None:
    import doctest

    assert doctest.testmod(locales).failed == 0


# --- the loader, on catalogs of our own ------------------------------------------------------


HEADER = (
    'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Plural-Forms: {plural}\\n"\n'
)


def write_po(root: Path, lang: str, domain: str, body: str, plural: str = GERMANIC) -> Path:
    path = po_path(lang, domain, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER.format(lang=lang, plural=plural) + body, encoding="utf-8")
    return path


def compile_mo(po: Path) -> Path:
    mo = po.with_suffix(".mo")
    with mo.open("wb") as out:
        write_mo(out, read(po))
    return mo


def entry(key: str, text: str) -> str:
    return f'\n#, python-brace-format\nmsgid "{key}"\nmsgstr "{text}"\n'


def plural(key: str, *texts: str) -> str:
    lines = "".join(f'msgstr[{i}] "{x}"\n' for i, x in enumerate(texts))
    return f'\n#, python-brace-format\nmsgid "{key}"\nmsgid_plural "{key}"\n{lines}'


@pytest.fixture
def own_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Loads the catalogs from ``tmp_path`` (each test writes them first)."""
    monkeypatch.setattr(locales, "LOCALEDIR", tmp_path)
    monkeypatch.setattr(locales, "_reported", set())
    locales._catalogs.cache_clear()
    yield tmp_path
    locales._catalogs.cache_clear()


@pytest.fixture
def small(own_catalogs: Path) -> Path:
    es = entry("hello", "Hola, {name}") + entry("only_es", "solo {n}") + entry("bad", "{0} {")
    es += plural("stones", "{n} piedra", "{n} piedras") + plural("only_es_n", "una", "{n}")
    write_po(own_catalogs, "es", "tapete", es)
    write_po(own_catalogs, "es", "game", entry("game.name", "Juego"))
    en = entry("hello", "Hello, {name}") + plural("stones", "one stone", "{n} stones")
    write_po(own_catalogs, "en", "tapete", en)
    for path in own_catalogs.rglob("*.po"):
        compile_mo(path)
    return own_catalogs


@pytest.mark.usefixtures("small")
def test_t_fills_placeholders_and_tn_picks_the_form() -> None:
    assert t("es", "hello", name="Ana") == "Hola, Ana"
    assert t("en", "hello", name="Ana", unused=1) == "Hello, Ana"
    assert t("es", "game.name") == "Juego"  # a second domain
    assert [tn("es", "stones", n) for n in (0, 1, 2)] == ["0 piedras", "1 piedra", "2 piedras"]
    assert [tn("en", "stones", n) for n in (0, 1, 2)] == ["0 stones", "one stone", "2 stones"]


@pytest.mark.usefixtures("small")
def test_t_falls_back_to_spanish_then_to_the_key(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("en", "only_es", n=3) == "solo 3"
        assert [tn("en", "only_es_n", n) for n in (1, 4)] == ["una", "4"]
        assert t("fr", "hello", name="Ana") == "Hola, Ana"
        assert t("en", "nothing.here") == "nothing.here"
    assert "nothing.here" in caplog.text and "missing key (using es)" in caplog.text


@pytest.mark.usefixtures("small")
def test_t_never_raises_for_missing_or_bad_placeholders(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("es", "hello") == "Hola, {name}"
        assert t("es", "bad") == "{0} {"
        assert t("es", "stones") == "{n} piedras"  # a plural text without its number
    assert "{name}" in caplog.text
    assert "bad template" in caplog.text
    assert "without a whole number n" in caplog.text


def test_the_loader_reads_the_mo_and_compiles_a_newer_po_in_memory(
    own_catalogs: Path, caplog: pytest.LogCaptureFixture
) -> None:
    po = write_po(own_catalogs, "es", "tapete", entry("hello", "compiled"))
    mo = compile_mo(po)
    write_po(own_catalogs, "es", "tapete", entry("hello", "edited"))
    os.utime(po, (1_000_000, 1_000_000))  # the .po older than its .mo: the .mo is read
    assert t("es", "hello") == "compiled"
    locales._catalogs.cache_clear()
    os.utime(po, (mo.stat().st_mtime + 10, mo.stat().st_mtime + 10))  # edited after compiling
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("es", "hello") == "edited"
    assert "tapete.po compiled in memory" in caplog.text
    locales._catalogs.cache_clear()
    mo.unlink()  # never compiled: the same
    assert t("es", "hello") == "edited"


def test_an_installed_package_has_only_the_mo_files(own_catalogs: Path) -> None:
    po = write_po(own_catalogs, "es", "tapete", plural("stones", "{n} piedra", "{n} piedras"))
    compile_mo(po)
    po.unlink()
    assert domains("es") == ["tapete"]
    assert tn("es", "stones", 1) == "1 piedra"


def test_a_key_may_be_defined_in_one_domain_only(own_catalogs: Path) -> None:
    write_po(own_catalogs, "es", "tapete", entry("hello", "Hola"))
    write_po(own_catalogs, "es", "game", entry("hello", "Hola otra vez"))
    with pytest.raises(ValueError, match="defines keys defined elsewhere"):
        catalog("es")


def test_the_domains_of_a_language_share_its_plural_rule(own_catalogs: Path) -> None:
    write_po(own_catalogs, "es", "tapete", entry("hello", "Hola"))
    write_po(own_catalogs, "es", "game", entry("bye", "Adiós"), plural="nplurals=1; plural=0;")
    with pytest.raises(ValueError, match="Plural-Forms"):
        catalog("es")


def test_a_language_without_catalogs_answers_keys(
    own_catalogs: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("en", "hello") == "hello"
        assert catalog("en") == {}
    assert "no catalog" in caplog.text
