"""What every game offers the shared table flow (the flow never asks which game it is).

A game is one package under ``bot/games/`` exposing a :class:`Game`: who it is, what it can do
(:class:`Features`, declared data), its options, its engine verbs (:class:`Rules`) and how its
messages look (:class:`Looks`). :class:`EngineGame` implements the engine verbs once for every
engine package that follows DESIGN.md's stable API; a game subclasses it and writes only what is
particular to it, and one line in :mod:`bot.games.registry` hosts it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Literal, Protocol

from bot.games.seats import LogEntry, Player, Status
from bot.games.texts import Texts
from engine.core import Action, Event, Transition


@dataclass(frozen=True, slots=True)
class GameButton:
    """One game button: an action (sent back with the table's turn, so a stale press is
    refused) or, with ``inline``, a button that opens the presser's own inline results in the
    chat (``switch_inline_query_current_chat``)."""

    label: str
    action: str | None = None
    inline: str | None = None


@dataclass(frozen=True, slots=True)
class MenuCommand:
    """One command of the "/" menu: its Spanish and English names and the locale key of its
    description (``menu.<...>``)."""

    es: str
    en: str
    key: str


Buttons = list[list[GameButton]]
"""Rows of game buttons; the shared flow packs the callback data."""


@dataclass(frozen=True, slots=True)
class InlineChoice:
    """One inline-mode result offered to a player: choosing it plays ``action``; ``text`` is
    what the group then sees posted by him "via @bot" (HTML)."""

    action: str
    title: str
    description: str
    text: str


@dataclass(frozen=True, slots=True)
class ShortTeam:
    """A table option with which one team may start one player short (envite's mocho, E1):
    each team at least ``least``; an uneven start otherwise is refused with ``refusal``."""

    option: str
    refusal: str
    least: int = 2


@dataclass(frozen=True, slots=True)
class Named:
    """A refusal whose text names what one of its parameters stands for: the refusal
    ``reason`` is told with ``param`` and its ``name``, the player of that seat (``seat``) or
    the suit in the table's language (``suit``)."""

    reason: str
    param: str
    kind: Literal["seat", "suit"]


@dataclass(frozen=True, slots=True)
class Features:
    """What a game can do, declared as data: the shared flow reads these, never the game's name.

    >>> Features(teams=2).teams, Features().discard_limit
    (2, 0)
    """

    teams: int = 0
    """2 when players sit in two teams (pairs), 0 when each plays on his own."""
    short_team: ShortTeam | None = None
    """Teams start even, or (with this option on) one team one player short."""
    team_captains: bool = False
    """The first player of each team is its captain (the envite's mandador)."""
    discard_limit: int = 0
    """Most cards a player may select in a private discard (0: the game has none)."""
    discard_phase: str = "discard"
    """The engine's phase (``state.phase``) in which the seats to act choose their discards
    privately rather than with group buttons."""
    discard_kind: str = "descarto"
    """The kind of the engine action that discards the selected cards (with them as its
    ``cards``)."""
    engine_checks_turn: bool = False
    """The game's ``apply`` itself judges who may act, with its own reasons (envite's
    out-of-turn calls and "the mandador answers"; piedras's "you are out this juego"): the
    table does not refuse a seat outside ``to_act`` (``not_your_turn``) before asking it."""
    senas: bool = False
    """Partners may send señas (rules/senas.md): the engine has ``legal_senas``."""
    named_refusals: tuple[Named, ...] = ()
    """Refusals told with a name (envite's mandador who answers, the suit to follow)."""
    private_refusals: frozenset[str] = frozenset({"card_not_in_hand"})
    """Refusal reasons that tell something about the refused player's hand: answered privately."""
    hand_starts: frozenset[str] = frozenset({"hand_started"})
    """Kinds of the engine events that open a new hand (or round): the table message of the
    last one closes."""
    button_hints: frozenset[str] = frozenset()
    """Locale keys of the lines of its table and hand texts that say how to act with
    Telegram's buttons (the terminal, which has none, leaves them out)."""

    def in_discard(self, state: Any) -> bool:
        """Seats in ``to_act`` choose cards privately (the discard phase), not with buttons."""
        return bool(getattr(state, "phase", None) == self.discard_phase)


class TableView(Protocol):
    """What a game (and the shared texts) may read of a table: the table document
    (:class:`bot.table.Table`) read-only, never its transitions."""

    @property
    def chat_id(self) -> int: ...
    @property
    def tid(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def lang(self) -> str: ...
    @property
    def status(self) -> Status: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def players(self) -> list[Player]: ...
    @property
    def state(self) -> str | None: ...
    @property
    def turn(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def level(self) -> str: ...
    @property
    def discards(self) -> dict[str, list[str]]: ...
    @property
    def deadline(self) -> float | None: ...
    @property
    def turn_seconds(self) -> int: ...
    @property
    def turn_time(self) -> float: ...
    @property
    def clock_quarters(self) -> int: ...
    @property
    def compact_cards(self) -> bool: ...
    @property
    def paused_by(self) -> str | None: ...
    @property
    def log(self) -> list[LogEntry]: ...
    @property
    def adapter(self) -> Game: ...
    def engine_state(self) -> Any: ...
    def names(self) -> list[str]: ...
    def humans_present(self) -> bool: ...
    def seats_range(self) -> tuple[int, int]: ...
    def team_of(self, index: int) -> int: ...
    def team_members(self) -> tuple[list[Player], list[Player]]: ...
    def to_act(self) -> tuple[int, ...]: ...


class OptionError(ValueError):
    """An option word of ``/nueva`` the game does not know (``word`` is shown to the user)."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


class Rules(Protocol):
    """The engine verbs (DESIGN.md's stable API, which :class:`EngineGame` implements once).

    ``state`` is the engine's own immutable state object."""

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        """A fresh game for ``players`` people seated in playing order, dealt from ``seed``."""
        ...

    def to_json(self, state: Any) -> str: ...
    def from_json(self, text: str) -> Any: ...
    def to_act(self, state: Any) -> tuple[int, ...]: ...
    def is_over(self, state: Any) -> bool: ...
    def hand_number(self, state: Any) -> int: ...
    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...
    def parse_action(self, text: str) -> Action: ...
    def apply(self, state: Any, seat: int, action: Action) -> Transition[Any]: ...
    def default_action(self, state: Any, seat: int) -> Action: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """``view(state, seat).to_dict()``: JSON-plain; ``seat=None`` is the public view."""
        ...

    def legal_senas(self, state: Any, seat: int) -> list[Action]:
        """The señas ``seat`` may send now (any seat, in turn or not; empty without señas)."""
        ...

    def coming_senas(self, state: Any, seat: int) -> list[Action]:
        """The señas ``seat``'s hand message offers: those it may send now and, before their
        window opens, those its cards will allow (so the message needs no edit when it opens)."""
        ...

    def computer_action(self, state: Any, seat: int, rng: random.Random, level: str) -> Action:
        """The computer player's move for ``seat`` (in ``to_act``): its engine's
        ``ai.choose`` given only that seat's view and legal actions."""
        ...

    def computer_senas(self, state: Any, seat: int, rng: random.Random, level: str) -> list[Action]:
        """The señas a computer player sends now (its engine's ``ai.choose_senas`` given only
        that seat's view and the señas it may send; none without señas)."""
        ...

    def record_hand(self, start: Any, events: Sequence[Event]) -> dict[int, dict[str, int]]:
        """What one finished hand adds to each seat's statistics (seat → counter → amount),
        read from the hand's start state and its events (the next deal cut off). ``hands`` and
        ``hands_won`` are the shared counters; the rest are the game's own (locale keys
        ``records.counter.<game>.<name>``)."""
        ...

    def game_places(self, state: Any, seats: int) -> list[int]:
        """Each seat's place in a finished game (0: won; equal places tie)."""
        ...


class Looks(Protocol):
    """How the game's messages and buttons look: read from the table, public or per seat."""

    def keep_log(self, log: list[LogEntry]) -> list[LogEntry]:
        """What of the current hand's public log the table message still needs (kept small)."""
        ...

    def table_text(self, table: TableView) -> str:
        """The group's table message for the hand being played (public view only)."""
        ...

    def closed_table_text(self, table: TableView, log: Sequence[LogEntry]) -> str:
        """The final form of a finished hand's table message, from that hand's log."""
        ...

    def result_text(
        self, table: TableView, events: Sequence[Event], hand_log: Sequence[LogEntry]
    ) -> str | None:
        """The new group message a step deserves (a hand's result), else ``None``."""
        ...

    def seat_cards(self, table: TableView, seat: int) -> list[str]:
        """The cards a seat holds now, in the order its player holds them (best first)."""
        ...

    def hand_text(self, table: TableView, seat: int) -> str:
        """A player's private hand message (only what his seat may see)."""
        ...

    def cards_alert(self, table: TableView, seat: int) -> str:
        """The "Mis cartas" private alert (plain text, at most 200 characters)."""
        ...

    def table_buttons(self, table: TableView) -> Buttons:
        """The game buttons of the table message, built from the engine's legal actions."""
        ...

    def hand_buttons(self, table: TableView, seat: int) -> Buttons:
        """Game buttons of a player's private hand message (besides the shared discard)."""
        ...

    def inline_cards(self, table: TableView, seat: int) -> list[InlineChoice]:
        """The inline-mode results this seat may choose now (its own legal cards)."""
        ...


class Game(Rules, Looks, Protocol):
    """One game as the shared table flow sees it: who it is, what it can do, its options, its
    engine verbs (:class:`Rules`) and its messages (:class:`Looks`)."""

    name: str
    """The word after ``/nueva`` (``mus``)."""
    aliases: tuple[str, ...]
    """Other words for it after ``/nueva`` (``canario``)."""
    features: Features
    """What it can do (teams, discards, señas...)."""
    texts: Texts
    """Its own texts in the shared messages (title, rules, help, team names...)."""
    menu_commands: tuple[MenuCommand, ...]
    """The game's action commands as the "/" menu of groups lists them (a subset of
    :attr:`commands`, each with a description key)."""
    record_counters: tuple[tuple[str, ...], ...]
    """The game's own counters of :meth:`record_hand` as ``/estadisticas`` shows them: one
    line per group (labels ``records.counter.<game>.<name>``, a line's optional wrapper
    ``records.group.<game>.<i>``)."""

    def title(self, lang: str) -> str:
        """The game's name as the group reads it ("Mus a piedras")."""
        ...

    @property
    def commands(self) -> Mapping[str, str]:
        """Command name (Spanish and English) → the action words it stands for."""
        ...

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """Option words (``30 real juegos=1``) to a JSON-plain dict; raises :class:`OptionError`."""
        ...

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Locale keys (with params) describing the options, for the lobby and table messages."""
        ...

    def seats(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """The fewest and the most players the game may start with."""
        ...


class EngineGame:
    """The engine verbs of :class:`Game` for an engine package with DESIGN.md's stable API.

    Subclasses set :attr:`engine` (``engine.mus``...) and write options, seats and messages.
    """

    engine: ClassVar[ModuleType]
    ai: ClassVar[ModuleType]
    """The engine's computer player (``engine.<game>.ai``, DESIGN.md's ``choose``)."""
    aliases: tuple[str, ...] = ()
    features = Features()
    menu_commands: tuple[MenuCommand, ...] = ()
    record_counters: tuple[tuple[str, ...], ...] = ()

    name: str
    texts: Texts

    def title(self, lang: str) -> str:
        return self.texts.say(lang, self.texts.title)

    def to_json(self, state: Any) -> str:
        return str(self.engine.to_json(state))

    def from_json(self, text: str) -> Any:
        return self.engine.from_json(text)

    def to_act(self, state: Any) -> tuple[int, ...]:
        return tuple(state.to_act)

    def is_over(self, state: Any) -> bool:
        return bool(state.is_over)

    def hand_number(self, state: Any) -> int:
        return int(state.hand_number)

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        return list(self.engine.legal_actions(state, seat))

    def parse_action(self, text: str) -> Action:
        action: Action = self.engine.parse_action(text)
        return action

    def apply(self, state: Any, seat: int, action: Action) -> Transition[Any]:
        result: Transition[Any] = self.engine.apply(state, seat, action)
        return result

    def default_action(self, state: Any, seat: int) -> Action:
        action: Action = self.engine.default_action(state, seat)
        return action

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = self.engine.view(state, seat).to_dict()
        return data

    def hand_buttons(self, table: TableView, seat: int) -> Buttons:
        return []

    def inline_cards(self, table: TableView, seat: int) -> list[InlineChoice]:
        return []

    def legal_senas(self, state: Any, seat: int) -> list[Action]:
        if not self.features.senas:
            return []
        return list(self.engine.legal_senas(state, seat))

    def coming_senas(self, state: Any, seat: int) -> list[Action]:
        coming = getattr(self.engine, "coming_senas", None)
        if coming is None:
            return self.legal_senas(state, seat)
        return list(coming(state, seat))

    def record_hand(self, start: Any, events: Sequence[Event]) -> dict[int, dict[str, int]]:
        return {}

    def game_places(self, state: Any, seats: int) -> list[int]:
        """The winner (a seat, or a team of ``seat % 2`` in a teams game) first, the rest tied.

        >>> class G(EngineGame): features = Features(teams=2)
        >>> class S: winner = 1
        >>> G().game_places(S(), 4)
        [1, 0, 1, 0]
        """
        winner = state.winner
        if self.features.teams:
            return [0 if seat % 2 == winner else 1 for seat in range(seats)]
        return [0 if seat == winner else 1 for seat in range(seats)]

    def computer_action(self, state: Any, seat: int, rng: random.Random, level: str) -> Action:
        # The view object itself (every ai.choose takes it); never the state.
        seen = self.engine.view(state, seat)
        action: Action = self.ai.choose(seen, self.legal_actions(state, seat), rng, level)
        return action

    def computer_senas(self, state: Any, seat: int, rng: random.Random, level: str) -> list[Action]:
        choose = getattr(self.ai, "choose_senas", None)
        if choose is None:
            return []
        offered = self.legal_senas(state, seat)
        if not offered:
            return []
        chosen: list[Action] = list(choose(self.engine.view(state, seat), offered, rng, level))
        return chosen
