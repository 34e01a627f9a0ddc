"""Ratings that account for partners and opponents: OpenSkill's Plackett-Luce model
(the ``openskill`` package, MIT), one rating per player, game and group.

A player's rating is a belief (``mu``, ``sigma``); the ranking shows its conservative estimate
``mu - 3 sigma`` on a friendlier scale (:func:`shown`: 1000 for a newcomer).

>>> a, b = rate([[NEW, NEW], [NEW, NEW]], [0, 1])
>>> shown(a[0]) > shown(NEW) > shown(b[0])
True
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

Rating = tuple[float, float]
"""``(mu, sigma)``."""

_MODEL = PlackettLuce()
NEW: Rating = (float(_MODEL.mu), float(_MODEL.sigma))


def rate(sides: Sequence[Sequence[Rating]], places: Sequence[int]) -> list[list[Rating]]:
    """The ratings after a game between ``sides`` (teams, or single players) that finished in
    ``places`` (0 first; equal places tie)."""
    teams = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in side] for side in sides]
    new = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [[(float(r.mu), float(r.sigma)) for r in side] for side in new]


def shown(rating: Rating) -> int:
    """The number the ranking shows: ``1000 + 40 (mu - 3 sigma)``.

    >>> shown(NEW)
    1000
    """
    mu, sigma = rating
    return round(1000 + 40 * (mu - 3 * sigma))


def dump(rating: Rating) -> str:
    return f"{rating[0]:.4f} {rating[1]:.4f}"


def load(text: str | None) -> Rating:
    """A stored rating (a newcomer's when there is none).

    >>> load("27.5 7.1"), load(None) == NEW
    ((27.5, 7.1), True)
    """
    if not text:
        return NEW
    mu, sigma = text.split()
    return float(mu), float(sigma)
