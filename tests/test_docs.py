"""The players' rules shipped in ``docs/``: every game has its page, links resolve, and the
pages agree with the bot's ``/reglas`` texts and the engines' defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine.mus as mus
import engine.piedras as piedras
from locales import t

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
PAGES = ["mus", "envite", "piedras", "senas"]


@pytest.mark.parametrize("page", PAGES)
def test_each_rules_page_exists_with_an_english_summary(page: str) -> None:
    text = (RULES / f"{page}.md").read_text(encoding="utf-8")
    assert text.startswith("# ") and "## English summary" in text


def test_relative_links_in_docs_resolve() -> None:
    for path in ROOT.joinpath("docs").rglob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)\)", path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (path.parent / target).resolve().exists(), (path, target)


def test_pages_agree_with_reglas_and_the_defaults() -> None:
    page = (RULES / "mus.md").read_text(encoding="utf-8")
    options = mus.Options()
    assert (
        f"`{options.target}` (por defecto)" in page
        and f"`{options.reyes}reyes` (por defecto)" in page
    )
    assert "(2 por defecto" in page and options.juegos == 2
    reglas = t("es", "rules.mus")
    for words in ("par 1, medias 2, duples 3", "Punto 1", "31 = 3"):
        assert words in reglas
    assert "par 1, medias 2, duples 3" in page and "31 vale 3" in page
    stones = piedras.Options().stones
    piedras_page = (RULES / "piedras.md").read_text(encoding="utf-8")
    assert f"empieza el juego con {stones} piedras" in piedras_page
    assert f"empieza con {stones} piedras" in t("es", "rules.piedras")
    for value in ("grande 1, chica 1", "medias 2, duples 3", "punto 1"):
        assert value in piedras_page and value in t("es", "rules.piedras")
