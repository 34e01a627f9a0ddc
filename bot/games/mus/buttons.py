"""The Mus table message's bet buttons: the engine's legal actions in two rows for a phone.

The words first (``Paso`` and ``Envido 2``, or ``Quiero`` / ``No quiero``; ``Órdago``), then the
amounts on a row of their own, each labelled with what it does: ``Envido 3`` … ``Envido 10`` to
open, ``2 más`` … ``10 más`` facing a bet (the engine lists 2, 3, 4, 5 and 10). Every button is
one of the legal actions, so a press is always a move the engine accepts (or a stale turn).

>>> from engine.core import Action
>>> legal = [Action("quiero"), Action("no_quiero"), Action("envido"), Action("envido", 5),
...          Action("ordago")]
>>> [[b.label for b in row] for row in table_rows("es", legal, raising=True)]
[['Quiero', 'No quiero', '¡Órdago!'], ['2 más', '5 más']]
>>> [[b.action for b in row] for row in table_rows("es", legal[2:], raising=False)]
[['envido', 'ordago'], ['envido 5']]
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Buttons, GameButton
from engine.core import Action
from locales import t

ENVIDO = 2
"""What a bare ``envido`` bets (or raises by): rules/mus.md M4."""
PER_ROW = 3
"""Word buttons per row; the amounts share one row (their labels are short)."""


def amount(action: Action) -> int | None:
    """The amount an ``envido`` action bets or raises by (``None`` for other actions)."""
    if action.kind != "envido":
        return None
    return action.amount if action.amount is not None else ENVIDO


def label(lang: str, action: Action, *, raising: bool = False) -> str:
    """The words on a button: ``Envido 5`` to open, ``5 más`` facing a bet."""
    n = amount(action)
    if n is not None:
        return t(lang, "action.raise" if raising else "action.envido_n", n=n)
    if action.kind == "descarto":
        return t(lang, "action.descarto", n=len(action.cards))
    return t(lang, f"action.{action.kind}")


def table_rows(lang: str, legal: Sequence[Action], *, raising: bool) -> Buttons:
    """Rows of buttons for the seats to act (``legal``: their distinct legal actions)."""

    def in_words(a: Action) -> bool:  # to open, "Envido 2" sits with the words
        return amount(a) is None or (not raising and amount(a) == ENVIDO)

    words = [a for a in legal if in_words(a) and a.kind != "ordago"]
    words += [a for a in legal if a.kind == "ordago"]
    amounts = sorted((a for a in legal if not in_words(a)), key=lambda a: amount(a) or 0)
    rows = [
        [GameButton(label(lang, a, raising=raising), str(a)) for a in words[i : i + PER_ROW]]
        for i in range(0, len(words), PER_ROW)
    ]
    if amounts:
        rows.append([GameButton(label(lang, a, raising=raising), str(a)) for a in amounts])
    return rows
