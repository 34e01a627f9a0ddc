"""The deal of each hand of a vaca (rules/mus.md M1, M2) and the events that announce it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import DECK, Card, parse_cards, shuffled
from engine.core import RawEvent
from engine.mus.draft import DEFAULTS, ONLY, PLAYERS, card_texts, made
from engine.mus.options import Options
from engine.mus.state import Hand, MusState


def deal(
    options: Options,
    seed: int,
    hand_number: int,
    mano: int,
    score: tuple[int, int],
    juegos: tuple[int, int],
    hands: Sequence[Iterable[str | Card] | str] | None = None,
    stock: Iterable[str | Card] | str | None = None,
) -> MusState:
    """Hand ``hand_number`` dealt from ``seed`` (or the explicit ``hands``/``stock``)."""
    held: tuple[Hand, ...]
    if hands is None:
        deck = tuple(shuffled(f"{seed}/{hand_number}/deal", DECK))
        # One card at a time, starting with the mano (M2): seat s gets every fourth card from
        # its place after the mano.
        a, b, c, d = _DEAL_STARTS[mano]
        held = (deck[a:16:4], deck[b:16:4], deck[c:16:4], deck[d:16:4])
        rest = deck[16:]
    else:
        held = tuple(parse_cards(h) for h in hands)
        if len(held) != PLAYERS or any(len(h) != 4 for h in held):
            raise ValueError("an explicit Mus deal is four hands of four cards")
        given = parse_cards(stock) if stock is not None else ()
        used = [c for h in held for c in h] + list(given)
        if len(set(used)) != len(used):
            raise ValueError("a card appears twice in the explicit deal")
        others = shuffled(f"{seed}/{hand_number}/deal", [c for c in DECK if c not in set(used)])
        rest = tuple(given) + tuple(others)
    # MusState(...) without its frozen __init__ (one object.__setattr__ per field): the fields'
    # defaults, then the deal.
    return made(
        {
            **DEFAULTS,
            "options": options,
            "seed": seed,
            "hand_number": hand_number,
            "mano": mano,
            "score": score,
            "juegos": juegos,
            "phase": "mus",
            "is_over": False,  # see MusState.is_over: it changes with phase "over" (win_juego)
            "to_act": (mano,),
            "hands": held,
            "stock": rest,
            "pile": (),
        }
    )


_DEAL_STARTS = tuple(tuple((s - mano) % PLAYERS for s in range(PLAYERS)) for mano in range(PLAYERS))
"""Per mano, where each seat's cards start in the shuffled deck (every fourth card after)."""


def hand_events(st: MusState, events: list[RawEvent]) -> None:
    """Record the start of the hand ``st`` and its cards."""
    mano = st.mano
    data = {
        "hand": st.hand_number,
        "mano": mano,
        "postre": (mano - 1) % PLAYERS,
        "score": list(st.score),
        "juegos": list(st.juegos),
    }
    events.append(("hand_started", data, None))
    dealt_events(st, events)


def dealt_events(st: MusState, events: list[RawEvent]) -> None:
    """Record each seat's cards, for him alone."""
    for s, hand in enumerate(st.hands):
        events.append(("dealt", {"seat": s, "cards": card_texts(hand)}, ONLY[s]))
