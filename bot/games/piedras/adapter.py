"""Mus a piedras at the table (rules/piedras.md): options, seats, the engine, and its messages.

>>> PIEDRAS.seats({}), PIEDRAS.features.teams, PIEDRAS.features.discard_limit
((3, 8), 0, 1)
>>> PIEDRAS.parse_options(["piedras=5"])["stones"]
5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

import engine.piedras as piedras
from bot.games.base import Buttons, EngineGame, Features, MenuCommand, TableView
from bot.games.mus import worth
from bot.games.mus.adapter import BETTING_COMMANDS
from bot.games.piedras import buttons, options, records, render
from bot.games.seats import LogEntry
from bot.games.texts import Texts
from engine.core import Action, Event, IllegalAction, Transition
from engine.piedras import ai as piedras_ai


class PiedrasGame(EngineGame):
    """Mus a piedras: 3 to 8 players, each on his own, one private discard each hand."""

    engine: ClassVar[ModuleType] = piedras
    ai: ClassVar[ModuleType] = piedras_ai
    name = "piedras"
    features = Features(
        discard_limit=1, engine_checks_turn=True, button_hints=frozenset({"table.phase.discard"})
    )
    record_counters: tuple[tuple[str, ...], ...] = (("juegos_lost",),)
    texts = Texts(
        title="game.piedras",
        rules="rules.piedras",
        help="help.piedras",
        bad_option="piedras.bad_option",
        games="records.line.games.piedras",
        hands="records.line.hands.piedras",
        counters={"juegos_lost": "records.counter.piedras.juegos_lost"},
    )
    commands: ClassVar[Mapping[str, str]] = BETTING_COMMANDS
    menu_commands: tuple[MenuCommand, ...] = (
        MenuCommand("paso", "pass", "menu.piedras.paso"),
        MenuCommand("envido", "bet", "menu.piedras.envido"),
        MenuCommand("quiero", "accept", "menu.piedras.quiero"),
        MenuCommand("noquiero", "fold", "menu.piedras.noquiero"),
        MenuCommand("ordago", "allin", "menu.piedras.ordago"),
    )

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        return options.parse_options(words)

    def option_labels(self, options_: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return options.option_labels(options_)

    def seats(self, options_: Mapping[str, Any]) -> tuple[int, int]:
        return 3, 8

    def new_game(self, players: int, options_: Mapping[str, Any], seed: int) -> Any:
        return piedras.new_game(players=players, options=piedras.Options(**options_), seed=seed)

    def parse_action(self, text: str) -> Action:
        """The engine's reading of a player's words; words it does not know get piedras's own
        list of words (no mus here)."""
        try:
            return super().parse_action(text)
        except IllegalAction as exc:
            if exc.reason == "unknown_action":
                words = str(exc.params.get("text", ""))
                raise IllegalAction("piedras.error.unknown_action", text=words) from None
            raise

    def apply(self, state: Any, seat: int, action: Action) -> Transition[Any]:
        """The engine's transition; a seat out of turn is told why (:meth:`_turn_refusal`), a
        discard of other than one card gets piedras's own words."""
        if seat not in self.to_act(state):
            raise self._turn_refusal(state, seat, action)
        try:
            return super().apply(state, seat, action)
        except IllegalAction as exc:
            if exc.reason == "bad_discard":
                raise IllegalAction("piedras.error.one_card") from None
            raise

    def _turn_refusal(self, state: Any, seat: int, action: Action) -> IllegalAction:
        """Why a seated player may not act now: free or out this juego, not in the lance (the
        engine's own reason), or simply not his turn."""
        view = self.view(state, None)
        if seat in (view.get("out") or []):
            return IllegalAction("piedras.error.out")
        if seat in (view.get("free") or []):
            return IllegalAction("piedras.error.free")
        if self.features.in_discard(state):
            return IllegalAction("already_discarded")
        try:
            piedras.apply(state, seat, action)
        except IllegalAction as exc:
            if exc.reason in ("not_in_lance", "not_in_hand"):
                return exc
        return IllegalAction("not_your_turn")

    def record_hand(self, start: Any, events: Sequence[Event]) -> dict[int, dict[str, int]]:
        return records.tally(start.piles, start.in_hand, events)

    def seat_cards(self, table: TableView, seat: int) -> list[str]:
        view = self.view(table.engine_state(), seat)
        cards = [str(c) for c in view.get("cards") or []]
        return worth.display_order(cards, options.card_rules(table.options))

    # ---- messages ----------------------------------------------------------------------------

    def keep_log(self, log: list[LogEntry]) -> list[LogEntry]:
        return render.keep_log(log)

    def table_text(self, table: TableView) -> str:
        return render.table_text(table)

    def closed_table_text(self, table: TableView, log: Sequence[LogEntry]) -> str:
        return render.closed_table_text(table, log)

    def result_text(
        self, table: TableView, events: Sequence[Event], hand_log: Sequence[LogEntry]
    ) -> str | None:
        return render.result_text(table, events, hand_log)

    def hand_text(self, table: TableView, seat: int) -> str:
        return render.hand_text(table, seat)

    def cards_alert(self, table: TableView, seat: int) -> str:
        return render.cards_alert(table, seat)

    def table_buttons(self, table: TableView) -> Buttons:
        """The player to act's legal actions, a few of them (see :mod:`.buttons`)."""
        if table.status != "playing":
            return []
        state = table.engine_state()
        to_act = self.to_act(state)
        if self.features.in_discard(state) or not to_act:
            return []
        legal = self.legal_actions(state, to_act[0])
        betting = state.betting
        raising = betting is not None and betting.stage == "reenvite"
        return buttons.table_rows(table.lang, legal, raising=raising)


_PILE_KINDS = frozenset({"deposited", "deposit_taken", "pile_taken", "to_plate"})
"""Events that move stones out of or into a seat's pile."""

PIEDRAS = PiedrasGame()
