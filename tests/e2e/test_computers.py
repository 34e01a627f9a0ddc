"""Computer players end to end, through the fake Bot API and the real Application: a whole Mus
vaca of one person against (and with) three computers, an envite chico with computers in both
teams, and a seat taken over after two timeouts and handed back with "Vuelvo".

Nothing is ever sent to a computer seat, and the group never shows a card still hidden.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from typing import Any

import pytest
from driver import HiddenCardCheck, MusTable, read_doc
from envite_driver import EnviteTable, lively
from fake_telegram import Chat, FakeTelegram, Message, User

import engine.envite as envite
import engine.mus as mus
from locales import t

LANG = "es"
FAST = {"computer_pause": 0.1, "timer_tick": 0.02}


def _button(chat: Chat, label: str) -> Message | None:
    return next((m for m in reversed(chat.bot_messages()) if label in m.button_texts()), None)


async def _lobby(tg: FakeTelegram, group: Chat, opener: User, command: str) -> Message:
    opener.send(group, command)
    join = t(LANG, "button.join")
    lobby: Message = await tg.wait_for(lambda: _button(group, join), what="the lobby")
    return lobby


def _only_people_written_to(tg: FakeTelegram, allowed: set[int]) -> None:
    """Every message the bot sent or edited went to the group or a person's private chat."""
    targets = {
        int(c.params["chat_id"])
        for c in tg.calls
        if c.method.lower() in ("sendmessage", "editmessagetext", "sendchataction")
        and "chat_id" in c.params
    }
    assert targets <= allowed, f"the bot wrote to {targets - allowed}"
    assert all(target > 0 or target in allowed for target in targets)


async def _wait_move(table: Any, turn: int, timeout: float = 10.0) -> dict[str, Any]:
    doc: dict[str, Any] = await table.wait_turn_after(turn, timeout=timeout)
    return doc


