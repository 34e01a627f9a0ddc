"""End to end: restarts, two bot processes on one Redis, turn timers, start-up tolerance.

"Processes" are Applications with their own Redis connection pool, each polling the fake Bot API
with its own token (same bot identity), so a test decides which process gets each update, or hands
the same update to both.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from conftest import ShiftedClock
from driver import LANG, MusTable, open_table, play_hand, read_doc, t
from fake_telegram import FakeTelegram, Message, User

import engine.mus as mus
from locales import t as catalog_t

pytestmark = pytest.mark.e2e

SECOND = "654321:SECOND-PROCESS"


async def to_discard(table: MusTable) -> Any:
    """Everybody says mus (commands): the hand goes to the discard phase."""
    state = await table.state()
    while state.phase == "mus":
        await table.act(state.to_act[0], mus.parse_action("mus"), "command")
        state = await table.state()
    assert state.phase == "discard" and set(state.to_act) == {0, 1, 2, 3}
    return state


def hands_of(state: Any) -> list[list[str]]:
    return [list(mus.view(state, s).to_dict()["cards"]) for s in range(4)]


# ---- restart ------------------------------------------------------------------------------


async def test_restart_mid_hand_then_finish_it(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    first = await apps.start()
    table, _users, group = await open_table(tg, redis_factory.client())
    state = await to_discard(table)
    for seat in (0, 1):  # two of the four discards happen before the restart
        await table.act(seat, mus.legal_actions(state, seat)[0], "button")
    await tg.settle()
    doc_before = await table.doc()
    await apps.stop(first)

    # A new process on the same Redis: nothing was lost, and it finishes the hand.
    await apps.start()
    state = await table.state()
    assert state.phase == "discard" and set(state.to_act) == {2, 3}
    assert (await table.doc())["shown"]["table_msg"] == doc_before["shown"]["table_msg"]
    state = await play_hand(table, random.Random(3))
    assert state.hand_number == 2
    await tg.settle()
    assert any(
        t(LANG, "event.hand_over", hand=1, a="", b="").split(".")[0] in m.text
        for m in group.bot_messages()
    )
    await table.assert_dms_show_hands()


# ---- two processes ------------------------------------------------------------------------


async def test_same_updates_to_two_processes_apply_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    await apps.start()
    await apps.start(token=SECOND)
    table, _users, group = await open_table(tg, redis_factory.client())
    state = await table.state()
    doc = await table.doc()

    # The same button press reaches both processes.
    seat = state.to_act[0]
    action = next(a for a in mus.legal_actions(state, seat) if a.kind == "mus")
    msg, data = await tg.wait_for(lambda: table.button_for(doc, action), what="the Mus button")
    table.seat_user(doc, seat).press(msg, data, deliver_to="all")
    await tg.settle()
    after = await table.doc()
    assert after["turn"] == doc["turn"] + 1
    state = await table.state()

    # The same command reaches both processes.
    seat = state.to_act[0]
    replies = len(group.bot_messages())
    table.seat_user(after, seat).send(group, "/mus", deliver_to="all")
    await tg.settle()
    again = await table.doc()
    assert again["turn"] == after["turn"] + 1
    assert len(group.bot_messages()) == replies, "a command handled twice (or a refusal)"
    tokens = {c.token for c in tg.calls if c.method == "editMessageText"}
    assert tokens <= {tg.tokens[0], SECOND}


def _toggle(table: MusTable, user: User, card: str) -> tuple[Message, str] | None:
    """The private hand's discard toggle for ``card``, once the discard is shown (the hand
    carries its señas' buttons before that)."""
    msg = table.hand_message(user)
    label = next((b["text"] for b in msg.buttons() if b["text"].endswith(_name(card))), None)
    return None if label is None else (msg, label)


