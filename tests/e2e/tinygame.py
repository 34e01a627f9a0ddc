"""A fourth game that exists only in the tests: "la alta", the highest card wins.

It proves that a game is a folder of its own and one registry entry: nothing of the shared flow,
handlers, publisher or storage knows it, yet it is dealt, played by buttons, by commands and by
the timer, scored, finished and recorded through the whole bot.

Rules (made up for the tests). Each hand every player gets one card, face down. In turn each
says ``planto`` (keeps it) or ``cambio`` (throws it for the next card of the deck); the highest
rank (rey 12 down to as 1; ties to the first in turn) wins the hand and a point. First to
``puntos`` points (2 unless ``/nueva alta puntos=N``) wins the game. The timer's move is
``planto``; the computer changes a card below a 6.

>>> s = new_game(3, {}, seed=1)
>>> s.to_act, legal_actions(s, s.to_act[0])
((0,), [Action(kind='planto', amount=None, cards=()), Action(kind='cambio', amount=None, cards=())])
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, ClassVar

from bot.games.base import Buttons, EngineGame, GameButton, OptionError, TableView
from bot.games.render import esc
from bot.games.seats import LogEntry
from bot.games.texts import Texts
from engine.cards import DECK, Card, shuffled
from engine.core import Action, Event, IllegalAction, Transition

WORDS = {"planto": "planto", "stand": "planto", "cambio": "cambio", "swap": "cambio"}
TEXTS = {
    "es": {
        "title": "La alta",
        "rules": "La alta: gana la carta más alta.",
        "help": "Juegas a la alta: /planto o /cambio.",
        "bad_option": "Opción desconocida: {word}. La alta: puntos=N.",
        "games": "{n} partidas, {won} ganadas",
        "hands": "{n} manos, {won} ganadas",
        "planto": "Me planto",
        "cambio": "Cambio",
        "turn": "Le toca a {name}",
        "hand": "Mano {n}. Puntos: {score}",
        "said": "{name}: {word}",
        "won": "Mano para {name} con el {card}. Cartas: {cards}",
        "yours": "Tu carta: {card}",
    },
    "en": {
        "title": "High card",
        "rules": "High card: the highest card wins.",
        "help": "You are playing high card: /stand or /swap.",
        "bad_option": "Unknown option: {word}. High card: puntos=N.",
        "games": "{n} games, {won} won",
        "hands": "{n} hands, {won} won",
        "planto": "Stand",
        "cambio": "Swap",
        "turn": "{name} to play",
        "hand": "Hand {n}. Points: {score}",
        "said": "{name}: {word}",
        "won": "Hand to {name} with {card}. Cards: {cards}",
        "yours": "Your card: {card}",
    },
}


def text(lang: str, key: str, **params: Any) -> str:
    return TEXTS.get(lang, TEXTS["es"])[key].format(**params)


# ---- the engine (pure, as DESIGN.md's stable API) -------------------------------------------


@dataclass(frozen=True)
class State:
    players: int
    target: int
    seed: int
    hand_number: int
    cards: tuple[str, ...]
    deck: tuple[str, ...]
    score: tuple[int, ...]
    to_act: tuple[int, ...]
    winner: int | None = None

    @property
    def is_over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class View:
    seat: int | None
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)


def _deal(players: int, seed: int, hand: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    deck = [str(c) for c in shuffled(f"{seed}:{hand}", DECK)]
    return tuple(deck[:players]), tuple(deck[players:])


def new_game(players: int, options: Mapping[str, Any], seed: int) -> State:
    cards, deck = _deal(players, seed, 1)
    return State(
        players=players,
        target=int(options.get("puntos", 2)),
        seed=seed,
        hand_number=1,
        cards=cards,
        deck=deck,
        score=(0,) * players,
        to_act=(0,),
    )


def to_json(state: State) -> str:
    return json.dumps(state.__dict__)


def from_json(text_: str) -> State:
    data = json.loads(text_)
    for key in ("cards", "deck", "score", "to_act"):
        data[key] = tuple(data[key])
    return State(**data)


def parse_action(text_: str) -> Action:
    kind = WORDS.get(text_.strip().lower())
    if kind is None:
        raise IllegalAction("unknown_action", text=text_)
    return Action(kind)


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.is_over or seat not in state.to_act:
        return []
    return [Action("planto"), Action("cambio")]


def default_action(state: State, seat: int) -> Action:
    return Action("planto")


def view(state: State, seat: int | None) -> View:
    data: dict[str, Any] = {
        "hand_number": state.hand_number,
        "score": list(state.score),
        "to_act": list(state.to_act),
        "winner": state.winner,
    }
    if seat is not None:
        data["cards"] = [state.cards[seat]]
    return View(seat, data)


def apply(state: State, seat: int, action: Action | str) -> Transition[State]:
    if isinstance(action, str):
        action = parse_action(action)
    if state.is_over:
        raise IllegalAction("game_over")
    if seat not in state.to_act:
        raise IllegalAction("not_your_turn")
    if action not in legal_actions(state, seat):
        raise IllegalAction("unknown_action", text=str(action))
    cards, deck = list(state.cards), state.deck
    if action.kind == "cambio":
        cards[seat], deck = deck[0], deck[1:]
    events = [Event("said", {"seat": seat, "word": action.kind})]
    if seat + 1 < state.players:
        return Transition(
            replace(state, cards=tuple(cards), deck=deck, to_act=(seat + 1,)), tuple(events)
        )
    best = max(range(state.players), key=lambda s: (Card.parse(cards[s]).rank, -s))
    score = tuple(p + (s == best) for s, p in enumerate(state.score))
    events.append(Event("hand_won", {"seat": best, "card": cards[best], "cards": list(cards)}))
    if score[best] >= state.target:
        ended = replace(state, cards=tuple(cards), deck=deck, score=score, to_act=(), winner=best)
        events.append(Event("game_won", {"seat": best}))
        return Transition(ended, tuple(events))
    hand = state.hand_number + 1
    dealt, rest = _deal(state.players, state.seed, hand)
    events.append(Event("hand_started", {"hand": hand}))
    nxt = replace(state, hand_number=hand, cards=dealt, deck=rest, score=score, to_act=(0,))
    return Transition(nxt, tuple(events))


class Ai:
    """The computer player: a pure function of its view."""

    LEVELS = ("facil", "normal")

    @staticmethod
    def choose(seen: View, legal: Sequence[Action], rng: random.Random, level: str) -> Action:
        low = Card.parse(seen.data["cards"][0]).rank < 6
        return next(a for a in legal if a.kind == ("cambio" if low else "planto"))


class _Engine:
    """The engine functions as the module-like object :class:`EngineGame` expects."""

    new_game = staticmethod(new_game)
    to_json = staticmethod(to_json)
    from_json = staticmethod(from_json)
    parse_action = staticmethod(parse_action)
    legal_actions = staticmethod(legal_actions)
    default_action = staticmethod(default_action)
    view = staticmethod(view)
    apply = staticmethod(apply)


# ---- the game at the bot's table ------------------------------------------------------------


class AltaTexts(Texts):
    """Its texts are its own (:data:`TEXTS`), not in ``locales/``: the keys index them."""

    def say(self, lang: str, key: str, **params: Any) -> str:
        return text(lang, key, **params)


class AltaGame(EngineGame):
    engine: ClassVar[ModuleType] = _Engine  # type: ignore[assignment]
    ai: ClassVar[ModuleType] = Ai  # type: ignore[assignment]
    name = "alta"
    aliases = ("highcard",)
    commands: ClassVar[Mapping[str, str]] = {
        "planto": "planto",
        "stand": "planto",
        "cambio": "cambio",
        "swap": "cambio",
    }
    texts = AltaTexts(
        title="title", rules="rules", help="help", bad_option="bad_option", games="games",
        hands="hands",
    )  # fmt: skip

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for word in words:
            key, _, value = word.partition("=")
            if key != "puntos" or not value.isdigit():
                raise OptionError(word)
            options["puntos"] = int(value)
        return options

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return []

    def seats(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 4

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        return new_game(players, options, seed)

    def seat_cards(self, table: TableView, seat: int) -> list[str]:
        return list(view(table.engine_state(), seat).data["cards"])

    def keep_log(self, log: list[LogEntry]) -> list[LogEntry]:
        return log[-8:]

    def _lines(self, table: TableView, log: Sequence[LogEntry]) -> list[str]:
        names = table.names()
        state = table.engine_state()
        lines = [
            text(table.lang, "hand", n=state.hand_number, score=" - ".join(map(str, state.score)))
        ]
        for entry in log:
            if entry.kind == "said":
                word = text(table.lang, entry.data["word"])
                lines.append(
                    text(table.lang, "said", name=esc(names[entry.data["seat"]]), word=word)
                )
        return lines

    def table_text(self, table: TableView) -> str:
        lines = self._lines(table, table.log)
        for seat in table.to_act():
            lines.append(text(table.lang, "turn", name=esc(table.names()[seat])))
        return "\n".join(lines)

    def closed_table_text(self, table: TableView, log: Sequence[LogEntry]) -> str:
        return "\n".join(self._lines(table, log))

    def result_text(
        self, table: TableView, events: Sequence[Event], hand_log: Sequence[LogEntry]
    ) -> str | None:
        won = next((e for e in events if e.kind == "hand_won"), None)
        if won is None:
            return None
        names = table.names()
        return text(
            table.lang,
            "won",
            name=esc(names[won.data["seat"]]),
            card=won.data["card"],
            cards=", ".join(won.data["cards"]),
        )

    def hand_text(self, table: TableView, seat: int) -> str:
        return text(table.lang, "yours", card=self.seat_cards(table, seat)[0])

    def cards_alert(self, table: TableView, seat: int) -> str:
        return self.hand_text(table, seat)

    def table_buttons(self, table: TableView) -> Buttons:
        if table.status != "playing" or not table.to_act():
            return []
        state = table.engine_state()
        legal = legal_actions(state, table.to_act()[0])
        return [[GameButton(text(table.lang, a.kind), str(a)) for a in legal]]


ALTA = AltaGame()
