"""What a Mini App page may see (bot.miniapp.views): over random games of each game, a seat's
view names its own held cards and no other seat's; the public view names no held card at all
(rules/senas.md S1 and each game's rules: a hand is seen by its holder alone). And the page
weighs less than 200 KB compressed."""

from __future__ import annotations

import doctest
import gzip
import json
import random
import sys
from importlib import resources
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted

import bot.miniapp.views
from bot.games.render import card_name
from bot.miniapp.views import plain, view_of
from bot.table import Table

SEATS = {"mus": 4, "envite": 4, "piedras": 3}


def _held(table: Table) -> list[list[str]]:
    state = table.engine_state()
    seats = range(SEATS[table.game])
    return [[str(c) for c in table.adapter.view(state, s)["cards"] or []] for s in seats]


def _shown(view: dict[str, object]) -> str:
    """A view as the page gets it, less the group's own table message (public by definition:
    the group reads it; it names the envite's malilla, "dos de oros", as a rule)."""
    return json.dumps({k: v for k, v in view.items() if k != "text"}, ensure_ascii=False)


def _names(table: Table, cards: list[str]) -> list[str]:
    return [f'"{c}"' for c in cards] + [card_name(table.lang, c) for c in cards]


@pytest.mark.parametrize("game", list(SEATS))
@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_page_sees_a_card_it_may_not(game: str, lang: str) -> None:
    rnd = random.Random(f"{game}{lang}")
    checked = 0
    for seed in range(1, 20):  # random games (an órdago may end one soon) until 200 views
        table = Table(chat_id=-100123, creator=11, tid="t1", title="Mesa", game=game, lang=lang)
        for i in range(SEATS[game]):
            table.join(11 + i, f"P{i}")
        posted.start(table, seed, 1000.0, 60)
        for _ in range(150):
            if table.status != "playing":
                break
            held = _held(table)
            public = _shown(view_of(table, None, 1))
            assert view_of(table, None, 1)["text"] == plain(table.adapter.table_text(table))
            assert not [c for cards in held for c in _names(table, cards) if c in public]
            for seat in range(SEATS[game]):
                view = view_of(table, seat, 1)
                assert sorted(c["card"] for c in view["cards"]) == sorted(held[seat])
                others = [c for s, cards in enumerate(held) if s != seat for c in cards]
                assert not [c for c in _names(table, others) if c in _shown(view)]
                checked += 1
            state = table.engine_state()
            seat = rnd.choice(table.to_act())
            action = rnd.choice(table.adapter.legal_actions(state, seat))
            posted.play(table, seat, str(action), 1000.0, 60)
        if checked >= 200:
            return
    raise AssertionError(f"only {checked} views checked")


def test_a_seats_moves_are_the_table_messages_buttons_it_may_press() -> None:
    table = Table(chat_id=-100123, creator=11, tid="t1", title="Mesa", game="mus")
    for i in range(4):
        table.join(11 + i, f"P{i}")
    posted.start(table, 3, 1000.0, 60)
    state = table.engine_state()
    seat = table.to_act()[0]
    legal = {str(a) for a in table.adapter.legal_actions(state, seat)}
    buttons = {b.label: b.action for row in table.adapter.table_buttons(table) for b in row}
    offered = {b["label"]: b["action"] for row in view_of(table, seat, 1)["actions"] for b in row}
    assert offered and set(offered.values()) == legal & set(buttons.values())
    assert all(buttons[label] == action for label, action in offered.items())
    waiting = (seat + 1) % 4
    assert view_of(table, waiting, 1)["actions"] == [], "not his turn: nothing to press"


def test_the_page_weighs_less_than_200_kb_compressed() -> None:
    files = ("index.html", "app.js", "app.css", "cards.js")
    size = sum(
        len(gzip.compress(resources.files("bot.miniapp").joinpath("static", f).read_bytes()))
        for f in files
    )
    assert size <= 200 * 1024, size


def test_doctests() -> None:
    assert doctest.testmod(bot.miniapp.views).failed == 0