async def test_burst_of_discards_across_two_processes(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    await apps.start()
    await apps.start(token=SECOND)
    table, _users, _group = await open_table(tg, redis_factory.client())
    state = await to_discard(table)
    doc = await table.doc()
    before = hands_of(state)

    # Four players toggle a card at the same moment, spread over the two processes.
    chosen = []
    for seat in range(4):
        user = table.seat_user(doc, seat)
        card = before[seat][seat % 4]
        chosen.append(card)
        msg, label = await tg.wait_for(
            lambda u=user, c=card: _toggle(table, u, c), what="discard toggles"
        )
        user.press(msg, label, deliver_to="round_robin")
    await tg.settle()
    doc = await table.doc()
    assert doc.get("discards") == {str(s): [chosen[s]] for s in range(4)}, "a toggle was lost"

    # Then all confirm at once; seat 0 double-taps, one tap to each process.
    confirm = t(LANG, "button.discard", n=1)
    for seat in range(4):
        user = table.seat_user(doc, seat)
        msg = await tg.wait_for(
            lambda u=user: (
                confirm in table.hand_message(u).button_texts() and table.hand_message(u)
            ),
            what="the confirm button",
        )
        if seat == 0:
            user.press(msg, confirm, deliver_to=tg.tokens[0])
            user.press(msg, confirm, deliver_to=SECOND)
        else:
            user.press(msg, confirm, deliver_to="round_robin")
    await tg.settle()
    state = await table.state()
    assert state.phase == "mus", "a discard was lost"
    after = hands_of(state)
    for seat in range(4):
        kept = [c for c in before[seat] if c in after[seat]]
        assert len(kept) == 3 and chosen[seat] not in after[seat], (seat, before, after)
    doc = await table.doc()
    log = [e for e in doc.get("log", []) if e["kind"] == "discarded"]
    assert sorted(e["data"]["seat"] for e in log) == [0, 1, 2, 3], "a discard applied twice"
    await table.assert_dms_show_hands()


def _name(card: str) -> str:
    from driver import card_name

    return card_name(card)


# ---- turn timers --------------------------------------------------------------------------


async def test_timeout_plays_the_default_then_the_computer_then_the_table_waits(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(turn_timeout=60.0)
    table, _users, group = await open_table(tg, redis)
    await tg.settle()
    # Restart with a short timer: the deadline written at the start is long, so act once first.
    await apps.stop_all()
    await apps.start(turn_timeout=0.4, timer_tick=0.05)
    state = await table.state()
    doc = await table.doc()
    mano = state.to_act[0]
    table.seat_user(doc, mano).send(group, "/mus")  # a move: the next timer is 0.4 s
    doc = await table.wait_turn_after(doc.get("turn", 0))
    state = await table.state()
    waiting = state.to_act[0]
    doc = await table.wait_turn_after(doc["turn"], timeout=5)
    name = doc["players"][waiting]["name"]
    line = t(LANG, "event.timeout", name=name, action="\x00").split("\x00")[0]
    await tg.wait_for(
        lambda: any(line in x for x in group.texts()),
        what=f"the timeout announced ({line!r})",
    )
    assert doc.get("timeouts") == 1
    # Nobody answers: after two timeouts of his own the computer plays each seat; when nobody
    # plays in person any more, the table waits (no timer) instead of being cancelled.
    takeover = catalog_t(LANG, "bots.takeover", name=name)
    await tg.wait_for(
        lambda: any(takeover in m.text for m in group.bot_messages()),
        timeout=15,
        what="the computer takes the seat",
    )
    paused = catalog_t(LANG, "bots.paused")
    await tg.wait_for(
        lambda: any(paused in m.text for m in group.bot_messages()), timeout=20, what="paused"
    )
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    assert all(p.get("away") for p in found[1]["players"]) and "deadline" not in found[1]


async def _status(redis: Any, chat_id: int, status: str) -> bool:
    found = await read_doc(redis, chat_id)
    return found is not None and found[1].get("status") == status


async def test_timer_fires_after_a_restart(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    first = await apps.start(turn_timeout=60.0)
    table, _users, group = await open_table(tg, redis)
    await apps.stop(first)
    await apps.start(turn_timeout=2.0, timer_tick=0.05)  # time enough to stop it (a busy CI)
    doc = await table.doc()
    state = await table.state()
    table.seat_user(doc, state.to_act[0]).send(group, "/mus")
    doc = await table.wait_turn_after(doc.get("turn", 0))
    second = apps.running[-1]
    await apps.stop(second)  # the timer is pending in Redis while no process runs
    await asyncio.sleep(0.2)
    before = (await table.doc())["turn"]
    assert before == doc["turn"], "the timer fired although no process was running"
    # The next process starts after the deadline (2.2 s later in its clock).
    clock = ShiftedClock()
    clock.advance(2.2)
    await apps.start(turn_timeout=0.5, timer_tick=0.05, clock=clock)
    after = await table.wait_turn_after(before, timeout=5)
    assert after.get("timeouts") == 1


# ---- start-up -----------------------------------------------------------------------------


async def test_start_up_survives_a_refused_set_my_commands(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.fail["setmycommands"] = (400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
    await apps.start()
    assert tg.calls_to("setMyCommands"), "setMyCommands was not even tried"
    assert all(not c.ok for c in tg.calls_to("setMyCommands"))
    ana = tg.user("Ana")
    group = tg.group("Mesa", members=[ana])
    ana.send(group, "/ayuda")
    await tg.settle()
    assert group.bot_messages(), "the bot does not answer after a refused setMyCommands"
    ana.send(group, f"/nueva@{tg.bot_username} mus")
    await tg.settle()
    found = await read_doc(redis_factory.client(), group.id)
    assert found is not None and found[1].get("status", "lobby") == "lobby"


async def test_two_processes_fire_a_timer_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    first = await apps.start(turn_timeout=60.0)
    table, _users, group = await open_table(tg, redis)
    await apps.stop(first)
    # Long enough that few expiries happen while the processes stop (the table message keeps
    # a bounded log of them).
    await apps.start(turn_timeout=1.5, timer_tick=0.02)
    await apps.start(token=SECOND, turn_timeout=1.5, timer_tick=0.02)
    doc = await table.doc()
    state = await table.state()
    table.seat_user(doc, state.to_act[0]).send(group, "/mus")
    doc = await table.wait_turn_after(doc.get("turn", 0))
    doc = await table.wait_turn_after(doc["turn"], timeout=5)  # the timer fired
    await apps.stop_all()  # no further expiry (one more may fire while stopping)
    doc = await table.doc()
    # One default move per expiry, never two: one timeout note each, and after the first one
    # the hand is exactly where one "corto" puts it.
    notes = [e for e in doc.get("log", []) if e["kind"] == "timeout"]
    assert len(notes) == doc.get("timeouts") >= 1, doc.get("log")
    assert notes[0]["data"]["action"] == "corto", notes
    if doc["timeouts"] == 1:
        state = await table.state()
        assert state.phase == "lance" and state.lance == "grande"
        assert state.to_act == (state.mano,)


async def test_joins_and_starts_at_once_on_two_processes(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Five people press Unirme at the same moment (spread over two processes): four seats are
    taken, the fifth is told the table is full; then Empezar is pressed twice at once."""
    redis = redis_factory.client()
    await apps.start()
    await apps.start(token=SECOND)
    users = [tg.user(n) for n in ("Ana", "Bea", "Cris", "Dani", "Eva")]
    for user in users:
        user.start_private()
    group = tg.group("Mus", members=users, creator=users[0])
    await tg.settle()
    users[0].send(group, "/nueva mus")
    join = t(LANG, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None)
    )
    queries = [u.press(lobby, join, deliver_to="round_robin") for u in users]
    answers = [await tg.wait_answer(q) for q in queries]
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    seated = [p["user_id"] for p in found[1]["players"]]
    assert len(seated) == 4 and len(set(seated)) == 4
    left_out = [a for a in answers if a["text"] == t(LANG, "error.table_full")]
    assert len(left_out) == 1, answers
    # Which lobby edit lands last is a race: test_a_slow_edit_does_not_leave_an_old_lobby.

    start = t(LANG, "button.start")
    players = [u for u in users if u.id in seated]
    pressed = time.monotonic()
    players[0].press(lobby, start, deliver_to=tg.tokens[0])
    players[1].press(lobby, start, deliver_to=SECOND)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    title = t(LANG, "hand.title", game="Mus", title=group.title, hand=1)

    def hands(user: Any) -> list[Any]:
        return [m for m in user.private.bot_messages() if m.text.startswith(title)]

    # Dealt at once, whichever process wrote the start: the other one may hold the lobby's
    # publication lock (it keeps it a moment to merge quick moves), but it is woken and lets go
    # (bot.publisher.listen). Measured: 0.06 s at most in 30 runs; before wake-ups 0.3 s when
    # the other process held the lock, and over 5 s once in about 25 runs (likeliest: a call
    # stuck in a dropped TCP handshake, the fake server's listen backlog being 5 then).
    await tg.wait_for(lambda: all(hands(u) for u in players), timeout=3.0, what="every hand")
    dealt = max(min(v.at for m in hands(u) for v in m.history[:1]) for u in players)
    assert dealt - pressed < 2.0, f"the hands came {dealt - pressed:.2f} s after Empezar"
    await tg.settle(quiet=0.5)
    for user in players:
        assert len(hands(user)) == 1, f"{user.first_name} got {len(hands(user))} hand messages"
    tables = [m for m in group.bot_messages() if m.text.startswith("🃏") and m.buttons()]
    assert len([m for m in tables if any(b["callback_data"][:2] == "a:" for b in m.buttons())]) == 1


async def test_a_slow_edit_does_not_leave_an_old_lobby(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Process A's lobby edit is slow; meanwhile process B seats someone else and edits first.
    The lobby must end up showing both players (A's late edit comes from an older table)."""
    redis = redis_factory.client()
    await apps.start()
    await apps.start(token=SECOND)
    ana, bea = tg.user("Ana"), tg.user("Bea")
    for user in (ana, bea):
        user.start_private()
    group = tg.group("Mus", members=[ana, bea], creator=ana)
    ana.send(group, "/nueva mus")
    join = t(LANG, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None)
    )
    tg.delay[(tg.tokens[0], "editmessagetext")] = 0.5
    ana.press(lobby, join, deliver_to=tg.tokens[0])
    await tg.wait_for(lambda: _seated(redis, group.id, 1), what="Ana seated")
    bea.press(lobby, join, deliver_to=SECOND)
    await tg.wait_for(lambda: _seated(redis, group.id, 2), what="Bea seated")
    await tg.settle()  # A's slow edits are answered too
    tg.delay.clear()
    await MusTable(tg, group, [ana, bea], redis).assert_messages_current(timeout=1)


async def test_a_slow_edit_does_not_leave_an_old_table_message(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """The same race on the table message: two discards confirmed on two processes, the first
    process's edit arriving last."""
    redis = redis_factory.client()
    await apps.start()
    table, _users, _group = await open_table(tg, redis)
    await apps.start(token=SECOND)
    state = await to_discard(table)
    doc = await table.doc()
    for seat in (0, 1):
        user = table.seat_user(doc, seat)
        card = hands_of(state)[seat][0]
        msg, label = await tg.wait_for(
            lambda u=user, c=card: _toggle(table, u, c), what="discard toggles"
        )
        user.press(msg, label)
    await tg.settle()
    tg.delay[(tg.tokens[0], "editmessagetext")] = 0.5
    confirm = t(LANG, "button.discard", n=1)
    turn = (await table.doc())["turn"]
    first = table.seat_user(doc, 0)
    first.press(table.hand_message(first), confirm, deliver_to=tg.tokens[0])
    await table.wait_turn_after(turn)
    second = table.seat_user(doc, 1)
    second.press(table.hand_message(second), confirm, deliver_to=SECOND)
    await table.wait_turn_after(turn + 1)
    await tg.settle()  # seat 0's process edits its DM, then the table message (slowly)
    tg.delay.clear()
    await table.assert_messages_current(timeout=1)


async def _seated(redis: Any, chat_id: int, n: int) -> bool:
    found = await read_doc(redis, chat_id)
    return found is not None and len(found[1].get("players", [])) >= n


async def test_two_processes_play_hands_in_turns(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Two processes take the updates in turns for two whole hands: every hand gets its table
    message and its result, the private hands stay right, no card leaks."""
    await apps.start()
    await apps.start(token=SECOND)
    table, _users, group = await open_table(tg, redis_factory.client())
    for hand in (1, 2):
        state = await play_hand(table, random.Random(hand), deliver_to="round_robin")
        assert state.hand_number == hand + 1
        await tg.settle()
        table.check.check(state)

        async def recorded() -> bool:
            # The process that dealt records the new message's id right after sending it.
            return (await table.doc()).get("shown", {}).get("table_msg") is not None

        await tg.wait_for(recorded, what="the new hand's table message recorded")
        doc = await table.doc()
        title = t(LANG, "table.title", game="Mus", hand=hand + 1, options="")
        assert table.table_message(doc).raw.startswith(title.split(" · ")[0])
        result = t(LANG, "event.hand_over", hand=hand, a="", b="").split(".")[0]
        assert any(result in m.text for m in group.bot_messages())
        await table.assert_dms_show_hands()
        await table.assert_messages_current()


async def test_a_refused_command_delivered_twice_is_answered_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Update ids are de-duplicated for every update, not only for those that change a table:
    the same refused command handed to two processes gets one reply."""
    await apps.start()
    await apps.start(token=SECOND)
    ana = tg.user("Ana")
    group = tg.group("Mus", members=[ana])
    ana.send(group, "/paso", deliver_to="all")
    await tg.settle()
    assert [m.text for m in group.bot_messages()] == [t(LANG, "error.no_table")]
