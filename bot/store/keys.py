"""The Redis back-end's key names, written once (``{p}`` is the store's prefix).

``{p}:t:<chat>`` a table (hash: ``v`` version, ``d`` document, ``h`` its digest),
``{p}:timers`` and ``{p}:pub`` the due turn timers and publications (sorted sets),
``{p}:seen:<chat>`` the chat's window of update ids, ``{p}:lock:<chat>`` and
``{p}:shown:<chat>`` its publishing lock and what its messages show, ``{p}:u:<user>`` a user's
tables, ``{p}:prefs:<scope>`` small settings, ``{p}:procs`` the processes that sweep,
``{p}:b:chat:<chat>`` and ``{p}:b:bot`` Telegram's budget, ``{p}:q:<chat>:<user>:<kind>`` a
user answered lately, ``{p}:wake:<db>`` the wake-up channel.

>>> k = Keys("tapete")
>>> k.table(-100), k.group_budget(-100), k.bot_budget, k.timers_of(-100)
('tapete:t:-100', 'tapete:b:chat:-100', 'tapete:b:bot', 'tapete:timers')

**On a Redis Cluster** (``buckets`` > 0) a script may only touch keys of one hash slot, so the
tables are spread over ``buckets`` hash tags, and every key of a table carries its bucket's tag
(``{p}:{<tag>}:t:<chat>``, the same for ``seen``, ``lock``, ``shown``, the group's budget and
``q``), as do that bucket's share of the global sets (``{p}:{<tag>}:timers``,
``{p}:{<tag>}:pub``; ``procs`` is bucket 0's). Each process sweeps every bucket. The tags are
chosen so that bucket ``i`` hashes into the ``i``-th equal part of the 16384 slots: a cluster whose
masters hold equal ranges of slots (``redis-cli --cluster create`` makes them so) gets an equal
share of the buckets on each master. The bot's budget, the users' table sets, the preferences and
the channel stay one key each, used outside the tables' scripts.

>>> c = Keys("tapete", buckets=16)
>>> c.table(-100), c.timers_of(-100), c.lock(-100)
('tapete:{16.2}:t:-100', 'tapete:{16.2}:timers', 'tapete:{16.2}:lock:-100')
>>> [slot(c.timers_in(i)) * 16 // SLOTS for i in range(16)] == list(range(16))
True
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import cache

from redis.crc import key_slot

__all__ = ["SLOTS", "Keys", "bucket_tags", "slot"]

SLOTS = 16384
"""A Redis Cluster's hash slots."""


def slot(key: str) -> int:
    """The hash slot of ``key`` (its ``{tag}`` if it has one)."""
    return int(key_slot(key.encode()))


@cache
def bucket_tags(buckets: int) -> tuple[str, ...]:
    """The hash tag of each bucket: the first ``<buckets>.<n>`` whose slot falls in the bucket's
    part of the slots (found in a few dozen tries each)."""
    tags = []
    for i in range(buckets):
        n = 0
        while slot(f"{{{buckets}.{n}}}") * buckets // SLOTS != i:
            n += 1
        tags.append(f"{{{buckets}.{n}}}")
    return tuple(tags)


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one store (one prefix); ``buckets`` > 0: hash-tagged for a cluster."""

    prefix: str
    buckets: int = 0

    @property
    def cluster(self) -> bool:
        return self.buckets > 0

    def bucket(self, chat_id: int) -> int:
        """The bucket of a table (0 without buckets)."""
        if not self.buckets:
            return 0
        return zlib.crc32(str(chat_id).encode()) % self.buckets

    def _of(self, chat_id: int) -> str:
        """What the keys of a table start with."""
        if not self.buckets:
            return self.prefix
        return f"{self.prefix}:{bucket_tags(self.buckets)[self.bucket(chat_id)]}"

    def _in(self, bucket: int) -> str:
        if not self.buckets:
            return self.prefix
        return f"{self.prefix}:{bucket_tags(self.buckets)[bucket]}"

    def table(self, chat_id: int) -> str:
        return f"{self._of(chat_id)}:t:{chat_id}"

    def timers_in(self, bucket: int) -> str:
        return f"{self._in(bucket)}:timers"

    def publish_in(self, bucket: int) -> str:
        return f"{self._in(bucket)}:pub"

    def timers_of(self, chat_id: int) -> str:
        """The timer set that holds the table's timer."""
        return self.timers_in(self.bucket(chat_id))

    def publish_of(self, chat_id: int) -> str:
        """The publication set that holds the table's publication."""
        return self.publish_in(self.bucket(chat_id))

    @property
    def timers(self) -> str:
        """The timer set of bucket 0 (the only one without buckets)."""
        return self.timers_in(0)

    @property
    def publish(self) -> str:
        """The publication set of bucket 0 (the only one without buckets)."""
        return self.publish_in(0)

    def sweep_buckets(self) -> range:
        """The buckets a sweep goes through."""
        return range(max(1, self.buckets))

    @property
    def procs(self) -> str:
        return f"{self._in(0)}:procs"

    def wake(self, db: int) -> str:
        # Channels are the server's, not a database's: the database's number keeps bots on
        # other databases of the server (with the same prefix) out.
        return f"{self.prefix}:wake:{db}"

    def seen(self, chat_id: int) -> str:
        return f"{self._of(chat_id)}:seen:{chat_id}"

    def lock(self, chat_id: int) -> str:
        return f"{self._of(chat_id)}:lock:{chat_id}"

    def shown(self, chat_id: int) -> str:
        return f"{self._of(chat_id)}:shown:{chat_id}"

    def user(self, user_id: int) -> str:
        return f"{self.prefix}:u:{user_id}"

    def prefs(self, scope: str) -> str:
        return f"{self.prefix}:prefs:{scope}"

    def group_budget(self, chat_id: int) -> str:
        return f"{self._of(chat_id)}:b:chat:{chat_id}"

    @property
    def bot_budget(self) -> str:
        return f"{self.prefix}:b:bot"

    def quiet(self, chat_id: int, user_id: int, kind: str) -> str:
        return f"{self._of(chat_id)}:q:{chat_id}:{user_id}:{kind}"
