"""End to end: bad input gets a clear reply in the chat's language and changes nothing.

Every case reads the stored table (version and document, as bytes) before and after and asserts
they are identical, and checks the exact reply (from the locale catalog).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, MusTable, open_table, play_hand, read_raw, t
from fake_telegram import Chat, FakeTelegram, User

import engine.mus as mus

pytestmark = pytest.mark.e2e


async def command_reply(tg: FakeTelegram, user: User, chat: Chat, text: str) -> str:
    """Send a command and return the text of the bot's reply in that chat (exactly one)."""
    before = len(chat.bot_messages())
    user.send(chat, text)
    await tg.settle()
    new = chat.bot_messages()[before:]
    assert len(new) == 1, f"{text!r}: expected one reply, got {[m.text for m in new]}"
    return new[0].text


async def unchanged(table: MusTable, before: tuple[Any, Any]) -> None:
    after = await read_raw(table.redis, table.group.id)
    assert after == before, "the stored table changed"


async def to_grande(table: MusTable) -> Any:
    """Mano cuts the mus: the hand goes to the grande lance (mano to speak)."""
    state = await table.state()
    doc = await table.doc()
    mano = state.to_act[0]
    table.seat_user(doc, mano).send(table.group, "/corto")
    await table.wait_turn_after(doc.get("turn", 0))
    state = await table.state()
    assert state.phase == "lance" and state.lance == "grande"
    return state


@pytest.fixture
async def playing(tg: FakeTelegram, apps: Any, redis_factory: Any) -> MusTable:
    redis = redis_factory.client()
    await apps.start()
    table, _users, _group = await open_table(tg, redis)
    return table


async def test_action_out_of_turn(tg: FakeTelegram, playing: MusTable) -> None:
    table = playing
    state = await table.state()
    doc = await table.doc()
    waiting = next(s for s in range(4) if s not in state.to_act)
    before = await read_raw(table.redis, table.group.id)
    reply = await command_reply(tg, table.seat_user(doc, waiting), table.group, "/mus")
    assert reply == t(LANG, "error.not_your_turn")
    await unchanged(table, before)


async def test_non_player_action_and_join_after_start(tg: FakeTelegram, playing: MusTable) -> None:
    table = playing
    outsider = tg.user("Eva", "eva")
    outsider.start_private()
    await tg.settle()
    before = await read_raw(table.redis, table.group.id)
    assert await command_reply(tg, outsider, table.group, "/mus") == t(LANG, "error.not_seated")
    assert await command_reply(tg, outsider, table.group, "/paso") == t(LANG, "error.not_seated")
    assert await command_reply(tg, outsider, table.group, "/unirme") == t(
        LANG, "error.already_started"
    )
    await unchanged(table, before)


@pytest.mark.parametrize(
    ("text", "amount"),
    [("/envido -3", "-3"), ("/envido abc", "abc"), ("/envido 99999999999", "99999999999")],
)
async def test_malformed_amounts(
    tg: FakeTelegram, playing: MusTable, text: str, amount: str
) -> None:
    table = playing
    state = await to_grande(table)
    doc = await table.doc()
    speaker = table.seat_user(doc, state.to_act[0])
    before = await read_raw(table.redis, table.group.id)
    reply = await command_reply(tg, speaker, table.group, text)
    assert reply == t(LANG, "error.bad_amount", text=amount)
    await unchanged(table, before)
    # The same command with a good amount is then accepted.
    speaker.send(table.group, "/envido 5")
    await table.wait_turn_after(doc.get("turn", 0))


async def test_commands_with_no_table(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    await apps.start()
    ana = tg.user("Ana")
    ana.start_private()
    group = tg.group("Vacío", members=[ana])
    no_table = t(LANG, "error.no_table")
    for command in ("/paso", "/envido 5", "/mesa", "/unirme", "/empezar", "/cancelar"):
        assert await command_reply(tg, ana, group, command) == no_table, command
    assert await read_raw(redis_factory.client(), group.id) == (None, None)


async def test_second_nueva_is_refused(tg: FakeTelegram, playing: MusTable) -> None:
    table = playing
    doc = await table.doc()
    before = await read_raw(table.redis, table.group.id)
    reply = await command_reply(tg, table.seat_user(doc, 1), table.group, "/nueva mus")
    assert reply == t(LANG, "error.table_exists")
    await unchanged(table, before)


async def test_button_of_another_players_turn_is_a_private_alert(
    tg: FakeTelegram, playing: MusTable
) -> None:
    table = playing
    state = await table.state()
    doc = await table.doc()
    waiting = next(s for s in range(4) if s not in state.to_act)
    msg, data = await tg.wait_for(
        lambda: table.button_for(doc, mus.legal_actions(state, state.to_act[0])[0]),
        what="a table button",
    )
    groups_before = len(table.group.bot_messages())
    edits_before = sum(len(m.history) for m in table.group.bot_messages())
    before = await read_raw(table.redis, table.group.id)
    query = table.seat_user(doc, waiting).press(msg, data)
    answer = await tg.wait_answer(query)
    assert answer["show_alert"] is True
    assert answer["text"] == t(LANG, "error.not_your_turn")
    await tg.settle()
    assert len(table.group.bot_messages()) == groups_before, "a group message was sent"
    assert sum(len(m.history) for m in table.group.bot_messages()) == edits_before
    await unchanged(table, before)


async def test_second_press_of_the_same_button(tg: FakeTelegram, playing: MusTable) -> None:
    table = playing
    state = await table.state()
    doc = await table.doc()
    seat = state.to_act[0]
    action = next(a for a in mus.legal_actions(state, seat) if a.kind == "mus")
    msg, data = await tg.wait_for(lambda: table.button_for(doc, action), what="the Mus button")
    user = table.seat_user(doc, seat)
    first = user.press(msg, data)
    second = user.press(msg, data)  # an impatient double tap: both queued at once
    answers = [await tg.wait_answer(first), await tg.wait_answer(second)]
    await tg.settle()
    after = await table.doc()
    assert after["turn"] == doc.get("turn", 0) + 1, "the action was applied twice (or not)"
    assert answers[0]["text"] is None
    assert answers[1]["text"] == t(LANG, "error.stale") and answers[1]["show_alert"]
    after_state = await table.state()
    assert after_state.to_act != state.to_act


async def test_stale_button_from_an_older_hand(tg: FakeTelegram, playing: MusTable) -> None:
    table = playing
    doc = await table.doc()
    state = await table.state()
    seat = state.to_act[0]
    old_msg, _data = await tg.wait_for(
        lambda: table.button_for(doc, mus.legal_actions(state, seat)[0]), what="table buttons"
    )
    old_buttons = [b for b in old_msg.buttons() if str(b["callback_data"]).startswith("a:")]
    assert old_buttons, old_msg.button_texts()
    state = await play_hand(table, random.Random(2))
    assert state.hand_number == 2
    await tg.settle()
    before = await read_raw(table.redis, table.group.id)
    groups_before = len(table.group.bot_messages())
    for button in old_buttons:
        query = table.seat_user(doc, seat).press_data(old_msg, button["callback_data"])
        answer = await tg.wait_answer(query)
        assert answer["text"] == t(LANG, "error.stale") and answer["show_alert"], answer
    await tg.settle()
    assert len(table.group.bot_messages()) == groups_before
    await unchanged(table, before)
