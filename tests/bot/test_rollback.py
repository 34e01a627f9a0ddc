"""Issue 25 item 7: after a rollback the chat shows the table as it really is.

Redis restored from older data (a snapshot, an older append-only file, a failover to a replica
that lacked the last writes) brings a table back to an older document, and what the bot keeps
beside it (the hashes of what each message shows) back with it, while Telegram still shows the
newer one: private hands with cards the table no longer has, a table message of moves that never
happened. The store finds the table behind the copy this process saw (the next time it looks at
it: a press, a timer, a publication) and the publisher shows it again as it is: every message
edited to the restored table, those only the erased copies knew (a hand dealt after the restored
point, its table message) deleted.

Here the stored table (and its shown hashes) is saved, moves are played, and the saved rows are
put back behind the bot's back, on the real Redis and on SQLite.
"""

from __future__ import annotations

import logging
import os
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from stores import connect, sqlite_store
from test_handlers import GROUP, Harness, StubBot, _process, press_random_move

from bot import keyboards, present, sending
from bot.handlers import play, timers
from bot.shown import NO_MESSAGE
from bot.store import RedisStore, SQLiteStore, Store, Timings
from bot.table import Table
from bot.tables import read_table
from engine.cards import DECK
from locales import t


class Bot(StubBot):
    """The stub Bot, deleting messages too."""

    def __init__(self) -> None:
        super().__init__()
        self.deleted: set[tuple[int, int]] = set()

    async def delete_message(self, chat_id: int, message_id: int, **kw: Any) -> bool:
        self.calls.append(("delete", {"chat_id": chat_id, "message_id": message_id}))
        self.deleted.add((chat_id, message_id))
        return True

    def live(self) -> dict[tuple[int, int], dict[str, Any]]:
        return {k: m for k, m in self.messages.items() if k not in self.deleted}


def _store(kind: str, timings: Timings | None = None) -> Store:
    if kind == "sqlite":
        return sqlite_store(timings=timings)
    import redis.asyncio

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set")
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    return RedisStore(redis.asyncio.Redis.from_url(url), prefix, timings=timings)


async def _close(store: Store) -> None:
    if isinstance(store, RedisStore):
        keys = [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*")]
        if keys:
            await store.redis.delete(*keys)
        await store.redis.aclose()
    else:
        await store.aclose()


async def _save(store: Store) -> Any:
    """What a backup holds of the table: its row and what the bot says its messages show."""
    if isinstance(store, RedisStore):
        keys = (store.table_key(GROUP), store.keys.shown(GROUP))
        return [(key, await store.redis.dump(key)) for key in keys]
    assert isinstance(store, SQLiteStore)
    db = store._db
    return (
        db.execute("SELECT * FROM tables WHERE chat = ?", (GROUP,)).fetchone(),
        db.execute("SELECT * FROM shown WHERE chat = ?", (GROUP,)).fetchall(),
    )


async def _restore(store: Store, saved: Any) -> None:
    """Put the backup back, behind the bot's back (another connection: its cache is kept)."""
    if isinstance(store, RedisStore):
        for key, dumped in saved:
            await store.redis.delete(key)
            if dumped is not None:
                await store.redis.restore(key, 0, dumped, replace=True)
        return
    assert isinstance(store, SQLiteStore)
    row, shown = saved
    with store._db:
        store._db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)", row)
        store._db.execute("DELETE FROM shown WHERE chat = ?", (GROUP,))
        store._db.executemany("INSERT INTO shown VALUES (?, ?, ?)", shown)


def assert_live_as_stored(bot: Bot, now: Table) -> None:
    """Every private hand and the table message show the stored table ``now``."""
    live = bot.live()
    for seat, msg in now.shown.hand_msgs.items():
        user_id = now.players[int(seat)].user_id
        assert live[(user_id, msg)]["text"] == present.hand_view(now, int(seat))[0]
    text, markup = present.table_view(now)
    assert now.shown.table_msg is not None
    shown = live[(GROUP, now.shown.table_msg)]
    assert (shown["text"], shown["markup"]) == (text, markup)


def _messages(table: Table) -> set[tuple[int, int]]:
    """The table message and private hands a copy of the table knows."""
    found = {(table.players[int(s)].user_id, m) for s, m in table.shown.hand_msgs.items()}
    if table.shown.table_msg is not None:
        found.add((table.chat_id, table.shown.table_msg))
    return found


