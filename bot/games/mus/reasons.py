"""Why a Mus hand's points went where they did: each ``scored`` line with whose hands made it.

Only the engine's events are read: a ``scored`` event's ``parts`` (``[[seat, points], ...]``:
who holds the pares or juego that score, or whose hand won the lance) and the ``showdown``
values (each seat's pares kind and juego or punto total). No rule is worked out here.

>>> names = ["Ana", "Bea", "Carmen", "Dani"]
>>> shown = {"pares": ["par", None, "duples", None], "points": [33, 21, 40, 25]}
>>> scored_line("es", {"pair": 0, "points": 4, "lance": "pares", "why": "pares",
...                    "parts": [[0, 1], [2, 3]]}, names, shown)
'Pares: +4 para Ana y Carmen (par de Ana 1 + duples de Carmen 3)'
>>> scored_line("es", {"pair": 0, "points": 2, "lance": "juego", "why": "juego",
...                    "parts": [[2, 2]]}, names, shown)
'Juego: +2 para Ana y Carmen (40 de Carmen)'
>>> scored_line("en", {"pair": 0, "points": 27, "lance": "grande", "why": "ordago",
...                    "parts": [[2, 27]]}, names, shown)
'Grande: órdago accepted! Carmen wins it: juego to Ana and Carmen.'
>>> scored_line("es", {"pair": 1, "points": 30, "lance": "pares", "why": "ordago",
...                    "parts": [[1, 30]]}, names, {"pares": [None, "medias", None, None]})
'Pares: ¡órdago querido! Lo gana Bea con medias: juego para Bea y Dani.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.render import esc
from locales import t

_BY_HAND = ("grande", "chica")
"""Lances won by the best hand itself (no value to tell)."""


def _name(names: Sequence[str], seat: int) -> str:
    return esc(names[seat]) if 0 <= seat < len(names) else "?"


def pair_name(lang: str, names: Sequence[str], pair: object) -> str:
    """Pair 0 is seats 0 and 2, pair 1 seats 1 and 3 (rules/mus.md M1)."""
    if not isinstance(pair, int) or len(names) < 4:
        return t(lang, "pair.unknown")
    return t(lang, "pair.names", a=esc(names[pair]), b=esc(names[pair + 2]))


def _value(lance: str, seat: int, showdown: Mapping[str, Any]) -> str:
    """What a seat's hand is worth in ``lance`` by the showdown: a pares kind or a total."""
    pares = list(showdown.get("pares") or [])
    points = list(showdown.get("points") or [])
    if lance == "pares" and seat < len(pares) and pares[seat]:
        return str(pares[seat])
    if lance in ("juego", "punto") and seat < len(points) and isinstance(points[seat], int):
        return str(points[seat])
    return ""


def part_text(
    lang: str, lance: str, seat: int, names: Sequence[str], showdown: Mapping[str, Any]
) -> str:
    """What one seat's hand brings to a lance: ``duples de Carmen``, ``40 de Carmen``,
    ``gana Ana`` (grande and chica, or when the showdown lacks the value)."""
    name = _name(names, seat)
    value = _value(lance, seat, showdown)
    if lance == "pares" and value:
        return t(lang, "reasons.part_pares", kind=t(lang, f"pares.{value}"), name=name)
    if value:
        return t(lang, "reasons.part_points", total=value, name=name)
    return t(lang, "reasons.part_best", name=name)


def who_text(
    lang: str, lance: str, parts: Sequence[Sequence[int]], names: Sequence[str],
    showdown: Mapping[str, Any],
) -> str:  # fmt: skip
    """The parts joined: ``par de Ana 1 + duples de Carmen 3`` (points only when several)."""
    texts = [part_text(lang, lance, int(seat), names, showdown) for seat, _ in parts]
    if len(parts) > 1:
        texts = [
            t(lang, "reasons.part_n", part=x, n=p[1]) for x, p in zip(texts, parts, strict=True)
        ]
    return " + ".join(texts)


def scored_line(
    lang: str, data: Mapping[str, Any], names: Sequence[str], showdown: Mapping[str, Any]
) -> str | None:
    """A ``scored`` event with its reason, or ``None`` when it has no ``parts`` to tell."""
    parts = [p for p in data.get("parts") or [] if isinstance(p, list) and len(p) == 2]
    why = str(data.get("why"))
    lance = str(data.get("lance"))
    lance_text = t(lang, f"lance.{lance}")
    pair = pair_name(lang, names, data.get("pair"))
    if why == "ordago":
        if not parts:
            return t(lang, "reasons.ordago_nobody", lance=lance_text, pair=pair)
        seat = int(parts[0][0])
        what = _value(lance, seat, showdown)
        if what and lance == "pares":
            what = t(lang, f"pares.{what}")
        hand = t(lang, "reasons.with", what=what) if what else ""
        name = _name(names, seat)
        return t(lang, "reasons.ordago", lance=lance_text, name=name, hand=hand, pair=pair)
    if not parts:
        return None
    who = who_text(lang, lance, parts, names, showdown)
    if why in ("envite", "en_paso", "punto"):
        who = t(lang, f"reasons.{why}", who=who)
    points = data.get("points")
    return t(lang, "reasons.scored", lance=lance_text, points=points, pair=pair, why=who)
