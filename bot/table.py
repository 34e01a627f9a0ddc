"""The table document: one JSON document per group chat, and its lobby operations.

A :class:`Table` holds who sits where, the options, the engine state (as the engine's own JSON),
the discard selections, the turn timer and a short log of the public events of the current hand;
beside them, in the same document, what the chat is shown of it (:class:`~bot.shown.Shown`: the
message ids, the outbox, who is unreachable), which :mod:`bot.present` and the publisher keep.
Its methods read it and run the lobby; the game itself is played through :mod:`bot.flow`.
Everything here is pure (no I/O): the handlers load a table, call one operation inside a
compare-and-set update, save it and then talk to Telegram.

Refusals are :class:`~engine.core.IllegalAction` with a reason code, exactly like the engine's,
so one code path turns any of them into a localized reply (``error.<reason>``).

>>> t = Table(chat_id=-100, creator=1)
>>> t.join(1, "Ana"); t.join(2, "Bea")
0
1
>>> t.seat_of(2), t.status
(1, 'lobby')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.games import render
from bot.games.base import Game
from bot.games.registry import get_game
from bot.games.seats import LogEntry, Player, Status
from bot.records.model import HandLog, Pending
from bot.shown import FIELDS, Notice, Shown
from engine.core import Event, IllegalAction

LEVELS = ("facil", "normal")
"""Computer player levels (``nivel=`` at ``/nueva``); the engines' ``ai.LEVELS``."""
PARSED_STATES = 256
"""Engine states kept parsed (:meth:`Table.engine_state`), by game and text: states are
immutable, and rendering a table and four hands asks for the same one a dozen times."""
_PARSED: dict[tuple[str, str], Any] = {}
SCHEMA = 1
"""The shape of the table document this code reads and writes (:attr:`Table.doc_version`). A
change an older process would misread (a field it would drop when it saves the document, a
field whose meaning changes) raises it, and the code that makes the change writes it: during a
rolling deploy an older process then refuses a newer document instead of saving it back
without what it does not know (docs/operations.md, "Mixed versions")."""


class NewerDocument(IllegalAction):
    """A table document written by a newer version of the bot than this process: it is neither
    changed nor saved here (the user is asked to try again; a newer process will serve it).

    >>> Table.model_validate_json('{"chat_id": -1, "creator": 1, "doc_version": 2}')
    Traceback (most recent call last):
    ...
    bot.table.NewerDocument: newer_version(version=2)
    """

    def __init__(self, version: int) -> None:
        super().__init__("newer_version", version=version)


@dataclass
class Step:
    """What one transition of the table produced, for the handler to publish."""

    events: list[Event] = field(default_factory=list)
    """Engine events in order (public and private)."""
    notes: list[LogEntry] = field(default_factory=list)
    """Bot notes (timeouts) added to the log."""
    closed_hand_log: list[LogEntry] | None = None
    """When a hand ended: the log of the hand that ended (to close its table message)."""
    closed_hand: int = 0
    """When a hand ended: its number."""
    taken_over: list[int] = field(default_factory=list)
    """Seats of people the computer now plays for (their turns timed out)."""
    senas: list[list[Event]] = field(default_factory=list)
    """The señas made in this step, in order, one list for each time a seat made them (a
    person's seña, a computer's before its move or as soon as it may)."""
    played: bool = False
    """The engine state moved on (a move, not a seña nor the deal): a finished hand or game
    has its result to show."""
    nudges: list[tuple[int, int]] = field(default_factory=list)
    """The people to act nudged in private (the timer fired with no move due): each one's user
    id and the seconds left in the turn."""
    discard_started: bool = False
    """A discard phase began: every seat's private message needs its discard buttons."""
    """A discard phase ended: every seat's private message loses its "waiting" line."""


_OLD_FIELDS = frozenset(f"old_{name}" for name in FIELDS)
"""The fields under which :class:`Table` reads a document of the old shape."""


