"""Chaos for the results (issue 25): real bot processes (``python -m bot``) on one store, Redis or
a SQLite file, play envite, piedras or Mus through the fake Bot API while processes are killed
(at random, and right after one showed a result), Bot API calls time out before and after their
effect, answers are slow and a process is stopped long enough for its publishing lock to lapse.
At the end every finished hand's (envite: round's) result is in the group exactly once.

Used by ``tests/e2e/test_chaos.py`` (a few hands) and ``bench/chaos.py`` (hundreds).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import driver
import envite_driver
import piedras_driver
from botproc import BotProcess
from driver import PREFIX, t
from fake_telegram import Chat, FakeTelegram, User

import engine.envite as envite
import engine.mus as mus
import engine.piedras as piedras
from engine.core import Action

RESULT = re.compile(r"🏁 (?:Fin de la mano|Ronda) (\d+)\b")
"""A result's title in Spanish (Mus and piedras: "Fin de la mano 3", envite: "Ronda 3")."""
GAME_OVER = t("es", "msg.game_over")
API_TIMEOUT = 1.0
"""The processes' ``TAPETE_API_TIMEOUT``; the fake holds a timed-out answer a little longer."""
STALL = 11.0
"""Seconds a starved process is stopped: beyond the publishing lock's 10 s lease."""


class SqliteReader:
    """What the drivers read of Redis (``hmget`` of a table), from the processes' SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def hmget(self, key: str, fields: list[str]) -> list[Any]:
        chat = int(key.rsplit(":", 1)[1])
        for _ in range(50):
            try:
                with contextlib.closing(sqlite3.connect(self.path, timeout=5)) as db:
                    row = db.execute("SELECT v, d FROM tables WHERE chat = ?", (chat,)).fetchone()
                break
            except sqlite3.OperationalError:  # (the file is being created)
                await asyncio.sleep(0.05)
        else:
            row = None
        return [None, None] if row is None else [row[0], row[1]]


class PrefixedReader:
    """The drivers' reads of Redis (under the tests' prefix) from keys under ``prefix``."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis, self.prefix = redis, prefix

    async def hmget(self, key: str, fields: list[str]) -> list[Any]:
        return list(await self.redis.hmget(key.replace(PREFIX, self.prefix, 1), fields))


