"""Playing from the group (issue 24): nobody opens a private chat with the bot, everyone sees
his own hand in the group as an ephemeral message (real Application, fake Bot API, Redis).

A whole Mus hand with a mus round and the discards made on the ephemeral hands; the fallback
where ephemeral messages are refused (an alert and the private chat, as before).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, MusTable, card_mentions, choose, doc_of, last_with_button
from fake_telegram import Chat, FakeTelegram, Message, User
from group_driver import (
    open_own_hand,
    own_hand,
    play_envite_round_from_the_group,
    seated_without_private_chats,
)

import engine.mus as mus
from bot.games.render import blocked_notice, card_name
from locales import t

pytestmark = pytest.mark.e2e

NAMES = ("Ana", "Bea", "Cris", "Dani")


async def test_a_mus_hand_with_a_mus_round_played_from_the_group(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    users, group, _lobby = await seated_without_private_chats(tg, redis)
    table = MusTable(tg, group, users, redis)
    posted = len(group.bot_messages())
    state = await table.state()
    hand = state.hand_number
    for _ in range(4):  # a mus round, on the table message's buttons
        state = await table.state()
        await table.act(state.to_act[0], mus.legal_actions(state, state.to_act[0])[0], "button")
    state = await table.state()
    assert state.phase == "discard"
    before = {s: list(mus.view(state, s).to_dict()["cards"]) for s in range(4)}
    doc = await table.doc()
    for n, seat in enumerate(state.to_act):
        user = table.seat_user(doc, seat)
        mine = await open_own_hand(tg, table, user)
        cards = before[seat]
        assert sorted(card_mentions(mine.text, cards)) == sorted(cards)
        if n == 0:  # "descarto" with nothing chosen: refused on his own hand, not in an alert
            empty = t(LANG, "button.discard", n=0)
            answer = await tg.wait_answer(user.press(mine, empty))
            assert answer["text"] is None
            await tg.wait_for(lambda m=mine: t(LANG, "error.bad_discard", count=0) in m.raw)
        throw = card_name(LANG, cards[0])
        await tg.wait_answer(user.press(mine, f"▫️ {throw}"))
        await tg.wait_for(lambda m=mine, c=throw: f"✅ {c}" in m.button_texts(), what="✅")
        turn = (await table.doc())["turn"]
        await tg.wait_answer(user.press(mine, t(LANG, "button.discard", n=1)))
        if n < 3:
            await tg.wait_for(lambda m=mine: not m.buttons(), what="waiting for the others")
    await table.wait_turn_after(turn)
    state = await table.state()
    assert state.phase == "mus" and state.hand_number == hand
    last = table.seat_user(doc, seat)
    for seat in range(4):  # the new cards come to the ephemeral hands Telegram lets us edit
        user = table.seat_user(doc, seat)
        cards = list(mus.view(state, seat).to_dict()["cards"])
        assert cards != before[seat]

        def new_cards(u: User = user, c: list[str] = cards) -> bool:
            return sorted(card_mentions(own_hand(group, u).text, c)) == sorted(c)

        if user is last:  # his own press was just now
            await tg.wait_for(new_cards, what=f"{user.first_name}'s new cards")
        elif not new_cards():  # his press may be older than the window on a loaded machine
            await open_own_hand(tg, table, user)
            await tg.wait_for(new_cards, what=f"{user.first_name}'s new cards")
    state = await table.state()
    seat = state.to_act[0]
    corto = next(a for a in mus.legal_actions(state, seat) if a.kind == "corto")
    await table.act(seat, corto, "button")
    step = 0
    state = await table.state()
    while state.hand_number == hand and not state.is_over:
        seat = state.to_act[0]
        await table.act(seat, choose(state, seat, step), "button")
        table.check.check(state := await table.state())  # no hidden card in a group message
        step += 1
    await tg.settle()
    for user in users:  # nobody opened a private chat, nothing was lost: all in the group
        assert not user.private.bot_messages() and not user.started
    assert len(group.bot_messages()) - posted <= 2, "at most 2 new group messages a hand"
    blocked = [blocked_notice(LANG, u.first_name) for u in users]
    assert not [m for m in group.bot_messages() if m.raw in blocked]


async def test_refused_ephemeral_messages_fall_back_to_an_alert_and_the_private_chat(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """A server that knows them but refuses this one (a client that cannot show them): the
    alert and the private hand, word for word as before."""
    tg.expect_bad_requests = True
    redis = redis_factory.client()
    await apps.start()
    users = [tg.user(name, name.lower()) for name in NAMES]
    group = tg.group("Mus con privado", members=users, creator=users[0])
    for user in users:
        user.start_private()
    await tg.settle()
    users[0].send(group, "/nueva mus")
    join = t(LANG, "button.join")
    lobby: Message = await tg.wait_for(lambda: last_with_button(group, join), what="the lobby")
    for user in users[1:]:
        user.press(lobby, join)
        await tg.settle(quiet=0.05)
    users[0].press(lobby, t(LANG, "button.start"))
    table = MusTable(tg, group, users, redis)
    await tg.wait_for(lambda: _started(redis, group), what="the game started")
    await table.assert_dms_show_hands()
    tg.refuse_ephemeral = "Bad Request: EPHEMERAL_MESSAGES_DISABLED"
    state = await table.state()
    doc = await table.doc()
    rng = random.Random(3)
    for seat in rng.sample(range(4), 2):
        user = table.seat_user(doc, seat)
        answer = await tg.wait_answer(user.press(table.table_message(doc), t(LANG, "button.cards")))
        cards = mus.view(state, seat).to_dict()["cards"]
        assert answer["show_alert"] and sorted(card_mentions(answer["text"], cards)) == sorted(
            cards
        )
        assert group.ephemeral_for(user) == []
    await table.assert_dms_show_hands()


async def _started(redis: Any, group: Chat) -> bool:
    doc = await doc_of(redis, group)
    return doc.get("status") == "playing" and doc.get("shown", {}).get("table_msg") is not None


async def test_a_whole_envite_round_played_from_the_group(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Every card by a press on the player's ephemeral hand: no post of his, no private chat;
    every card of every baza shows in the group."""
    from envite_driver import EnviteTable

    import engine.envite as envite

    redis = redis_factory.client()
    await apps.start()
    users, group, _lobby = await seated_without_private_chats(tg, redis, game="envite")
    table = EnviteTable(tg, group, users, redis)
    posts = len(group.user_messages())
    # A card pressed on buttons older than the table (Telegram let the bot edit them only
    # just after his own press): it plays when his hand offers that card now.
    doc = await table.doc()
    first = table.user_at(doc, envite.from_json(doc["state"]).to_act[0])
    mine = await open_own_hand(tg, table, first)
    data = next(
        str(b["callback_data"]) for b in mine.buttons() if ":tiro " in b.get("callback_data", "")
    )
    chat, tid, turn, action = data.split(":", 1)[1].split(":", 3)
    older = f"a:{chat}:{tid}:{int(turn) - 1}:{action}"
    answer = await tg.wait_answer(first.press_data(mine, older))
    assert answer["text"] is None, answer
    await table.wait_turn_after(int(turn))
    _state, played = await play_envite_round_from_the_group(tg, table, random.Random(5))
    played.insert(0, action.split()[-1])
    await tg.settle()
    assert played and len(group.user_messages()) == posts, "no post of theirs for a card"
    seen = " ".join(v for m in group.bot_messages(include_deleted=True) for v in m.all_texts())
    assert sorted(card_mentions(seen, played)) == sorted(played), "every card shows in the group"
    for user in users:
        assert not user.private.bot_messages() and not user.started
    # A typed card he does not hold: refused on his own hand, just after a press of his.
    doc = await table.doc()
    state = envite.from_json(doc["state"])
    seat = state.to_act[0]
    user = table.user_at(doc, seat)
    msg = table.message(doc["shown"]["table_msg"])
    await tg.wait_answer(user.press(msg, t(LANG, "button.cards")))
    held = {str(c) for c in state.hands[seat]}
    other = next(str(c) for hand in state.hands for c in hand if str(c) not in held)
    user.send(group, f"/tiro {other}")
    refusal = t(LANG, "error.card_not_in_hand")
    await tg.wait_for(
        lambda: refusal in own_hand(group, user).text,
        what=f"the refusal on it {state.phase} {[m.text for m in group.bot_messages()[-2:]]}",
    )
    await tg.settle()
    assert not user.private.bot_messages()
    assert t(LANG, "error.refused_private") not in [m.text for m in group.bot_messages()]
