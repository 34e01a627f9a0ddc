"""The deal of an envite game (rules/envite.md E1, E2): the first dealer's draw, a new game,
each round's deal and the events that announce it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import DECK, Card, parse_cards, shuffled
from engine.core import Event, RawEvent
from engine.envite.options import Options
from engine.envite.ranking import plain_key
from engine.envite.state import TUMBO_AT, EnviteState, copy_state

_ONLY = tuple(frozenset((seat,)) for seat in range(12))
"""Shared (immutable) event audiences of one seat."""
_ROUND_RESET: dict[str, object] = {
    "trick": (),
    "tricks": (),
    "step": 0,
    "raised": None,
    "raised_by": None,
    "bet_closed": False,
    "renuncios": (),
    "spoken": (),
    "senas_sent": (),
}
"""The fields every deal starts afresh (E4, E5; rules/senas.md S1)."""


def _draw_dealer(
    seed: int, mandadores: tuple[int, int]
) -> tuple[int, tuple[tuple[Card, Card], ...]]:
    """E1: each mandador draws a card; the higher deals first; equal ranks draw again."""
    draws: list[tuple[Card, Card]] = []
    for attempt in range(1000):
        a, b = random.Random(f"{seed}/draw/{attempt}").sample(DECK, 2)
        draws.append((a, b))
        if plain_key(a) != plain_key(b):
            return (mandadores[0] if plain_key(a) > plain_key(b) else mandadores[1]), tuple(draws)
    raise AssertionError("unreachable: the draw always separates within 1000 attempts")


def shuffled_deck(seed: str) -> list[Card]:
    """The deck as ``random.Random(seed).shuffle`` leaves it (:func:`engine.cards.shuffled`).

    >>> deck = list(DECK)
    >>> random.Random("7/1").shuffle(deck)
    >>> shuffled_deck("7/1") == deck
    True
    """
    return shuffled(seed, DECK)


def deal(
    seed: int, number: int, dealer: int, seats: int
) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """E2: three cards at once to each seat from the dealer's right, then the vira."""
    deck = shuffled_deck(f"{seed}/{number}")
    threes = iter(deck)  # the deck in threes, in dealing order (the mano's first); 40 = 13 x 3 + 1
    dealt = list(zip(threes, threes, threes, strict=False))[:seats]
    mano = (dealer + 1) % seats
    # Seat s gets dealt[(s - mano) % seats]: the last ``mano`` hands belong to seats 0..mano-1.
    return tuple(dealt[seats - mano :] + dealt[: seats - mano]), deck[3 * seats]


