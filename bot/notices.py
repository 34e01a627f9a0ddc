"""The notices that stay new messages (a takeover, a pause, a private word): posted at most once,
through a claim in the store; and the holders of the results of hands that ended with no table
message recorded (:func:`post_holders`: a result is always an edit).

Telegram delivers a call at least once as far as the caller knows (a call that timed out may have
taken effect) and has no idempotency key, so a new message tried again may show twice, while an
edit tried again cannot. That is why a hand's result is the closing edit of its table message
(or of a holder posted for it, when that message was never recorded), and the game's an edit of
the finished table message (first posted without it). What must stay a new
message is claimed first: a compare-and-set write puts a claim of this try's on the outbox entry
before the call, the call is made only if the write landed with that claim, and the entry leaves
the outbox after it. A publication whose lock lapsed while it sent (a process starved of CPU, a
call that hung) holds the claim, so the process that took the lock over finds it and does not
post again (fencing: the store decides, not the clocks). A claim found on an entry is a send in
doubt (its process was killed, or its answer never came): the entry is dropped unposted. A send
that surely did not happen (flood control, the lock found lost before the call) gives its claim
back. So such a notice is posted at most once; it is lost only if its sender dies between the
claim and the call, or the call is lost on its way to Telegram.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from telegram import Bot

from bot import sending
from bot.botapi import RETRY_LATER, Deferred
from bot.lease import LeaseLost
from bot.services import Services
from bot.shown import Notice
from bot.store import Loaded
from bot.table import Table
from bot.tables import change_table

log = logging.getLogger("bot.publisher")


Record = Callable[..., Awaitable[Loaded]]
"""The publisher's record of what a round showed (:func:`bot.publisher._record`)."""


async def post_claimed(
    bot: Bot,
    svc: Services,
    run: sending.Run,
    table: Table,
    notice: Notice,
    done: sending.Done,
    record: Record,
) -> Loaded:
    """Post a notice once: claim it in the store first (a compare-and-set), post it only if
    the claim is this call's, then take it out of the outbox (``record``). A notice found
    claimed by another try (a process killed or stalled mid-send, a send whose answer never
    came) may be in the group already: it is taken out unposted. A send that surely did not
    happen (flood control, the lock lost before the call) gives its claim back for a later
    try."""
    mine = secrets.token_hex(8)
    loaded, claimed = await claim(svc, run, table, notice.seq, mine)
    if not claimed:
        return loaded
    try:
        await sending.post_notice(bot, run, table, notice.to, notice.text)
    except (Deferred, LeaseLost):
        with contextlib.suppress(Exception):
            await claim(svc, run, table, notice.seq, mine, give_back=True)
        raise
    return await record(svc, run, table, notice=notice.seq, done=done)


async def post_holders(
    bot: Bot, svc: Services, run: sending.Run, table: Table, done: sending.Done, record: Record
) -> Loaded:
    """Post a holder for each hand that ended with no table message recorded (its poster was
    killed, or its post had not come back when the hand ended): a new message with the hand's
    final text alone, recorded in one write (``record``); the next round shows the result in it
    by its closing edit. The holder is what may show twice (a send tried again after a timeout
    that took effect, a kill before the record): a copy without buttons and without the
    result, which is only ever an edit of the holder recorded."""
    posted: list[tuple[int, int | None]] = []
    try:
        for hand, (text, result) in sorted(table.shown.unposted.items(), key=lambda u: int(u[0])):
            msg = await sending.post(bot, run, table.chat_id, (text, None)) if result else None
            posted.append((int(hand), msg or None))  # None: nothing to show, or no chat to
    except (Deferred, LeaseLost):
        if posted:  # what was posted is recorded (else posted again: harmless, but noisy)
            with contextlib.suppress(Exception):
                await record(svc, run, table, holders=posted)
        raise
    loaded = await record(svc, run, table, holders=posted, done=done)
    run.moved = True  # the next round shows the results in their holders, before what follows
    return loaded


async def claim(
    svc: Services,
    run: sending.Run,
    table: Table,
    seq: int,
    mine: str,
    *,
    give_back: bool = False,
) -> tuple[Loaded, bool]:
    """Claim the notice ``seq`` for the claim ``mine`` (or give it back): the document, and
    whether the notice is this claim's to post. A notice claimed by another is dropped from the
    outbox in the same write."""
    tid = table.tid

    def fn(current: Table | None) -> tuple[Table | None, tuple[bool, bool]]:
        """(wrote, claimed)."""
        if current is None or current.tid != tid:
            return None, (False, False)
        found = next((n for n in current.shown.outbox if n.seq == seq), None)
        if found is None:
            return None, (False, False)  # posted meanwhile, or dropped
        if give_back:
            if found.claim != mine:
                return None, (False, False)
            found.claim = None
            return current, (True, False)
        if found.claim == mine:
            return None, (False, True)  # this claim's write landed already (retried)
        if found.claim is not None:  # another try's, in doubt: maybe posted, never again
            current.shown.outbox = [n for n in current.shown.outbox if n.seq != seq]
            log.warning(
                "a notice of table %s was claimed by a send in doubt: not posted again",
                current.chat_id,
            )
            return current, (True, False)
        found.claim = mine
        return current, (True, True)

    wrote, claimed = await change_table(svc, table.chat_id, fn)
    return await landed(svc, run, table, wrote=wrote), claimed


async def landed(svc: Services, run: sending.Run, table: Table, *, wrote: bool = True) -> Loaded:
    """The document after a record of the round (``wrote``: one write); sets ``run.moved``
    when it is not the one the round rendered plus its records (another write came in)."""
    found = await svc.store.cached(table.chat_id)
    if found is None:
        raise Deferred(svc.clock() + RETRY_LATER)
    run.moved = run.moved or found.version != run.version + wrote
    run.version = found.version
    return found
