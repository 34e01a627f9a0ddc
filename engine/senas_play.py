"""Sending señas: what Mus and envite share (rules/senas.md S1, S4).

A seña is an action of kind ``sena`` whose ``name`` is the seña's Spanish name (S2/S3):
``str(Action("sena", name="dos reyes"))`` is ``"seña dos reyes"``, and :func:`parse_sena` reads
it back, also as ``"sena dos reyes"`` or in English (``"sign two kings"``, see
:data:`ENGLISH_NAMES`). A seña may be sent at any moment of its window, by a seat whether or not
it is in ``to_act``; it changes nothing but the record of señas sent this hand (or round), so a
seña is never offered twice.

Its events: ``sena`` {seat, name} to the partner(s), and with ``senasvistas`` one ``sena_caught``
{seat, name, to: [partners]} to each opponent who catches it. Each opponent catches each seña
with probability ``pillar``, drawn from a generator seeded by the table's seed, the hand, the
sender, the seña and the opponent (S4): a replay catches the same señas.

>>> a = parse_sena("Seña medias de reyes")
>>> str(a), a == parse_sena("sign three kings")
('seña medias de reyes', True)
>>> caught(7, 1, 0, "dos reyes", 1, 0.0), caught(7, 1, 0, "dos reyes", 1, 1.0)
(False, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.core import Action, Event, IllegalAction, normalize

SENA = "sena"
"""The action kind of a seña."""

ENGLISH_NAMES: dict[str, str] = {
    # Mus (S2)
    "two kings": "dos reyes",
    "two aces": "dos ases",
    "pair": "pares",
    "pairs": "pares",
    "three kings": "medias de reyes",
    "three aces": "medias de ases",
    "two pairs": "duples",
    "game": "juego",
    "blind": "ciego",
    # Envite (S3): the fixed trumps by their English card names
    "three of clubs": "3 de bastos",
    "knight of clubs": "caballo de bastos",
    "jack of coins": "sota de oros",
    "five of coins": "5 de oros",
    "two of coins": "2 de oros",
    "ace of coins": "as de oros",
    "king": "rey",
    "knight": "caballo",
    "small trumps": "triunfos pequeños",
    "flush": "flus",
    "bet": "envido",
}
"""English words for the señas (the Spanish names are read too; numbers are the same)."""

_PREFIXES = ("sena ", "sign ")


def sena(name: str) -> Action:
    """The action that sends the seña ``name``."""
    return Action(SENA, name=name)


def parse_sena(text: str, names: Iterable[str] = ()) -> Action | None:
    """``seña <name>`` (or ``sign <name>``) as an action; ``None`` when the text is no seña.

    ``names`` (a game's seña names) are matched without accents; an unknown name is refused
    with ``unknown_sena``.

    >>> parse_sena("paso") is None
    True
    >>> str(parse_sena("sena triunfos pequenos", ["triunfos pequeños"]))
    'seña triunfos pequeños'
    """
    plain = normalize(text)
    for prefix in _PREFIXES:
        if plain.startswith(prefix):
            said = plain[len(prefix) :].strip()
            break
    else:
        return None
    known = {normalize(n): n for n in names}
    name = known.get(said) or ENGLISH_NAMES.get(said) or said
    if not name or (known and name not in known.values()):
        raise IllegalAction("unknown_sena", text=said[:30])
    return sena(name)


def caught(seed: int, hand: int, seat: int, name: str, opponent: int, pillar: float) -> bool:
    """Whether ``opponent`` catches the seña ``name`` that ``seat`` makes in ``hand`` (S4)."""
    if pillar <= 0:
        return False
    draw = random.Random(f"{seed}/{hand}/sena/{seat}/{name}/{opponent}").random()
    return draw < pillar


def sent_by(sent: Sequence[tuple[str, ...]], seat: int) -> tuple[str, ...]:
    """The señas ``seat`` sent this hand (``sent`` holds one tuple per seat, or is empty)."""
    return sent[seat] if seat < len(sent) else ()


def record(
    sent: Sequence[tuple[str, ...]], seat: int, name: str, seats: int
) -> tuple[tuple[str, ...], ...]:
    """``sent`` with ``name`` added for ``seat`` (one tuple per seat)."""
    table = [sent_by(sent, s) for s in range(seats)]
    table[seat] = (*table[seat], name)
    return tuple(table)


def offered(
    supported: frozenset[str], order: Sequence[str], already: Sequence[str]
) -> list[Action]:
    """The señas to offer: supported, not yet sent, in the rules' order."""
    return [sena(n) for n in order if n in supported and n not in already]


def check(action: Action, supported: frozenset[str], already: Sequence[str]) -> str:
    """The seña's name, or the refusal: ``sena_already_sent`` or ``sena_not_true`` (S1)."""
    name = action.name or ""
    if name in already:
        raise IllegalAction("sena_already_sent", sena=name)
    if name not in supported:
        raise IllegalAction("sena_not_true", sena=name)
    return name


def events(
    seed: int,
    hand: int,
    seat: int,
    name: str,
    partners: Sequence[int],
    opponents: Sequence[int],
    *,
    vistas: bool,
    pillar: float,
) -> tuple[Event, ...]:
    """The ``sena`` event to the partners, and a ``sena_caught`` to each opponent who catches
    it (only with ``senasvistas``)."""
    out = [Event("sena", {"seat": seat, "name": name}, frozenset(partners))]
    if vistas:
        for opp in opponents:
            if caught(seed, hand, seat, name, opp, pillar):
                data = {"seat": seat, "name": name, "to": list(partners)}
                out.append(Event("sena_caught", data, frozenset((opp,))))
    return tuple(out)


def received(
    sent: Sequence[tuple[str, ...]], seat: int, partners: Sequence[int]
) -> list[tuple[int, str]]:
    """``[[from_seat, name], ...]``: the señas ``seat``'s partners sent him this hand."""
    return [(p, n) for p in partners for n in sent_by(sent, p)]


def caught_by(
    seed: int,
    hand: int,
    sent: Sequence[tuple[str, ...]],
    seat: int,
    opponents: Sequence[int],
    pillar: float,
) -> list[tuple[int, str]]:
    """``[[from_seat, name], ...]``: the opponents' señas ``seat`` caught this hand (S4)."""
    return [
        (o, n)
        for o in opponents
        for n in sent_by(sent, o)
        if caught(seed, hand, o, n, seat, pillar)
    ]
