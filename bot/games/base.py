"""The small interface every game offers the bot (the bot never re-derives a rule).

A :class:`GameAdapter` wraps one engine package (``engine.mus``...) behind the few verbs the table
flow needs: option words, a new game, actions, views, the timer's default move and JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.core import Action, Transition


class OptionError(ValueError):
    """An option word of ``/nueva`` the game does not know (``word`` is shown to the user)."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


class GameAdapter(Protocol):
    """One game as the bot sees it. ``state`` is the engine's own immutable state object."""

    name: str
    """The word after ``/nueva`` (``mus``)."""

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """Option words (``30 real juegos=1``) to a JSON-plain dict; raises :class:`OptionError`."""
        ...

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Locale keys (with params) describing the options, for the lobby and table messages."""
        ...

    def seats_needed(self, options: Mapping[str, Any]) -> int:
        """How many seated players ``/empezar`` needs."""
        ...

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        """A fresh game, dealt from ``seed``."""
        ...

    def to_json(self, state: Any) -> str: ...

    def from_json(self, text: str) -> Any: ...

    def to_act(self, state: Any) -> tuple[int, ...]: ...

    def is_over(self, state: Any) -> bool: ...

    def hand_number(self, state: Any) -> int: ...

    def in_discard(self, state: Any) -> bool:
        """Seats in ``to_act`` choose cards privately (discards) rather than with group buttons."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def parse_action(self, text: str) -> Action: ...

    def apply(self, state: Any, seat: int, action: Action) -> Transition[Any]: ...

    def default_action(self, state: Any, seat: int) -> Action: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """``view(state, seat).to_dict()``: JSON-plain; ``seat=None`` is the public view."""
        ...

    def display_order(self, cards: Sequence[str], options: Mapping[str, Any]) -> list[str]:
        """Card texts in the order a player of this game holds them (best first)."""
        ...

    def hand_worth(
        self, cards: Sequence[str], options: Mapping[str, Any]
    ) -> list[tuple[str, dict[str, Any]]]:
        """What a hand is worth, as locale keys with params (the engine evaluates it)."""
        ...

    def discard_action(self, cards: Sequence[str]) -> Action:
        """The action that discards ``cards`` (card texts)."""
        ...
