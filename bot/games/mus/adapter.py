"""Classic Mus at the table (rules/mus.md): options, seats, the engine, and its messages.

>>> MUS.parse_options(["30", "4reyes", "real", "juegos=1"])["target"]
30
>>> MUS.seats({})
(4, 4)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

import engine.mus as mus
from bot.games import senas
from bot.games.base import Buttons, EngineGame, Features, MenuCommand, OptionError, TableView
from bot.games.mus import buttons, records, render, worth
from bot.games.seats import LogEntry
from bot.games.texts import Texts
from engine.core import Action, Event, normalize
from engine.mus import ai as mus_ai
from engine.mus.senas import MUS_SENAS

_JUEGOS_RE = re.compile(r"^juegos=([1-9])$")
_MAX_JUEGOS = 9


BETTING_COMMANDS: Mapping[str, str] = {
    "paso": "paso",
    "pass": "paso",
    "envido": "envido",
    "bet": "envido",
    "quiero": "quiero",
    "accept": "quiero",
    "noquiero": "no quiero",
    "fold": "no quiero",
    "ordago": "ordago",
    "allin": "ordago",
}
"""The betting commands of both Mus games (rules/mus.md M6, rules/piedras.md P6), Spanish and
English, to the words the engines read."""


class MusGame(EngineGame):
    """Classic Mus for four players in two pairs."""

    engine: ClassVar[ModuleType] = mus
    ai: ClassVar[ModuleType] = mus_ai
    name = "mus"
    features = Features(
        teams=2, discard_limit=4, senas=True, button_hints=frozenset({"table.phase.discard"})
    )
    record_counters: tuple[tuple[str, ...], ...] = (
        ("juegos", "ordagos", "ordagos_won"),
        tuple(f"lance_{lance}" for lance in records.LANCES),
    )
    texts = Texts(
        title="game.mus",
        rules="rules.mus",
        help="help.mus",
        bad_option="mus.bad_option",
        games="records.line.games.mus",
        hands="records.line.hands.mus",
        team="mus.team",
        senas={name: f"senas.mus.{senas.slug(name)}" for name in MUS_SENAS},
        counters={n: f"records.counter.mus.{n}" for line in record_counters for n in line},
        groups={1: "records.group.mus.1"},
    )
    commands: ClassVar[Mapping[str, str]] = {
        "mus": "mus",
        "corto": "corto",
        "cut": "corto",
        **BETTING_COMMANDS,
    }
    menu_commands: tuple[MenuCommand, ...] = (
        MenuCommand("mus", "mus", "menu.mus.mus"),
        MenuCommand("corto", "cut", "menu.mus.corto"),
        MenuCommand("paso", "pass", "menu.mus.paso"),
        MenuCommand("envido", "bet", "menu.mus.envido"),
        MenuCommand("quiero", "accept", "menu.mus.quiero"),
        MenuCommand("noquiero", "fold", "menu.mus.noquiero"),
        MenuCommand("ordago", "allin", "menu.mus.ordago"),
    )

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """``30``/``40`` points, ``4reyes``/``8reyes``, ``real``, ``juegos=N`` (rules/mus.md M1);
        ``sinsenas``, ``senasvistas``, ``pillar=0.15`` (rules/senas.md)."""
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
            elif senas.parse_option(word, values):
                pass
            else:
                raise OptionError(raw[:30])
        return mus.Options(**values).model_dump()

    def option_labels(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        opts = mus.Options(**options)
        labels: list[tuple[str, dict[str, Any]]] = [
            ("mus.opt.target", {"n": opts.target}),
            ("mus.opt.reyes", {"n": opts.reyes}),
            ("mus.opt.juegos", {"n": opts.juegos}),  # plural entries: t() picks the form of n
        ]
        if opts.real:
            labels.append(("mus.opt.real", {}))
        return labels + senas.option_labels(options)

    def seats(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 4, 4

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        return mus.new_game(players=players, options=mus.Options(**options), seed=seed)

    def display_order(self, cards: Sequence[str], options: Mapping[str, Any]) -> list[str]:
        return worth.display_order(cards, options)

    def hand_worth(
        self, cards: Sequence[str], options: Mapping[str, Any]
    ) -> list[tuple[str, dict[str, Any]]]:
        return worth.hand_worth(cards, options)

    def record_hand(self, start: Any, events: Sequence[Event]) -> dict[int, dict[str, int]]:
        return records.tally(events)

    def seat_cards(self, table: TableView, seat: int) -> list[str]:
        view = self.view(table.engine_state(), seat)
        return self.display_order([str(c) for c in view.get("cards") or []], table.options)

    # ---- messages ----------------------------------------------------------------------------

    def keep_log(self, log: list[LogEntry]) -> list[LogEntry]:
        """The lance being played and the one before it in full (the table shows the previous
        lance's talk until the first word of the next; in the first lance, the last mus round),
        only the summaries of the earlier ones."""
        starts = [i for i, e in enumerate(log) if e.kind == "lance_started"]
        if starts:
            whole = starts[-2] if len(starts) > 1 else render.mus_round_start(log, starts[0])
            log = [e for e in log[:whole] if _summary(e)] + log[whole:]
        return [e for e in log if e.kind not in _NOT_LOGGED][-MAX_LOG:]

    def table_text(self, table: TableView) -> str:
        return render.table_text(table)

    def closed_table_text(self, table: TableView, log: Sequence[LogEntry]) -> str:
        return render.table_text(table, closed=log)

    def result_text(
        self, table: TableView, events: Sequence[Event], hand_log: Sequence[LogEntry]
    ) -> str | None:
        return render.result_text(table, events, hand_log)

    def hand_text(self, table: TableView, seat: int) -> str:
        return render.hand_text(table, seat)

    def cards_alert(self, table: TableView, seat: int) -> str:
        return render.cards_alert(table, seat)

    def table_buttons(self, table: TableView) -> Buttons:
        """The distinct legal actions of every seat to act, in the engine's order (discards are
        chosen in private): the words, then the amounts labelled with what they do ("2 más")."""
        if table.status != "playing":
            return []
        state = table.engine_state()
        if self.features.in_discard(state):
            return []
        seen: dict[str, Action] = {}
        for seat in self.to_act(state):
            for action in self.legal_actions(state, seat):
                if not action.cards:
                    seen.setdefault(str(action), action)
        raising = self.view(state, None).get("bet") is not None
        return buttons.table_rows(table.lang, list(seen.values()), raising=raising)


MAX_LOG = 32
"""Public events of the current hand kept for the table message (keeps the document small)."""

_NOT_LOGGED = frozenset(
    {
        "hand_started", "declared",  # in the table's header
        "showdown", "scored", "not_counted", "hand_over",  # in the result message
        "juego_won", "vaca_won",
    }
)  # fmt: skip
"""Public events shown in the table message's header or the hand result, not in its log."""


def _summary(entry: LogEntry) -> bool:
    """Kept for the whole hand: lance results, timeouts and who cut the mus."""
    if entry.kind == "spoke":
        return entry.data.get("action") == "corto"
    return entry.kind in ("lance_closed", "lance_skipped", "timeout")


MUS = MusGame()