async def _play_then_roll_back(
    h: Harness, store: Store, erased: str
) -> tuple[Table, int, set[tuple[int, int]], dict[tuple[int, int], str]]:
    """Start, play a little, save the table, play on (``erased``: moves of one hand, or a whole
    hand and the next deal), restore the saved table. Returns the newest table this process
    saw, the restored turn, every table and hand message seen, and the bot's texts before the
    restore."""
    rnd = random.Random(7)
    table = await h.open_and_start()
    for _ in range(3):  # (the first words of the hand)
        table = await press_random_move(h, table, rnd)
    saved, restored_turn = await _save(store), table.turn
    ever = _messages(table)
    start_hand, moves = table.hand, 0
    while table.status == "playing" and (
        moves < 12 if erased == "moves" else table.hand == start_hand
    ):
        table = await press_random_move(h, table, rnd)
        ever |= _messages(table)
        moves += 1
    assert table.turn > restored_turn
    if erased == "a hand":
        assert table.hand > start_hand
    assert isinstance(h.bot, Bot)
    newest_texts = {k: m["text"] for k, m in h.bot.live().items()}
    await _restore(store, saved)
    return table, restored_turn, ever, newest_texts


async def _assert_shown_as_it_is(
    h: Harness, ever: set[tuple[int, int]], newest_texts: dict[tuple[int, int], str], erased: str
) -> Table:
    """Every private hand and the table message show the stored table, the hand and table
    messages of an erased hand are deleted, and no message the bot keeps names a card hidden
    now. Returns the table."""
    bot = h.bot
    assert isinstance(bot, Bot)
    now = await h.table()
    assert_live_as_stored(bot, now)
    live = bot.live()
    # Every hand and table message of the erased moves is gone or shows the table as it is.
    stale = ever - _messages(now)
    assert stale <= bot.deleted
    assert bool(stale) == (erased == "a hand"), stale  # (moves of one hand: edits only)
    # No message the bot keeps showing names a card that is hidden now (the group's, and each
    # player's of another seat's cards); a result posted in the erased future was read by
    # everybody already (only deleted messages could have been edited since).
    words = {str(c): present_name(str(c)) for c in DECK}
    hands = {s: set(map(str, now.adapter.seat_cards(now, s))) for s in range(4)}
    for (chat, msg), m in live.items():
        if chat == GROUP and (chat, msg) not in _messages(now):
            continue
        if chat == GROUP:
            allowed: set[str] = set()
        else:
            seat = next(s for s, p in enumerate(now.players) if p.user_id == chat)
            allowed = hands[seat]
        hidden = set().union(*hands.values()) - allowed
        named = [c for c in hidden if words[c] in m["text"]]
        assert not named, (named, m["text"])
    # Messages the bot did not delete and that are no table or hand message were not edited
    # by the repair (notices keep their text).
    for key, m in live.items():
        if key not in ever and key in newest_texts:
            assert m["text"] == newest_texts[key]
    return now


def _harness(store: Store) -> Harness:
    h = Harness(store, publish_hold=0.0)
    h.bot = h.pub.bot = Bot()
    return h


@pytest.mark.parametrize(
    ("kind", "erased", "seen_by"),
    [
        ("redis", "moves", "a stale press"),
        ("redis", "a hand", "my cards"),
        ("sqlite", "moves", "my cards"),
        ("sqlite", "a hand", "a stale press"),
    ],
)
async def test_a_rollback_is_shown_as_the_table_really_is(
    kind: str, erased: str, seen_by: str
) -> None:
    """Moves of one hand (new cards from discards) or a whole hand and the next deal are
    erased; the table is found behind by a stale press (published at once) or by "Mis cartas"
    (only read: the next sweep publishes it). Then every private hand and the table message
    show the restored table, the messages of the erased hand are deleted, and no message the
    bot keeps names a card hidden now."""
    store = _store(kind)
    h = _harness(store)
    try:
        table, restored_turn, ever, newest_texts = await _play_then_roll_back(h, store, erased)
        uid = table.players[0].user_id
        if seen_by == "a stale press":  # a button of the erased moves: refused, published
            data = keyboards.pack("a", GROUP, table.tid, table.turn, "paso")
            await play.table_button(*h.press(uid, data))
            assert h.bot.answers()[-1].get("text") == t("es", "error.stale")
        else:  # "Mis cartas" only reads the table: the sweep publishes what it found
            await play.table_button(*h.press(uid, keyboards.pack("h", GROUP, table.tid)))
            assert store.behind() == [GROUP]
        await timers.sweep_once(h.pub)  # the next sweep shows the table again
        assert store.behind() == []
        now = await _assert_shown_as_it_is(h, ever, newest_texts, erased)
        assert now.turn == restored_turn
    finally:
        await _close(store)


