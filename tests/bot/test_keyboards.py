"""Keyboards: only legal actions, callback data within Telegram's 64 bytes, parse round-trip."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot import keyboards
from bot.keyboards import MAX_CALLBACK_BYTES, Callback, pack, parse_callback

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted, random_steps, seated_table


def _all_data(markup: object) -> list[str]:
    rows = markup.inline_keyboard  # type: ignore[attr-defined]
    return [b.callback_data for row in rows for b in row if b.callback_data is not None]


@given(seed=st.integers(0, 10**6))
def test_table_buttons_are_exactly_the_legal_actions_of_the_seats_to_act(seed: int) -> None:
    for table, _ in random_steps(seed, limit=80):
        if table.status != "playing":
            break
        table.chat_id = -1009999999999999  # the longest group ids
        table.turn += 10**6
        markup = keyboards.table_keyboard(table)
        data = _all_data(markup)
        assert all(len(d.encode()) <= MAX_CALLBACK_BYTES for d in data)
        state = table.engine_state()
        legal = {
            str(a)
            for seat in table.to_act()
            for a in table.adapter.legal_actions(state, seat)
            if not a.cards
        }
        shown = []
        for d in data:
            cb = parse_callback(d)
            assert cb is not None and cb.chat_id == table.chat_id and cb.tid == table.tid
            if cb.kind == "a":
                assert cb.token == table.turn
                shown.append(cb.args[0])
        assert set(shown) == legal
        assert len(shown) == len(set(shown))
        assert data[-1] == pack("h", table.chat_id, table.tid)  # "Mis cartas" always there


def test_no_action_buttons_while_discarding() -> None:
    table = seated_table()
    posted.start(table, 1, 0.0, 60)
    for _ in range(4):
        posted.play(table, table.to_act()[0], "mus", 0.0, 60)
    assert table.adapter.features.in_discard(table.engine_state())
    assert table.adapter.table_buttons(table) == []


def test_discard_keyboard_toggles_and_confirm() -> None:
    table = seated_table()
    posted.start(table, 1, 0.0, 60)
    markup = keyboards.discard_keyboard(table, ["12o", "3c", "1b", "7e"], ["3c"])
    data = _all_data(markup)
    assert parse_callback(data[0]) == Callback("t", table.chat_id, table.tid, 0, ("12o", "1"))
    assert parse_callback(data[1]) == Callback("t", table.chat_id, table.tid, 0, ("3c", "0"))
    assert parse_callback(data[-1]) == Callback("c", table.chat_id, table.tid, 0)
    rows = markup.inline_keyboard
    assert rows[1][0].text.startswith("✅") and rows[-1][0].text == "Descartar (1)"


def test_lobby_keyboard() -> None:
    table = seated_table()
    kinds = [parse_callback(d).kind for d in _all_data(keyboards.lobby_keyboard(table))]  # type: ignore[union-attr]
    # join, leave, pair 1, pair 2, add a computer, start, cancel
    assert kinds == ["j", "l", "e", "e", "b", "g", "x"]


def test_parse_callback_rejects_garbage() -> None:
    for bad in ["", "a", "z:1:x", "a:notanumber:x:1:paso", "a:-100:x:notaturn:paso", "ab:1:x"]:
        assert parse_callback(bad) is None


def test_pack_refuses_too_long_data() -> None:
    try:
        pack("a", -1009999999999999, "x" * 60)
    except ValueError:
        return
    raise AssertionError("65+ bytes accepted")
