"""End to end: four people open a table, join, get their cards in private and play a whole hand.

The bot is the real ``Application`` from ``bot.app.build_application`` polling the fake Bot API;
the players act with commands and with buttons, exactly as Telegram clients would send them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, PREFIX, card_mentions, open_table, ordago_policy, play_hand, t
from fake_telegram import FakeTelegram

import engine.mus as mus

pytestmark = pytest.mark.e2e


async def test_four_players_play_a_whole_hand(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    await table.assert_dms_show_hands()
    doc = await table.doc()
    assert "Bea &lt;b&gt;" in table.table_message(doc).raw  # names are escaped

    groups_before = len(tg.group_calls(chat=group))
    state = await play_hand(table, random.Random(5))
    await tg.settle()
    table.check.check(state)

    # The result: the engine's score is what the group reads.
    score = tuple(state.score)
    result = t(LANG, "event.hand_over", hand=1, a="", b="").split(".")[0]
    texts = [m.text for m in group.bot_messages()]
    assert any(result in x for x in texts), texts[-3:]
    assert any(str(score[0]) in x and str(score[1]) in x for x in texts if result in x)
    # At most three new group messages per hand (result, next table, ... ).
    assert len(tg.group_calls(chat=group)) - groups_before <= 3
    # Each player's hand lived in one private message, edited as it changed.
    title = t(LANG, "hand.title", game="Mus", title=group.title, hand=1)
    for user in users:
        hand_msgs = [m for m in user.private.bot_messages() if m.text.startswith(title)]
        assert len(hand_msgs) == 1, [m.text for m in hand_msgs]
    # The next hand was dealt and sent in private.
    await table.assert_dms_show_hands()


async def test_whole_vaca_with_ordagos_fixed_seed(
    tg: FakeTelegram, apps: Any, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole vaca (two juegos) where every juego is decided by an accepted órdago: the cards
    are shown only at those showdowns, the game end is announced and the table expires."""
    import secrets

    monkeypatch.setattr(secrets, "randbits", lambda bits: 20261130)  # the bot's deal seed
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
    state = await table.state()
    assert state.seed == 20261130
    vaca_won = t(LANG, "event.vaca_won", pair="").split("{")[0].strip("! ").split("¡")[-1]
    hands = 0
    while not state.is_over:
        hands += 1
        assert hands <= 6, "an accepted órdago should end each juego"
        state = await play_hand(
            table,
            random.Random(hands),
            first_via="command" if hands % 2 else "button",
            mus_rounds_wanted=0,
            lance_policy=ordago_policy,
        )
    await tg.settle()
    table.check.check(state)
    doc = await table.doc()
    assert doc["status"] == "over"
    texts = [m.text for m in group.bot_messages()]
    assert any(t(LANG, "msg.game_over") in x for x in texts)
    assert any(vaca_won in x for x in texts), texts[-2:]
    # No game button is left in the group, and the finished table expires.
    live = [b for m in group.bot_messages() for b in m.buttons() if b["callback_data"][:2] == "a:"]
    assert live == [], live
    assert await redis.ttl(f"{PREFIX}:t:{group.id}") > 0
    # A late action gets a polite refusal and changes nothing.
    before = await redis.hmget(f"{PREFIX}:t:{group.id}", ["v", "d"])
    replies = len(group.bot_messages())
    table.seat_user(doc, 0).send(group, "/paso")
    await tg.settle()
    assert [m.text for m in group.bot_messages()[replies:]] == [t(LANG, "error.no_table")]
    assert await redis.hmget(f"{PREFIX}:t:{group.id}", ["v", "d"]) == before


async def test_my_cards_shows_each_his_hand_in_the_group_for_him_alone(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    doc = await table.doc()
    state = await table.state()
    label = t(LANG, "button.cards")
    msg = await tg.wait_for(
        lambda: label in table.table_message(doc).button_texts() and table.table_message(doc)
    )
    before = sum(len(m.history) for m in group.bot_messages())
    privately = [len(u.private.bot_messages()) for u in users]
    hands = [mus.view(state, seat).to_dict()["cards"] for seat in range(4)]
    for seat in range(4):
        user = table.seat_user(doc, seat)
        answer = await tg.wait_answer(user.press(msg, label))
        assert answer["text"] is None  # no alert: the hand is in the group, for him
        (shown,) = group.ephemeral_for(user)
        others = [c for s in range(4) if s != seat for c in hands[s]]
        assert sorted(card_mentions(shown.text, hands[seat])) == sorted(hands[seat])
        assert not card_mentions(shown.text, others)
    again = table.seat_user(doc, 0)
    await tg.wait_answer(again.press(msg, label))  # a second press: one copy, the newest
    assert len(group.ephemeral_for(again)) == 1
    await tg.settle()
    assert sum(len(m.history) for m in group.bot_messages()) == before, "the group saw something"
    assert [len(u.private.bot_messages()) for u in users] == privately


async def test_my_cards_falls_back_to_an_alert_where_ephemeral_messages_are_refused(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.ephemeral_supported = False  # a Bot API server older than 10.2
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
    doc = await table.doc()
    state = await table.state()
    label = t(LANG, "button.cards")
    msg = await tg.wait_for(
        lambda: label in table.table_message(doc).button_texts() and table.table_message(doc)
    )
    before = sum(len(m.history) for m in group.bot_messages())
    for seat in range(4):
        query = table.seat_user(doc, seat).press(msg, label)
        answer = await tg.wait_answer(query)
        cards = mus.view(state, seat).to_dict()["cards"]
        assert answer["show_alert"] is True
        assert sorted(card_mentions(answer["text"], cards)) == sorted(cards), answer
    outsider = tg.user("Eva")
    answer = await tg.wait_answer(outsider.press(msg, label))
    assert answer["text"] == t(LANG, "error.not_seated")
    await tg.settle()
    assert sum(len(m.history) for m in group.bot_messages()) == before, "the group saw something"


async def test_cancel_by_creator_or_admin_only(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    boss = tg.user("Jefa")
    group.admins.add(boss.id)
    before = await redis.hmget(f"{PREFIX}:t:{group.id}", ["v", "d"])
    users[1].send(group, "/cancelar")
    await tg.settle()
    assert group.last_bot_message().text == t(LANG, "error.not_creator")
    assert await redis.hmget(f"{PREFIX}:t:{group.id}", ["v", "d"]) == before
    boss.send(group, f"/cancel@{tg.bot_username}")
    await tg.settle()
    doc = await table.doc()
    assert doc["status"] == "cancelled"
    assert table.table_message(doc).buttons() == []
    users[0].send(group, "/nueva mus")  # a new table may be opened now
    await tg.settle()
    assert (await table.doc()).get("status", "lobby") == "lobby"
