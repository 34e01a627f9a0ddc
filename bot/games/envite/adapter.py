"""Envite canario at the table (rules/envite.md): options, teams, the engine, its messages.

>>> ENVITE.parse_options(["mocho", "chicos=3"])["chicos"]
3
>>> ENVITE.seats({})
(4, 12)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

import engine.envite as envite
from bot.games import senas
from bot.games.base import (
    Buttons,
    EngineGame,
    Features,
    GameButton,
    InlineChoice,
    MenuCommand,
    Named,
    OptionError,
    ShortTeam,
    TableView,
)
from bot.games.envite import records, render
from bot.games.seats import LogEntry
from bot.games.texts import Texts
from engine.core import Action, Event, normalize
from engine.envite import ai as envite_ai
from engine.envite.senas import ENVITE_SENAS
from locales import t

_CHICOS_RE = re.compile(r"^chicos=([1-4])$")
BUTTONS_PER_ROW = 3
MAX_LOG = 12
"""Public events of the current round kept for the table message."""

_LOGGED = frozenset(
    {"tumbo_decided", "bet", "bet_accepted", "bet_refused", "trick_won", "renuncio_called",
     "timeout"}
)  # fmt: skip


class EnviteGame(EngineGame):
    """Envite canario: two teams of 2 to 6 (the mocho fills an odd seat), a mandador each."""

    engine: ClassVar[ModuleType] = envite
    ai: ClassVar[ModuleType] = envite_ai
    name = "envite"
    aliases: tuple[str, ...] = ("canario",)
    features = Features(
        teams=2,
        team_captains=True,
        short_team=ShortTeam(option="mocho", refusal="envite_uneven_mocho"),
        engine_checks_turn=True,
        senas=True,
        named_refusals=(
            Named("not_mandador", "mandador", "seat"),
            Named("must_follow_suit", "suit", "suit"),
        ),
        private_refusals=frozenset({"card_not_in_hand", "must_follow_suit", "must_play_trump"}),
        button_hints=frozenset({"envite.hand.your_turn"}),
        hand_starts=frozenset({"round_started"}),
    )
    record_counters: tuple[tuple[str, ...], ...] = (("chicos", "tumbos"),)
    texts = Texts(
        title="game.envite",
        rules="rules.envite",
        help="help.envite",
        bad_option="envite.bad_option",
        games="records.line.games.envite",
        hands="records.line.hands.envite",
        team="envite.team",
        senas={name: f"senas.envite.{senas.slug(name)}" for name in ENVITE_SENAS},
        counters={n: f"records.counter.envite.{n}" for n in ("chicos", "tumbos")},
    )
    commands: ClassVar[Mapping[str, str]] = {
        "tiro": "tiro",
        "play": "tiro",
        "envido": "envido",
        "bet": "envido",
        "raise": "envido",
        "siete": "siete",
        "nueve": "nueve",
        "chicofuera": "chico fuera",
        "quiero": "quiero",
        "accept": "quiero",
        "noquiero": "no quiero",
        "fold": "no quiero",
        "tumbo": "tumbo",
        "knock": "tumbo",
        "notumbo": "no tumbo",
        "pass": "no tumbo",
        "renuncio": "renuncio",
        "renege": "renuncio",
    }
    menu_commands: tuple[MenuCommand, ...] = (
        MenuCommand("tiro", "play", "menu.envite.tiro"),
        MenuCommand("envido", "raise", "menu.envite.envido"),
        MenuCommand("siete", "siete", "menu.envite.siete"),
        MenuCommand("nueve", "nueve", "menu.envite.nueve"),
        MenuCommand("chicofuera", "chicofuera", "menu.envite.chicofuera"),
        MenuCommand("quiero", "accept", "menu.envite.quiero"),
        MenuCommand("noquiero", "fold", "menu.envite.noquiero"),
        MenuCommand("tumbo", "knock", "menu.envite.tumbo"),
        MenuCommand("notumbo", "pass", "menu.envite.notumbo"),
        MenuCommand("renuncio", "renege", "menu.envite.renuncio"),
    )

    # ---- seats and options -------------------------------------------------------------------

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """``chicos=1..4``, ``mocho`` (odd numbers), ``renuncio`` (modo renuncio) (E1, E4, E6);
        ``sinsenas``, ``senasvistas``, ``pillar=0.15`` (rules/senas.md).

        >>> ENVITE.parse_options(["renuncio"])["renuncio"]
        True
        """
        values: dict[str, Any] = envite.Options().model_dump()
        for raw in words:
            word = normalize(raw).replace(" ", "")
            if m := _CHICOS_RE.match(word):
                values["chicos"] = int(m.group(1))
            elif word in ("mocho", "ciego"):
                values["mocho"] = True
            elif word == "renuncio":
                values["renuncio"] = True
            elif senas.parse_option(word, values):
                pass
            else:
                raise OptionError(raw[:30])
        return envite.Options(**values).model_dump()

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        opts = envite.Options(**options)
        # A plural entry: t() picks the form of n.
        labels: list[tuple[str, dict[str, Any]]] = [("envite.opt.chicos", {"n": opts.chicos})]
        if opts.mocho:
            labels.append(("envite.opt.mocho", {}))
        if opts.renuncio:
            labels.append(("envite.opt.renuncio", {}))
        return labels + senas.option_labels(options)

    def seats(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 4, 12

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        return envite.new_game(players=players, options=envite.Options(**options), seed=seed)

    def record_hand(self, start: Any, events: Sequence[Event]) -> dict[int, dict[str, int]]:
        return records.tally(events, int(start.players))

    def seat_cards(self, table: TableView, seat: int) -> list[str]:
        view = self.view(table.engine_state(), seat)
        return [str(c) for c in view.get("cards") or []]

    def inline_cards(self, table: TableView, seat: int) -> list[InlineChoice]:
        return render.inline_cards(table, seat, self._card_actions(table, seat))

    def _card_actions(self, table: TableView, seat: int) -> list[Action]:
        if table.status != "playing":
            return []
        return [a for a in self.legal_actions(table.engine_state(), seat) if a.cards]

    # ---- messages ----------------------------------------------------------------------------

    def keep_log(self, log: list[LogEntry]) -> list[LogEntry]:
        """The last :data:`MAX_LOG` bets and calls, and every baza of the round (three at
        most: the result lists them all)."""
        kept = [e for e in log if e.kind in _LOGGED]
        talk = [i for i, e in enumerate(kept) if e.kind != "trick_won"]
        recent = set(talk[-MAX_LOG:])
        return [e for i, e in enumerate(kept) if e.kind == "trick_won" or i in recent]

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
        """The answers and bets of whoever may speak (the engine's list), ``Renuncio`` when
        somebody may call it, and the inline button that opens one's own cards."""
        if table.status != "playing":
            return []
        state = table.engine_state()
        seen: dict[str, Action] = {}
        for seat in self.to_act(state):
            for action in self.legal_actions(state, seat):
                if not action.cards and action.kind != "renuncio":
                    seen.setdefault(str(action), action)
        if state.options.renuncio and any(
            a.kind == "renuncio"
            for seat in range(len(table.players))
            for a in self.legal_actions(state, seat)
        ):
            seen["renuncio"] = Action("renuncio")
        buttons = [GameButton(render.action_label(table.lang, a), str(a)) for a in seen.values()]
        rows = [buttons[i : i + BUTTONS_PER_ROW] for i in range(0, len(buttons), BUTTONS_PER_ROW)]
        if state.phase == "play":
            rows.insert(0, [GameButton(t(table.lang, "envite.button.play"), inline=table.tid)])
        return rows

    def hand_buttons(self, table: TableView, seat: int) -> Buttons:
        """One button per card this seat may play now (the mocho's cards on the mocho's turn)."""
        return [
            [GameButton(render.card_button(table.lang, str(a.cards[0])), str(a))]
            for a in self._card_actions(table, seat)
        ]


ENVITE = EnviteGame()
