"""The option words of ``/nueva piedras`` and how the lobby names them (rules/piedras.md P1, P3).

>>> parse_options(["piedras=5", "perdidas=2", "4reyes", "real", "ampliado"])["stones"]
5
>>> parse_options([])
{'stones': 8, 'losses': 1, 'reyes': 8, 'real': False, 'tanteo_ampliado': False}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import engine.piedras as piedras
from bot.games.base import OptionError
from engine.core import normalize

_STONES_RE = re.compile(r"^piedras=(5|8|10)$")
_LOSSES_RE = re.compile(r"^perdidas=([1-5])$")


def parse_options(words: Sequence[str]) -> dict[str, Any]:
    """``piedras=5|8|10``, ``perdidas=1..5``, ``4reyes``/``8reyes``, ``real``, ``ampliado``.

    >>> parse_options(["piedras=7"])
    Traceback (most recent call last):
    ...
    bot.games.base.OptionError: piedras=7
    """
    values: dict[str, Any] = piedras.Options().model_dump()
    for raw in words:
        word = normalize(raw).replace(" ", "")
        if m := _STONES_RE.match(word):
            values["stones"] = int(m.group(1))
        elif m := _LOSSES_RE.match(word):
            values["losses"] = int(m.group(1))
        elif word in ("4reyes", "8reyes"):
            values["reyes"] = int(word[0])
        elif word == "real":
            values["real"] = True
        elif word == "ampliado":
            values["tanteo_ampliado"] = True
        else:
            raise OptionError(raw[:30])
    return piedras.Options(**values).model_dump()


def option_labels(options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Locale keys describing the options (lobby, table title)."""
    opts = piedras.Options(**options)
    labels: list[tuple[str, dict[str, Any]]] = [
        ("piedras.opt.stones", {"n": opts.stones}),
        ("piedras.opt.losses", {"n": opts.losses}),  # plural entries: t() picks the form of n
        ("piedras.opt.reyes", {"n": opts.reyes}),
    ]
    if opts.real:
        labels.append(("piedras.opt.real", {}))
    if opts.tanteo_ampliado:
        labels.append(("piedras.opt.ampliado", {}))
    return labels


def card_rules(options: Mapping[str, Any]) -> dict[str, Any]:
    """The Mus card rules inside the piedras options (for ``bot/games/mus/worth.py``).

    >>> card_rules({"stones": 5, "reyes": 4, "real": True})
    {'reyes': 4, 'real': True}
    """
    opts = piedras.Options(**options)
    return {"reyes": opts.reyes, "real": opts.real}
