"""Pictures on request: a group's ranking, or a player's rating over his games (PNG, made with
matplotlib's Agg backend: no display, safe in any thread). matplotlib is imported by the first
picture, not at start: it is most of a process's start-up time and most never draw one.

>>> png = ranking_png("Mus", [("Ana", 1084), ("Bea", 990)])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SIZE = (8.0, 4.5)
DPI = 100
"""800 × 450 pixels: sharp on a phone, a few tens of kilobytes."""
GREEN = "#1b6e3a"


def _plain(text: str) -> str:
    """User text as matplotlib shows it literally (a ``$`` would start mathematics).

    >>> _plain("Ana $5$")
    'Ana \\\\$5\\\\$'
    """
    return text.replace("$", r"\$")


@functools.cache
def _figure_class() -> type[Figure]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure


def _new_figure() -> Figure:
    return _figure_class()(figsize=SIZE, dpi=DPI, layout="constrained")


def _png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def ranking_png(title: str, rows: Sequence[tuple[str, int]]) -> bytes:
    """Horizontal bars of each player's rating, the best on top."""
    figure = _new_figure()
    axes = figure.subplots()
    names = [_plain(name) for name, _ in rows][::-1]
    values = [value for _, value in rows][::-1]
    bars = axes.barh(names, values, color=GREEN)
    axes.bar_label(bars, padding=3)
    low = min(values, default=1000)
    axes.set_xlim(min(900, low - 50), max(values, default=1100) + 60)
    axes.set_title(_plain(title))
    axes.spines[["top", "right"]].set_visible(False)
    return _png(figure)


def timeline_png(title: str, points: Sequence[tuple[int, int, bool]]) -> bytes:
    """A player's rating after each of his games (``(game number, rating, won)``), wins marked."""
    figure = _new_figure()
    axes = figure.subplots()
    xs = [x for x, _, _ in points]
    ys = [y for _, y, _ in points]
    axes.plot(xs, ys, color=GREEN, linewidth=2)
    won = [(x, y) for x, y, w in points if w]
    lost = [(x, y) for x, y, w in points if not w]
    if won:
        axes.scatter(*zip(*won, strict=True), color=GREEN, zorder=3)
    if lost:
        axes.scatter(*zip(*lost, strict=True), color="#b03030", marker="x", zorder=3)
    axes.set_title(_plain(title))
    axes.grid(alpha=0.3)
    axes.spines[["top", "right"]].set_visible(False)
    return _png(figure)
