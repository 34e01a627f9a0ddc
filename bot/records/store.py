"""Where records live: beside the tables, in Redis without expiry or in the SQLite file.

Keys (``{p}`` = ``<settings prefix>:rec``), per group chat ``<c>``:

- ``{p}:games:<c>``: the ids of the last :attr:`Records.keep` games, newest first; each game's
  record ``{p}:game:<c>:<id>`` and its hands ``{p}:hands:<c>:<id>`` (hand number → the hand's
  replayable JSON). Hands are written as each hand ends, with a TTL (a game never finished
  leaves nothing behind); the game's record makes them permanent. Games beyond ``keep`` are
  dropped with their hands; the aggregates below keep counting them.
- ``{p}:stats:<c>:<game>`` (``<user>:<counter>`` and ``*:<counter>`` → int),
  ``{p}:pairs:<c>:<game>`` (``<a>,<b>:games|won``), ``{p}:rate:<c>:<game>`` (user → rating),
  ``{p}:names:<c>`` (user → last name), ``{p}:meta:<c>`` (``seq``: games recorded).
- ``{p}:user:<u>``: the chats where a user has records (for ``/olvidame``).

A game is written once, by one Lua script, idempotently: ``SET {p}:done:<c>:<id> NX`` guards
everything (a re-delivered update, a second process, a publisher retry find it set and write
nothing). The new ratings are computed in Python from the ratings read just before (with the
games that the new one pushes out of the history: the script is given every key it touches);
the script refuses (and the write is retried) if another game of the group was recorded in
between (``seq`` moved).

On a Redis Cluster every key of a group carries the group's hash tag (``{p}:{<c>}:games``,
``{p}:{<c>}:game:<id>``...): one group's records are one slot, and the groups spread over the
masters. The users' sets (``{p}:user:<u>``, each in a slot of its own) are added just before the
script. A recorded game is irreversible (the group saw its result and the ratings moved), so
the script is followed by ``WAIT`` for a replica, at most :data:`RECORD_WAIT_MS`: a failover
right after it then finds the record on the promoted replica (unless the wait ran out: logged).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from redis.asyncio.cluster import RedisCluster

from bot.games.registry import GAMES
from bot.records import rating
from bot.records.model import GameRecord, forget_player, increments
from bot.records.rating import Rating
from bot.store import Client, RedisStore, SQLiteStore, Store

DEFAULT_KEEP = 200
"""Games kept in full per group (older ones live on in the aggregates only)."""
DONE_TTL = 30 * 24 * 3600
"""Seconds a recorded game's dedupe mark lives (re-deliveries come within hours)."""
HANDS_TTL = 7 * 24 * 3600
"""Seconds the hands of a game still being played are kept (a finished game keeps them)."""
RECORD_WAIT_MS = 1000
"""On a cluster, how long a recorded game waits for a replica to have it (``WAIT``)."""

log = logging.getLogger("bot.records")


@dataclass
class Commit:
    """Everything one game writes (computed before the script runs)."""

    record: GameRecord
    seq: int
    stats: dict[str, int]
    pairs: dict[str, int]
    rates: dict[int, Rating]
    names: dict[int, str]
    dropping: list[str]
    """The ids of the games the new one pushes out of the history (Redis only)."""