def new_game(
    players: int = 4,
    options: Options | None = None,
    seed: int = 0,
    *,
    hands: Sequence[Sequence[str | Card] | str] | None = None,
    vira: str | Card | None = None,
    stock: Sequence[str | Card] | str | None = None,
    dealer: int | None = None,
    mandadores: tuple[int, int] | None = None,
    score: tuple[int, int] = (0, 0),
    chicos: tuple[int, int] = (0, 0),
) -> EnviteState:
    """A new game for ``players`` people (4..12; odd counts need ``Options(mocho=True)``).

    ``hands`` (one per seat, the mocho's last) and ``vira`` fix the first deal; later deals come
    from ``seed``. ``stock`` (the undealt pack) is accepted for API symmetry and only checked:
    envite draws nothing after the deal. ``dealer`` skips the mandadores' draw. ``mandadores``
    defaults to seats 0 and 1.
    ``score`` and ``chicos`` start a game part-way (tests, resumed tables); 11 is en tumbo.

    >>> s = new_game(players=5, options=Options(mocho=True), seed=1)
    >>> s.players, s.ghost, s.k
    (6, 5, 3)
    """
    options = options or Options()
    if not 4 <= players <= 12:
        raise ValueError("envite needs 4 to 12 players")
    if not all(0 <= x <= TUMBO_AT for x in score) or not all(
        0 <= x < options.chicos for x in chicos
    ):
        raise ValueError("scores must be 0..11 and chicos below the chicos to win")
    if players % 2 and not options.mocho:
        raise ValueError("an odd number of players needs the mocho option")
    seats = players + players % 2
    ghost = seats - 1 if players % 2 else None
    mandadores = mandadores or (0, 1)
    for team, seat in enumerate(mandadores):
        if not 0 <= seat < seats or seat % 2 != team or seat == ghost:
            raise ValueError(f"mandador of team {team} must be a player of that team")
    draws: tuple[tuple[Card, Card], ...] = ()
    if dealer is None:
        dealer, draws = _draw_dealer(seed, mandadores)
    elif not 0 <= dealer < seats:
        raise ValueError("dealer must be a seat")
    if hands is not None or vira is not None:
        if hands is None or vira is None:
            raise ValueError("an explicit deal needs both hands and vira")
        dealt = tuple(parse_cards(h) for h in hands)
        the_vira = Card.parse(vira)
        every = [c for h in dealt for c in h] + [the_vira]
        if len(dealt) != seats or any(len(h) != 3 for h in dealt) or len(set(every)) != len(every):
            raise ValueError(f"an explicit deal needs {seats} hands of 3 distinct cards")
        if stock is not None and set(parse_cards(stock)) & set(every):
            raise ValueError("the stock repeats a dealt card or the vira")
    else:
        dealt, the_vira = deal(seed, 1, dealer, seats)
    base = EnviteState(
        players=seats,
        options=options,
        seed=seed,
        mandadores=mandadores,
        ghost=ghost,
        draws=draws,
        round=1,
        dealer=dealer,
        vira=the_vira,
        hands=dealt,
        phase="play",
        turn=0,
        leader=0,
        trick=(),
        tricks=(),
        step=0,
        raised=None,
        raised_by=None,
        bet_closed=False,
        tumbo=False,
        renuncios=(),
        score=(score[0], score[1]),
        chicos=(chicos[0], chicos[1]),
        winner=None,
    )
    return open_round(base)


def open_round(state: EnviteState, **changes: object) -> EnviteState:
    """``state`` with ``changes`` (a new deal, a new score) and the round fields reset for that
    deal, its first phase picked (E6); one copy of the state."""
    new, attrs = copy_state(state)
    attrs.update(changes)
    attrs.update(_ROUND_RESET)
    score: tuple[int, int] = attrs["score"]
    at_0, at_1 = score[0] >= TUMBO_AT, score[1] >= TUMBO_AT
    mano = (attrs["dealer"] + 1) % state.players
    attrs["phase"] = "tumbo" if at_0 != at_1 else "play"
    attrs["turn"] = attrs["leader"] = mano
    attrs["tumbo"] = at_0 and at_1
    return new


def opening_events(state: EnviteState) -> tuple[Event, ...]:
    """The events of the current deal (and the first dealer's draw on round 1), for a new game.

    >>> s = new_game(players=4, seed=5)
    >>> [e.kind for e in opening_events(s)]
    ['dealer_drawn', 'round_started', 'dealt', 'dealt', 'dealt', 'dealt']
    """
    return tuple([Event(kind, data, to) for kind, data, to in opening_raw(state)])


def opening_raw(state: EnviteState) -> list[RawEvent]:
    """:func:`opening_events`, not yet built (engine.core.RawEvent)."""
    events: list[RawEvent] = []
    if state.round == 1 and state.draws:
        events.append(
            (
                "dealer_drawn",
                {
                    "draws": [[str(a), str(b)] for a, b in state.draws],
                    "mandadores": list(state.mandadores),
                    "dealer": state.dealer,
                },
                None,
            )
        )
    events.append(
        (
            "round_started",
            {
                "round": state.round,
                "dealer": state.dealer,
                "mano": state.mano,
                "vira": str(state.vira),
                "score": list(state.score),
                "chicos": list(state.chicos),
                "en_tumbo": list(state.en_tumbo),
                "tumbo": state.tumbo,
            },
            None,
        )
    )
    n, mano, hands = state.players, state.mano, state.hands
    ghost = state.ghost
    mandador = state.mandadores[ghost % 2] if ghost is not None else -1
    for i in range(n):
        seat = (mano + i) % n
        cards = hands[seat]
        events.append(
            (
                "dealt",
                {"seat": seat, "cards": [c._text for c in cards]},
                _ONLY[mandador if seat == ghost else seat],
            )
        )
    return events
