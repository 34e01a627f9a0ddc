"""End to end: the chat-level commands (/idioma, /mesa, /cartas, /unirme with a deep link)."""

from __future__ import annotations

from typing import Any

import pytest
from driver import LANG, PREFIX, MusTable, card_mentions, deep_link_payload, open_table, read_doc, t
from fake_telegram import FakeTelegram

import engine.mus as mus

pytestmark = pytest.mark.e2e

SECOND = "654321:SECOND-PROCESS"


async def test_language_of_the_group(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    await apps.start()
    ana = tg.user("Ana")
    ana.start_private()
    group = tg.group("Mus", members=[ana])
    ana.send(group, "/idioma en")
    await tg.settle()
    assert group.last_bot_message().text == t("en", "msg.language_set")
    ana.send(group, "/language xx")
    await tg.settle()
    assert group.last_bot_message().text == t("en", "error.bad_language")
    ana.send(group, "/new mus")
    await tg.settle()
    assert t("en", "button.join") in group.last_bot_message().button_texts()
    assert await read_doc(redis_factory.client(), group.id) is not None


async def test_language_change_is_seen_by_every_process(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Two processes: one changes the group's language, the other must answer in it."""
    await apps.start()
    await apps.start(token=SECOND)
    ana = tg.user("Ana")
    group = tg.group("Mus", members=[ana])
    ana.send(group, "/paso", deliver_to=SECOND)  # the second process learns the chat (es)
    await tg.settle()
    assert group.last_bot_message().text == t("es", "error.no_table")
    ana.send(group, "/idioma en", deliver_to=tg.tokens[0])
    await tg.settle()
    assert group.last_bot_message().text == t("en", "msg.language_set")
    ana.send(group, "/paso", deliver_to=SECOND)
    await tg.settle()
    assert group.last_bot_message().text == t("en", "error.no_table")


async def test_mesa_reposts_the_table_and_play_goes_on_there(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    await apps.start()
    table, users, group = await open_table(tg, redis_factory.client())
    doc = await table.doc()
    old = table.table_message(doc)
    await tg.wait_for(lambda: len(old.buttons()) > 1, what="the table buttons")
    users[2].send(group, "/mesa")
    await tg.settle()
    doc = await table.doc()
    new = table.table_message(doc)
    assert new.message_id > old.message_id
    assert [b for b in old.buttons() if b["callback_data"][:2] == "a:"] == []
    state = await table.state()
    await table.act(state.to_act[0], mus.parse_action("mus"), "button")
    assert (await table.doc())["shown"]["table_msg"] == new.message_id


async def test_cartas_sends_the_hand_again(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    await apps.start()
    table, users, group = await open_table(tg, redis_factory.client())
    state = await table.state()
    doc = await table.doc()
    seat = 2
    user = table.seat_user(doc, seat)
    before = len(user.private.bot_messages())
    user.send(group, f"/cartas@{tg.bot_username}")
    await tg.settle()
    assert group.last_bot_message().text == t(LANG, "msg.cards_sent")
    fresh = user.private.bot_messages()[before:]
    assert fresh, "no private message"
    cards = mus.view(state, seat).to_dict()["cards"]
    assert sorted(card_mentions(fresh[-1].text, cards)) == sorted(cards)
    # From the private chat too.
    user.send(user.private, "/cards")
    await tg.settle()
    assert sorted(card_mentions(user.private.last_bot_message().text, cards)) == sorted(cards)
    await table.assert_dms_show_hands()
    assert isinstance(table, MusTable) and users


async def test_join_by_command_without_a_private_chat_gets_a_deep_link(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.ephemeral_supported = False  # the deep link: where the hand cannot be shown in the group
    await apps.start()
    redis = redis_factory.client()
    ana, bea = tg.user("Ana"), tg.user("Bea")
    ana.start_private()
    group = tg.group("Mus", members=[ana, bea])
    ana.send(group, "/nueva mus")
    await tg.settle()
    bea.send(group, "/unirme")
    await tg.settle()
    reply = group.last_bot_message()
    payload = deep_link_payload(reply, tg.bot_username)
    assert payload, reply.text
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id]  # /nueva seated its author
    bea.start_private(payload)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id, bea.id]
    # The lobby shows her seat.
    lobby = next(m for m in group.bot_messages() if t(LANG, "button.join") in m.button_texts())
    assert "Bea" in lobby.text


async def test_discard_by_typed_command_in_private(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """``/descarto`` in private discards like the buttons; in the group it is refused (the
    cards one throws are private) and changes nothing."""
    await apps.start()
    table, _users, group = await open_table(tg, redis_factory.client())
    state = await table.state()
    while state.phase == "mus":
        await table.act(state.to_act[0], mus.parse_action("mus"), "command")
        state = await table.state()
    doc = await table.doc()
    user = table.seat_user(doc, 1)
    cards = mus.view(state, 1).to_dict()["cards"][:2]
    before = await redis_factory.client().hmget(f"{PREFIX}:t:{group.id}", ["v", "d"])
    user.send(group, f"/descarto {cards[0]}")
    await tg.settle()
    assert group.last_bot_message().text == t(LANG, "error.discard_in_private")
    assert await redis_factory.client().hmget(f"{PREFIX}:t:{group.id}", ["v", "d"]) == before
    user.send(user.private, f"/discard {' '.join(cards)}")
    await table.wait_turn_after(doc["turn"])
    state = await table.state()
    assert 1 not in state.to_act and state.phase == "discard"
    await table.tg.settle()
    table.check.check(state)


async def test_a_player_who_blocks_the_bot_does_not_break_the_table(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Private messages to a player who blocked the bot fail (403): the others still play, and
    /cartas tells him to open the chat again."""
    await apps.start()
    table, _users, group = await open_table(tg, redis_factory.client())
    doc = await table.doc()
    blocker = table.seat_user(doc, 3)
    blocker.blocked = True
    state = await table.state()
    while state.phase == "mus":
        await table.act(state.to_act[0], mus.parse_action("mus"), "command")
        state = await table.state()
    for seat in (0, 1, 2):
        await table.act(seat, mus.legal_actions(state, seat)[0], "button")
    state = await table.state()
    assert state.phase == "discard" and state.to_act == (3,)
    # (The table's own notice that he cannot be written to may land before or after the reply.)
    before = len(group.bot_messages())
    blocker.send(group, "/cartas")
    await tg.settle()
    assert t(LANG, "msg.cards_dm_failed") in [m.text for m in group.bot_messages()[before:]]
    blocker.blocked = False
    before = len(group.bot_messages())
    blocker.send(group, "/cartas")
    await tg.settle()
    assert t(LANG, "msg.cards_sent") in [m.text for m in group.bot_messages()[before:]]
    await table.act(3, mus.legal_actions(state, 3)[0], "button")
    assert (await table.state()).phase == "mus"


async def test_english_command_aliases_and_other_bots(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """/new, /join, /go, /cut, /bet N, /fold, /allin, /accept work like the Spanish commands;
    a command addressed to another bot is not for us."""
    await apps.start()
    redis = redis_factory.client()
    users = [tg.user(n) for n in ("Ana", "Bea", "Cris", "Dani")]
    for user in users:
        user.start_private()
    group = tg.group("Mus", members=users, creator=users[0])
    users[0].send(group, "/paso@OtherBot")
    await tg.settle()
    assert group.bot_messages() == [], "answered a command meant for another bot"
    users[0].send(group, f"/new@{tg.bot_username} mus 30")
    await tg.settle()
    for user in users:
        user.send(group, "/join")
        await tg.settle()
    users[0].send(group, "/go")
    await tg.settle()
    table = MusTable(tg, group, users, redis)
    doc = await table.doc()
    assert doc["status"] == "playing" and doc["options"]["target"] == 30
    state = await table.state()

    async def say(command: str) -> Any:
        nonlocal doc, state
        table.seat_user(doc, state.to_act[0]).send(group, command)
        doc = await table.wait_turn_after(doc["turn"])
        state = await table.state()
        table.check.check(state)
        return state

    await say("/cut")
    assert state.phase == "lance" and state.lance == "grande"
    await say("/bet 5")
    assert state.bet == 5
    while state.lance == "grande":
        await say("/fold")  # both of the other pair refuse
    assert state.lance == "chica"
    await say("/allin")
    assert state.ordago
    while state.hand_number == 1 and not state.is_over:
        await say("/accept")
    assert state.hand_number == 2 or state.is_over