class Records(Protocol):
    """The records of every group (see the module docstring)."""

    keep: int

    async def add_hand(self, chat_id: int, gid: str, hand: int, doc: str) -> None: ...

    async def add_game(self, record: GameRecord) -> bool:
        """Store a finished game and add it to the aggregates: True the first time only."""
        ...

    async def games(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        """The group's last games, newest first."""
        ...

    async def game(self, chat_id: int, gid: str) -> GameRecord | None:
        """One stored game (``None`` once dropped from the history, or never finished)."""
        ...

    async def hand(self, chat_id: int, gid: str, hand: int) -> str | None: ...

    async def hand_numbers(self, chat_id: int, gid: str) -> list[int]: ...

    async def stats(self, chat_id: int, game: str) -> dict[str, int]: ...

    async def pairs(self, chat_id: int, game: str) -> dict[str, int]: ...

    async def ratings(self, chat_id: int, game: str) -> dict[int, Rating]: ...

    async def names(self, chat_id: int) -> dict[int, str]: ...

    async def forget(self, user_id: int) -> int:
        """Delete a user's aggregates and take his id and name out of the stored games (the
        results stay); returns the number of groups touched."""
        ...


class RecordsBase:
    """``add_game`` for both back-ends: read the ratings, compute, commit once (retried)."""

    keep: int = DEFAULT_KEEP

    async def _read(
        self, chat_id: int, game: str, ids: Sequence[int]
    ) -> tuple[int, list[str], list[str]]:
        """The group's ``seq``, the players' ratings and the games the next one drops."""
        raise NotImplementedError

    async def _commit(self, commit: Commit) -> int:
        """1 written, 0 already recorded, -1 another game came first (retry)."""
        raise NotImplementedError

    async def add_game(self, record: GameRecord) -> bool:
        for _ in range(20):
            commit = await self._prepare(record)
            done = await self._commit(commit)
            if done >= 0:
                return done == 1
            await asyncio.sleep(0.01)
        raise RuntimeError(f"game {record.id} could not be recorded")

    async def _prepare(self, record: GameRecord) -> Commit:
        record = record.model_copy(deep=True)
        ids = [p.id for p in record.players]
        seq, raw, dropping = await self._read(record.chat, record.game, ids)
        sides = record.teams()
        current = dict(zip(ids, (rating.load(r) for r in raw), strict=True))
        new = rating.rate([[current[p.id] for p in side] for side in sides], _side_places(record))
        rates: dict[int, Rating] = {}
        for side, ratings in zip(sides, new, strict=True):
            for player, value in zip(side, ratings, strict=True):
                player.rating = rating.shown(value)
                if not player.computer:
                    rates[player.id] = value
        stats, pairs = increments(record)
        names = {p.id: p.name for p in record.players if not p.computer}
        return Commit(record, seq, stats, pairs, rates, names, dropping)


def _side_places(record: GameRecord) -> list[int]:
    return [record.places[side[0].seat] for side in record.teams()]


# ---- Redis -----------------------------------------------------------------------------------

_ADD_GAME = """
-- KEYS: done, games, game, hands, stats, pairs, rate, names, meta, then the game and hands keys
-- of each game dropped, then the users' sets (none on a cluster). ARGV: seq, id, record, keep,
-- the ids of the games dropped (space-separated), done ttl, chat, then the flat maps.
local seq = tonumber(redis.call('HGET', KEYS[9], 'seq') or '0')
if seq ~= tonumber(ARGV[1]) then return -1 end
local keep = tonumber(ARGV[4])
local old = redis.call('LRANGE', KEYS[2], keep - 1, -1)
if table.concat(old, ' ') ~= ARGV[5] then return -1 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[6]) then return 0 end
redis.call('HINCRBY', KEYS[9], 'seq', 1)
redis.call('SET', KEYS[3], ARGV[3])
redis.call('PERSIST', KEYS[4])
redis.call('LPUSH', KEYS[2], ARGV[2])
for k = 10, 9 + 2 * #old do redis.call('DEL', KEYS[k]) end
redis.call('LTRIM', KEYS[2], 0, keep - 1)
local i = 8
local function each(key, op)
  local n = tonumber(ARGV[i]); i = i + 1
  for _ = 1, n do
    redis.call(op, key, ARGV[i], ARGV[i + 1]); i = i + 2
  end
end
each(KEYS[5], 'HINCRBY')
each(KEYS[6], 'HINCRBY')
each(KEYS[7], 'HSET')
each(KEYS[8], 'HSET')
for k = 10 + 2 * #old, #KEYS do redis.call('SADD', KEYS[k], ARGV[7]) end
return 1
"""


def _flat(pairs: Iterable[tuple[object, object]]) -> list[str]:
    items = [(str(k), str(v)) for k, v in pairs]
    return [str(len(items)), *(x for kv in items for x in kv)]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisRecords(RecordsBase):
    """Records on the bot's Redis client (the same connection pool as the tables)."""

    def __init__(self, redis: Client, prefix: str = "tapete", keep: int = DEFAULT_KEEP) -> None:
        self.redis = redis
        self.p = f"{prefix}:rec"
        self.keep = keep
        self.cluster = isinstance(redis, RedisCluster)
        self._add = redis.register_script(_ADD_GAME)

    def _k(self, kind: str, chat: int, *parts: object) -> str:
        """A key of a group's records (on a cluster, with the group's hash tag)."""
        if self.cluster:
            return ":".join([self.p, f"{{{chat}}}", kind, *(str(x) for x in parts)])
        return ":".join([self.p, kind, str(chat), *(str(x) for x in parts)])

    def _user(self, user_id: int) -> str:
        return f"{self.p}:user:{user_id}"

    async def add_hand(self, chat_id: int, gid: str, hand: int, doc: str) -> None:
        key = self._k("hands", chat_id, gid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, str(hand), doc)
            pipe.expire(key, HANDS_TTL, nx=True)
            await pipe.execute()

    async def _read(
        self, chat_id: int, game: str, ids: Sequence[int]
    ) -> tuple[int, list[str], list[str]]:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._k("meta", chat_id), "seq")
            pipe.hmget(self._k("rate", chat_id, game), [str(i) for i in ids])
            pipe.lrange(self._k("games", chat_id), self.keep - 1, -1)
            seq, raw, old = await pipe.execute()
        rates = [_text(r) if r is not None else "" for r in raw]
        return int(seq or 0), rates, [_text(g) for g in old]

    async def _commit(self, commit: Commit) -> int:
        r, c = commit.record, commit.record.chat
        keys = [
            self._k("done", c, r.id),
            self._k("games", c),
            self._k("game", c, r.id),
            self._k("hands", c, r.id),
            self._k("stats", c, r.game),
            self._k("pairs", c, r.game),
            self._k("rate", c, r.game),
            self._k("names", c),
            self._k("meta", c),
        ]
        for old in commit.dropping:
            keys += [self._k("game", c, old), self._k("hands", c, old)]
        users = [self._user(u) for u in commit.names]
        if self.cluster and users:  # each in its own slot: before the script (a set too many
            async with self.redis.pipeline(transaction=False) as pipe:  # only costs a look)
                for user in users:
                    pipe.sadd(user, str(c))
                await pipe.execute()
        else:
            keys += users
        args: list[str] = [
            str(commit.seq),
            r.id,
            r.model_dump_json(exclude_defaults=True),
            str(self.keep),
            " ".join(commit.dropping),
            str(DONE_TTL),
            str(c),
        ]
        args += _flat(commit.stats.items())
        args += _flat(commit.pairs.items())
        args += _flat((k, rating.dump(v)) for k, v in commit.rates.items())
        args += _flat(commit.names.items())
        if not self.cluster:
            return int(await self._add(keys=keys, args=args))
        # The script and a WAIT for a replica on one connection (the node of the group's slot).
        node = cast(RedisCluster, self.redis).get_node_from_key(keys[0])
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.eval(_ADD_GAME, len(keys), *keys, *args)
            pipe.execute_command("WAIT", 1, RECORD_WAIT_MS, target_nodes=node)
            done, copies = await pipe.execute()
        if int(done) == 1 and int(copies) < 1:
            log.warning(
                "game %s of %s is recorded on its master only (no replica in time)", r.id, c
            )
        return int(done)

    async def games(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        ids = await self.redis.lrange(self._k("games", chat_id), 0, limit - 1)
        if not ids:
            return []
        docs = await self.redis.mget([self._k("game", chat_id, _text(i)) for i in ids])
        return [GameRecord.model_validate_json(d) for d in docs if d]

    async def game(self, chat_id: int, gid: str) -> GameRecord | None:
        doc = await self.redis.get(self._k("game", chat_id, gid))
        return None if doc is None else GameRecord.model_validate_json(doc)

    async def hand(self, chat_id: int, gid: str, hand: int) -> str | None:
        doc = await self.redis.hget(self._k("hands", chat_id, gid), str(hand))
        return None if doc is None else _text(doc)

    async def hand_numbers(self, chat_id: int, gid: str) -> list[int]:
        keys = await self.redis.hkeys(self._k("hands", chat_id, gid))
        return sorted(int(_text(k)) for k in keys)

    async def _hash(self, key: str) -> dict[str, str]:
        raw = await self.redis.hgetall(key)
        return {_text(k): _text(v) for k, v in raw.items()}

    async def stats(self, chat_id: int, game: str) -> dict[str, int]:
        return {k: int(v) for k, v in (await self._hash(self._k("stats", chat_id, game))).items()}

    async def pairs(self, chat_id: int, game: str) -> dict[str, int]:
        return {k: int(v) for k, v in (await self._hash(self._k("pairs", chat_id, game))).items()}

    async def ratings(self, chat_id: int, game: str) -> dict[int, Rating]:
        raw = await self._hash(self._k("rate", chat_id, game))
        return {int(k): rating.load(v) for k, v in raw.items()}

    async def names(self, chat_id: int) -> dict[int, str]:
        return {int(k): v for k, v in (await self._hash(self._k("names", chat_id))).items()}

    async def forget(self, user_id: int) -> int:
        chats = [int(_text(c)) for c in await self.redis.smembers(self._user(user_id))]
        for chat in chats:
            for game in GAMES:
                for kind in ("stats", "pairs"):
                    key = self._k(kind, chat, game)
                    fields = [f for f in await self._hash(key) if _mentions(f, user_id)]
                    if fields:
                        await self.redis.hdel(key, *fields)
                await self.redis.hdel(self._k("rate", chat, game), str(user_id))
            await self.redis.hdel(self._k("names", chat), str(user_id))
            for gid in await self.redis.lrange(self._k("games", chat), 0, -1):
                key = self._k("game", chat, _text(gid))
                doc = await self.redis.get(key)
                if doc is None:
                    continue
                record = GameRecord.model_validate_json(doc)
                if forget_player(record, user_id):
                    await self.redis.set(key, record.model_dump_json(exclude_defaults=True))
        await self.redis.delete(self._user(user_id))
        return len(chats)


def _mentions(field_: str, user_id: int) -> bool:
    """Whether a stats or pairs field is about ``user_id``.

    >>> _mentions("12:games", 12), _mentions("3,12:won", 12), _mentions("112:won", 12)
    (True, True, False)
    """
    who = field_.rsplit(":", 1)[0]
    return str(user_id) in who.split(",")


# ---- SQLite ------------------------------------------------------------------------------------


class SQLiteRecords(RecordsBase):
    """The records in the SQLite store's file (its ``rec_*`` tables), shared by the processes on
    it and kept across restarts, with :class:`RedisRecords`' semantics."""

    def __init__(self, store: SQLiteStore, keep: int = DEFAULT_KEEP) -> None:
        self.store = store
        self.keep = keep

    def _now(self) -> float:
        return self.store.clock()

    async def add_hand(self, chat_id: int, gid: str, hand: int, doc: str) -> None:
        def fn(db: sqlite3.Connection) -> None:
            row = db.execute(
                "SELECT expires FROM rec_hands WHERE chat = ? AND gid = ? LIMIT 1", (chat_id, gid)
            ).fetchone()
            expires = self._now() + HANDS_TTL if row is None else row[0]
            db.execute(
                "INSERT OR REPLACE INTO rec_hands (chat, gid, hand, doc, expires) "
                "VALUES (?, ?, ?, ?, ?)",
                (chat_id, gid, hand, doc, expires),
            )

        await self.store.run(fn, write=True)

    async def _read(
        self, chat_id: int, game: str, ids: Sequence[int]
    ) -> tuple[int, list[str], list[str]]:
        def fn(db: sqlite3.Connection) -> tuple[int, list[str], list[str]]:
            row = db.execute("SELECT seq FROM rec_meta WHERE chat = ?", (chat_id,)).fetchone()
            rates = dict(
                db.execute(
                    "SELECT user, rating FROM rec_rates WHERE chat = ? AND game = ?",
                    (chat_id, game),
                ).fetchall()
            )
            seq = 0 if row is None else int(row[0])
            return seq, [str(rates.get(i, "")) for i in ids], []

        return await self.store.run(fn)

    async def _commit(self, commit: Commit) -> int:
        r, c = commit.record, commit.record.chat

        def fn(db: sqlite3.Connection) -> int:
            now = self._now()
            row = db.execute("SELECT seq FROM rec_meta WHERE chat = ?", (c,)).fetchone()
            seq = 0 if row is None else int(row[0])
            if seq != commit.seq:
                return -1
            done = db.execute(
                "SELECT 1 FROM rec_done WHERE chat = ? AND gid = ? AND expires > ?", (c, r.id, now)
            ).fetchone()
            if done is not None:
                return 0
            db.execute(
                "INSERT OR REPLACE INTO rec_done (chat, gid, expires) VALUES (?, ?, ?)",
                (c, r.id, now + DONE_TTL),
            )
            db.execute("INSERT OR REPLACE INTO rec_meta (chat, seq) VALUES (?, ?)", (c, seq + 1))
            db.execute(
                "INSERT OR REPLACE INTO rec_games (chat, gid, n, doc) VALUES (?, ?, ?, ?)",
                (c, r.id, seq + 1, r.model_dump_json(exclude_defaults=True)),
            )
            db.execute("UPDATE rec_hands SET expires = NULL WHERE chat = ? AND gid = ?", (c, r.id))
            old = db.execute(
                "SELECT gid FROM rec_games WHERE chat = ? ORDER BY n DESC LIMIT -1 OFFSET ?",
                (c, self.keep),
            ).fetchall()
            for (gid,) in old:
                db.execute("DELETE FROM rec_games WHERE chat = ? AND gid = ?", (c, gid))
                db.execute("DELETE FROM rec_hands WHERE chat = ? AND gid = ?", (c, gid))
            for kind, adds in (("stats", commit.stats), ("pairs", commit.pairs)):
                for k, v in adds.items():
                    db.execute(
                        "INSERT INTO rec_counts (chat, game, kind, k, v) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT (chat, game, kind, k) DO UPDATE SET v = v + excluded.v",
                        (c, r.game, kind, k, v),
                    )
            db.executemany(
                "INSERT OR REPLACE INTO rec_rates (chat, game, user, rating) VALUES (?, ?, ?, ?)",
                [(c, r.game, u, rating.dump(v)) for u, v in commit.rates.items()],
            )
            db.executemany(
                "INSERT OR REPLACE INTO rec_names (chat, user, name) VALUES (?, ?, ?)",
                [(c, u, name) for u, name in commit.names.items()],
            )
            db.executemany(
                "INSERT OR IGNORE INTO rec_users (user, chat) VALUES (?, ?)",
                [(u, c) for u in commit.names],
            )
            return 1

        return await self.store.run(fn, write=True)

    async def games(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        rows = await self.store.run(
            lambda db: db.execute(
                "SELECT doc FROM rec_games WHERE chat = ? ORDER BY n DESC LIMIT ?",
                (chat_id, limit),
            ).fetchall()
        )
        return [GameRecord.model_validate_json(doc) for (doc,) in rows]

    async def game(self, chat_id: int, gid: str) -> GameRecord | None:
        row = await self.store.run(
            lambda db: db.execute(
                "SELECT doc FROM rec_games WHERE chat = ? AND gid = ?", (chat_id, gid)
            ).fetchone()
        )
        return None if row is None else GameRecord.model_validate_json(row[0])

    def _hands(self, db: sqlite3.Connection, chat_id: int, gid: str) -> dict[int, str]:
        rows = db.execute(
            "SELECT hand, doc FROM rec_hands WHERE chat = ? AND gid = ? "
            "AND (expires IS NULL OR expires > ?)",
            (chat_id, gid, self._now()),
        )
        return {int(hand): str(doc) for hand, doc in rows}

    async def hand(self, chat_id: int, gid: str, hand: int) -> str | None:
        return (await self.store.run(lambda db: self._hands(db, chat_id, gid))).get(hand)

    async def hand_numbers(self, chat_id: int, gid: str) -> list[int]:
        return sorted(await self.store.run(lambda db: self._hands(db, chat_id, gid)))

    async def _counts(self, chat_id: int, game: str, kind: str) -> dict[str, int]:
        rows = await self.store.run(
            lambda db: db.execute(
                "SELECT k, v FROM rec_counts WHERE chat = ? AND game = ? AND kind = ?",
                (chat_id, game, kind),
            ).fetchall()
        )
        return {str(k): int(v) for k, v in rows}

    async def stats(self, chat_id: int, game: str) -> dict[str, int]:
        return await self._counts(chat_id, game, "stats")

    async def pairs(self, chat_id: int, game: str) -> dict[str, int]:
        return await self._counts(chat_id, game, "pairs")

    async def ratings(self, chat_id: int, game: str) -> dict[int, Rating]:
        rows = await self.store.run(
            lambda db: db.execute(
                "SELECT user, rating FROM rec_rates WHERE chat = ? AND game = ?", (chat_id, game)
            ).fetchall()
        )
        return {int(u): rating.load(v) for u, v in rows}

    async def names(self, chat_id: int) -> dict[int, str]:
        rows = await self.store.run(
            lambda db: db.execute(
                "SELECT user, name FROM rec_names WHERE chat = ?", (chat_id,)
            ).fetchall()
        )
        return {int(u): str(name) for u, name in rows}

    async def forget(self, user_id: int) -> int:
        def fn(db: sqlite3.Connection) -> int:
            chats = [
                c for (c,) in db.execute("SELECT chat FROM rec_users WHERE user = ?", (user_id,))
            ]
            for chat in chats:
                counts = db.execute("SELECT game, kind, k FROM rec_counts WHERE chat = ?", (chat,))
                gone = [(chat, g, kind, k) for g, kind, k in counts if _mentions(k, user_id)]
                db.executemany(
                    "DELETE FROM rec_counts WHERE chat = ? AND game = ? AND kind = ? AND k = ?",
                    gone,
                )
                for table in ("rec_rates", "rec_names"):
                    db.execute(f"DELETE FROM {table} WHERE chat = ? AND user = ?", (chat, user_id))
                games = db.execute("SELECT gid, doc FROM rec_games WHERE chat = ?", (chat,))
                for gid, doc in games.fetchall():
                    record = GameRecord.model_validate_json(doc)
                    if forget_player(record, user_id):
                        db.execute(
                            "UPDATE rec_games SET doc = ? WHERE chat = ? AND gid = ?",
                            (record.model_dump_json(exclude_defaults=True), chat, gid),
                        )
            db.execute("DELETE FROM rec_users WHERE user = ?", (user_id,))
            return len(chats)

        return await self.store.run(fn, write=True)


def open_records(store: Store, keep: int = DEFAULT_KEEP) -> Records:
    """Records beside a table store: on its Redis client and prefix, or in its SQLite file."""
    if isinstance(store, RedisStore):
        return RedisRecords(store.redis, store.prefix, keep)
    if isinstance(store, SQLiteStore):
        return SQLiteRecords(store, keep)
    raise TypeError(f"no records beside {type(store).__name__}")


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