class Table(BaseModel):
    """One game table in one group chat (the stored document)."""

    model_config = ConfigDict(extra="ignore")

    doc_version: int = Field(default=1, exclude_if=lambda version: version == 1)
    """The document's shape (:data:`SCHEMA`); a document without it is of the first shape,
    which is never written out."""
    chat_id: int
    creator: int
    tid: str = ""
    """A short id unique to this table (buttons of an older table in the same chat are stale)."""
    title: str = ""
    join_key: str = ""
    """The secret of this table's deep link (``join_<chat>_<key>``): a link to another table,
    or a guessed one, seats nobody. Empty: no link works."""
    game: str = "mus"
    """The game (its registry name). The default is part of the stored form, not a choice:
    documents are written without their default values, so a Mus table is stored without it;
    it stays "mus" whatever ``DEFAULT_GAME`` becomes."""
    options: dict[str, Any] = Field(default_factory=dict)
    lang: str = "es"
    status: Status = "lobby"
    players: list[Player] = Field(default_factory=list)
    state: str | None = None
    """The engine state, as the engine's own JSON (``to_json``)."""
    compact_cards: bool = False
    """The chat's compact card view (``/vista compacta``): a player's own cards as ``R🪙 3🏆``."""
    turn: int = 0
    """Bumped on every engine transition; buttons carry it so stale presses are refused."""
    hand: int = 0
    discard_round: int = 0
    """Bumped each time a discard phase starts; the private discard buttons carry it."""
    discards: dict[str, list[str]] = Field(default_factory=dict)
    """Seat (as text) to the cards selected for the next discard."""
    timeouts: int = 0
    deadline: float | None = None
    """Unix time at which the turn timer fires (``None``: no timer): the people's
    :attr:`turn_deadline`, or sooner the end of a computer player's pause."""
    turn_deadline: float | None = None
    """Unix time at which the people to act run out of time (their default move is played)."""
    level: str = "normal"
    """The level of computer players (``nivel=`` at ``/nueva``; also of a takeover)."""
    seed: int = 0
    """The game's seed: with the turn it seeds the computer players' pauses and choices."""
    turn_seconds: int = 0
    """The turn timer's length when it was set (0: no clock is shown)."""
    turn_time: float = 0.0
    """Seconds per turn chosen at ``/nueva`` (``tiempo=``); 0: the bot's setting of the day
    (``TAPETE_TURN_TIMEOUT``, which the lobby shows as ``turn_seconds``)."""
    nudge_after: float = 0.0
    """Seconds after a turn starts at which the people to act are nudged (the bot's settings,
    :data:`bot.flow.clock.NUDGE_AFTER` by default; 0: never, as in the terminal)."""
    move_at: float | None = None
    """When a computer player to act makes its move (the end of its pause)."""
    nudge_at: float | None = None
    """When the people still to act are nudged in private (once per turn)."""
    clock_at: float | None = None
    """When the minutes left shown in the table message change (the table is re-published)."""
    clock_quarters: int = 0
    """The time left the table message shows, in quarters of a minute
    (:func:`bot.games.timing.quarters`; 0: no clock)."""
    paused_by: str | None = None
    """The name of who paused the table (``/pausa``): no timer fires until ``/seguir``."""
    bot_name: str = ""
    """The bot's username (for links to its private chat)."""
    app_link: str = ""
    """The table's Mini App link ("🃏 Abrir la mesa"; empty: the bot serves no page)."""
    log: list[LogEntry] = Field(default_factory=list)
    moved_at: float = 0.0
    """Unix time of the last engine transition (a command typed before it is out of date)."""
    started_at: float = 0.0
    rec_hand: HandLog | None = None
    """The current hand as the engine can replay it (:mod:`bot.records.book`)."""
    rec_tally: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Each seat's statistics counters so far in this game."""
    rec_out: list[Pending] = Field(default_factory=list)
    """Finished hands and the finished game, still to be stored (:mod:`bot.records.flush`)."""
    shown: Shown = Field(default_factory=Shown)
    """What the chat is shown of this table (the publisher's; the flow never reads it)."""

    # A document stored before the record kept its fields at the top level: they are read under
    # their old names (never written again) and moved into ``shown`` (:meth:`_lift_shown`). Fields
    # rather than a "before" validator, which would make every load validate from Python objects
    # (half as slow again).
    old_lobby_msg: int | None = Field(default=None, alias="lobby_msg", exclude=True)
    old_table_msg: int | None = Field(default=None, alias="table_msg", exclude=True)
    old_hand_msgs: dict[str, int] | None = Field(default=None, alias="hand_msgs", exclude=True)
    old_closing: dict[str, str] | None = Field(default=None, alias="closing", exclude=True)
    old_outbox: list[Notice] | None = Field(default=None, alias="outbox", exclude=True)
    old_notice_seq: int | None = Field(default=None, alias="notice_seq", exclude=True)
    old_unreachable: list[int] | None = Field(default=None, alias="unreachable", exclude=True)

    @model_validator(mode="after")
    def _lift_shown(self) -> Table:
        """The fields of a document of the old shape, in ``shown`` (the record's own win); a
        document of a newer shape than this code's is refused (:class:`NewerDocument`)."""
        if self.doc_version > SCHEMA:
            raise NewerDocument(self.doc_version)
        if _OLD_FIELDS.isdisjoint(self.model_fields_set):
            return self  # every document written since
        old = {name: getattr(self, f"old_{name}") for name in FIELDS}
        old = {name: value for name, value in old.items() if value is not None}
        self.shown = Shown.model_validate({**old, **self.shown.model_dump(exclude_unset=True)})
        for name in FIELDS:
            setattr(self, f"old_{name}", None)
        return self

    # ---- reading -------------------------------------------------------------------------

    @property
    def adapter(self) -> Game:
        """The game played at this table (``bot/games/<game>``)."""
        return get_game(self.game)

    @property
    def active(self) -> bool:
        return self.status in ("lobby", "playing")

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or ``None`` when not seated."""
        for seat, p in enumerate(self.players):
            if p.user_id == user_id:
                return seat
        return None

    def names(self) -> list[str]:
        """Seat names as every list shows them (🤖 for a seat the computer plays)."""
        return [p.shown for p in self.players]

    def humans_present(self) -> bool:
        """Someone at the table still plays himself (else the table waits, paused)."""
        return any(not p.computer for p in self.players)

    def away_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if p.away and not p.free]

    def free_seats(self) -> list[int]:
        """Seats left mid-game, waiting for someone to press "Sentarme"."""
        return [seat for seat, p in enumerate(self.players) if p.free]

    def seats_range(self) -> tuple[int, int]:
        """The fewest and the most players this table may start with."""
        return self.adapter.seats(self.options)

    def team_of(self, index: int) -> int:
        """The team of the player at ``index`` in the lobby: his choice, else the smaller team
        when he sat down (join order alternates)."""
        sizes, team = [0, 0], 0
        for player in self.players[: index + 1]:
            team = player.team if player.team is not None else int(sizes[1] < sizes[0])
            sizes[team] += 1
        return team

    def team_members(self) -> tuple[list[Player], list[Player]]:
        """The players of each team in lobby order (the first of each is its mandador)."""
        teams: tuple[list[Player], list[Player]] = ([], [])
        for i, player in enumerate(self.players):
            teams[self.team_of(i)].append(player)
        return teams

    def engine_state(self) -> Any:
        """The engine state, parsed from :attr:`state` (once per text: :data:`PARSED_STATES`)."""
        if self.state is None:
            raise IllegalAction("not_started")
        key = (self.game, self.state)
        parsed = _PARSED.get(key)
        if parsed is None:
            parsed = self.adapter.from_json(self.state)
            _PARSED[key] = parsed
            if len(_PARSED) > PARSED_STATES:
                del _PARSED[next(iter(_PARSED))]  # the oldest parsed
        return parsed

    def to_act(self) -> tuple[int, ...]:
        if self.state is None or self.status != "playing":
            return ()
        return self.adapter.to_act(self.engine_state())

    # ---- lobby ---------------------------------------------------------------------------

    def join(self, user_id: int, name: str) -> int:
        """Seat a user (the next free seat); refuses when not in the lobby, seated or full."""
        if self.status != "lobby":
            raise IllegalAction("already_started")
        if self.seat_of(user_id) is not None:
            raise IllegalAction("already_seated")
        if len(self.players) >= self.seats_range()[1]:
            raise IllegalAction("table_full")
        self.players.append(Player(user_id=user_id, name=name[:64]))
        return len(self.players) - 1

    def add_computer(self, team: int | None = None) -> int:
        """Seat a computer player ("🤖 Máquina 2") in the next free seat; in a game of teams in
        ``team`` (0 or 1) if given, else in the team with fewer players."""
        if self.status != "lobby":
            raise IllegalAction("already_started")
        if len(self.players) >= self.seats_range()[1]:
            raise IllegalAction("table_full")
        if team is not None and not self.adapter.features.teams:
            team = None
        if team is not None and len(self.team_members()[team]) >= self.seats_range()[1] // 2:
            raise IllegalAction("team_full", n=team + 1)
        taken = {-p.user_id for p in self.players if p.bot_level is not None}
        number = next(n for n in itertools.count(1) if n not in taken)
        name = render.computer_name(self.lang, number)
        self.players.append(Player(user_id=-number, name=name, bot_level=self.level, team=team))
        return len(self.players) - 1

    def fill_with_computers(self) -> int:
        """Computer players in the free seats a start needs (the fewest seats, even teams);
        returns how many sat down."""
        added = 0
        while True:
            have = len(self.players)
            sizes = [len(m) for m in self.team_members()] if self.adapter.features.teams else [0, 0]
            if have >= self.seats_range()[0] and sizes[0] == sizes[1]:
                return added
            if have >= self.seats_range()[1]:
                return added
            self.add_computer(None if not self.adapter.features.teams else int(sizes[1] < sizes[0]))
            added += 1

    def choose_team(self, user_id: int, team: int, *, joining: bool = False) -> None:
        """A seated player picks his team in the lobby (``joining``: he just sat down, so
        being in that team already is no mistake). A team holds half the seats at most."""
        if self.status != "lobby":
            raise IllegalAction("already_started")
        if not self.adapter.features.teams or team not in (0, 1):
            raise IllegalAction("stale")
        seat = self.seat_of(user_id)
        if seat is None:
            raise IllegalAction("not_seated")
        for i in range(len(self.players)):  # everyone else keeps the team he has now
            if i != seat and self.players[i].team is None:
                self.players[i].team = self.team_of(i)
        current = self.team_of(seat)
        if current == team:
            if not joining:
                raise IllegalAction("already_in_team", n=team + 1)
        elif len(self.team_members()[team]) >= self.seats_range()[1] // 2:
            raise IllegalAction("team_full", n=team + 1)
        self.players[seat].team = team

    def leave(self, user_id: int) -> None:
        if self.status != "lobby":
            raise IllegalAction("already_started")
        seat = self.seat_of(user_id)
        if seat is None:
            raise IllegalAction("not_seated")
        del self.players[seat]

    def cancel(self) -> None:
        self.status = "cancelled"
        self.deadline = None

    def move_to(self, chat_id: int) -> None:
        """The group became a supergroup (a new chat id). The old chat's messages cannot be
        reached from the new one, so the lobby and the table message are posted there anew
        (and earlier ones are no longer closed); the private hands stay where they are.

        >>> t = Table(chat_id=-1, creator=1, shown=Shown(table_msg=5, closing={"4": "x"}))
        >>> t.move_to(-100); t.chat_id, t.shown.table_msg, t.shown.closing
        (-100, None, {})
        """
        self.chat_id = chat_id
        self.shown.forget_chat()

    def resend_hand(self, seat: int) -> None:
        """The seat's private hand is sent anew (a new player there, or at the bottom)."""
        self.shown.hand_msgs.pop(str(seat), None)

    def table_posted(self) -> bool:
        """The table message of this hand is posted (what a nudge links to)."""
        return self.shown.table_msg is not None

    # ---- pause, seats handed over, another game --------------------------------------------

    def next_table(self, user_id: int, tid: str) -> Table:
        """ "Otra partida": a new lobby with the same players (same teams), options and times;
        the finished table's last message loses its button."""
        if self.status != "over":
            raise IllegalAction("stale")
        if self.seat_of(user_id) is None:
            raise IllegalAction("not_seated")
        if self.rec_out:  # its records are stored under this table's id first
            raise IllegalAction("phone.error.saving")
        fresh = Table(
            chat_id=self.chat_id,
            creator=user_id,
            tid=tid,
            title=self.title,
            game=self.game,
            options=dict(self.options),
            lang=self.lang,
            level=self.level,
            turn_time=self.turn_time,
            turn_seconds=self.turn_seconds,
            nudge_after=self.nudge_after,
            bot_name=self.bot_name,
            app_link=self.app_link,
            players=[
                Player(user_id=p.user_id, name=p.name, team=p.team, bot_level=p.bot_level)
                for p in self.players
            ],
        )
        if self.shown.table_msg is not None:
            fresh.shown.closing[str(self.shown.table_msg)] = self.adapter.table_text(self)
        return fresh

    # ---- internals -----------------------------------------------------------------------
