"""End to end: every bet button of the table message does what its label says (issue 10, item 4).

Each button is pressed by the player to act, like a phone would, and the stored engine state is
checked: ``Envido N`` opens a bet of N, ``N más`` raises the bet by N.
"""

from __future__ import annotations

from typing import Any

import pytest
from driver import open_table
from fake_telegram import FakeTelegram

import engine.mus as mus
from engine.core import Action

pytestmark = pytest.mark.e2e


async def press(table: Any, label: str) -> Any:
    """The player to act presses the current button labelled ``label``; the new state."""
    state = await table.state()
    doc = await table.doc()
    msg = table.table_message(doc)
    labels = [b["text"] for b in msg.buttons()]
    assert label in labels, (label, labels)
    seat = state.to_act[0]
    table.seat_user(doc, seat).press(msg, label)
    await table.wait_turn_after(doc.get("turn", 0))
    await table.assert_messages_current()
    return await table.state()


def keyboard(msg: Any) -> list[list[str]]:
    """The labels of a message's inline keyboard, row by row."""
    return [[b["text"] for b in row] for row in (msg.reply_markup or {})["inline_keyboard"]]


async def test_every_raise_button_does_what_its_label_says(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, _group = await open_table(tg, redis)
    state = await table.state()
    await table.act(state.to_act[0], Action("corto"), "button")
    await tg.settle()
    state = await table.state()
    assert state.phase == "lance" and state.lance == "grande"

    # To open: the words, then the amounts on a row of their own (at most five to a row).
    msg = table.table_message(await table.doc())
    rows = keyboard(msg)
    assert ["Paso", "Envido 2", "¡Órdago!"] in rows, rows
    assert ["Envido 3", "Envido 4", "Envido 5", "Envido 10"] in rows, rows
    assert all(len(row) <= 5 for row in rows)

    state = await press(table, "Envido 3")
    assert state.bet == 3 and state.bet_pair == 0

    # Facing the bet: every raise button adds what it says.
    msg = table.table_message(await table.doc())
    rows = keyboard(msg)
    assert ["Quiero", "No quiero", "¡Órdago!"] in rows, rows
    assert ["2 más", "3 más", "4 más", "5 más", "10 más"] in rows, rows
    assert not any("Envido" in label for row in rows for label in row)
    bet = 3
    for n in (2, 3, 4, 5, 10):
        before = state.bet_pair
        state = await press(table, f"{n} más")
        bet += n
        assert state.bet == bet, (n, state.bet)
        assert state.bet_pair == 1 - before and not state.ordago
        assert state.history[-1][2] in (f"envido {n}", "envido"), state.history[-1]
    state = await press(table, "Quiero")
    assert state.lance == "chica" and state.results[0].bet == bet
    assert mus.legal_actions(state, state.to_act[0])[0].kind == "paso"
