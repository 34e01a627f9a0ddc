"""A whole game on a phone, end to end (fake Bot API, real Application, Redis): a private nudge
once per turn to the player to act (the turn time a table option), /pausa and /seguir (also
across a restart), discards chosen from the table message, a seat handed over mid-hand, and
"Otra partida" at the end.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from conftest import ShiftedClock
from driver import (
    LANG,
    PREFIX,
    MusTable,
    card_mentions,
    doc_of,
    last_with_button,
    ordago_policy,
    play_hand,
)
from fake_telegram import Chat, FakeTelegram, Message, User

import engine.mus as mus
from bot.games.render import card_name as bot_card_name
from bot.table import Table
from engine.core import Action
from locales import t

NAMES = ("Ana", "Bea", "Cris", "Dani")


async def _four(
    tg: FakeTelegram, redis: Any, options: str = ""
) -> tuple[MusTable, list[User], Chat, Message]:
    """Four people who opened the private chat sit at a Mus table and start it."""
    users = [tg.user(name, name.lower()) for name in NAMES]
    # A supergroup's id as Telegram makes it (-100 and ten digits): its messages have links.
    chat_id = -int(f"100{random.randrange(10**9, 10**10)}")
    group = tg.group("Mus del móvil", members=users, creator=users[0], chat_id=chat_id)
    for user in users:
        user.start_private()
    await tg.settle()
    users[0].send(group, f"/nueva mus {options}".strip())
    join = t(LANG, "button.join")
    lobby: Message = await tg.wait_for(lambda: last_with_button(group, join), what="the lobby")
    for user in users:
        user.press(lobby, join)
        await tg.settle(quiet=0.05)
    users[0].press(lobby, t(LANG, "button.start"))

    async def started() -> bool:
        doc = await doc_of(redis, group)
        return doc.get("status") == "playing" and doc.get("shown", {}).get("table_msg") is not None

    await tg.wait_for(started, what="the game started")
    return MusTable(tg, group, users, redis), users, group, lobby


def _nudges(user: User) -> list[Message]:
    return [m for m in user.private.bot_messages() if m.text.startswith("⏰")]


async def _button_of(table: MusTable, action: Action) -> tuple[Message, str]:
    async def find() -> tuple[Message, str] | None:
        return table.button_for(await table.doc(), action)

    found: tuple[Message, str] = await table.tg.wait_for(find, what=f"a button for {action}")
    return found


async def _later(tg: FakeTelegram, clock: ShiftedClock, seconds: float) -> None:
    """``seconds`` later in the bot's clock, and a few of its sweeps (every 0.05 s) after."""
    clock.advance(seconds)
    await asyncio.sleep(0.2)
    await tg.settle()


# ---- nudges and the turn time -------------------------------------------------------------


