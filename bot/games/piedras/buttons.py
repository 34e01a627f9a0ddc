"""The table message's buttons, chosen among the engine's legal actions so a phone is not crowded.

The engine lists every amount up to the cap (``envido 2`` … ``envido 9``); the table shows
``Paso``, ``Envido 2``, a few amounts (3, 4, 5, 10) below the cap, ``Todo (N)`` at the cap and
``Órdago``; facing a bet ``Quiero`` / ``No quiero`` and raises labelled ``N más``. Every button
is one of the legal actions, so a press is always a move the engine accepts (or a stale turn).

>>> from engine.core import Action
>>> legal = [Action("paso"), *[Action("envido", n) for n in range(2, 9)], Action("ordago")]
>>> [[b.action for b in row] for row in table_rows("es", legal, raising=False)]
[['paso', 'envido 2', 'ordago'], ['envido 3', 'envido 4', 'envido 5', 'envido 8']]
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Buttons, GameButton
from engine.core import Action
from locales import t

OPEN_AMOUNTS = (3, 4, 5, 10)
"""Opening bets shown besides envido (2) and the whole cap."""
RAISE_AMOUNTS = (2, 3, 4, 5, 10)
"""Raises shown besides the whole cap (the ones players use)."""
PER_ROW = 3
"""Word buttons per row; the amounts (short labels) go five to a row."""
AMOUNTS_PER_ROW = 5


def label(lang: str, action: Action, *, raising: bool, top: int | None = None) -> str:
    """The words on a button (``top``: the highest amount, labelled as everything)."""
    if action.kind == "envido" and action.amount is not None:
        n = action.amount
        if raising:
            key = "piedras.button.raise_all" if n == top else "piedras.button.raise"
            return t(lang, key, n=n)
        key = "piedras.button.all" if n == top else "action.envido_n"
        return t(lang, key, n=n)
    return t(lang, f"action.{action.kind}")


def table_rows(lang: str, legal: Sequence[Action], *, raising: bool) -> Buttons:
    """Rows of buttons for the player to act: his words first, the amounts on a second row."""
    amounts = [a.amount for a in legal if a.kind == "envido" and a.amount is not None]
    top = max(amounts) if amounts else None
    wanted = set(RAISE_AMOUNTS if raising else OPEN_AMOUNTS)
    if top is not None:
        wanted.add(top)
    if not raising:
        wanted.add(2)
    first: list[GameButton] = []
    numbers: list[GameButton] = []
    for action in legal:
        if action.kind == "envido" and action.amount is not None:
            if action.amount not in wanted:
                continue
            button = GameButton(label(lang, action, raising=raising, top=top), str(action))
            if not raising and action.amount == 2:
                first.append(button)
            else:
                numbers.append(button)
        elif action.kind != "ordago":
            first.append(GameButton(label(lang, action, raising=raising), str(action)))
    ordago = [a for a in legal if a.kind == "ordago"]
    if ordago:
        button = GameButton(label(lang, ordago[0], raising=raising), str(ordago[0]))
        (first if len(first) < PER_ROW else numbers).append(button)
    rows = [first[i : i + PER_ROW] for i in range(0, len(first), PER_ROW)]
    rows += [numbers[i : i + AMOUNTS_PER_ROW] for i in range(0, len(numbers), AMOUNTS_PER_ROW)]
    return [row for row in rows if row]
