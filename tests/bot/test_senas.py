"""Señas at the table (bot/senas.py, Table.signal): options, buttons, private notices, and
that a seña never reaches the group (rules/senas.md S1, S4)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import engine.mus as mus
from bot import keyboards
from bot.games import senas
from bot.games.base import OptionError
from bot.games.registry import GAMES, get_game
from bot.keyboards import parse_callback, table_keyboard
from bot.present import hand_markup
from bot.table import Table
from engine.core import IllegalAction
from engine.senas_play import sena
from locales import LANGUAGES, catalog, t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted, seated_table


def cut_table(options: dict[str, Any] | None = None, lang: str = "es") -> Table:
    table = seated_table(options, lang)
    posted.start(table, 7, 1000.0, 60)
    posted.play(table, table.to_act()[0], "corto", 1001.0, 60)
    return table


@pytest.mark.parametrize("game", ["mus", "envite"])
def test_options_at_nueva(game: str) -> None:
    adapter = get_game(game)
    opts = adapter.parse_options(["senasvistas", "pillar=0.3"])
    assert (opts["senasvistas"], opts["pillar"], opts["sinsenas"]) == (True, 0.3, False)
    assert adapter.parse_options(["sinsenas"])["sinsenas"] is True
    assert adapter.parse_options(["pillar=25%"])["pillar"] == 0.25
    for bad in ("pillar=2", "pillar=x", "pillar=-0.1"):
        with pytest.raises(OptionError):
            adapter.parse_options([bad])
    labels = adapter.option_labels(adapter.parse_options(["senasvistas"]))
    assert ("senas.opt.vistas", {"p": 15}) in labels
    assert ("senas.opt.off", {}) in adapter.option_labels(adapter.parse_options(["sinsenas"]))


def test_piedras_has_no_senas() -> None:
    assert not get_game("piedras").features.senas
    assert get_game("mus").features.senas and get_game("envite").features.senas
    for game in GAMES.values():  # declared as the engine is
        assert game.features.senas == hasattr(game.engine, "legal_senas"), game.name


def test_every_sena_name_has_a_label_in_every_language() -> None:
    from engine.envite.senas import ENVITE_SENAS
    from engine.mus.senas import MUS_SENAS

    for lang in LANGUAGES:
        for game, names in (("mus", MUS_SENAS), ("envite", ENVITE_SENAS)):
            for name in names:
                assert GAMES[game].texts.senas[name] in catalog(lang), (game, name)


def test_a_sena_is_a_private_notice_and_no_turn_passes() -> None:
    table = cut_table()
    turn, deadline, log = table.turn, table.deadline, list(table.log)
    outbox = len(table.shown.outbox)
    name = senas.offered(table, 1)[0].name or ""
    posted.play(table, 1, sena(name), 1002.0, 60)
    assert (table.turn, table.deadline, table.log) == (turn, deadline, log)
    new = table.shown.outbox[outbox:]
    assert [n.to for n in new] == [table.players[3].user_id]
    assert new[0].text == t(
        "es", "senas.notice", name="Bea &lt;b&gt;", sena=senas.label(table, name)
    )
    with pytest.raises(IllegalAction) as exc:
        posted.play(table, 1, sena(name), 1003.0, 60)
    assert exc.value.reason == "sena_already_sent"


def test_caught_senas_at_pillar_one() -> None:
    table = cut_table({"senasvistas": True, "pillar": 1.0}, lang="en")
    outbox = len(table.shown.outbox)
    name = senas.offered(table, 0)[0].name or ""
    posted.play(table, 0, sena(name), 1002.0, 60)
    new = table.shown.outbox[outbox:]
    users = [p.user_id for p in table.players]
    assert sorted(n.to or 0 for n in new) == sorted([users[2], users[1], users[3]])
    caught = [n.text for n in new if n.to in (users[1], users[3])]
    assert all(x.startswith("👀 You catch Ana signalling Cris &amp; Co") for x in caught)
    assert all(n.to is not None for n in new)


def test_hand_buttons_and_table_button() -> None:
    table = cut_table()
    markup = hand_markup(table, 1)
    assert markup is not None
    data = [b.callback_data for row in markup.inline_keyboard for b in row]
    signs = [d for d in data if isinstance(d, str) and d.startswith("s:")]
    assert signs and all(len(d.encode()) <= 64 for d in signs)
    cb = parse_callback(signs[0])
    assert cb is not None and (cb.kind, cb.token) == ("s", table.hand)
    labels = [b.text for row in table_keyboard(table).inline_keyboard for b in row]
    assert t("es", "senas.table_button") in labels
    # Nothing about any seat's señas on the table message.
    for seat in range(4):
        for a in senas.offered(table, seat):
            assert not any(senas.label(table, a.name or "") in x for x in labels)
    assert "seña" not in table.adapter.table_text(table).lower()


def test_s1_buttons_from_the_deal_but_the_table_offers_none_before_the_cut_nor_sinsenas() -> None:
    """The private hand carries its señas from the deal (no edit when the window opens at the
    cut); the table message's inline "Señas" and the inline results only once it is open."""
    table = seated_table()
    posted.start(table, 7, 1000.0, 60)
    state = table.engine_state()
    for seat in range(4):
        names = [
            b.callback_data.split(":", 4)[4]
            for row in keyboards.sena_rows(table, seat)
            for b in row
        ]
        assert names == [a.name for a in mus.coming_senas(state, seat)]
    assert any(keyboards.sena_rows(table, s) for s in range(4))
    assert keyboards.senas_row(table) == [] and senas.inline_choices(table, 0) == []
    table = cut_table({"sinsenas": True})
    assert all(keyboards.sena_rows(table, s) == [] for s in range(4))
    assert keyboards.senas_row(table) == []


def test_inline_choices_post_nothing_revealing() -> None:
    table = cut_table()
    choices = senas.inline_choices(table, 2)
    assert choices and all(c.text == "🤫" for c in choices)
    assert [c.action for c in choices] == [str(a) for a in mus.legal_senas(table.engine_state(), 2)]


def test_envite_sena_reaches_the_whole_team_mandador_included() -> None:
    table = Table(chat_id=-1001234567890, creator=11, tid="e1", game="envite")
    for i in range(6):
        table.join(11 + i, f"P{i}")
    posted.start(table, 5, 1000.0, 60)
    outbox = len(table.shown.outbox)
    sender = next(s for s in range(6) if s not in table.to_act())
    posted.play(table, sender, "seña envido", 1001.0, 60)
    team = [p.user_id for i, p in enumerate(table.players) if i % 2 == sender % 2 and i != sender]
    assert sorted(n.to or 0 for n in table.shown.outbox[outbox:]) == sorted(team)
    assert table.shown.outbox[outbox].text.endswith("<b>envido</b> 😬")
