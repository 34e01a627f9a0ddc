"""Shared helpers of the bot unit tests: tables played with random legal actions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from bot import present
from bot.flow import discard, moves
from bot.table import Step, Table

NAMES = ["Ana", "Bea <b>", "Cris & Co", "Dani"]


class posted:
    """The table flow as the handlers run it: each step's outbox entries (notices, results, a
    finished hand's closing) queued by :func:`bot.present.post` in the same write."""

    @staticmethod
    def start(table: Table, *args: Any, **kwargs: Any) -> Step:
        step = moves.start(table, *args, **kwargs)
        present.post(table, step)
        return step

    @staticmethod
    def play(table: Table, *args: Any, **kwargs: Any) -> Step:
        step = moves.play(table, *args, **kwargs)
        present.post(table, step)
        return step

    @staticmethod
    def fire_timer(table: Table, *args: Any, **kwargs: Any) -> Step:
        step = moves.fire_timer(table, *args, **kwargs)
        present.post(table, step)
        return step

    @staticmethod
    def confirm(table: Table, *args: Any, **kwargs: Any) -> Step:
        step = discard.confirm(table, *args, **kwargs)
        present.post(table, step)
        return step


def seated_table(options: dict[str, object] | None = None, lang: str = "es") -> Table:
    table = Table(chat_id=-1001234567890, creator=11, tid="a1b2c3", title="Mus <del> jueves")
    table.lang = lang
    if options:
        table.options = dict(options)
    for i, name in enumerate(NAMES):
        table.join(11 + i, name)
    return table


def random_steps(seed: int, lang: str = "es", limit: int = 400) -> Iterator[tuple[Table, Step]]:
    """Start a table and play random legal actions (discards through the toggles), yielding the
    table after each step."""
    rnd = random.Random(seed)
    table = seated_table(lang=lang)
    step = posted.start(table, seed, 1000.0, 60)
    yield table, step
    for _ in range(limit):
        if table.status != "playing":
            return
        state = table.engine_state()
        seat = rnd.choice(table.to_act())
        action = rnd.choice(table.adapter.legal_actions(state, seat))
        if action.cards:
            for card in action.cards:
                discard.toggle(table, seat, str(card), True, table.discard_round)
            step = posted.confirm(table, seat, table.discard_round, 1000.0, 60)
        else:
            step = posted.play(table, seat, str(action), 1000.0, 60)
        yield table, step
