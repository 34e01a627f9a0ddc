"""The catalogs: same keys and placeholders in every language, valid templates, safe fallbacks."""

from __future__ import annotations

import json
import logging
import string
from html.parser import HTMLParser
from importlib import resources
from typing import Any

import pytest

import locales
from locales import DEFAULT_LANGUAGE, LANGUAGES, catalog, escape, placeholders, t

# Tags Telegram accepts with parse_mode=HTML.
TELEGRAM_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "span", "blockquote", "tg-emoji",
}  # fmt: skip


def raw_pairs(lang: str) -> list[tuple[str, Any]]:
    """Every (key, text) of a language's catalog files, duplicates included."""
    pairs: list[tuple[str, Any]] = []

    def keep(items: list[tuple[str, Any]]) -> dict[str, Any]:
        pairs.extend(items)
        return dict(items)

    for name in locales.catalog_files(lang):
        path = resources.files("locales").joinpath(name)
        json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=keep)
    return pairs


def all_keys() -> list[str]:
    return sorted({key for lang in LANGUAGES for key in catalog(lang)})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_a_flat_object_of_strings_without_duplicate_keys(lang: str) -> None:
    pairs = raw_pairs(lang)
    keys = [k for k, _ in pairs]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    assert duplicates == []
    assert all(isinstance(v, str) and v.strip() for _, v in pairs), "empty or non-string text"
    assert all(k and k == k.strip() for k in keys)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang: str) -> None:
    assert sorted(set(all_keys()) - set(catalog(lang))) == []


def test_placeholders_match_across_languages() -> None:
    mismatched = {}
    for key in all_keys():
        found = {
            lang: placeholders(catalog(lang)[key]) for lang in LANGUAGES if key in catalog(lang)
        }
        if len(set(found.values())) > 1:
            mismatched[key] = {lang: sorted(names) for lang, names in found.items()}
    assert mismatched == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_templates_are_valid_format_strings_with_named_fields(lang: str) -> None:
    bad = {}
    for key, template in catalog(lang).items():
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
    for key, template in catalog(lang).items():
        checker = _TagChecker()
        checker.feed(template.replace("{", "").replace("}", ""))
        checker.close()
        if checker.stack:
            checker.problems.append(f"unclosed {checker.stack}")
        if checker.problems:
            problems[key] = checker.problems
    assert problems == {}


# --- t(): lookups and fallbacks (on a small catalog of our own) ------------------------------


@pytest.fixture
def fake_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogs = {
        "es": {"hello": "Hola, {name}", "only_es": "solo {n}", "bad": "{0} {"},
        "en": {"hello": "Hello, {name}"},
    }
    monkeypatch.setattr(locales, "_catalogs", lambda: catalogs)
    monkeypatch.setattr(locales, "_reported", set())


@pytest.mark.usefixtures("fake_catalogs")
def test_t_fills_placeholders() -> None:
    assert t("es", "hello", name="Ana") == "Hola, Ana"
    assert t("en", "hello", name="Ana", unused=1) == "Hello, Ana"


@pytest.mark.usefixtures("fake_catalogs")
def test_t_falls_back_to_spanish_then_to_the_key(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("en", "only_es", n=3) == "solo 3"
        assert t("fr", "hello", name="Ana") == "Hola, Ana"
        assert t("en", "nothing.here") == "nothing.here"
    assert "nothing.here" in caplog.text


@pytest.mark.usefixtures("fake_catalogs")
def test_t_never_raises_for_missing_or_bad_placeholders(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="locales"):
        assert t("es", "hello") == "Hola, {name}"
        assert t("es", "bad") == "{0} {"
    assert "{name}" in caplog.text
    assert "bad template" in caplog.text


def test_real_catalogs_render_every_key_with_its_placeholders() -> None:
    for lang in LANGUAGES:
        for key, template in catalog(lang).items():
            params = {name: f"<{name}>" for name in placeholders(template)}
            text = t(lang, key, **params)
            assert all(f"<{name}>" in text for name in params), (lang, key)


def test_escape_and_languages() -> None:
    assert escape('<b>"Pepe" & co</b>') == '&lt;b&gt;"Pepe" &amp; co&lt;/b&gt;'
    assert escape(12) == "12"
    assert DEFAULT_LANGUAGE == "es" and LANGUAGES == ("es", "en")
    assert catalog("xx") is catalog("es")


def test_docstring_examples() -> None:
    import doctest

    assert doctest.testmod(locales).failed == 0