@dataclass
class Figures:
    """What a run did and found."""

    hands: int = 0
    lost: int = 0
    doubled: int = 0
    moves: int = 0
    kills: int = 0
    kills_after_result: int = 0
    timeouts: Counter[str] = field(default_factory=Counter)
    slow: int = 0
    stalls: int = 0
    retyped: int = 0
    reopened: int = 0
    tables: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in ("hands", "lost", "doubled", "moves", "kills", "kills_after_result"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.slow += other.slow
        self.stalls += other.stalls
        self.retyped += other.retyped
        self.reopened += other.reopened
        self.tables += other.tables
        self.timeouts.update(other.timeouts)
        self.problems += other.problems

    def line(self, game: str, store: str, processes: int) -> str:
        outs = ", ".join(f"{k} {v}" for k, v in sorted(self.timeouts.items()))
        return (
            f"{game} on {store}, {processes} processes: {self.hands} results over "
            f"{self.tables} tables: lost {self.lost}, posted twice {self.doubled} | {self.moves} "
            f"moves, {self.kills} kills ({self.kills_after_result} right after a result was "
            f"shown), timeouts: {outs or 'none'}, {self.slow} slow spells, {self.stalls} stalls, "
            f"{self.retyped} commands typed again, {self.reopened} tables opened again"
        )


@dataclass
class Faults:
    """Chances per move of each fault."""

    kill: float = 0.1
    kill_after_result: float = 0.5
    timeout: float = 0.08
    result_timeout: float = 0.3
    slow: float = 0.05
    stall: float = 0.0


NAMES = ["Ana", "Bea", "Cris", "Dani", "Eva", "Fer"]


async def open_group(
    tg: FakeTelegram, reader: Any, words: str, players: int
) -> tuple[Chat, list[User]]:
    """A group whose first member opens ``/nueva <words>``; the others join by ``/unirme``, one
    after another (each seen seated before the next, whichever process takes it), and the first
    starts by ``/empezar``."""
    users = [tg.user(NAMES[i], f"{NAMES[i].lower()}{i}") for i in range(players)]
    group = tg.group("Caos", members=users, creator=users[0])
    for user in users:
        user.start_private()
    users[0].send(group, f"/nueva {words}")

    async def seated(count: int) -> bool:
        found = await driver.read_doc(reader, group.id)
        return found is not None and len(found[1].get("players", [])) >= count

    await tg.wait_for(lambda: seated(1), timeout=30, what="the table", interval=0.02)
    for i, user in enumerate(users[1:], start=2):
        user.send(group, "/unirme")
        await tg.wait_for(lambda n=i: seated(n), timeout=30, what="a join", interval=0.02)  # type: ignore[misc]
    users[0].send(group, "/empezar")

    async def playing() -> bool:
        found = await driver.read_doc(reader, group.id)
        return found is not None and found[1].get("status") == "playing"

    await tg.wait_for(playing, timeout=30, what="the start", interval=0.02)
    return group, users


class Game:
    """How the chaos plays one game: opening a table, a move, and where its hand is."""

    name = ""

    async def open(self, tg: FakeTelegram, reader: Any) -> tuple[Chat, list[User]]:
        raise NotImplementedError

    def state(self, doc: dict[str, Any]) -> Any:
        raise NotImplementedError

    def number(self, state: Any) -> int:
        """The hand (envite: round) being played."""
        raise NotImplementedError

    def done(self, state: Any, first: Any) -> bool:
        """The table is finished with (over, or its results would be numbered again)."""
        return bool(state.is_over)

    def move(self, state: Any, seat: int, rng: random.Random) -> tuple[str, bool]:
        """The command for ``seat`` and whether it goes to the private chat."""
        raise NotImplementedError


class Envite(Game):
    name = "envite"

    async def open(self, tg: FakeTelegram, reader: Any) -> tuple[Chat, list[User]]:
        return await open_group(tg, reader, "envite chicos=1", 4)

    def state(self, doc: dict[str, Any]) -> Any:
        return envite.from_json(doc["state"])

    def number(self, state: Any) -> int:
        return int(state.round)

    def move(self, state: Any, seat: int, rng: random.Random) -> tuple[str, bool]:
        return envite_driver.command_for(envite_driver.lively(state, seat, rng)), False


class Piedras(Game):
    name = "piedras"

    async def open(self, tg: FakeTelegram, reader: Any) -> tuple[Chat, list[User]]:
        return await open_group(tg, reader, "piedras piedras=5", 3)

    def state(self, doc: dict[str, Any]) -> Any:
        return piedras.from_json(doc["state"])

    def number(self, state: Any) -> int:
        return int(state.hand_number)

    def done(self, state: Any, first: Any) -> bool:
        return bool(state.is_over or state.juego != first.juego)

    def move(self, state: Any, seat: int, rng: random.Random) -> tuple[str, bool]:
        if state.phase == "discard":
            return f"/descarto {rng.choice(state.hands[seat])}", True
        action = piedras_driver.lively(state, seat, rng.randrange(100), set())
        return piedras_driver.command_for(action), False


class Mus(Game):
    name = "mus"

    async def open(self, tg: FakeTelegram, reader: Any) -> tuple[Chat, list[User]]:
        return await open_group(tg, reader, "mus", 4)

    def state(self, doc: dict[str, Any]) -> Any:
        return mus.from_json(doc["state"])

    def number(self, state: Any) -> int:
        return int(state.hand_number)

    def move(self, state: Any, seat: int, rng: random.Random) -> tuple[str, bool]:
        if state.phase == "mus":  # cut at once: the moves that matter are the lances'
            action: Action = next(a for a in mus.legal_actions(state, seat) if a.kind == "corto")
        else:
            action = driver.choose(state, seat, rng.randrange(100))
        return driver.command_for(action), False


GAMES: dict[str, Game] = {g.name: g for g in (Envite(), Piedras(), Mus())}


def _in_group(chat: Chat) -> Any:
    return lambda params: str(params.get("chat_id")) == str(chat.id)


def _shows_result(params: dict[str, Any]) -> bool:
    return RESULT.search(str(params.get("text", ""))) is not None


async def _doc(reader: Any, chat: Chat) -> dict[str, Any]:
    found = await driver.read_doc(reader, chat.id)
    assert found is not None, "no table stored"
    return found[1]


async def _wait_turn(reader: Any, chat: Chat, turn: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        doc = await _doc(reader, chat)
        if doc.get("turn", 0) > turn:
            return doc
        if time.monotonic() > deadline:
            raise AssertionError(f"the table did not move past turn {turn}")
        await asyncio.sleep(0.01)


def count_results(chat: Chat) -> Counter[int]:
    """How many group messages show each hand's result now."""
    found: Counter[int] = Counter()
    for message in chat.bot_messages():
        for number in RESULT.findall(message.text):
            found[int(number)] += 1
    return found


async def play_table(
    tg: FakeTelegram,
    game: Game,
    procs: list[BotProcess],
    reader: Any,
    rng: random.Random,
    faults: Faults,
    hands: int,
    logs: Path,
) -> Figures:
    """One table of ``game`` played for ``hands`` hands (or to its end) under ``faults``."""
    figures = Figures(tables=1)
    for attempt in range(3):
        try:  # (the drivers' opening waits for a quiet fake server: under load it may not)
            group, users = await game.open(tg, reader)
            break
        except AssertionError:
            if attempt == 2:
                raise
            figures.reopened += 1
    by_id = {u.id: u for u in users}
    doc = await _doc(reader, group)
    first = state = game.state(doc)
    start = game.number(state)
    mark = tg.mark()
    slow_until = 0
    while game.number(state) < start + hands and not game.done(state, first):
        seat = state.to_act[0]
        user = by_id[doc["players"][seat]["user_id"]]
        command, private = game.move(state, seat, rng)
        pending = {(f.method, f.when is _shows_result) for f in tg.timeouts if f.left > 0}
        if rng.random() < faults.timeout and not pending:
            method = rng.choice(["sendMessage", "editMessageText"])
            effect = rng.random() < 0.5
            tg.time_out(method, effect=effect, when=_in_group(group))
            figures.timeouts[f"{method} {'after' if effect else 'before'}"] += 1
        if rng.random() < faults.result_timeout and not pending:
            effect = rng.random() < 0.5
            tg.time_out("editMessageText", effect=effect, when=_shows_result)
            tg.time_out("sendMessage", effect=effect, when=_shows_result)
            figures.timeouts[f"result {'after' if effect else 'before'}"] += 1
        if rng.random() < faults.slow:
            slow_until = figures.moves + 5
            for proc in procs:
                tg.delay[(proc.token, "editmessagetext")] = rng.uniform(0.2, 0.8)
            figures.slow += 1
        elif figures.moves >= slow_until:
            tg.delay.clear()
        target = rng.choice(procs)
        before = doc.get("turn", 0)
        user.send(user.private if private else group, command, deliver_to=target.token)
        figures.moves += 1
        if rng.random() < faults.stall:
            await asyncio.sleep(rng.uniform(0.0, 0.05))  # starved mid-publication, likely
            await target.stall(STALL)
            figures.stalls += 1
        elif rng.random() < faults.kill:
            await asyncio.sleep(rng.uniform(0.0, 0.15))
            await rng.choice(procs).restart()
            figures.kills += 1
        for attempt in range(3):
            try:
                doc = await _wait_turn(reader, group, before, timeout=20)
                break
            except AssertionError:
                if attempt == 2:
                    raise
                # Not applied (its update went to a process being killed or stopped, say):
                # typed again, as a person would.
                again = rng.choice(procs).token
                user.send(user.private if private else group, command, deliver_to=again)
                figures.retyped += 1
        state = game.state(doc)
        # A process that just showed a result is killed at once, now and then.
        shown = [c for c in tg.calls[mark:] if c.ok and _shows_result(c.params)]
        mark = len(tg.calls)
        if shown:  # the result showed: the other half of its timeout pair is stale (a result
            for fault in list(tg.timeouts):  # is an edit: its sendMessage half never fires)
                if fault.when is _shows_result:
                    fault.left = 0
        if shown and rng.random() < faults.kill_after_result:
            victim = next((p for p in procs if p.token == shown[-1].token), None)
            if victim is not None:
                await victim.restart()
                figures.kills += 1
                figures.kills_after_result += 1
    over = bool(state.is_over)
    finished = list(range(start, game.number(state)))
    last = game.number(state)  # at the game's end, its result may name it (Mus, piedras)
    figures.hands = len(finished) + over
    # Whatever was left to publish (a killed or stalled process's) is finished by the others.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        counts = count_results(group)
        ended = not over or any(GAME_OVER in m.text for m in group.bot_messages())
        if ended and all(counts.get(n, 0) >= 1 for n in finished):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)  # a second copy would come now
    counts = count_results(group)
    figures.lost = sum(1 for n in finished if counts.get(n, 0) == 0)
    figures.doubled = sum(1 for n in finished if counts.get(n, 0) > 1)
    figures.doubled += sum(1 for n in counts if n not in finished and not (over and n == last))
    figures.doubled += over and counts.get(last, 0) > 1
    if over:  # the game's result: at the foot of its table message, once
        ends = sum(m.text.count(GAME_OVER) for m in group.bot_messages())
        figures.lost += ends == 0
        figures.doubled += ends > 1
    if figures.lost or figures.doubled:
        figures.problems.append(f"{game.name} chat {group.id}: {dict(counts)} for {finished}")
        with (logs / f"problem{group.id}.txt").open("w") as out:  # what went wrong, to read
            for m in group.bot_messages(include_deleted=True):
                print("-----", m.message_id, [v.text for v in m.history], file=out)
            for c in tg.calls:
                if str(c.params.get("chat_id")) == str(group.id):
                    print("CALL", c.seq, c.token[:8], c.method, c.ok, c.error, c.params, file=out)
            print("TIMED OUT", tg.timed_out, file=out)
    tg.delay.clear()
    return figures


async def run(
    tg: FakeTelegram,
    game: str,
    *,
    processes: int,
    store: str,
    tables: int,
    hands: int,
    seed: int,
    faults: Faults,
    logs: Path,
    redis: Any = None,
    prefix: str = PREFIX,
    until: int = 0,
    progress: bool = False,
) -> Figures:
    """``tables`` tables of ``game`` one after another on ``processes`` processes (fewer if
    ``until`` results were checked before)."""
    rng = random.Random(seed)
    sqlite = logs / "tapete.sqlite3" if store == "sqlite" else None
    tokens = list(tg.tokens)
    while len(tokens) < processes:
        tokens.append(tg.add_token(f"{700000 + len(tokens)}:CHAOS-{len(tokens)}"))
    env = {"TAPETE_API_TIMEOUT": str(API_TIMEOUT)}
    procs = [
        BotProcess(tg, token, logs / f"bot{i}.log", sqlite, prefix, env)
        for i, token in enumerate(tokens[:processes])
    ]
    reader = SqliteReader(sqlite) if sqlite is not None else PrefixedReader(redis, prefix)
    tg.timeout_hold = API_TIMEOUT + 0.5
    total = Figures()
    try:
        for proc in procs:
            polls = tg.polls_started(proc.token)
            proc.start()
            await tg.wait_for(
                lambda p=proc, n=polls: tg.polls_started(p.token) > n,  # type: ignore[misc]
                timeout=90,
                what="a process polling",
            )
        for _ in range(tables):
            total.add(await play_table(tg, GAMES[game], procs, reader, rng, faults, hands, logs))
            if progress:
                print(total.line(game, store, processes), flush=True)
            if until and total.hands >= until:
                break
    finally:
        tg.timeouts.clear()
        for proc in procs:
            proc.stop()
    return total