async def test_a_nudge_once_to_the_player_to_act_and_nobody_else_with_the_turn_time(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(nudge_after=0.4, timer_tick=0.05, clock=clock)
    table, users, group, lobby = await _four(tg, redis, "tiempo=30")
    assert t(LANG, "phone.opt.minutes", n="½") in lobby.text  # the lobby shows the option
    doc = await table.doc()
    assert round(doc["turn_deadline"] - doc["moved_at"]) == 30  # tiempo=30, not the default
    assert t(LANG, "phone.clock.part", n="½") in table.table_message(doc).text  # as the lobby
    state = await table.state()
    mano = table.seat_user(doc, state.to_act[0])
    await tg.wait_for(lambda: _nudges(mano), what="the nudge")
    await _later(tg, clock, 1.0)  # a second and several sweeps later: still one nudge, to him
    assert len(_nudges(mano)) == 1
    assert all(not _nudges(u) for u in users if u is not mano)
    link = f"https://t.me/c/{str(group.id)[4:]}/{doc['shown']['table_msg']}"
    assert link in _nudges(mano)[0].raw
    assert (await table.doc())["turn"] == doc["turn"]  # a nudge is no move

    # He answers; the next to act is nudged once in his turn, the first one not again.
    await table.act(state.to_act[0], Action("mus"), "button")
    state = await table.state()
    second = table.seat_user(await table.doc(), state.to_act[0])
    await tg.wait_for(lambda: _nudges(second), what="the second nudge")
    await _later(tg, clock, 0.8)
    assert len(_nudges(second)) == 1 and len(_nudges(mano)) == 1
    others = [u for u in users if u not in (mano, second)]
    assert all(not _nudges(u) for u in others)


# ---- pause and resume ---------------------------------------------------------------------


async def test_pause_stops_the_clock_and_anyone_seated_resumes(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(turn_timeout=2.0, timer_tick=0.05, clock=clock)
    table, users, group, _lobby = await _four(tg, redis)
    users[1].send(group, "/pausa")

    async def paused() -> bool:
        return (await table.doc()).get("paused_by") == "Bea"

    await tg.wait_for(paused, what="the pause")
    doc = await table.doc()
    shown = t(LANG, "phone.paused_line", name="Bea")
    await tg.wait_for(lambda: shown in table.table_message(doc).text, what="the paused table")
    assert t(LANG, "phone.paused", name="Bea") in group.texts()
    # Nobody may move while paused (the move is refused, nothing changes) ...
    state = await table.state()
    msg, data = await _button_of(table, Action("mus"))
    query = table.seat_user(doc, state.to_act[0]).press(msg, data)
    answer = await tg.wait_answer(query)
    assert answer["text"] == t(LANG, "phone.error.paused", name="Bea")
    # ... and no timer fires: the 2 s turn passes with no default move.
    await _later(tg, clock, 3.0)
    assert (await table.doc())["turn"] == doc["turn"]
    assert await redis.zscore(f"{PREFIX}:timers", str(group.id)) is None
    # An onlooker may not resume; Cris (seated) does, with a fresh turn time.
    onlooker = tg.user("Olga", "olga")
    onlooker.send(group, "/seguir")
    await tg.settle()
    assert (await table.doc()).get("paused_by") == "Bea"
    users[2].send(group, "/seguir")

    async def resumed() -> dict[str, Any] | None:
        current = await table.doc()
        return current if not current.get("paused_by") else None

    current = await tg.wait_for(resumed, what="the resume")
    assert current["turn_deadline"] > clock()
    # The clock runs again: the turn times out and the default move is played.
    clock.advance(2.0)
    await table.wait_turn_after(doc["turn"], timeout=6.0)


async def test_a_paused_table_is_resumed_after_a_restart(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    first = await apps.start(turn_timeout=60.0, timer_tick=0.05)
    table, users, group, _lobby = await _four(tg, redis)
    users[3].send(group, "/pause")  # English alias
    await tg.wait_for(
        lambda: any(t(LANG, "phone.paused", name="Dani") == m for m in group.texts()),
        what="the pause notice",
    )
    await apps.stop(first)
    doc = await table.doc()
    assert doc["paused_by"] == "Dani" and doc.get("deadline") is None
    ttl = await redis.ttl(f"{PREFIX}:t:{group.id}")
    assert ttl > 0  # kept for TAPETE_TABLE_TTL like any table

    await apps.start(turn_timeout=60.0, timer_tick=0.05)
    users[0].send(group, "/seguir")

    async def resumed() -> bool:
        return not (await table.doc()).get("paused_by")

    await tg.wait_for(resumed, what="the resume after the restart")
    state = await table.state()
    await table.act(state.to_act[0], Action("mus"), "button")  # and play goes on
    assert (await table.doc())["turn"] > doc["turn"]


# ---- discards from the group --------------------------------------------------------------


async def test_discards_made_from_the_group_message_only(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.ephemeral_supported = False  # the alerts of a server without ephemeral messages
    redis = redis_factory.client()
    await apps.start()
    table, users, _group, _lobby = await _four(tg, redis)
    for _ in range(4):
        state = await table.state()
        await table.act(state.to_act[0], Action("mus"), "button")
    state = await table.state()
    assert state.phase == "discard"
    privately = {u.id: len(u.private.bot_messages()) for u in users}
    old_hands = {s: list(mus.view(state, s).to_dict()["cards"]) for s in range(4)}
    for seat in range(4):
        doc = await table.doc()
        user = table.seat_user(doc, seat)
        own = Table.model_validate(doc).adapter.seat_cards(Table.model_validate(doc), seat)
        msg = table.table_message(doc)
        one = t(LANG, "phone.position", n=1)
        await tg.wait_for(lambda m=msg, b=one: b in m.button_texts(), what="discard buttons")
        first = user.press(msg, one)
        answer = await tg.wait_answer(first)
        assert answer["show_alert"]
        assert answer["text"] == t(LANG, "phone.throw", cards=bot_card_name(LANG, own[0]))
        second = user.press(msg, t(LANG, "phone.position", n=2))
        names = f"{bot_card_name(LANG, own[0])}, {bot_card_name(LANG, own[1])}"
        assert (await tg.wait_answer(second))["text"] == t(LANG, "phone.throw", cards=names)
        again = user.press(msg, t(LANG, "phone.position", n=2))  # a second press unselects
        assert (await tg.wait_answer(again))["text"] == t(
            LANG, "phone.throw", cards=bot_card_name(LANG, own[0])
        )
        mine = user.press(msg, t(LANG, "button.cards"))  # "Mis cartas" shows the selection
        selection = t(LANG, "phone.throw", cards=bot_card_name(LANG, own[0]))
        assert selection in (await tg.wait_answer(mine))["text"]
        before = (await table.doc())["turn"]
        user.press(msg, t(LANG, "phone.button.discard"))
        await table.wait_turn_after(before)
        table.check.check(await table.state())  # no hidden card in any group message
    state = await table.state()
    assert state.phase == "mus"
    for seat in range(4):
        cards = mus.view(state, seat).to_dict()["cards"]
        assert cards != old_hands[seat]
        user = table.seat_user(await table.doc(), seat)
        query = user.press(table.table_message(await table.doc()), t(LANG, "button.cards"))
        text = (await tg.wait_answer(query))["text"]
        assert sorted(card_mentions(text, cards)) == sorted(cards)  # "Mis cartas": the new ones
    await table.assert_dms_show_hands()  # and the private chat shows them too
    for user in users:  # nothing new was needed in private to discard
        assert len(user.private.bot_messages()) == privately[user.id]


# ---- a seat handed over mid-hand ----------------------------------------------------------


async def test_a_substitution_mid_hand_by_reply_and_by_mention(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group, _lobby = await _four(tg, redis)
    state = await table.state()
    await table.act(state.to_act[0], Action("mus"), "button")  # mid-hand
    doc = await table.doc()
    state = await table.state()
    seat = state.to_act[0]
    leaving = table.seat_user(doc, seat)
    eva = tg.user("Eva", "eva")
    eva.start_private()
    await tg.settle()
    eva.send(group, "me siento yo")
    leaving.send(group, "/sustituir", reply_to=group.user_messages()[-1])

    async def handed() -> bool:
        return (await table.doc())["players"][seat]["user_id"] == eva.id

    await tg.wait_for(handed, what="the seat handed over")
    table.users.append(eva)
    cards = mus.view(state, seat).to_dict()["cards"]
    await tg.wait_for(
        lambda: any(
            sorted(card_mentions(m.text, cards)) == sorted(cards)
            for m in eva.private.bot_messages()
        ),
        what="Eva's hand in private",
    )
    # The one who left may no longer act; Eva does.
    before = (await table.doc())["turn"]
    msg, data = await _button_of(table, Action("mus"))
    refused = leaving.press(msg, data)
    assert (await tg.wait_answer(refused))["text"] == t(LANG, "error.not_seated")
    assert (await table.doc())["turn"] == before
    await table.act(seat, Action("mus"), "button")

    # By mention: the seat waits for @fede ("Sentarme"); nobody else may take it.
    doc = await table.doc()
    other = next(s for s in range(4) if s != seat)
    bea = table.seat_user(doc, other)  # whoever sits there
    bea.send(group, "/sustituir @fede")
    sit = t(LANG, "phone.button.sit", name=bea.first_name)
    sit_msg = await tg.wait_for(lambda: last_with_button(group, sit), what="the Sentarme button")
    gus, fede = tg.user("Gus", "gus"), tg.user("Fede", "fede")
    fede.start_private()
    await tg.settle()
    query = gus.press(sit_msg, sit)
    assert (await tg.wait_answer(query))["text"] == t(LANG, "phone.error.reserved", name="fede")
    fede.press(sit_msg, sit)

    async def fede_sits() -> bool:
        return (await table.doc())["players"][other]["user_id"] == fede.id

    await tg.wait_for(fede_sits, what="Fede seated")
    table.users.append(fede)
    state = await table.state()
    cards = mus.view(state, other).to_dict()["cards"]
    await tg.wait_for(
        lambda: any(
            sorted(card_mentions(m.text, cards)) == sorted(cards)
            for m in fede.private.bot_messages()
        ),
        what="Fede's hand in private",
    )
    sat = t(LANG, "phone.sat", new="Fede", old=bea.first_name)
    await tg.wait_for(lambda: sat in group.texts(), what="the group told")


# ---- another game -------------------------------------------------------------------------


async def test_otra_partida_starts_a_new_table_with_the_same_players_and_options(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group, _lobby = await _four(tg, redis, "juegos=1 tiempo=90")
    old = await table.doc()
    for hand in range(12):
        state = await play_hand(
            table, random.Random(hand), mus_rounds_wanted=0, lance_policy=ordago_policy
        )
        if state.is_over:
            break
    assert state.is_over
    again = t(LANG, "phone.button.again")
    last = await tg.wait_for(lambda: last_with_button(group, again), what="Otra partida")
    users[1].press(last, again)

    async def fresh() -> dict[str, Any] | None:
        doc = await table.doc()
        new = doc.get("status", "lobby") == "lobby" and doc["tid"] != old["tid"]
        return doc if new else None

    doc = await tg.wait_for(fresh, what="the new table")
    assert doc["tid"] != old["tid"]
    assert [p["user_id"] for p in doc["players"]] == [p["user_id"] for p in old["players"]]
    assert [p.get("team") for p in doc["players"]] == [p.get("team") for p in old["players"]]
    assert doc["options"] == old["options"] and doc["turn_time"] == 90
    await tg.wait_for(lambda: again not in last.button_texts(), what="the old button gone")
    lobby = await tg.wait_for(
        lambda: last_with_button(group, t(LANG, "button.start")), what="the new lobby"
    )
    users[2].press(lobby, t(LANG, "button.start"))

    async def playing() -> bool:
        return (await table.doc()).get("status") == "playing"

    await tg.wait_for(playing, what="the new game")


async def test_piedras_discards_from_the_group_message(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.ephemeral_supported = False  # the alerts of a server without ephemeral messages
    from piedras_driver import open_piedras_table

    import engine.piedras as piedras

    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis)
    state = await table.state()
    assert state.phase == "discard"
    before_hands = {s: list(piedras.view(state, s).to_dict()["cards"]) for s in state.to_act}
    for seat in list(state.to_act):
        doc = await table.doc()
        user = table.seat_user(doc, seat)
        stored = Table.model_validate(doc)
        own = stored.adapter.seat_cards(stored, seat)
        msg = table.table_message(doc)
        assert msg is not None
        one = t(LANG, "phone.position", n=1)
        await tg.wait_for(lambda m=msg, b=one: b in m.button_texts(), what="discard buttons")
        query = user.press(msg, one)
        answer = await tg.wait_answer(query)
        assert answer["text"] == t(LANG, "phone.throw", cards=bot_card_name(LANG, own[0]))
        turn = doc["turn"]
        user.press(msg, t(LANG, "phone.button.discard"))
        await table.wait_turn_after(turn)
    state = await table.state()
    moved = [
        s for s in before_hands if piedras.view(state, s).to_dict()["cards"] != before_hands[s]
    ]
    assert moved  # new cards dealt after the discards made from the group
    await table.assert_dms_show_hands()
