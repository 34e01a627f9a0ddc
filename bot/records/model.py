"""What the bot keeps of a game, while it is played and once it is over (pure, no I/O).

While a table plays, its document keeps the current hand's :class:`HandLog` (the engine state at
the hand's start, replayable with the actions said since) and a running tally of each seat's
counters; every finished hand, and at the end the :class:`GameRecord`, wait in the document's
records outbox (:class:`Pending`) until :mod:`bot.records.flush` stores them (idempotently).

>>> h = HandLog.of('{"seed":7}')
>>> h.actions.append((2, "envido 5")); h.model_dump_json(), h.state_json()
('{"start":{"seed":7},"actions":[[2,"envido 5"]]}', '{"seed":7}')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ANONYMOUS_ID = 0
"""The user id a forgotten player keeps in stored games (his name becomes empty too)."""


class HandLog(BaseModel):
    """One hand as the engine can replay it: its start state and every action, in order."""

    model_config = ConfigDict(extra="ignore")

    start: dict[str, Any]
    """The engine's JSON at the hand's start, parsed (the seed is in it: the deal is exact);
    kept as an object so the table document does not escape it."""
    actions: list[tuple[int, str]] = Field(default_factory=list)
    """``(seat, canonical action text)`` in the order the engine applied them."""

    @classmethod
    def of(cls, state_json: str) -> HandLog:
        return cls(start=json.loads(state_json))

    def state_json(self) -> str:
        """The start state as the engine's ``from_json`` reads it."""
        return json.dumps(self.start, separators=(",", ":"), ensure_ascii=False)


class Pending(BaseModel):
    """A record waiting in the table document to be stored: a hand (``hand`` ≥ 1) or the game
    (``hand`` = 0). ``doc`` is its JSON object."""

    model_config = ConfigDict(extra="ignore")

    hand: int
    doc: dict[str, Any]


class RecordedPlayer(BaseModel):
    """A player as a stored game names him (``id`` 0 and no name once he asked to be forgotten)."""

    model_config = ConfigDict(extra="ignore")

    id: int
    name: str
    seat: int
    team: int | None = None
    computer: bool = False
    rating: float | None = None
    """His displayed rating right after this game (for the picture over time)."""


class GameRecord(BaseModel):
    """One finished game: who played where, how it ended, when, and each seat's counters."""

    model_config = ConfigDict(extra="ignore")

    id: str
    """The table's id (unique within the chat): the key of its hands and of its dedupe mark."""
    chat: int
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    lang: str = "es"
    players: list[RecordedPlayer]
    places: list[int]
    """Each seat's place at the end (0: won; equal places tie)."""
    started: float
    ended: float
    hands: int
    tally: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Seat (as text) → counter → amount, summed over the game's hands."""

    def winners(self) -> list[RecordedPlayer]:
        return [p for p in self.players if self.places[p.seat] == 0]

    def teams(self) -> list[list[RecordedPlayer]]:
        """The sides that competed: the teams of a teams game, else each player alone."""
        if all(p.team is not None for p in self.players):
            sides: dict[int, list[RecordedPlayer]] = {}
            for p in self.players:
                sides.setdefault(int(p.team or 0), []).append(p)
            return [sides[k] for k in sorted(sides)]
        return [[p] for p in self.players]


def add_tally(total: dict[str, dict[str, int]], hand: Mapping[Any, Mapping[str, int]]) -> None:
    """Add one hand's counters (seat → counter → amount) into a running tally.

    >>> t: dict[str, dict[str, int]] = {}
    >>> add_tally(t, {0: {"hands": 1}}); add_tally(t, {0: {"hands": 1, "juegos": 1}}); t
    {'0': {'hands': 2, 'juegos': 1}}
    """
    for seat, counters in hand.items():
        mine = total.setdefault(str(seat), {})
        for name, amount in counters.items():
            if amount:
                mine[name] = mine.get(name, 0) + int(amount)


def pair_key(a: int, b: int) -> str:
    """The key of a pair of players, the same whichever order they sat in.

    >>> pair_key(7, 3)
    '3,7'
    """
    return f"{min(a, b)},{max(a, b)}"


def increments(record: GameRecord) -> tuple[dict[str, int], dict[str, int]]:
    """What a finished game adds to the group's aggregates (computer players and forgotten
    players count in the group's totals only).

    Returns ``(stats, pairs)``: ``stats`` fields ``<user>:<counter>`` and ``*:<counter>`` (the
    group), ``pairs`` fields ``<a>,<b>:games`` / ``<a>,<b>:won`` for the two-player teams.
    """
    stats: dict[str, int] = {}

    def bump(field: str, amount: int = 1) -> None:
        if amount:
            stats[field] = stats.get(field, 0) + amount

    bump("*:games")
    bump("*:hands", record.hands)
    for player in _people(record.players):
        won = record.places[player.seat] == 0
        bump(f"{player.id}:games")
        bump(f"{player.id}:won", int(won))
        for name, amount in record.tally.get(str(player.seat), {}).items():
            bump(f"{player.id}:{name}", amount)
    pairs: dict[str, int] = {}
    for side in record.teams():
        people = list(_people(side))
        if len(side) != 2 or len(people) != 2:
            continue
        key = pair_key(people[0].id, people[1].id)
        pairs[f"{key}:games"] = 1
        pairs[f"{key}:won"] = int(record.places[people[0].seat] == 0)
    return stats, pairs


def _people(players: Iterable[RecordedPlayer]) -> Iterable[RecordedPlayer]:
    return (p for p in players if not p.computer and p.id != ANONYMOUS_ID)


def forget_player(record: GameRecord, user_id: int) -> bool:
    """Take a user's id and name out of a stored game (his results stay); True if he was in it."""
    found = False
    for player in record.players:
        if player.id == user_id:
            player.id, player.name, found = ANONYMOUS_ID, "", True
    return found
