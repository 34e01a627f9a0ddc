"""Publishing: what the group and the players see converges to the stored table, whatever fails.

Nothing a handler decides is only in memory. A move's compare-and-set write carries everything
there is to show: the new state (the table message, the lobby and each private hand are rendered
from it), the notices to post (:attr:`~bot.shown.Shown.outbox`) and the final texts
of earlier table messages (:attr:`~bot.shown.Shown.closing`). The same write marks the
table as due for publication (see :mod:`bot.store`). Then :meth:`Publisher.flush` makes Telegram
show it:

1. the closing edits (a finished hand's table message, its result below), then the notices in
   order (each claimed in the document before its call: :mod:`bot.notices`);
2. the messages that are missing: each player's private hand (before anyone must act), the lobby,
   the table message (recorded likewise);
3. an edit of every message whose wanted render differs from what it showed after the last
   publication (a hash per message, kept beside the table).

One process publishes a table at a time (a leased lock), always from the newest document, so an
older render never lands over a newer one; writes made meanwhile are published by the same loop
before it lets go, several moves becoming one edit. The lease is renewed while a publication runs
(:class:`bot.lease.Lease`: a timer, so a publication shorter than a few seconds costs no round trip
for it), so a slow one (flood waits, retries, calls that time out) keeps its lock while it is
alive; a lock that lapsed nevertheless (the process stalled longer than the lease, Redis did not
answer the renewals) is noticed before the next Bot API call, which is not made: the publication
stops and leaves the table due for whoever holds the lock now. So no older render is published
after a newer one (short of a lock lapsing during a call already made: Telegram cannot refuse a
call of a former holder); a notice's claim fences even that case (:mod:`bot.notices`). A
crash, a restart, a Redis outage or a Bot API failure leaves the table due: another try (this
process's or another's sweep, :func:`bot.handlers.timers.sweep_forever`) finishes it. Failed
calls are retried (flood waits, 5xx, timeouts); a notice is claimed in the store before its call
and never posted twice (:mod:`bot.notices`; a table message or a private hand is sent again: a
player needs its buttons). A hand's result is no notice: it is the closing edit of its table
message.

After a rollback (Redis restored from older data, a failover to a replica lacking the last
writes) the table and the hashes of what its messages show come back older than what Telegram
shows. The store finds the table behind a copy this process saw (a refused write or check, a
read; or, when nothing touches it, the sweep's look every few seconds at the tables seen last:
:meth:`~bot.store.StoreBase.look_behind`), and the next round of its publication (the
handler's, else the next sweep's) forgets the hashes, deletes the messages only the erased copies
knew (a hand dealt after the restored point) and edits every other one to the table as it is.

A finished publication keeps the lock a moment (``TAPETE_PUBLISH_HOLD``, see "Publishing" in
:mod:`bot.store`; not renewed meanwhile: the hold ends :data:`LEASE_MARGIN` before the lease at
the latest): the table's next write in this process releases it in its own round trip, and
:meth:`Publisher.release_held` releases the others together. A publication resumed from a hold
goes on with its lock (renewed first if less than :data:`LEASE_MARGIN` is left). A process that
wants to publish a table whose lock another one has wakes that one (:meth:`Publisher.listen`): if
it holds the table it releases it at once, and the release brings the write, which it publishes;
if it is still publishing, it does not hold the lock afterwards. So a write never waits for
another process's hold (only for a publication in progress). When another process wrote the
table meanwhile, or found it publishing the table, that table's publications are released at
once for a while (:data:`CONTENDED`), and the other tables' holds are short
(:data:`SHARED_HOLD`): that bounds the wait when a wake-up is lost (a reconnection to Redis) or
the store has none.

A round's own records (a notice posted, the private hands sent...) are compare-and-set writes
too: one that lands on another write (another process's move made meanwhile) ends the round,
and the next round publishes from that newer document, in order, before the lock is let go.

The publisher's runtime state (the tables it is publishing, those seen contended, whether it may
hold, the releaser and its tasks, the background publications) is the :class:`Publisher`'s: one
per process, made in the wiring (:mod:`bot.app`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from telegram import Bot

from bot import notices, present, sending
from bot.background import Publications
from bot.botapi import MAX_WAIT, RETRY_LATER, Deferred
from bot.lease import LEASE_MARGIN, Lease, LeaseLost
from bot.present import hand_view, lobby_view, table_view
from bot.records.flush import store_records
from bot.services import Services
from bot.store import Held, Loaded, older_than
from bot.table import Table
from bot.tables import change_table, load_doc

log = logging.getLogger("bot.publisher")

T = TypeVar("T")

MAX_LOOPS = 20
"""Publication rounds one flush makes before leaving the rest to the sweep."""
SHARED_HOLD = 0.5
"""Longest hold while other processes publish this bot's tables too (a write of theirs waits
for the hold of the table's last publication, once: then the table is contended)."""
CONTENDED = 600.0
"""Seconds a table's publications are released at once after this process saw another one
publish it (or write it while this one held its lock)."""
RELEASE_EVERY = 0.05
"""Seconds between two releases of held publications (those due meanwhile go together)."""
WAKE_RETRY = 1.0
"""Seconds before listening again for wake-ups after the connection was lost."""
WAKE_WARN_EVERY = 60.0
"""Seconds between two warnings that wake-ups are lost (one line per outage, about)."""


