"""End to end: four people open a table, join, get their cards in private and play a whole hand.

The bot is the real ``Application`` from ``bot.app.build_application`` polling the fake Bot API;
the players act with commands and with buttons, exactly as Telegram clients would send them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import (
    LANG,
    MusTable,
    deep_link_payload,
    read_doc,
    t,
)
from fake_telegram import Chat, FakeTelegram, User

import engine.mus as mus
from engine.core import Action

pytestmark = pytest.mark.e2e

#: Action kinds in the order the scripted players like them (cycled), so that one hand sees
#: bets, raises, acceptances and refusals.
TASTES = [
    ["envido"],
    ["quiero"],
    ["envido", "paso"],
    ["envido"],
    ["no_quiero"],
    ["paso"],
    ["quiero"],
]


async def open_table(
    tg: FakeTelegram, redis: Any, *, dm_less: int = 3
) -> tuple[MusTable, list[User], Chat]:
    """Ana opens a table; Ana, Bea and Cris join with buttons/commands; Dani (who never opened
    a private chat with the bot) joins through the deep link; Ana starts."""
    ana, bea, cris, dani = (
        tg.user("Ana", "ana"),
        tg.user("Bea <b>", "bea"),  # a name that must be escaped
        tg.user("Cris", None),
        tg.user("Dani", "dani"),
    )
    users = [ana, bea, cris, dani]
    group = tg.group("Mus del jueves", members=users, creator=ana)
    for i, user in enumerate(users):
        if i != dm_less:
            user.start_private()
    await tg.settle()

    ana.send(group, "/nueva mus")
    lobby = await tg.wait_for(
        lambda: next(
            (m for m in group.bot_messages() if t(LANG, "button.join") in m.button_texts()), None
        ),
        what="the lobby",
    )
    ana.press(lobby, t(LANG, "button.join"))
    await tg.settle()
    bea.press(lobby, t(LANG, "button.join"))
    await tg.settle()
    cris.send(group, f"/unirme@{tg.bot_username}")
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id, bea.id, cris.id]

    # Dani cannot be written to in private: the bot answers with a deep link instead.
    mark = tg.mark()
    query = dani.press(lobby, t(LANG, "button.join"))
    answer = await tg.wait_answer(query)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and len(found[1]["players"]) == 3, "seated without a private chat"
    link_msgs = [m for m in group.bot_messages() if deep_link_payload(m, tg.bot_username)]
    payload = None
    if link_msgs:
        payload = deep_link_payload(link_msgs[-1], tg.bot_username)
    elif answer.get("url"):
        payload = str(answer["url"]).split("start=")[-1]
    assert payload, f"no deep link offered: answer={answer}, calls={tg.calls[mark:]}"
    dani.start_private(payload)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [u.id for u in users]
    assert dani.private.bot_messages(), "Dani got nothing in private after the deep link"

    ana.press(lobby, t(LANG, "button.start"))
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    return MusTable(tg, group, users, redis), users, group


async def play_hand(table: MusTable, rng: random.Random, *, first_via: str = "button") -> Any:
    """Play until the hand number changes (or the game ends); returns the last state."""
    state = await table.state()
    hand = state.hand_number
    mus_rounds = 0
    step = 0
    table.check.check(state)
    while state.hand_number == hand and not state.is_over:
        if state.phase == "mus":
            seat = state.to_act[0]
            want = "mus" if mus_rounds == 0 else "corto"
            action = next(a for a in mus.legal_actions(state, seat) if a.kind == want)
        elif state.phase == "discard":
            seat = state.to_act[0]
            size = rng.choice([1, 2])
            action = next(a for a in mus.legal_actions(state, seat) if len(a.cards) == size)
        else:
            seat = state.to_act[0]
            action = choose(state, seat, step)
        via = first_via if step % 2 == 0 else ("command" if first_via == "button" else "button")
        previous = state
        await table.act(seat, action, via)
        state = await table.state()
        if previous.phase == "discard" and state.phase != "discard":
            mus_rounds += 1
        step += 1
        table.check.check(state)
        if state.hand_number == hand and not state.is_over:
            await table.tg.settle(quiet=0.03)
            await table.assert_dms_show_hands()
    return state


def choose(state: Any, seat: int, step: int) -> Action:
    legal = mus.legal_actions(state, seat)
    for kind in TASTES[step % len(TASTES)]:
        for action in legal:
            if action.kind == kind and (kind != "envido" or action.amount in (None, 5)):
                return action
    return next(a for a in legal if a.kind != "ordago")


async def test_four_players_play_a_whole_hand(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
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
    # The next hand was dealt and sent in private.
    await table.assert_dms_show_hands()
