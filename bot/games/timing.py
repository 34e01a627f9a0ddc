"""The turn time, an option every game takes at ``/nueva`` (``tiempo=30..600`` seconds).

It is no rule of any game (the engines never see it): the shared flow takes the word out before
the game reads its own options, and keeps the seconds in the table document.

>>> split_time(["30", "tiempo=90", "real"])
(90, ['30', 'real'])
>>> split_time(["time=2m"])
(120, [])
>>> split_time(["tiempo=5"])
Traceback (most recent call last):
...
bot.games.base.OptionError: tiempo=5
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games.base import OptionError

LOWEST, HIGHEST = 30, 600
"""The turn times a table may choose (seconds)."""
_TIME_RE = re.compile(r"^(?:tiempo|time)=(\d{1,4})(s|m|min)?$")


def parse_time(word: str) -> int | None:
    """Seconds of a ``tiempo=`` word (``tiempo=90``, ``tiempo=2m``); ``None`` when the word is
    not about the time; :class:`OptionError` when it is, with a time out of range."""
    lowered = word.strip().lower().replace(" ", "")
    if not lowered.startswith(("tiempo=", "time=")):
        return None
    match = _TIME_RE.match(lowered)
    if match is None:
        raise OptionError(word[:30])
    seconds = int(match.group(1)) * (60 if match.group(2) in ("m", "min") else 1)
    if not LOWEST <= seconds <= HIGHEST:
        raise OptionError(word[:30])
    return seconds


def split_time(words: Sequence[str]) -> tuple[int | None, list[str]]:
    """The turn time among option words (the last one wins) and the game's own words."""
    seconds: int | None = None
    rest: list[str] = []
    for word in words:
        found = parse_time(word)
        if found is None:
            rest.append(word)
        else:
            seconds = found
    return seconds, rest


GRACE = 10.0
"""Seconds over a quarter of a minute that do not make one more: a turn of 2 min with the first
turn's reading pause (8 s, ``bot.flow.clock.READ_PAUSE``) still reads "2 min"."""


def quarters(seconds: float) -> int:
    """The one rule of every clock word (the header's turn time, the table's clock, the nudge):
    the time in quarters of a minute, rounded up, :data:`GRACE` seconds not counted, at least
    one. So 90 s read "1½ min" in the header and on the clock of a new hand's first turn (98 s).

    >>> quarters(90), quarters(98), quarters(120), quarters(128), quarters(45), quarters(30)
    (6, 6, 8, 8, 3, 2)
    >>> quarters(70), quarters(71), quarters(5), quarters(600)
    (4, 5, 1, 40)
    """
    return max(1, -int(-(seconds - GRACE) // 15))


def next_change(deadline: float, shown: int) -> float | None:
    """When the clock showing ``shown`` quarters must show something else: the next whole
    minute below (the clock changes once a minute, as few edits as that), ``None`` from the
    last minute on.

    >>> next_change(1000.0, 12), next_change(1000.0, 8), next_change(1000.0, 6)
    (870.0, 930.0, 930.0)
    >>> next_change(1000.0, 4), next_change(1000.0, 3)
    (None, None)
    """
    whole = (shown - 1) // 4
    if whole < 1:
        return None
    return deadline - 60 * whole - GRACE