@pytest.mark.parametrize("kind", ["redis", "sqlite"])
async def test_a_rollback_nobody_touched_is_found_by_the_next_look(kind: str) -> None:
    """A whole hand is erased and nothing of this process touches the table afterwards; another
    process (which never saw the erased hand) plays a move on the restored table and publishes
    it. This process's sweep looks at the tables it saw (``Timings.look_behind``), finds the
    table behind its copy and shows it as it is: the other process's move on the restored
    hand, the erased hand's messages deleted."""
    store = _store(kind, Timings(look_behind=0.0))
    h = _harness(store)
    other, other_ctx = _process(h, connect(store))
    try:
        _table, restored_turn, ever, newest_texts = await _play_then_roll_back(h, store, "a hand")
        table = await read_table(other.svc, GROUP)  # the other process: no copy of its own
        assert table is not None and table.turn == restored_turn
        seat = table.to_act()[0]
        action = str(table.adapter.legal_actions(table.engine_state(), seat)[0])
        data = keyboards.pack("a", GROUP, table.tid, table.turn, action)
        await play.table_button(h.press(table.players[seat].user_id, data)[0], other_ctx)
        moved = await read_table(other.svc, GROUP)
        assert moved is not None and moved.turn == restored_turn + 1
        assert store.behind() == [] and not store.ops["look_behind"]
        await timers.sweep_once(h.pub)  # looks, finds it behind, shows it as it is
        assert store.ops["look_behind"] == 1 and store.behind() == []
        now = await _assert_shown_as_it_is(h, ever, newest_texts, "a hand")
        assert now.turn == restored_turn + 1
    finally:
        await _close(store)


def present_name(card: str) -> str:
    from bot.games import render

    return render.card_name("es", card)


async def test_a_copy_the_table_came_from_deletes_nothing() -> None:
    """A copy marked behind that the table as it is now came from (two replies read out of
    order would look like that) is no rollback: the publication reads the table again, edits
    its messages and deletes none (an earlier hand's messages stay); a player with no private
    chat (no message id) is never a message to delete."""
    store = _store("sqlite")
    h = _harness(store)
    try:
        rnd = random.Random(3)
        table = await h.open_and_start()
        older = await store.cached(GROUP)
        assert older is not None
        hand = table.hand
        while table.status == "playing" and table.hand == hand:
            table = await press_random_move(h, table, rnd)
        store.put_behind(GROUP, [older])
        calls = len(h.bot.calls)
        await timers.sweep_once(h.pub)
        assert store.behind() == [] and not [c for c, _ in h.bot.calls[calls:] if c == "delete"]
        before = Table.model_validate_json(older.doc)
        assert before.hand < table.hand and sending.erased_messages(before, table) == []
        ghost = before.model_copy(deep=True)
        ghost.shown.hand_msgs = {"0": NO_MESSAGE}
        now = before.model_copy(deep=True)
        now.shown.hand_msgs = {}
        assert sending.erased_messages(ghost, now) == []
    finally:
        await _close(store)


async def test_a_failed_look_delays_no_timer(caplog: pytest.LogCaptureFixture) -> None:
    """The sweep's look for tables behind is no part of its work: when the store fails it (a
    Redis hiccup), the timers the sweep claimed still fire now, and the log gets one INFO."""
    caplog.set_level(logging.INFO, logger="bot.timers")
    store = _store("sqlite", Timings(look_behind=0.0))
    h = _harness(store)
    try:
        table = await h.open_and_start()

        async def fails(limit: int = 200) -> list[int]:
            raise ConnectionError("the store does not answer")

        store.look_behind = fails  # type: ignore[method-assign]
        moved = []
        for _ in range(2):  # the turn's nudge, then its end: each due, each fired at once
            now = await h.table()
            assert now.deadline is not None
            h.clock = now.deadline + 0.5
            moved.append(await timers.sweep_once(h.pub))
        assert moved == [0, 1] and (await h.table()).turn == table.turn + 1
        failed = [r.levelname for r in caplog.records if "behind failed" in r.getMessage()]
        assert failed == ["INFO", "INFO"]
    finally:
        await _close(store)