async def test_a_whole_mus_vaca_of_one_person_and_three_computers(
    tg: FakeTelegram, apps: Any, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fixed deal seed: with a random one a juego decided by an early accepted órdago could
    # end the vaca before the person had made a few moves (seen once in about 50 runs).
    monkeypatch.setattr(secrets, "randbits", lambda bits: 20261201)
    redis = redis_factory.client()
    await apps.start(**FAST)
    ana = tg.user("Ana", "ana")
    group = tg.group("Mus de una", members=[ana], creator=ana)
    ana.start_private()
    await tg.settle()
    lobby = await _lobby(tg, group, ana, "/nueva mus 30 juegos=1")  # seats Ana
    ana.press(lobby, t(LANG, "bots.add"))
    await tg.settle()
    ana.send(group, "/maquina 2")
    await tg.settle()
    ana.send(group, "/empezar")  # one seat free: the bot offers to fill it
    fill = await tg.wait_for(lambda: _button(group, t(LANG, "bots.fill")), what="the fill offer")
    assert t(LANG, "error.not_enough_players", have=3, need=4) in fill.text
    ana.press(fill, t(LANG, "bots.fill"))
    table = MusTable(tg, group, [ana], redis)
    doc = await tg.wait_for(
        lambda: _playing(redis, group.id), what="the game started with computers"
    )
    names = [p["name"] for p in doc["players"]]
    assert names[0] == "Ana" and all(n.startswith("Máquina") for n in names[1:])
    assert all(p["user_id"] < 0 and p["bot_level"] == "normal" for p in doc["players"][1:])
    await tg.wait_for(
        lambda: any("🤖 Máquina 1" in m.text for m in group.bot_messages()),
        what="computers marked in the table message",
    )
    rng = random.Random(5)
    check = HiddenCardCheck(group)
    moves = 0
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 240
    while loop.time() < give_up:
        doc = await table.doc()
        if doc.get("status") != "playing":
            break
        state = mus.from_json(doc["state"])
        check.check(state)
        if 0 not in state.to_act:
            await _wait_move(table, doc["turn"])
            continue
        legal = mus.legal_actions(state, 0)
        if state.phase == "discard":
            action = next(a for a in legal if len(a.cards) == rng.choice([1, 2]))
        else:
            action = rng.choice([a for a in legal if a.kind != "ordago"] or legal)
        try:
            await table.act(0, action, "button" if moves % 2 else "command")
        except AssertionError:
            # Both of a pair may answer: a computer partner answered first (a stale press).
            if 0 in (await table.state()).to_act and (await table.doc())["turn"] == doc["turn"]:
                raise
        moves += 1
    doc = await table.doc()
    assert doc["status"] == "over", "the vaca did not end"
    assert moves >= 5
    await tg.settle()
    over = t(LANG, "msg.game_over")
    assert any(over in m.text for m in group.bot_messages())
    _only_people_written_to(tg, {group.id, ana.id})


async def _playing(redis: Any, chat_id: int) -> dict[str, Any] | None:
    found = await read_doc(redis, chat_id)
    if found is None or found[1].get("status") != "playing":
        return None
    return found[1]


async def test_an_envite_chico_with_computers_in_both_teams(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(**FAST)
    ana, bea = tg.user("Ana", "ana"), tg.user("Bea", "bea")
    group = tg.group("Envite con máquinas", members=[ana, bea], creator=ana)
    for user in (ana, bea):
        user.start_private()
    await tg.settle()
    lobby = await _lobby(tg, group, ana, "/nueva envite chicos=1 nivel=facil")
    bea.press(lobby, t(LANG, "button.join"))  # Ana was seated by /nueva
    await tg.settle(quiet=0.05)
    for _ in range(2):
        bea.press(lobby, t(LANG, "bots.add"))
        await tg.settle(quiet=0.05)
    ana.press(lobby, t(LANG, "button.start"))
    doc = await tg.wait_for(lambda: _playing(redis, group.id), what="the envite started")
    computers = [s for s, p in enumerate(doc["players"]) if p.get("bot_level")]
    assert len(computers) == 2 and {s % 2 for s in computers} == {0, 1}, doc["players"]
    assert all(doc["players"][s]["bot_level"] == "facil" for s in computers)
    table = EnviteTable(tg, group, [ana, bea], redis)
    people = {s for s in range(4) if s not in computers}
    rng = random.Random(9)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 180
    computer_moves = 0
    while loop.time() < give_up:
        doc = await table.doc()
        if doc.get("status") != "playing":
            break
        state = envite.from_json(doc["state"])
        seat = state.to_act[0]
        if seat not in people:
            await _wait_move(table, doc["turn"])
            computer_moves += 1
            continue
        await table.act(seat, lively(state, seat, rng), rng.choice(["button", "command"]))
    doc = await table.doc()
    assert doc["status"] == "over", "the chico did not end"
    assert computer_moves > 3
    await tg.settle()
    _only_people_written_to(tg, {group.id, ana.id, bea.id})
    texts = "\n".join(m.text for m in group.bot_messages())
    assert "🤖 Máquina 1" in texts and "🤖 Máquina 2" in texts


async def test_a_seat_taken_over_after_two_timeouts_and_handed_back(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(turn_timeout=1.0, **FAST)
    ana, bea = tg.user("Ana", "ana"), tg.user("Bea", "bea")
    group = tg.group("Mus de dos", members=[ana, bea], creator=ana)
    for user in (ana, bea):
        user.start_private()
    await tg.settle()
    lobby = await _lobby(tg, group, ana, "/nueva mus")
    bea.press(lobby, t(LANG, "button.join"))  # Ana was seated by /nueva
    await tg.settle(quiet=0.05)
    bea.send(group, "/empezar")
    fill = await tg.wait_for(lambda: _button(group, t(LANG, "bots.fill")), what="the fill offer")
    bea.press(fill, t(LANG, "bots.fill"))
    doc = await tg.wait_for(lambda: _playing(redis, group.id), what="started")
    ana_seat = next(s for s, p in enumerate(doc["players"]) if p["user_id"] == ana.id)
    bea_seat = next(s for s, p in enumerate(doc["players"]) if p["user_id"] == bea.id)
    table = MusTable(tg, group, [ana, bea], redis)
    takeover = t(LANG, "bots.takeover", name="Ana")
    rng = random.Random(2)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 60
    # Ana never answers; Bea plays whenever it is her turn.
    while not any(takeover in m.text for m in group.bot_messages()):
        assert loop.time() < give_up, "Ana's seat was never taken over"
        doc = await table.doc()
        state = mus.from_json(doc["state"])
        if bea_seat in state.to_act and not (ana_seat in state.to_act and state.phase != "discard"):
            legal = mus.legal_actions(state, bea_seat)
            action = legal[0] if state.phase == "discard" else rng.choice(legal[:2])
            with contextlib.suppress(AssertionError):  # a stale move: the table moved first
                await table.act(bea_seat, action, "command")
        else:
            await asyncio.sleep(0.02)
    doc = await table.doc()
    assert doc["players"][ana_seat]["away"] and doc["status"] == "playing"
    assert doc["players"][ana_seat]["misses"] == 2
    # The game goes on: the computer plays Ana's seat (no timeout counted for her any more).
    moved_for_ana = False
    while not moved_for_ana:
        assert loop.time() < give_up, "nobody played for Ana"
        doc = await table.doc()
        state = mus.from_json(doc["state"])
        if ana_seat in state.to_act and bea_seat not in state.to_act:
            after = await _wait_move(table, doc["turn"], timeout=0.9)
            moved_for_ana = after["players"][ana_seat].get("misses") == 2  # no new timeout
        elif bea_seat in state.to_act:
            legal = mus.legal_actions(state, bea_seat)
            action = legal[0] if state.phase == "discard" else rng.choice(legal[:2])
            with contextlib.suppress(AssertionError):  # a stale move: the table moved first
                await table.act(bea_seat, action, "command")
        else:
            await asyncio.sleep(0.02)
    back = t(LANG, "bots.back")
    message = await tg.wait_for(lambda: _button(group, back), what="the Vuelvo button")
    assert "🤖 Ana" in message.text
    query = ana.press(message, back)
    answer = await tg.wait_answer(query)
    assert answer.get("text") == t(LANG, "bots.welcome")
    doc = await table.doc()
    assert not doc["players"][ana_seat].get("away") and not doc["players"][ana_seat].get("misses")
    await tg.wait_for(
        lambda: back not in table.table_message(doc).button_texts(), what="Vuelvo button gone"
    )
    ana.send(group, "/vuelvo")
    await tg.wait_for(
        lambda: any(t(LANG, "bots.error.not_away") in m.text for m in group.bot_messages()),
        what="refused: nobody plays for Ana",
    )
    _only_people_written_to(tg, {group.id, ana.id, bea.id})
