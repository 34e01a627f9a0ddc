"""The README and ``docs/`` agree with the code: every game has its players' page, links and
anchors resolve, the pages agree with the bot's ``/reglas`` texts and the engines' defaults, the
README's configuration table is the settings' with their defaults, and the commands the pages
name are the ones the bot accepts."""

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


PAGES_WITH_LINKS = [ROOT / "README.md", *sorted(ROOT.joinpath("docs").rglob("*.md"))]


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings ("## What survives a restart" ->
    ``what-survives-a-restart``).

    >>> sorted(anchors("# Tapete\\n## Metrics and health\\n```\\n# not a heading\\n```"))
    ['metrics-and-health', 'tapete']
    """
    text = re.sub(r"(?ms)^```.*?^```", "", text)
    found = set()
    for heading in re.findall(r"(?m)^#+ (.+)$", text):
        found.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("path", PAGES_WITH_LINKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    """Every relative link of the README and docs/ names a file that exists, and a link to a
    heading (``page.md#anchor``, ``#anchor``) names a heading of that page."""
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" in target or target.startswith("mailto:"):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), (path, target)
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), (path, target)


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


README = (ROOT / "README.md").read_text(encoding="utf-8")


def _shown_default(default: object) -> str:
    """A setting's default as the README's table writes it (``120.0`` -> ``120``, ``False`` ->
    ``0``)."""
    if isinstance(default, bool):
        return str(int(default))
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default)


def test_readme_configuration_lists_every_setting_with_its_default() -> None:
    from bot.settings import ENV_NAMES, Settings

    rows = {
        m.group(1): m.group(2) for m in re.finditer(r"(?m)^\| `([A-Z_]+)` \| ([^|]+) \|", README)
    }
    for name, field in Settings.model_fields.items():
        env = ENV_NAMES[name]
        assert env in rows, f"{env} is not in the README's configuration table"
        cell = rows[env]
        if field.is_required():
            assert "required" in cell, (env, cell)
        elif field.default is None:
            assert cell.startswith("unset"), (env, cell)
        else:
            assert cell.startswith(f"`{_shown_default(field.default)}`"), (env, cell)
    assert set(rows) <= set(ENV_NAMES.values()), set(rows) - set(ENV_NAMES.values())


BOTFATHER = {"newbot", "setinline", "setinlinefeedback", "setprivacy"}
"""@BotFather's commands the README's set-up names (not the bot's)."""
STATUS_PATHS = {"health", "metrics"}
"""The paths of ``TAPETE_METRICS_PORT`` (not commands)."""


def _accepted_commands() -> set[str]:
    from bot.app import COMMANDS
    from bot.games.registry import get_game

    accepted = {name for spanish, english, _ in COMMANDS for name in (spanish, english)}
    for game in ("mus", "envite", "piedras"):
        accepted |= set(get_game(game).commands)
    return accepted


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", *(RULES / f"{page}.md" for page in PAGES)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_pages_for_players_name_only_commands_the_bot_accepts(path: Path) -> None:
    named = set(re.findall(r"`/([a-z]+)\b", path.read_text(encoding="utf-8")))
    others = BOTFATHER | STATUS_PATHS
    assert named - others <= _accepted_commands(), sorted(named - others - _accepted_commands())


def test_readme_documents_every_command_the_bot_accepts() -> None:
    accepted = _accepted_commands()
    written = set(re.findall(r"(?<![\w/.])/([a-z]+)\b", README))
    assert accepted <= written, f"not in the README: {sorted(accepted - written)}"


REPO_PATH = re.compile(r"^(?:bot|engine|bench|tests|locales|docs)/[\w./-]*$")
"""A file or folder of this repository as the pages write it in code (``bot/store/lua/``)."""


@pytest.mark.parametrize("path", PAGES_WITH_LINKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_files_the_pages_name_exist(path: Path) -> None:
    """Every repository path the README and docs/ write in code (alone or in a command, such
    as ``python bench/engine.py``) exists: a page never sends a reader to a file that is gone."""
    for span in re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8")):
        for word in span.split():
            name = word.strip("[](),;:").split("::")[0]
            if REPO_PATH.match(name):
                assert (ROOT / name).exists(), (path, name)
