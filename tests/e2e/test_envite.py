"""Envite end to end: a real Application over HTTP against the fake Bot API, Redis behind it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import PREFIX, card_mentions, read_raw
from envite_driver import (
    EnviteTable,
    no_held_card_in_group,
    open_envite,
    play_round,
)

import engine.envite as envite
from engine.core import Action
from locales import t

pytestmark = pytest.mark.asyncio


def group_sends(table: EnviteTable) -> int:
    """New group messages the bot sent (edits not counted)."""
    return len(table.group.bot_messages())


async def _chico(tg: Any, apps: Any, redis_factory: Any, players: int) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=players, options="chicos=1")
    rng = random.Random(players)
    rounds = 0
    while True:
        before = group_sends(table)
        state = await play_round(
            table, rng, vias=("button", "command"), check=no_held_card_in_group
        )
        # Publishing runs after the answer (in the background): let the round's result land
        # before the next round is counted, even on a loaded machine.
        await tg.settle(quiet=0.3)
        rounds += 1
        # At most the round result and the next round's table message.
        assert group_sends(table) - before <= 2
        if state.is_over:
            break
    texts = [m.text for m in table.group.bot_messages()]
    assert any("ganan la partida" in x for x in texts), texts[-3:]
    assert any("Chico para" in x for x in texts)
    assert rounds >= 2


async def test_a_whole_chico_with_four_players(tg: Any, apps: Any, redis_factory: Any) -> None:
    await _chico(tg, apps, redis_factory, 4)


async def test_a_whole_chico_with_six_players(tg: Any, apps: Any, redis_factory: Any) -> None:
    await _chico(tg, apps, redis_factory, 6)


async def test_a_round_through_inline_mode(tg: Any, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4)

    def cards_only(state: Any, seat: int, rng: random.Random) -> Action:
        return rng.choice([a for a in envite.legal_actions(state, seat) if a.cards])

    state = await play_round(table, random.Random(2), vias=("inline",), policy=cards_only)
    assert state.round == 2
    posted = [m for m in table.group.messages if m.via_bot]
    assert len(posted) >= 4 and all(m.text.startswith("🃏 ") for m in posted)
    # A user not to act gets no card, only the explanatory button.
    await tg.settle(quiet=0.05)
    doc = await table.doc()
    idle = next(u for u in table.users if u.id != doc["players"][state.to_act[0]]["user_id"])
    msg = table.message(doc["shown"]["table_msg"])
    assert msg is not None
    query = idle.press(msg, t("es", "envite.button.play"))
    answer = await tg.wait_inline_answer(query)
    assert answer.results == [] and answer.button is not None
    assert answer.button["text"] == t("es", "inline.nothing")


async def test_a_stale_inline_choice_is_refused_privately(
    tg: Any, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4)
    state = await table.state()
    seat = state.to_act[0]
    doc = await table.doc()
    user = table.user_at(doc, seat)
    msg = table.message(doc["shown"]["table_msg"])
    assert msg is not None
    query = user.press(msg, t("es", "envite.button.play"))
    answer = await tg.wait_inline_answer(query)
    first, second = answer.ids()[0], answer.ids()[1]
    user.choose_inline_result(query, first)
    await table.wait_turn_after(doc["turn"])
    await tg.settle(quiet=0.05)
    raw = await read_raw(redis, table.group.id)
    user.choose_inline_result(query, second)  # the same results again: an older turn
    await tg.settle(quiet=0.1)
    assert await read_raw(redis, table.group.id) == raw
    assert user.private.bot_messages()[-1].text == t("es", "error.stale")


async def test_a_round_with_the_mocho(tg: Any, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=5, options="mocho")
    state = await table.state()
    assert state.ghost == 5
    doc = await table.doc()
    bea = table.user_at(doc, 1)  # the mandador of the short team
    hand = table.hand_message(bea)
    assert hand is not None and "Cartas del mocho:" in hand.text and "Tus cartas:" in hand.text
    mocho_turns = 0

    async def check(tbl: EnviteTable) -> None:
        nonlocal mocho_turns
        await no_held_card_in_group(tbl)
        st = await tbl.state()
        if st.phase == "play" and st.turn == st.ghost:
            mocho_turns += 1
            d = await tbl.doc()
            await tg.settle(quiet=0.05)
            msg = tbl.message(d["shown"]["table_msg"])
            assert msg is not None and "Mano del mocho (juega Bea)" in msg.text

    def cards_only(state: Any, seat: int, rng: random.Random) -> Action:
        return rng.choice([a for a in envite.legal_actions(state, seat) if a.cards])

    state = await play_round(
        table, random.Random(5), vias=("button", "inline"), policy=cards_only, check=check
    )
    assert state.round == 2 and mocho_turns >= 1


async def test_a_round_in_modo_renuncio_with_a_renuncio_called(
    tg: Any, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4, options="renuncio")
    for _ in range(12):
        state = await table.state()
        number = state.round
        called = False
        while state.round == number and not state.is_over:
            seat = state.to_act[0]
            if state.phase == "play" and state.trick:
                lawful = set(envite.playable(state, state.turn))
                cheat = [c for c in state.hands[state.turn] if c not in lawful]
                if cheat:
                    await table.act(seat, Action("tiro", cards=(cheat[0],)), "command")
                    state = await table.state()
                    if state.round != number:
                        break
                    caller = next(s for s in range(4) if s % 2 != seat % 2)
                    await table.act(caller, Action("renuncio"), "button")
                    called = True
                    break
            legal = [a for a in envite.legal_actions(state, seat) if a.cards]
            await table.act(seat, legal[0] if legal else Action("quiero"), "button")
            state = await table.state()
        if called:
            await tg.settle(quiet=0.05)
            texts = [m.text for m in table.group.bot_messages()]
            assert any("¡Renuncio! Lo canta" in x for x in texts), texts[-2:]
            return
    pytest.fail("no chance for a renuncio in 12 rounds")


async def test_bad_inputs_are_answered_and_change_nothing(
    tg: Any, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4)
    group = table.group
    # Find a moment where the player to act holds a card he may not play.
    rng = random.Random(3)
    while True:
        state = await table.state()
        seat = state.to_act[0]
        if state.phase == "play" and state.trick:
            illegal = [c for c in state.hands[seat] if c not in envite.playable(state, seat)]
            if illegal:
                break
        legal = [a for a in envite.legal_actions(state, seat) if a.cards]
        await table.act(seat, rng.choice(legal), "button")
    doc = await table.doc()
    user = table.user_at(doc, seat)
    raw = await read_raw(redis, group.id)
    sends = len(group.bot_messages())
    user.send(group, f"/tiro {illegal[0]}")
    await tg.settle(quiet=0.1)
    assert await read_raw(redis, group.id) == raw
    assert len(group.bot_messages()) == sends, "a refusal about a hand went to the group"
    dm = user.private.bot_messages()[-1].text
    assert dm.startswith("Tienes que") and not card_mentions(dm, [str(illegal[0])])

    # Somebody else types /tiro out of turn: a clear refusal in the group, nothing changes.
    other = table.user_at(doc, (seat + 1) % 4)
    other.send(group, "/tiro 1o")
    await tg.settle(quiet=0.1)
    assert await read_raw(redis, group.id) == raw

    # An envido answered by the mandador's teammate: "Contesta el mandador: ...".
    state = await table.state()
    bettor = state.to_act[0]
    await table.act(bettor, Action("envido"), "command")
    state = await table.state()
    mandador = state.to_act[0]
    mate = (mandador + 2) % 4
    raw = await read_raw(redis, group.id)
    table.user_at(doc, mate).send(group, "/quiero")
    await tg.settle(quiet=0.1)
    assert await read_raw(redis, group.id) == raw
    name = doc["players"][mandador]["name"]
    assert group.bot_messages()[-1].text == f"Contesta el mandador: {name}."

    # A button of an older turn (the table moved on since) is refused with an alert.
    msg = table.message(doc["shown"]["table_msg"])
    assert msg is not None
    stale = f"a:{group.id}:{doc['tid']}:{doc['turn'] - 1}:quiero"
    query = table.user_at(doc, mandador).press_data(msg, stale)
    answer = await tg.wait_answer(query)
    assert answer.get("text") == t("es", "error.stale")
    assert await read_raw(redis, group.id) == raw

    # A bet en tumbo: the stored game is put at 11 for team 0 (test set-up).
    await table.act(mandador, Action("quiero"), "button")
    await tg.settle(quiet=0.1)  # the bot's own follow-up writes are done before the set-up
    fresh = envite.new_game(players=4, seed=4, score=(11, 3))
    key = f"{PREFIX}:t:{group.id}"
    stored = await table.doc()
    import json

    stored["state"] = envite.to_json(fresh)
    async with redis.pipeline(transaction=True) as pipe:  # a new version: no CAS clobbers it
        pipe.hset(key, "d", json.dumps(stored))
        pipe.hincrby(key, "v", 1)
        await pipe.execute()
    raw = await read_raw(redis, group.id)
    table.user_at(stored, 0).send(group, "/envido")
    await tg.settle(quiet=0.1)
    assert await read_raw(redis, group.id) == raw
    assert group.bot_messages()[-1].text == t("es", "error.no_bets_en_tumbo")


async def test_restart_mid_round_continues(tg: Any, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    app = await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4)
    state = await table.state()
    for _ in range(2):
        seat = state.to_act[0]
        card = next(a for a in envite.legal_actions(state, seat) if a.cards)
        await table.act(seat, card, "button")
        state = await table.state()
    await apps.stop(app)
    await apps.start(redis=redis_factory.client())
    state = await play_round(table, random.Random(1), vias=("command", "button"))
    assert state.round == 2 or state.is_over
