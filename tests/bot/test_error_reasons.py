"""Every refusal the engines or the bot can raise has a sentence in every language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.games.registry import GAMES
from bot.games.render import error_text
from engine.core import IllegalAction
from locales import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[2]


def raised_reasons(folder: str) -> dict[str, set[str]]:
    """reason code -> parameter names, from every ``IllegalAction("code", ...)`` in the sources."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "IllegalAction"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, set()).update(
                    k.arg for k in node.keywords if k.arg
                )
    return found


ENGINE = raised_reasons("engine")
BOT = raised_reasons("bot")
for _game in GAMES.values():  # refusals told with a name: the game declares their parameters
    for _named in _game.features.named_refusals:
        BOT.setdefault(_named.reason, set()).update({_named.param, "name"})


def test_the_scan_finds_the_contract_reasons() -> None:
    contract = {"not_your_turn", "game_over", "no_bet_to_answer", "cannot_raise_own_bet",
                "bet_too_small", "card_not_in_hand", "bad_discard", "not_in_lance",
                "wrong_phase", "unknown_action", "bad_amount", "bad_card"}  # fmt: skip
    assert contract <= set(ENGINE)
    assert {"no_table", "stale", "not_seated", "table_exists"} <= set(BOT)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("reason", sorted(set(ENGINE) | set(BOT)))
def test_every_reason_has_a_locale_string(lang: str, reason: str) -> None:
    """Each reason code maps to ``error.<reason>`` (a dotted reason is a game's own key,
    ``piedras.error.free``); it uses only parameters the code passes."""
    key = reason if "." in reason else f"error.{reason}"
    assert key in catalog(lang), key
    params = ENGINE.get(reason, set()) | BOT.get(reason, set())
    text = error_text(lang, IllegalAction(reason, **{p: "X" for p in params}))
    assert "{" not in text, text


def test_user_text_in_a_refusal_is_escaped() -> None:
    text = error_text("es", IllegalAction("unknown_action", text="<b>hola</b>"))
    assert "&lt;b&gt;hola&lt;/b&gt;" in text and "<b>" not in text


def test_every_mus_reason_is_localized() -> None:
    """M4: the Mus engine's own refusals (e.g. ``cannot_raise_ordago``) all have a sentence."""
    mus_reasons = raised_reasons("engine/mus")
    assert "cannot_raise_ordago" in mus_reasons
    for lang in LANGUAGES:
        assert {f"error.{r}" for r in mus_reasons} <= set(catalog(lang)), lang