# ---- the publisher ---------------------------------------------------------------------------


class Publisher:
    """This process's publishing: Telegram out, and its runtime state (the tables it is
    publishing, those seen contended, its held publications' releaser). One per process,
    made in the wiring (:mod:`bot.app`) and given to the handlers and the sweep."""

    def __init__(self, bot: Bot, svc: Services, *, background: bool = False) -> None:
        self.bot, self.svc = bot, svc
        self.background = background
        """Publish in the background (:mod:`bot.background`; the Application does): handlers
        answer and return at once. Off, a handler awaits its publication (unit tests)."""
        self.publications = Publications()
        #: Tables this process is publishing now (:meth:`flush`).
        self.publishing: set[int] = set()
        #: Tables another process wrote while this one held their publication: released at
        #: once until then (``svc.monotonic``; see the module docstring).
        self.contended: dict[int, float] = {}
        #: Until when other processes are known to publish this bot's tables too.
        self.shared_until = 0.0
        #: Wake-ups this process sent itself, by chat (a lock it found its own: no contention).
        self.own_wakes: Counter[int] = Counter()
        #: Whether a finished publication may hold its lock (not while the process stops).
        self.holding = True
        #: The task that releases held publications, and the publications it started.
        self.releaser: asyncio.Task[None] | None = None
        self.release_tasks: set[asyncio.Task[None]] = set()
        #: Told the chat of every table this process publishes after a write (the Mini App's
        #: open pages, :mod:`bot.miniapp.feed`).
        self.watchers: list[Callable[[int], None]] = []

    def busy(self) -> bool:
        """Whether a publication is running or about to start, or a release."""
        return bool(len(self.publications) or self.publishing or self.release_tasks)

    async def publish(self, chat_id: int) -> None:
        """Make Telegram show the newest document of the table of ``chat_id``: in the
        background when :attr:`background` (the handler goes on and returns; see
        :mod:`bot.background`), else before returning."""
        for watcher in self.watchers:
            watcher(chat_id)
        if self.background:
            self.publications.start(chat_id, lambda: self.flush(chat_id))
        else:
            await self.flush(chat_id)

    async def flush(self, chat_id: int) -> None:
        """Publish the table of ``chat_id`` until what Telegram shows is its newest document.

        Returns at once when another process (or another task of this one) is publishing it:
        that one publishes this write too. Never raises for Telegram or Redis trouble: the
        table stays due and is retried.
        """
        svc = self.svc
        taken = svc.store.take_acquired(chat_id)  # the write that called us took the lock
        if taken is None and chat_id in self.publishing:
            return  # this process's own loop publishes this write too
        spent = (0, 0)
        if taken is None:
            taken, spent = await _resume(svc, chat_id)
        if taken is None:
            token = secrets.token_hex(8)
            try:
                found = await svc.store.pub_acquire(chat_id, token)  # for the store's lease
            except Exception as exc:
                log.warning("publishing %s postponed: %s", chat_id, type(exc).__name__)
                return
            if found is None:  # another process publishes it: no holding for a while, unless
                if svc.store.lease_left(chat_id) <= 0:  # the lock is this one's (a write took
                    self._contended(chat_id)  # it meanwhile, and its flush publishes)
                elif len(self.own_wakes) < 4096:  # and the wake-up just sent is its own
                    self.own_wakes[chat_id] += 1
                return
            taken = token, found
        self.publishing.add(chat_id)
        lease = Lease(svc.store, chat_id, taken[0])
        try:
            await _loop(self, chat_id, *taken, spent, lease)
        finally:
            await lease.stop()
            self.publishing.discard(chat_id)

    def hold_seconds(self) -> float:
        """How long a finished publication keeps its lock: ``TAPETE_PUBLISH_HOLD``, or at most
        :data:`SHARED_HOLD` while other processes serve this bot's tables too (they sweep the
        same store, or one was seen publishing a table)."""
        svc = self.svc
        hold = svc.settings.publish_hold
        shared = svc.processes > 1 or self.shared_until > svc.monotonic()
        return min(hold, SHARED_HOLD) if shared else hold

    def may_hold(self, chat_id: int) -> bool:
        """Whether a finished publication may keep its lock a moment (see the module
        docstring)."""
        hold = self.hold_seconds()
        if (
            hold <= 0
            or not self.holding
            or self.svc.store.lease_left(chat_id) < hold + LEASE_MARGIN
        ):
            return False
        until = self.contended.get(chat_id)
        if until is None:
            return True
        if until > self.svc.monotonic():
            return False
        del self.contended[chat_id]
        return True

    # ---- held publications

    def _contended(self, chat_id: int) -> None:
        """Another process publishes this table too: release its publications at once for a
        while (:data:`CONTENDED`), so that neither waits for the other's hold."""
        self.contended[chat_id] = self.shared_until = self.svc.monotonic() + CONTENDED
        if len(self.contended) > 4096:
            self.contended.pop(next(iter(self.contended)))

    def start_releaser(self) -> None:
        """Release the held publications as their hold runs out (one task at a time)."""
        if self.releaser is None or self.releaser.done():
            self.releaser = asyncio.create_task(self._release_when_due())

    async def _release_when_due(self) -> None:
        """Release the held publications as their hold runs out, those due within
        :data:`RELEASE_EVERY` of each other in one round trip; ends when none is held."""
        svc = self.svc
        while (oldest := svc.store.held_since()) is not None:
            hold = self.hold_seconds()  # (shorter once another process shows up)
            wait = oldest + hold - svc.monotonic()
            if wait > 0:
                await svc.sleep(min(wait, 0.25))
                continue
            await self.release_held(before=svc.monotonic() - hold + RELEASE_EVERY)
            await svc.sleep(RELEASE_EVERY)  # under load, the next ones gather meanwhile

    async def release_held(self, before: float = math.inf, chats: set[int] | None = None) -> None:
        """Release the publications held since before ``before`` (all by default; only those
        of ``chats`` if given); a table that another process wrote meanwhile is published now
        (and its publications are released at once for a while: :data:`CONTENDED`)."""
        svc = self.svc
        try:
            results = await svc.store.release_held(before, chats=chats, ttl=svc.settings.table_ttl)
        except Exception as exc:  # their locks run out; the due set has them published again
            log.warning("releasing held publications failed: %s", type(exc).__name__)
            return
        for chat, released in results:
            if released.done or released.lost:
                continue
            self._contended(chat)
            self._in_background(self.flush(chat))

    async def listen(self) -> None:
        """Wake-ups (:meth:`~bot.store.Store.wakeups`): another process could not take the
        lock of a table, maybe this one's. The background task started with the Application;
        runs until cancelled (a lost connection is listened to again; meanwhile holds end by
        their timer)."""
        svc = self.svc
        warned = -math.inf
        while True:
            try:
                async for chat_id in svc.store.wakeups():
                    self.woken(chat_id)
                return  # the store has no wake-ups
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if svc.monotonic() - warned > WAKE_WARN_EVERY:
                    log.warning("wake-ups lost: %s", type(exc).__name__)
                    warned = svc.monotonic()
            await svc.sleep(WAKE_RETRY)

    def woken(self, chat_id: int) -> None:
        """Another process wants to publish the table of ``chat_id``. If this one has its lock,
        no holding it for a while (:data:`CONTENDED`: a publication in progress lets go when it
        ends) and a held one is released now (its release brings the other's write, published
        at once)."""
        if self.svc.store.lease_left(chat_id) <= 0 and chat_id not in self.publishing:
            return  # not this process's (the lock is another one's)
        if self.own_wakes[chat_id] > 0:  # sent by this process's own flush (see there)
            self.own_wakes -= Counter({chat_id: 1})  # (gone at 0)
            return
        self._contended(chat_id)
        self._in_background(self.release_held(chats={chat_id}))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task that :meth:`stop` waits for (:attr:`release_tasks`)."""
        task = asyncio.create_task(work)
        self.release_tasks.add(task)
        task.add_done_callback(self.release_tasks.discard)

    async def stop(self) -> None:
        """Before the process stops: release every held publication now and finish what that
        brings (a little while at most)."""
        self.holding = False
        if self.releaser is not None:
            self.releaser.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.releaser
            self.releaser = None
        await self.release_held()
        if self.release_tasks:
            await asyncio.wait(list(self.release_tasks), timeout=MAX_WAIT)

    # ---- the sweep

    async def publish_claimed(self, chats: list[int]) -> None:
        """Publish the tables whose publication this process claimed (due: left by a crash, or
        retried)."""
        await asyncio.gather(*(self.flush(chat) for chat in chats))


# ---- the publication round -------------------------------------------------------------------


async def _resume(
    svc: Services, chat_id: int
) -> tuple[tuple[str, dict[str, str]] | None, tuple[int, int]]:
    """The lock of this process's held publication of the table, if any, and the calls it
    has not spent yet. A lock whose lease runs short (:data:`LEASE_MARGIN`) is renewed first,
    as a running publication's is (:class:`Lease`); if it lapsed meanwhile, there is no lock
    (the calls are spent by the next publication's release)."""
    held = svc.store.take_held(chat_id)
    if held is None:
        return None, (0, 0)
    if svc.store.lease_left(chat_id) > LEASE_MARGIN:
        return (held.token, held.shown), held.spent
    try:
        kept = await svc.store.pub_extend(chat_id, held.token)
    except Exception as exc:
        log.warning("publishing %s: lease renewal failed: %s", chat_id, type(exc).__name__)
        kept = False
    return ((held.token, held.shown) if kept else None), held.spent


async def _loop(
    pub: Publisher,
    chat_id: int,
    token: str,
    shown: dict[str, str],
    spent: tuple[int, int],
    lease: Lease,
) -> None:
    bot, svc = pub.bot, pub.svc
    run = sending.Run(
        chat_id=chat_id,
        shown=shown,
        group_calls=spent[0],
        calls=spent[1],
        lease=lease,
        clock=svc.clock,
        sleep=svc.sleep,
    )
    retry_at: float | None = None
    for _ in range(MAX_LOOPS):
        try:
            behind = svc.store.take_behind(chat_id)
            if behind:
                loaded = await _catch_up(bot, svc, chat_id, run, behind)
            else:
                loaded = await svc.store.cached(chat_id)
            if loaded is not None:
                loaded = await _publish(bot, svc, chat_id, loaded, run)
        except Deferred as exc:
            retry_at, loaded = exc.at, None
        except LeaseLost:
            # Due now for whoever holds the lock; the release spends the calls made and finds
            # the lock lost (or, if it could not be renewed but is still this one's, frees it).
            retry_at, loaded = svc.clock(), None
        except Exception:
            log.exception("publishing table %s failed", chat_id)
            retry_at, loaded = svc.clock() + RETRY_LATER, None
        version = loaded.version if loaded is not None else 0
        if loaded is not None and retry_at is None:
            newest = await svc.store.cached(chat_id)
            if run.moved or (newest is not None and newest.version != version):
                continue  # the table was written meanwhile: publish that too
            if pub.may_hold(chat_id):
                held = Held(token, version, dict(run.shown), run.spent(), svc.monotonic())
                svc.store.hold(chat_id, held)
                pub.start_releaser()
                return
        try:
            released = await svc.store.pub_release(
                chat_id,
                token,
                version,
                run.shown,
                retry_at=retry_at,
                ttl=svc.settings.table_ttl,
                spent=run.spent(),
            )
        except Exception as exc:
            log.warning("publishing %s: release failed: %s", chat_id, type(exc).__name__)
            return
        if released.done or released.lost:
            return
        # Another write came in meanwhile: the release brought it (and the store cached it).
    await svc.store.pub_release(
        chat_id,
        token,
        0,
        run.shown,
        retry_at=svc.clock(),
        ttl=svc.settings.table_ttl,
        spent=run.spent(),
    )


async def _catch_up(
    bot: Bot, svc: Services, chat_id: int, run: sending.Run, behind: list[Loaded]
) -> Loaded | None:
    """The store answered an older table than copies this process saw (``behind``: a
    rollback, see "Versions" in :mod:`bot.store`), so Telegram may show those: the messages
    only they knew are deleted, and what the stored hashes say the others show (as old as the
    table) is forgotten, so the round edits every message to the table as it is now (read
    again here)."""
    try:
        loaded = await svc.store.load(chat_id)
        now = load_doc(loaded)
        if now is not None and loaded is not None:
            # Only what a table really behind (read again: no reply out of order) never knew.
            erased = {
                m
                for seen in behind
                if older_than(loaded, seen)
                for m in sending.erased_messages(load_doc(seen) or now, now)
            }
            for where, msg in sorted(erased):
                await sending.erase(bot, run, where, msg)
    except BaseException:
        svc.store.put_behind(chat_id, behind)  # the next publication tries again
        raise
    run.shown.clear()
    log.warning("table %s was behind what this process showed (a rollback): shown again", chat_id)
    return loaded


async def _publish(
    bot: Bot, svc: Services, chat_id: int, loaded: Loaded, run: sending.Run
) -> Loaded:
    """One round: closing edits, the group's notices, missing messages, private notices, then
    edits. Returns the document the edits rendered (its version is what was published)."""
    table = load_doc(loaded)
    assert table is not None
    run.version, run.moved = loaded.version, False
    # What is done but not written down yet (the next write of this round takes it along: done
    # again after a crash, it changes nothing): the records stored, the closing edits made.
    done = sending.Done()
    if table.rec_out:  # the records first: they never wait for Telegram
        done.records = await store_records(svc, table)
    for msg, text in sorted(table.shown.closing.items()):
        await sending.edit_or_skip(bot, run, table.chat_id, int(msg), (text, None))
    done.closing = list(table.shown.closing)
    # The group's notices (a hand's result) come before the next table message; a player's
    # private ones (señas) after his new hand, so he reads them beside the cards they are about.
    # A record landing on another write ends the round (``run.moved``): the next one starts
    # again from the newest document, so its notices and missing messages come in order.
    if table.shown.unposted:  # hands that ended with no table message recorded: a holder each
        loaded = await notices.post_holders(bot, svc, run, table, done, _record)
        if run.moved:
            return loaded
        table = load_doc(loaded) or table
    for private in (False, True):
        for notice in [n for n in table.shown.outbox if (n.to is not None) == private]:
            loaded = await notices.post_claimed(bot, svc, run, table, notice, done, _record)
            if run.moved:
                return loaded
            table = load_doc(loaded) or table
        if not private:
            loaded, table = await _post_missing(bot, svc, run, loaded, table, done)
            if run.moved:
                return loaded
    if done:
        loaded = await _record(svc, run, table, done=done)
        if run.moved:
            return loaded
        table = load_doc(loaded) or table
    await sending.edit_all(bot, run, table)
    for user_id in run.reached - run.blocked:
        svc.reached(user_id)
    for user_id in run.blocked:
        svc.reached(user_id, ok=False)
    run.reached.clear()
    if any(
        p.user_id in run.blocked and p.user_id not in table.shown.unreachable for p in table.players
    ):
        loaded = await _record(svc, run, table, blocked=run.blocked)  # said in the next round
    return loaded


async def _post_missing(
    bot: Bot, svc: Services, run: sending.Run, loaded: Loaded, table: Table, done: sending.Done
) -> tuple[Loaded, Table]:
    """Send the private hands, the lobby and the table message that have no message yet, then
    write down what was sent in one write (a message sent again after a crash in between is a
    private hand or a table message: harmless, a player needs its buttons)."""
    sent: list[tuple[int, int]] = []
    if table.status == "playing" and table.state is not None:
        for seat, player in enumerate(table.players):
            if str(seat) in table.shown.hand_msgs or not sending.reachable(player.user_id):
                continue  # sent already, or a computer seat
            if not table.adapter.seat_cards(table, seat):
                continue  # not dealt in (free, out of the match)
            msg = await sending.post(bot, run, player.user_id, hand_view(table, seat))
            if msg is not None:
                sent.append((seat, msg))
    lobby = table_msg = None
    if table.shown.lobby_msg is None and table.status == "lobby":
        lobby = await sending.post(bot, run, table.chat_id, lobby_view(table))
    if table.shown.table_msg is None and sending.has_table(table):
        # (without the game's result: the edit below adds it; a post tried again after a
        # timeout may show twice, an edit cannot)
        table_msg = await sending.post(bot, run, table.chat_id, table_view(table, final=False))
    if sent or lobby is not None or table_msg is not None:
        loaded = await _record(
            svc,
            run,
            table,
            hands=(table.hand, sent) if sent else None,
            lobby=lobby,
            table_msg=None if table_msg is None else (table.hand, table_msg),
            done=done,
        )
        table = load_table(loaded, table)
        if table_msg is not None and str(table_msg) in table.shown.closing:
            run.moved = True  # it came back after its hand ended: closed in the next round
    return loaded, table


def load_table(loaded: Loaded, fallback: Table) -> Table:
    return load_doc(loaded) or fallback


async def _record(
    svc: Services,
    run: sending.Run,
    table: Table,
    *,
    closing: list[str] | None = None,
    notice: int | None = None,
    hands: tuple[int, list[tuple[int, int]]] | None = None,
    lobby: int | None = None,
    table_msg: tuple[int, int] | None = None,
    blocked: set[int] | None = None,
    holders: list[tuple[int, int | None]] | None = None,
    done: sending.Done | None = None,
) -> Loaded:
    """Write down in the document what was just shown (so no process shows it again), and
    what ``done`` holds (then emptied). Sets ``run.moved`` when the write landed on another
    one (the document is not the one the round rendered plus this record)."""
    tid = table.tid
    closed = list(closing or [])
    stored: set[int] = set()
    if done is not None:
        closed += done.closing
        stored = done.records
        done.closing, done.records = [], set()

    def fn(current: Table | None) -> tuple[Table | None, None]:
        if current is None or current.tid != tid:
            return None, None
        for closed_msg in closed:
            current.shown.closing.pop(closed_msg, None)
        if stored:
            current.rec_out = [p for p in current.rec_out if p.hand not in stored]
        if notice is not None:
            current.shown.outbox = [n for n in current.shown.outbox if n.seq != notice]
        if hands is not None and current.hand == hands[0]:
            for seat, msg in hands[1]:
                current.shown.hand_msgs.setdefault(str(seat), msg)
        if lobby is not None and current.shown.lobby_msg is None:
            current.shown.lobby_msg = lobby
        if table_msg is not None and (
            current.hand == table_msg[0] or str(table_msg[0]) in current.shown.unposted
        ):
            current.shown.table_msg_posted(*table_msg)
        if blocked:
            present.unreachable(current, blocked)
        for ended, holder in holders or []:
            if holder is None:
                current.shown.drop_unposted(ended)
            else:
                current.shown.holder_posted(ended, holder)
        return current, None

    await change_table(svc, table.chat_id, fn)
    return await notices.landed(svc, run, table)
