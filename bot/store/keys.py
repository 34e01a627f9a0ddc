"""The Redis back-end's key names, written once (``{p}`` is the store's prefix).

``{p}:t:<chat>`` a table (hash: ``v`` version, ``d`` document, ``h`` its digest),
``{p}:timers`` and ``{p}:pub`` the due turn timers and publications (sorted sets),
``{p}:seen:<chat>`` the chat's window of update ids, ``{p}:lock:<chat>`` and
``{p}:shown:<chat>`` its publishing lock and what its messages show, ``{p}:u:<user>`` a user's
tables, ``{p}:prefs:<scope>`` small settings, ``{p}:procs`` the processes that sweep,
``{p}:b:chat:<chat>`` and ``{p}:b:bot`` Telegram's budget, ``{p}:q:<chat>:<user>:<kind>`` a
user answered lately, ``{p}:wake:<db>`` the wake-up channel.

>>> k = Keys("tapete")
>>> k.table(-100), k.group_budget(-100), k.bot_budget
('tapete:t:-100', 'tapete:b:chat:-100', 'tapete:b:bot')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Keys"]


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one store (one prefix)."""

    prefix: str

    @property
    def tables(self) -> str:
        """What every table key starts with (the claim scripts check a table exists)."""
        return f"{self.prefix}:t:"

    def table(self, chat_id: int) -> str:
        return f"{self.prefix}:t:{chat_id}"

    @property
    def timers(self) -> str:
        return f"{self.prefix}:timers"

    @property
    def publish(self) -> str:
        return f"{self.prefix}:pub"

    @property
    def procs(self) -> str:
        return f"{self.prefix}:procs"

    def wake(self, db: int) -> str:
        # Channels are the server's, not a database's: the database's number keeps bots on
        # other databases of the server (with the same prefix) out.
        return f"{self.prefix}:wake:{db}"

    def seen(self, chat_id: int) -> str:
        return f"{self.prefix}:seen:{chat_id}"

    def lock(self, chat_id: int) -> str:
        return f"{self.prefix}:lock:{chat_id}"

    def shown(self, chat_id: int) -> str:
        return f"{self.prefix}:shown:{chat_id}"

    def user(self, user_id: int) -> str:
        return f"{self.prefix}:u:{user_id}"

    def prefs(self, scope: str) -> str:
        return f"{self.prefix}:prefs:{scope}"

    def group_budget(self, chat_id: int) -> str:
        return f"{self.prefix}:b:chat:{chat_id}"

    @property
    def bot_budget(self) -> str:
        return f"{self.prefix}:b:bot"

    def quiet(self, chat_id: int, user_id: int, kind: str) -> str:
        return f"{self.prefix}:q:{chat_id}:{user_id}:{kind}"
