"""The table document: one JSON document per group chat, and its pure transitions.

A :class:`Table` holds who sits where, the options, the engine state (as the engine's own JSON),
the ids of the messages the bot keeps editing, the discard selections, the turn timer and a short
log of the public events of the current hand. Every method here is pure (no I/O): the handlers
load a table, call one method inside a compare-and-set update, save it and then talk to Telegram.

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
import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.games import senas
from bot.games.base import Game
from bot.games.registry import get_game
from bot.games.render import esc
from bot.games.seats import LogEntry, Player, Status
from bot.games.timing import minutes_left, next_change
from bot.records import book
from bot.records.model import HandLog, Pending
from engine.core import Action, Event, IllegalAction
from locales import t, tn

TAKEOVER_AFTER = 2
"""A player's own turns timed out in a row after which the computer plays for him."""
LEVELS = ("facil", "normal")
"""Computer player levels (``nivel=`` at ``/nueva``); the engines' ``ai.LEVELS``."""
PAUSE = (1.5, 3.0)
"""Seconds a computer player "thinks" before its move (least, most); settings may shorten it."""
READ_PAUSE = 8.0
"""Seconds added to the first turn of a new hand, so people read the last hand's result before
the clock runs (the first player may act at once: nobody has to press "Seguimos")."""
READ_PAUSES = 3
"""A computer player opening a new hand waits this many of its pauses (people are reading)."""
NUDGE_AFTER = 20.0
"""Seconds after a turn starts at which the people still to act are nudged in private (at most
a third of the turn time)."""
NUDGE_RETRY = 1.0
"""Seconds a nudge waits when the table message it links to is not posted yet."""
PARSED_STATES = 256
"""Engine states kept parsed (:meth:`Table.engine_state`), by game and text: states are
immutable, and rendering a table and four hands asks for the same one a dozen times."""
_PARSED: dict[tuple[str, str], Any] = {}


class Notice(BaseModel):
    """A new message to post (a hand's result, a notice): the outbox of the table document.

    Written in the same compare-and-set as the move that caused it, and posted by whichever
    process publishes the table next (:mod:`bot.publisher`), in ``seq`` order.
    """

    model_config = ConfigDict(extra="ignore")

    seq: int
    text: str
    to: int | None = None
    """A user's private chat, or ``None`` for the group."""


MAX_OUTBOX = 20
"""Notices kept waiting at most (Telegram refusing for a long time drops the oldest)."""


@dataclass
class Step:
    """What one transition of the table produced, for the handler to publish."""

    events: list[Event] = field(default_factory=list)
    """Engine events in order (public and private)."""
    notes: list[LogEntry] = field(default_factory=list)
    """Bot notes (timeouts) added to the log."""
    closed_hand_log: list[LogEntry] | None = None
    """When a hand ended: the log of the hand that ended (to close its table message)."""
    closed_table_msg: int | None = None
    """When a hand ended: the id of that hand's table message."""
    taken_over: list[int] = field(default_factory=list)
    """Seats of people the computer now plays for (their turns timed out)."""
    discard_started: bool = False
    """A discard phase began: every seat's private message needs its discard buttons."""
    """A discard phase ended: every seat's private message loses its "waiting" line."""


