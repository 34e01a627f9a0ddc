"""Classic Mus behind the :class:`~bot.games.base.GameAdapter` interface (rules/mus.md).

>>> MUS.parse_options(["30", "4reyes", "real", "juegos=1"])
{'reyes': 4, 'target': 30, 'juegos': 1, 'real': True}
>>> MUS.seats_needed({})
4
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import engine.mus as mus
from bot.games.base import OptionError
from engine.cards import parse_cards
from engine.core import Action, Transition, normalize
from engine.mus.evaluation import sort_for_display

_JUEGOS_RE = re.compile(r"^juegos=([1-9])$")
_MAX_JUEGOS = 9


class MusAdapter:
    """Classic Mus for four players in two pairs."""

    name = "mus"

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """``30``/``40`` points, ``4reyes``/``8reyes``, ``real``, ``juegos=N`` (rules/mus.md M1)."""
        opts = mus.Options()
        values: dict[str, Any] = opts.model_dump()
        for raw in words:
            word = normalize(raw).replace(" ", "")
            if word in ("30", "40"):
                values["target"] = int(word)
            elif word in ("4reyes", "8reyes"):
                values["reyes"] = int(word[0])
            elif word == "real":
                values["real"] = True
            elif m := _JUEGOS_RE.match(word):
                values["juegos"] = int(m.group(1))
            else:
                raise OptionError(raw[:30])
        return mus.Options(**values).model_dump()

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        opts = mus.Options(**options)
        labels: list[tuple[str, dict[str, Any]]] = [
            ("mus.opt.target", {"n": opts.target}),
            ("mus.opt.reyes", {"n": opts.reyes}),
            ("mus.opt.juegos", {"n": opts.juegos}),
        ]
        if opts.real:
            labels.append(("mus.opt.real", {}))
        return labels

    def seats_needed(self, options: Mapping[str, Any]) -> int:
        return 4

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        return mus.new_game(players=players, options=mus.Options(**options), seed=seed)

    def to_json(self, state: Any) -> str:
        return str(mus.to_json(state))

    def from_json(self, text: str) -> Any:
        return mus.from_json(text)

    def to_act(self, state: Any) -> tuple[int, ...]:
        return tuple(state.to_act)

    def is_over(self, state: Any) -> bool:
        return bool(state.is_over)

    def hand_number(self, state: Any) -> int:
        return int(state.hand_number)

    def in_discard(self, state: Any) -> bool:
        return bool(state.phase == "discard")

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        return list(mus.legal_actions(state, seat))

    def parse_action(self, text: str) -> Action:
        return mus.parse_action(text)

    def apply(self, state: Any, seat: int, action: Action) -> Transition[Any]:
        result: Transition[Any] = mus.apply(state, seat, action)
        return result

    def default_action(self, state: Any, seat: int) -> Action:
        return mus.default_action(state, seat)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = mus.view(state, seat).to_dict()
        return data

    def display_order(self, cards: Sequence[str], options: Mapping[str, Any]) -> list[str]:
        """High to low as the engine ranks them for grande (M3: with 8 reyes 3s are reyes).

        >>> MUS.display_order(["1b", "3c", "7e", "12o"], {"reyes": 8})
        ['12o', '3c', '7e', '1b']
        """
        return [str(c) for c in sort_for_display(list(cards), mus.Options(**options))]

    def hand_worth(
        self, cards: Sequence[str], options: Mapping[str, Any]
    ) -> list[tuple[str, dict[str, Any]]]:
        """Its pares and its juego or punto total, from the engine's evaluation (M3).

        >>> MUS.hand_worth(["12o", "3c", "1b", "7e"], {})
        [('pares.par', {}), ('worth.no_juego', {'n': 28})]
        """
        if len(cards) != 4:
            return []
        value = mus.evaluate(list(cards), mus.Options(**options))
        worth: list[tuple[str, dict[str, Any]]] = [
            (f"pares.{value.pares}", {}) if value.pares else ("worth.no_pares", {})
        ]
        worth.append(("worth.juego_of" if value.juego else "worth.no_juego", {"n": value.points}))
        return worth

    def discard_action(self, cards: Sequence[str]) -> Action:
        return Action("descarto", cards=parse_cards(list(cards)))


MUS = MusAdapter()
