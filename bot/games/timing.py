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
"""Seconds over a whole minute that do not make one more on the clock: a turn of 2 min with the
first turn's reading pause (8 s, ``bot.flow.clock.READ_PAUSE``) still reads "2 min"."""


def minutes_left(left: float) -> int:
    """The whole minutes a clock shows (rounded up, :data:`GRACE` seconds over a minute not
    counted, never 1: from 2 min it goes to "less than a minute"); 0 for "less than a minute".
    The lobby, the table and the nudge all say the time this way.

    >>> minutes_left(188), minutes_left(128), minutes_left(120), minutes_left(61)
    (3, 2, 2, 2)
    >>> minutes_left(60), minutes_left(3)
    (0, 0)
    """
    if left <= 60:
        return 0
    return max(2, -int(-(left - GRACE) // 60))


def next_change(deadline: float, shown: int) -> float | None:
    """When the clock showing ``shown`` minutes must show something else (``None``: never
    before the deadline).

    >>> next_change(1000.0, 3), next_change(1000.0, 2), next_change(1000.0, 0)
    (870.0, 940.0, None)
    """
    if shown <= 0:
        return None
    if shown == 2:
        return deadline - 60
    return deadline - 60 * (shown - 1) - GRACE
