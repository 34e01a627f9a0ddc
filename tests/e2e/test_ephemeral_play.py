"""Señas and Mus a piedras discards made on the ephemeral hand in the group (issue 24; real
Application over HTTP to the fake Bot API, Redis).

A seña (rules/senas.md) pressed on the sender's ephemeral hand by four people who never opened a
private chat: said there above his hand without that seña (no alert, no post), his partner told
on his own ephemeral hand and nobody else, the group shown no seña; pressed again, refused on the
same ephemeral hand and sent once. A whole piedras hand by
three people who never opened a private chat: every discard toggled and confirmed on the player's
ephemeral hand (rules/piedras.md, the discard), the new card shown there, no hidden card in any
group message, nothing in any private chat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, MusTable, card_mentions
from fake_telegram import FakeTelegram
from group_driver import open_own_hand, own_hand, read_own_hand, seated_without_private_chats
from piedras_driver import PiedrasTable, lively
from test_senas import NOTICE, assert_group_silent

import engine.mus as mus
import engine.piedras as piedras
from bot.games.render import card_name
from locales import t

pytestmark = pytest.mark.e2e


async def test_a_sena_made_on_the_ephemeral_hand_reaches_the_partner_only(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    users, group, _lobby = await seated_without_private_chats(tg, redis)
    posts = len(group.user_messages())  # "/nueva mus", "/unirme"
    table = MusTable(tg, group, users, redis)
    doc = await table.doc()
    state = await table.state()
    mano = state.to_act[0]
    corto = next(a for a in mus.legal_actions(state, mano) if a.kind == "corto")
    await table.act(mano, corto, "button")  # the señas are made after the cut (S1)
    sender = table.seat_user(doc, 0)
    partner, opponents = table.seat_user(doc, 2), [table.seat_user(doc, 1), table.seat_user(doc, 3)]
    for user in (partner, *opponents):  # each reads his hand in the group
        await open_own_hand(tg, table, user)
    mine = await open_own_hand(tg, table, sender)
    senas = [b for b in mine.buttons() if str(b.get("callback_data", "")).startswith("s:")]
    assert senas, mine.button_texts()
    data = str(senas[0]["callback_data"])
    name = data.split(":", 4)[4]
    label = t(LANG, f"senas.mus.{name.replace(' ', '_')}")
    assert name in mus.senas((await table.state()).hands[0], state.options)

    answer = await tg.wait_answer(sender.press_data(mine, data))
    assert answer["text"] is None  # said on his ephemeral hand, not in an alert
    sent = t(LANG, "senas.sent", sena=label)
    await tg.wait_for(lambda: sent in own_hand(group, sender).text, what="the seña said there")
    assert data not in [str(b.get("callback_data")) for b in own_hand(group, sender).buttons()]
    notice = t(LANG, "senas.notice", name="Ana", sena=label)
    await tg.wait_for(lambda: notice in own_hand(group, partner).raw, what="the partner told")
    await tg.settle()
    for user in opponents:  # nobody else: not on their hands, not in the group
        assert all(NOTICE not in v for v in own_hand(group, user).all_texts())
    for user in users:
        assert not user.private.bot_messages() and not user.started
    assert len(group.user_messages()) == posts  # nobody posted in the group to play

    # Pressed again (an older keyboard on his screen): refused on the same hand, sent once.
    again = await tg.wait_answer(sender.press_data(mine, data))
    assert again["text"] is None
    refusal = t(LANG, "error.sena_already_sent")
    await tg.wait_for(lambda: refusal in own_hand(group, sender).raw, what="the refusal there")
    await tg.settle()
    told = [v for v in own_hand(group, partner).history if NOTICE in v.raw]
    assert len(told) == 1 and len(group.ephemeral_for(sender)) == 1  # told once
    assert_group_silent(group, label)


async def test_a_piedras_hand_with_every_discard_on_the_ephemeral_hands(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    names = ("Ana", "Bea", "Cris")
    users, group, _lobby = await seated_without_private_chats(tg, redis, "piedras", names)
    posts = len(group.user_messages())  # "/nueva piedras", "/unirme"
    table = PiedrasTable(tg, group, users, redis)
    rng = random.Random(5)
    state = await table.state()
    hand, step, discards = state.hand_number, 0, 0
    while state.hand_number == hand and not state.is_over:
        seat = state.to_act[0]
        doc = await table.doc()
        user = table.seat_user(doc, seat)
        if state.phase == "discard":
            held = [str(c) for c in state.hands[seat]]
            mine = await read_own_hand(tg, table, user, held, toggles=True)
            card = rng.choice(held)
            throw = card_name(LANG, card)
            await tg.wait_answer(user.press(mine, f"▫️ {throw}"))
            await tg.wait_for(lambda m=mine, c=throw: f"✅ {c}" in m.button_texts(), what="✅")
            await tg.wait_answer(user.press(mine, t(LANG, "button.discard", n=1)))
            after = await table.wait_turn_after(doc["turn"])
            new = [str(c) for c in piedras.from_json(after["state"]).hands[seat]]
            assert card not in new and len(new) == len(held) - 1
            await tg.settle()
            assert sorted(card_mentions(own_hand(group, user).text, new)) == sorted(new)
            discards += 1
        else:
            await tg.settle(quiet=0.02)
            offered = set(table.buttons(doc))
            await table.act(seat, lively(state, seat, step, offered), "button")
            step += 1
        state = await table.state()
        table.check.check(state)  # no hidden card in any group message
    assert discards >= 3, "every player discarded on his ephemeral hand"
    await tg.settle()
    for user in users:  # nobody opened a private chat, nothing was needed there
        assert not user.private.bot_messages() and not user.started
    assert len(group.user_messages()) == posts  # nobody posted in the group to play


async def test_the_compact_card_view_is_the_chats_and_switches_the_table_at_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """``/vista compacta`` (``/view compact``) in the group: each player's own hand reads
    ``R🪙 3🏆`` on his ephemeral hand at once (the table switches with the chat); ``/vista normal``
    names the cards again; a word it does not know is refused with both ways shown."""
    from bot.games.render import short_card

    redis = redis_factory.client()
    await apps.start()
    users, group, _lobby = await seated_without_private_chats(tg, redis)
    table = MusTable(tg, group, users, redis)
    doc = await table.doc()
    ana = table.seat_user(doc, 0)
    mine = await open_own_hand(tg, table, ana)
    cards = [str(c) for c in (await table.state()).hands[0]]
    assert card_name(LANG, cards[0]) in mine.text
    shorts = [short_card(LANG, c) for c in cards]
    ana.send(group, "/vista rara")
    await tg.wait_for(lambda: group.bot_messages()[-1].raw == t(LANG, "error.bad_view"))
    users[1].send(group, "/view compact")  # the English name, in a Spanish group
    await tg.wait_for(lambda: group.bot_messages()[-1].raw == t(LANG, "msg.view_compact"))
    assert (await table.doc()).get("compact_cards") is True
    mine = await open_own_hand(tg, table, ana)
    line = mine.text.splitlines()[1]  # "Tus cartas: 3🏆 7🪙 6🗡️ 4🪵"
    assert sorted(line.split(": ", 1)[1].split(" ")) == sorted(shorts), line
    assert card_name(LANG, cards[0]) not in mine.text
    ana.send(group, "/vista normal")
    await tg.wait_for(lambda: group.bot_messages()[-1].raw == t(LANG, "msg.view_normal"))
    await tg.settle()
    assert not (await table.doc()).get("compact_cards")
    mine = await open_own_hand(tg, table, ana)
    assert card_name(LANG, cards[0]) in mine.text and shorts[0] not in mine.text