class Table(BaseModel):
    """One game table in one group chat (the stored document)."""

    model_config = ConfigDict(extra="ignore")

    chat_id: int
    creator: int
    tid: str = ""
    """A short id unique to this table (buttons of an older table in the same chat are stale)."""
    title: str = ""
    join_key: str = ""
    """The secret of this table's deep link (``join_<chat>_<key>``): a link to another table,
    or a guessed one, seats nobody. Empty: no link works."""
    game: str = "mus"
    options: dict[str, Any] = Field(default_factory=dict)
    lang: str = "es"
    status: Status = "lobby"
    players: list[Player] = Field(default_factory=list)
    state: str | None = None
    """The engine state, as the engine's own JSON (``to_json``)."""
    turn: int = 0
    """Bumped on every engine transition; buttons carry it so stale presses are refused."""
    hand: int = 0
    discard_round: int = 0
    """Bumped each time a discard phase starts; the private discard buttons carry it."""
    lobby_msg: int | None = None
    table_msg: int | None = None
    hand_msgs: dict[str, int] = Field(default_factory=dict)
    """Seat (as text) to the message id of that player's private hand message."""
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
    :data:`NUDGE_AFTER` by default; 0: never, as in the terminal)."""
    move_at: float | None = None
    """When a computer player to act makes its move (the end of its pause)."""
    nudge_at: float | None = None
    """When the people still to act are nudged in private (once per turn)."""
    clock_at: float | None = None
    """When the minutes left shown in the table message change (the table is re-published)."""
    clock_min: int = 0
    """The whole minutes left the table message shows (0: less than a minute)."""
    paused_by: str | None = None
    """The name of who paused the table (``/pausa``): no timer fires until ``/seguir``."""
    bot_name: str = ""
    """The bot's username (for links to its private chat)."""
    log: list[LogEntry] = Field(default_factory=list)
    outbox: list[Notice] = Field(default_factory=list)
    """New messages still to post, oldest first (see :class:`Notice`)."""
    closing: dict[str, str] = Field(default_factory=dict)
    """Message id (as text) of an earlier table message → its final text, still to be shown
    (a finished hand's table message, or the copy replaced by ``/mesa``: without buttons)."""
    notice_seq: int = 0
    unreachable: list[int] = Field(default_factory=list)
    """Players the group was told cannot get private messages (they blocked the bot): said
    once per table; the turn timer plays for them."""
    moved_at: float = 0.0
    """Unix time of the last engine transition (a command typed before it is out of date)."""
    started_at: float = 0.0
    rec_hand: HandLog | None = None
    """The current hand as the engine can replay it (:mod:`bot.records.book`)."""
    rec_tally: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Each seat's statistics counters so far in this game."""
    rec_out: list[Pending] = Field(default_factory=list)
    """Finished hands and the finished game, still to be stored (:mod:`bot.records.flush`)."""

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
        if team is not None and not self.adapter.teams:
            team = None
        if team is not None and len(self.team_members()[team]) >= self.seats_range()[1] // 2:
            raise IllegalAction("team_full", n=team + 1)
        taken = {-p.user_id for p in self.players if p.bot_level is not None}
        number = next(n for n in itertools.count(1) if n not in taken)
        name = t(self.lang, "bots.name", n=number)
        self.players.append(Player(user_id=-number, name=name, bot_level=self.level, team=team))
        return len(self.players) - 1

    def fill_with_computers(self) -> int:
        """Computer players in the free seats a start needs (the fewest seats, even teams);
        returns how many sat down."""
        added = 0
        while True:
            have = len(self.players)
            sizes = [len(m) for m in self.team_members()] if self.adapter.teams else [0, 0]
            if have >= self.seats_range()[0] and sizes[0] == sizes[1]:
                return added
            if have >= self.seats_range()[1]:
                return added
            self.add_computer(None if not self.adapter.teams else int(sizes[1] < sizes[0]))
            added += 1

    def choose_team(self, user_id: int, team: int, *, joining: bool = False) -> None:
        """A seated player picks his team in the lobby (``joining``: he just sat down, so
        being in that team already is no mistake). A team holds half the seats at most."""
        if self.status != "lobby":
            raise IllegalAction("already_started")
        if not self.adapter.teams or team not in (0, 1):
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

    def notify(self, text: str, to: int | None = None) -> None:
        """Queue a new message for the group (or a user's private chat) in the outbox; a
        computer seat (a non-positive id) has no chat, so nothing is queued for it."""
        if to is not None and to <= 0:
            return
        self.notice_seq += 1
        self.outbox = [*self.outbox, Notice(seq=self.notice_seq, text=text, to=to)][-MAX_OUTBOX:]

    def say_unreachable(self, user_ids: set[int]) -> None:
        """Tell the group, once per table, that these seated players blocked the bot.

        >>> t = Table(chat_id=-1, creator=1); _ = t.join(7, "Ana")
        >>> t.say_unreachable({7}); t.say_unreachable({7, 8}); len(t.outbox), t.unreachable
        (1, [7])
        """
        for player in self.players:
            if player.user_id in user_ids and player.user_id not in self.unreachable:
                self.unreachable = [*self.unreachable, player.user_id]
                name = esc(player.name)
                self.notify(t(self.lang, "security.blocked", name=f"<b>{name}</b>"))

    def move_to(self, chat_id: int) -> None:
        """The group became a supergroup (a new chat id). The old chat's messages cannot be
        reached from the new one, so the lobby and the table message are posted there anew
        (and earlier ones are no longer closed); the private hands stay where they are.

        >>> t = Table(chat_id=-1, creator=1, table_msg=5, closing={"4": "x"}); t.move_to(-100)
        >>> t.chat_id, t.table_msg, t.closing
        (-100, None, {})
        """
        self.chat_id = chat_id
        self.lobby_msg = None
        self.table_msg = None
        self.closing = {}

    def repost_table(self) -> None:
        """``/mesa``: post the table message again at the bottom; the old copy loses buttons."""
        if self.table_msg is not None:
            self.closing[str(self.table_msg)] = self.adapter.table_text(self)
        self.table_msg = None

    def start(
        self, seed: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
    ) -> Step:
        """Deal the first hand: enough players, even teams where the game wants them; in a game
        of teams the players are seated alternately, team 1 first (its first player is the
        mandador)."""
        if self.status != "lobby":
            raise IllegalAction("already_started")
        low = self.seats_range()[0]
        have = len(self.players)
        if have < low:
            raise IllegalAction("not_enough_players", have=have, need=low)
        if self.adapter.teams:
            first, second = self.team_members()
            self.adapter.check_teams((len(first), len(second)), self.options)
            if len(second) > len(first):
                first, second = second, first
            seated = [p for pair in itertools.zip_longest(first, second) for p in pair if p]
            for i, player in enumerate(seated):
                player.team = i % 2
            self.players = seated
        if not any(p.bot_level is None for p in self.players):
            raise IllegalAction("bots.error.no_humans")
        state = self.adapter.new_game(have, self.options, seed)
        self.status = "playing"
        self.seed = seed
        # The engine deals inside new_game (no events); each seat's view feeds its DM.
        self._commit(state, now, timeout, pause)
        self.started_at = now
        book.open_hand(self)
        self._computers_signal()
        self.hand = self.adapter.hand_number(state)
        if self.adapter.in_discard(state):
            self.discard_round += 1
        return Step()

    # ---- playing -------------------------------------------------------------------------

    def play(
        self,
        seat: int,
        action: Action | str,
        now: float,
        timeout: float,
        pause: tuple[float, float] = PAUSE,
    ) -> Step:
        """One seat's action through the engine (``IllegalAction`` leaves the table unchanged).

        A person the computer played for who acts himself is back at his seat."""
        if self.status != "playing":
            raise IllegalAction("game_over" if self.status == "over" else "not_started")
        adapter = self.adapter
        state = self.engine_state()
        if isinstance(action, str):
            action = adapter.parse_action(action)
        if action.kind == "sena":
            return self.signal(seat, action, state)
        if self.paused_by:
            raise IllegalAction("phone.error.paused", name=self.paused_by)
        if self.players[seat].free:
            raise IllegalAction("not_seated")
        if seat not in adapter.to_act(state) and not adapter.engine_checks_turn:
            raise adapter.turn_refusal(state, seat, action)
        try:
            transition = adapter.apply(state, seat, action)
        except IllegalAction as exc:
            raise adapter.refusal(self, exc) from None
        self.timeouts = 0
        player = self.players[seat]
        player.misses, player.away = 0, False
        step = self._advance(
            transition.state, list(transition.events), now, timeout, [(seat, action)], pause
        )
        self._announce(step)
        return step

    def signal(self, seat: int, action: Action, state: Any) -> Step:
        """A seña (rules/senas.md), made at any moment of its window, in turn or not: the
        engine records it and the partners (and any opponent who caught it) get a private
        notice in this same write. No turn passes: the turn token, the timer and the public
        log stay as they are, so nobody's buttons go stale."""
        try:
            transition = self.adapter.apply(state, seat, action)
        except IllegalAction as exc:
            raise self.adapter.refusal(self, exc) from None
        self.state = self.adapter.to_json(transition.state)
        book.note(self, [(seat, action)], [])  # in the hand's log: the record replays it
        for user_id, text in senas.notices(self, transition.events):
            self.notify(text, to=user_id)
        return Step(events=list(transition.events))

    def _computer_senas(self, state: Any, seat: int) -> tuple[Any, list[tuple[int, Action]]]:
        """A computer player makes the señas it wants now (rules/senas.md): its partners are
        told privately in this same write, as for a person's seña (one message for all).
        Returns the new state and the señas made, for the hand's log."""
        adapter = self.adapter
        made: list[tuple[int, Action]] = []
        said: list[Event] = []
        for sena in adapter.computer_senas(
            state, seat, self._rng(seat, "senas"), self._level(seat)
        ):
            transition = adapter.apply(state, seat, sena)
            state = transition.state
            made.append((seat, sena))
            said.extend(transition.events)
        for user_id, text in senas.notices(self, said):
            self.notify(text, to=user_id)
        return state, made

    def _computers_signal(self) -> None:
        """Every computer seat makes its señas as soon as they may be made (S1: envite from the
        deal, Mus from the cut), not only when its turn comes: partners know before they
        play, as at a real table. Called once the move before is stored and logged."""
        if self.status != "playing" or self.state is None:
            return
        state = self.engine_state()
        made: list[tuple[int, Action]] = []
        for seat, player in enumerate(self.players):
            if player.computer and not player.free:
                state, now_made = self._computer_senas(state, seat)
                made.extend(now_made)
        if made:
            self.state = self.adapter.to_json(state)
            book.note(self, made, [])

    def come_back(
        self, user_id: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
    ) -> None:
        """ "Vuelvo": a person takes his seat back from the computer (with a fresh turn timer)."""
        if self.status != "playing":
            raise IllegalAction("not_started")
        seat = self.seat_of(user_id)
        if seat is None:
            raise IllegalAction("not_seated")
        player = self.players[seat]
        if not player.away:
            raise IllegalAction("bots.error.not_away")
        # One who left his seat mid-game takes it back while nobody else took it.
        player.away, player.misses, player.free, player.reserved = False, 0, False, None
        self._fresh_turn(now, timeout)
        self._schedule(now, pause)

    def fire_timer(
        self, now: float, timeout: float, pause: tuple[float, float] = PAUSE
    ) -> Step | None:
        """The timer is due: the computer players to act make their moves; when the people's
        time ran out too, the engine's default move is played for each of them, and a person
        whose own turns ran out :data:`TAKEOVER_AFTER` times in a row is played for by the
        computer from now on (until "Vuelvo"). When nobody plays himself any more the table
        waits (no timer) instead of playing on alone.

        Returns ``None`` when nothing is due (the timer moved since it was scheduled).
        """
        if self.status != "playing" or self.deadline is None or self.deadline > now:
            return None
        if self.paused_by:
            self.deadline = None
            return None
        adapter = self.adapter
        state = self.engine_state()
        events: list[Event] = []
        notes: list[LogEntry] = []
        played: list[tuple[int, Action]] = []
        hand = adapter.hand_number(state)
        people_due = self.turn_deadline is None or self.turn_deadline <= now
        move_at = self.move_at if self.move_at is not None else self.deadline  # older documents
        computers_due = people_due or move_at <= now
        taken: list[int] = []
        for seat in adapter.to_act(state):
            if seat not in adapter.to_act(state) or adapter.hand_number(state) != hand:
                continue
            player = self.players[seat]
            if player.computer:
                if not computers_due:
                    continue
                if events and not adapter.in_discard(state):
                    continue  # one computer move per pause, except in a simultaneous discard
                state, made = self._computer_senas(state, seat)
                played.extend(made)  # the hand's log has the señas before the move
                action = adapter.computer_action(
                    state, seat, self._rng(seat, "move"), self._level(seat)
                )
            elif people_due:
                action = adapter.default_action(state, seat)
                note = LogEntry(kind="timeout", data={"seat": seat, "action": str(action)})
                notes.append(note)
                # The note goes in the log right before what the default move did (rendered as
                # one line), so the closing hand keeps it too.
                events.append(Event("timeout", dict(note.data)))
                player.misses += 1
                if player.misses >= TAKEOVER_AFTER:
                    player.away = True
                    taken.append(seat)
            else:
                continue
            transition = adapter.apply(state, seat, action)
            played.append((seat, action))
            state = transition.state
            events.extend(transition.events)
            if adapter.is_over(state):
                break
        if not events:
            self._between_moves(now)
            return None
        if notes:
            self.timeouts += 1
        step = self._advance(state, events, now, timeout, played, pause)
        step.notes = notes
        step.taken_over = taken
        for seat in taken:
            self.notify(t(self.lang, "bots.takeover", name=esc(self.players[seat].name)))
        if taken and not self.humans_present() and self.status == "playing":
            self.notify(t(self.lang, "bots.paused"))
        self._announce(step)
        return step

    def _between_moves(self, now: float) -> None:
        """The timer fired with no move due: nudge the people to act (once a turn) and move the
        clock the table message shows on to its next minute."""
        if self.nudge_at is not None and self.nudge_at <= now and self.table_msg is None:
            self.nudge_at = now + NUDGE_RETRY  # the table message is being posted: link it
        if self.nudge_at is not None and self.nudge_at <= now:
            self.nudge_at = None
            for seat in self.to_act():
                player = self.players[seat]
                if not player.computer:
                    self.notify(self.nudge_text(now), to=player.user_id)
        if self.clock_at is not None and self.clock_at <= now:
            self._tick_clock(now)
        self._set_deadline()

    def table_link(self) -> str | None:
        """A link to the table message (supergroups only: ``t.me/c/<id>/<message>``).

        >>> Table(chat_id=-1001234, creator=1, table_msg=7).table_link()
        'https://t.me/c/1234/7'
        >>> Table(chat_id=-1234, creator=1, table_msg=7).table_link() is None
        True
        """
        text = str(self.chat_id)
        if self.table_msg is None or not text.startswith("-100"):
            return None
        return f"https://t.me/c/{text[4:]}/{self.table_msg}"

    def nudge_text(self, now: float) -> str:
        """The private nudge: your turn, with a link to the table (or the group's name)."""
        left = max(0, round((self.turn_deadline or now) - now))
        title = esc(self.title or t(self.lang, f"game.{self.game}"))
        link = self.table_link()
        if link is not None:
            where = f'<a href="{link}">{title}</a>'
            return tn(self.lang, "phone.nudge", left, where=where)
        return tn(self.lang, "phone.nudge_group", left, where=title)

    # ---- pause, seats handed over, another game --------------------------------------------

    def pause(self, user_id: int) -> None:
        """``/pausa``: any seated player stops the clock (no timer fires) until ``/seguir``."""
        seat = self._seated_playing(user_id)
        if self.paused_by:
            raise IllegalAction("phone.error.paused", name=self.paused_by)
        self.paused_by = self.players[seat].name
        self.move_at = self.nudge_at = self.clock_at = None
        self.deadline = None

    def resume(
        self, user_id: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
    ) -> None:
        """``/seguir``: anyone seated goes on, with a fresh turn time for the people to act."""
        self._seated_playing(user_id)
        if not self.paused_by:
            raise IllegalAction("phone.error.not_paused")
        self.paused_by = None
        self._fresh_turn(now, timeout)
        self._schedule(now, pause)

    def free_seat(
        self,
        user_id: int,
        now: float,
        pause: tuple[float, float] = PAUSE,
        reserved: str | None = None,
    ) -> int:
        """``/salir`` mid-game (or ``/sustituir @usuario``): the computer plays the seat until
        someone sits down ("Sentarme"; only ``reserved`` when given)."""
        seat = self._seated_playing(user_id)
        player = self.players[seat]
        player.free, player.away, player.misses = True, True, 0
        player.reserved = reserved.lower().lstrip("@") if reserved else None
        self._schedule(now, pause)
        return seat

    def take_seat(
        self,
        seat: int,
        user_id: int,
        name: str,
        username: str | None,
        now: float,
        timeout: float,
        pause: tuple[float, float] = PAUSE,
    ) -> Player:
        """A newcomer sits in a seat left free mid-game (or is handed one): he plays it from now
        on (his private hand is sent anew) and the one who left may no longer act. Returns the
        player who had the seat."""
        if self.status != "playing":
            raise IllegalAction("not_started")
        if self.seat_of(user_id) is not None:
            raise IllegalAction("already_seated")
        if not 0 <= seat < len(self.players) or not self.players[seat].free:
            raise IllegalAction("stale")
        old = self.players[seat]
        if old.reserved and (username or "").lower() != old.reserved:
            raise IllegalAction("phone.error.reserved", name=esc(old.reserved))
        self.players[seat] = Player(user_id=user_id, name=name[:64], team=old.team)
        self.hand_msgs.pop(str(seat), None)
        self.discards.pop(str(seat), None)
        if self.paused_by is None and self.deadline is None:
            self._fresh_turn(now, timeout)
        self._schedule(now, pause)
        return old

    def hand_over(
        self,
        user_id: int,
        to_id: int,
        to_name: str,
        now: float,
        timeout: float,
        pause: tuple[float, float] = PAUSE,
    ) -> int:
        """``/sustituir`` by reply: the seat of ``user_id`` goes to another person at once."""
        seat = self.free_seat(user_id, now, pause)
        self.take_seat(seat, to_id, to_name, None, now, timeout, pause)
        return seat

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
            players=[
                Player(user_id=p.user_id, name=p.name, team=p.team, bot_level=p.bot_level)
                for p in self.players
            ],
        )
        if self.table_msg is not None:
            fresh.closing[str(self.table_msg)] = self.adapter.table_text(self)
        return fresh

    def _seated_playing(self, user_id: int) -> int:
        if self.status != "playing":
            raise IllegalAction("not_started")
        seat = self.seat_of(user_id)
        if seat is None or self.players[seat].free:
            raise IllegalAction("not_seated")
        return seat

    def toggle_discard(self, seat: int, card: str, selected: bool, round_: int) -> list[str]:
        """Select or unselect one card for this seat's discard; returns the selection."""
        self._check_discard(seat, round_)
        view = self.adapter.view(self.engine_state(), seat)
        cards = [str(c) for c in view.get("cards") or []]
        if card not in cards:
            raise IllegalAction("card_not_in_hand", card=card)
        chosen = [c for c in self.discards.get(str(seat), []) if c != card]
        if selected and len(chosen) >= self.adapter.discard_limit:
            chosen = chosen[1:] if self.adapter.discard_limit > 1 else []
        if selected:
            chosen.append(card)
        self.discards[str(seat)] = [c for c in cards if c in chosen]
        return self.discards[str(seat)]

    def confirm_discard(
        self, seat: int, round_: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
    ) -> Step:
        """Discard the selected cards (the engine refuses an empty selection)."""
        self._check_discard(seat, round_)
        chosen = self.discards.get(str(seat), [])
        if not chosen:
            raise IllegalAction("bad_discard", count=0)
        return self.play(seat, self.adapter.discard_action(chosen), now, timeout, pause)

    def _check_discard(self, seat: int, round_: int) -> None:
        if self.status != "playing":
            raise IllegalAction("not_started")
        state = self.engine_state()
        if round_ != self.discard_round or not self.adapter.in_discard(state):
            raise IllegalAction("stale")
        if seat not in self.adapter.to_act(state):
            raise IllegalAction("already_discarded")

    # ---- internals -----------------------------------------------------------------------

    def _announce(self, step: Step) -> None:
        """Queue what a step shows beyond the table message: the finished hand's table message
        in its final form, and the result (with the end of the game) as a new message."""
        adapter = self.adapter
        if step.closed_hand_log is not None and step.closed_table_msg is not None:
            text = adapter.closed_table_text(self, step.closed_hand_log)
            self.closing[str(step.closed_table_msg)] = text
        hand_log = step.closed_hand_log if step.closed_hand_log is not None else self.log
        parts = [adapter.result_text(self, step.events, hand_log)]
        if self.status == "over":
            parts.append(t(self.lang, "msg.game_over"))
        result = "\n\n".join(p for p in parts if p)
        if result:
            self.notify(result)

    def _advance(
        self,
        state: Any,
        events: list[Event],
        now: float,
        timeout: float,
        played: list[tuple[int, Action]],
        pause: tuple[float, float] = PAUSE,
    ) -> Step:
        adapter = self.adapter
        was_discard = self.state is not None and adapter.in_discard(self.engine_state())
        step = Step(events=events)
        log = list(self.log)
        for event in events:
            if adapter.starts_hand(event):
                step.closed_hand_log = adapter.keep_log(log)
                step.closed_table_msg = self.table_msg
                log = []
                self.table_msg = None
                self.hand_msgs = {}
            if event.public:
                log.append(LogEntry(kind=event.kind, data=dict(event.data)))
                log = adapter.keep_log(log)
        self.log = log
        if step.closed_hand_log is not None or not adapter.in_discard(state):
            self.discards = {}
        if adapter.in_discard(state) and not was_discard:
            self.discards = {}
            self.discard_round += 1
            step.discard_started = True
        read = step.closed_hand_log is not None  # the group reads the result first
        self._commit(state, now, timeout, pause, read=read)
        self.hand = adapter.hand_number(state)
        if adapter.is_over(state):
            self.status = "over"
            self.deadline = None
        book.note(self, played, events)
        self._computers_signal()
        return step

    def _commit(
        self,
        state: Any,
        now: float,
        timeout: float,
        pause: tuple[float, float] = PAUSE,
        *,
        read: bool = False,
    ) -> None:
        """Store the new state and set the clocks (``read``: a new hand after a result, see
        :data:`READ_PAUSE`)."""
        self.state = self.adapter.to_json(state)
        self.turn += 1
        self.moved_at = now
        over = self.adapter.is_over(state)
        self._fresh_turn(None if over else now, timeout, read=read)
        if read:
            pause = (pause[0] * READ_PAUSES, pause[1] * READ_PAUSES)
        self._schedule(now, pause)

    def _fresh_turn(self, now: float | None, timeout: float, *, read: bool = False) -> None:
        """A new turn time from ``now`` (``None``: no turn): deadline, nudge, clock; ``read``:
        a new hand's first turn, with :data:`READ_PAUSE` more to read the last result."""
        seconds = self.turn_time or timeout
        self.turn_seconds = round(seconds)
        if now is None:
            self.turn_deadline = self.nudge_at = None
            return
        self.turn_deadline = now + seconds + (READ_PAUSE if read else 0.0)
        self.nudge_at = now + min(self.nudge_after, seconds / 3) if self.nudge_after else None
        self._tick_clock(now)

    def _tick_clock(self, now: float) -> None:
        """The minutes the table message shows now, and when they change next."""
        if self.turn_deadline is None:
            self.clock_min, self.clock_at = 0, None
            return
        self.clock_min = minutes_left(round(self.turn_deadline - now, 3))
        self.clock_at = next_change(self.turn_deadline, self.clock_min)

    def _schedule(self, now: float, pause: tuple[float, float]) -> None:
        """Set the computer player's pause when one is to act, then the timer; no timer when
        the game is over, the table is paused or nobody plays himself (the table waits)."""
        state = self.engine_state()
        self.move_at = None
        if self.adapter.is_over(state) or not self.humans_present() or self.paused_by:
            self.deadline = None
            return
        acting = self.adapter.to_act(state)
        if any(self.players[seat].computer for seat in acting):
            low, high = pause
            self.move_at = now + self._rng(-1, "pause").uniform(low, high)
        self._set_deadline()

    def _set_deadline(self) -> None:
        """The timer fires at the first of: a computer's move, the nudge, the clock's next
        minute, the people's deadline."""
        if self.paused_by or not self.humans_present():
            self.deadline = None
            return
        due = [
            at
            for at in (self.move_at, self.nudge_at, self.clock_at, self.turn_deadline)
            if at is not None
        ]
        self.deadline = min(due) if due else None

    def _rng(self, seat: int, purpose: str) -> random.Random:
        """A reproducible generator for this turn (from the stored seed and the turn)."""
        return random.Random(f"{self.tid}:{self.seed}:{self.turn}:{seat}:{purpose}")

    def _level(self, seat: int) -> str:
        return self.players[seat].bot_level or self.level
