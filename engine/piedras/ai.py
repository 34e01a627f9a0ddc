"""The computer player of Mus a piedras: a pure function of one seat's view (DESIGN.md).

``choose(view, legal_actions, rng, level)`` takes what ``engine.piedras.view(state, seat)``
returns (the :class:`~engine.piedras.view.PiedrasView` or its ``to_dict()``: both are
accepted), the seat's legal actions and a ``random.Random``; it returns one of those actions. It
reads only the view: its own cards, the piles, plate, deposits, the betting and what was said.

The aim is reversed (P1): get rid of stones. Winning a lance puts stones on the plate; the
**worst** hand among those with equal bets takes the deposit (P5); refusing a raise takes the
whole deposit (P4.3); the worst of an órdago takes everyone's stones and the others are free
(P4.4). So the player (level ``"normal"``):

- **Discard** (P2): keeps the four cards that are most likely to be best in the lances, weighted
  by what each lance puts on the plate (``_hand_score``).
- **Strength.** For the lance being bet, the share of all four-card hands its hand beats (among
  holders only in pares and juego, Mus comparisons of ``engine.mus.evaluation``); with ``m``
  others in the lance, best about ``s**m`` and worst about ``(1-s)**m``.
- **Opening** (P4.1): bets when likely best and unlikely worst (bigger bets the surer it is,
  within the cap), else passes. It throws an órdago when being taken by a worse hand (free)
  outweighs being taken by a better one (``throw_pays``): a player who means his words takes
  it only with a very strong hand, one who does not with any.
- **First envite** (P4.2): accepting puts stones in (good) that come back multiplied to the
  worst: it accepts when the chance of being worst times the players in is small, the bettor
  read by his words as for an órdago.
- **Órdagos** (P4.4; worst: it takes every pile and loses the juego, else it is free): it reads
  the thrower. A meant órdago implies a hand beating most hands (more so over a bet); whether
  he means it is judged from his other words this hand (one who passes is believed, one who
  bets or throws órdagos lance after lance less so), from a low prior (a throw nobody takes
  costs nothing, so people throw loosely). It accepts only when being the worst of
  those in it (the thrower so read, those who accepted before, those who may still join) is
  less likely than losing the juego anyway (its share of the stones in the hand, with the
  whole deposit that refusing takes in the re-envites).
- **Re-envites** (P4.3): refusing a raise takes the whole deposit, so it stays unless it is
  likely the worst; it raises and calls órdago on the same tests as opening.

Level ``"facil"`` discards by grande only and bets and answers on cruder thresholds with a little
noise. :func:`baseline` is the fixed rule player of the strength benchmark.

>>> import random
>>> from engine import piedras
>>> s = piedras.new_game(players=3, hands=[["12o", "12c", "1e", "4b", "5b"],
...     ["7o", "6c", "5e", "4o", "10b"], ["3o", "11c", "10e", "7c", "1b"]])
>>> str(choose(piedras.view(s, 0), piedras.legal_actions(s, 0), random.Random(0)))
'descarto 5b'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Protocol, cast

from engine.cards import DECK, Card
from engine.core import Action
from engine.mus.evaluation import HandValue, Lance, hand_value
from engine.piedras.options import Options
from engine.piedras.values import lance_value

LEVELS = ("facil", "normal")


class _HasDict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


ViewLike = _HasDict | Mapping[str, Any]


def _data(view: ViewLike) -> Mapping[str, Any]:
    return view if isinstance(view, Mapping) else view.to_dict()


# --------------------------------------------------------------------------- hand strength


@cache
def _weighted_hands(reyes: int) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """One sample hand per multiset of effective ranks, with how many deals give it.

    >>> sum(w for w, _ in _weighted_hands(8)) == comb(40, 4)
    True
    """
    by_rank: dict[int, list[Card]] = {}
    for card in DECK:
        rank = card.rank
        if reyes == 8 and rank in (2, 3):
            rank = 1 if rank == 2 else 12
        by_rank.setdefault(rank, []).append(card)
    hands: list[tuple[int, tuple[Card, ...]]] = []
    for combo in combinations_with_replacement(sorted(by_rank), 4):
        weight = 1
        cards: list[Card] = []
        for rank in sorted(set(combo)):
            count = combo.count(rank)
            weight *= comb(len(by_rank[rank]), count)
            cards.extend(by_rank[rank][:count])
        hands.append((weight, tuple(cards)))
    return tuple(hands)


@cache
def _shares(reyes: int, real: bool) -> dict[str, dict[int, float]]:
    """For each lance, key -> share of four-card hands it beats (ties count half).

    Every four-card hand of the deck is weighed once (by how many deals give its effective
    ranks). Pares and juego shares are among the hands that have them (only they play).
    """
    options = Options(reyes=8 if reyes == 8 else 4, real=real)
    weights: dict[str, dict[int, int]] = {lance: {} for lance in _LANCES}
    for weight, cards in _weighted_hands(reyes):
        value = hand_value(cards, options)
        for lance in _LANCES:
            key = value.key(lance)
            if lance in ("pares", "juego") and key == 0:
                continue
            if lance == "punto" and value.juego:
                continue
            table = weights[lance]
            table[key] = table.get(key, 0) + weight
    shares: dict[str, dict[int, float]] = {}
    for name, table in weights.items():
        total = sum(table.values())  # every lance has hands (pares/juego/punto are non-empty)
        below = 0
        shares[name] = {}
        for key in sorted(table):
            shares[name][key] = (below + table[key] / 2) / total
            below += table[key]
    return shares


_LANCES: tuple[Lance, ...] = ("grande", "chica", "pares", "juego", "punto")


@cache
def _holding(reyes: int, real: bool) -> tuple[float, float]:
    """Share of four-card hands with pares and with juego.

    >>> [round(x, 2) for x in _holding(8, False)]
    [0.57, 0.27]
    """
    options = Options(reyes=8 if reyes == 8 else 4, real=real)
    pares = juego = total = 0
    for weight, cards in _weighted_hands(reyes):
        value = hand_value(cards, options)
        total += weight
        pares += weight * (value.pares is not None)
        juego += weight * value.juego
    return pares / total, juego / total


def share(value: HandValue, lance: str, options: Options) -> float:
    """Share of hands that ``value`` beats in ``lance`` (0 if it does not play pares/juego).

    >>> from engine.mus.evaluation import evaluate
    >>> round(share(evaluate("12o 12c 12e 3b"), "grande", Options()), 2)
    1.0
    >>> share(evaluate("4o 5c 6e 7b"), "pares", Options())
    0.0
    """
    key = value.key(cast(Lance, lance))
    if lance in ("pares", "juego") and key == 0:
        return 0.0
    return _shares(options.reyes, options.real)[lance].get(key, 0.0)


def _hand_score(value: HandValue, others: int, options: Options) -> float:
    """What a four-card hand is worth to keep: chance of being best in each lance times what
    that lance puts on the plate, less a little for being worst in grande and chica."""
    p_pares, p_juego = _holding(options.reyes, options.real)
    score = 0.0
    for lance in ("grande", "chica"):
        s = share(value, lance, options)
        score += s**others - 0.5 * (1 - s) ** others
    if value.pares:
        holders = max(1.0, others * p_pares)
        score += lance_value("pares", value, options) * share(value, "pares", options) ** holders
    if value.juego:
        holders = max(1.0, others * p_juego)
        score += lance_value("juego", value, options) * share(value, "juego", options) ** holders
    else:
        nobody = (1 - p_juego) ** others
        score += nobody * share(value, "punto", options) ** others
    return score


# --------------------------------------------------------------------------- decisions


def _discard(
    cards: list[Card], actions: Sequence[Action], others: int, options: Options, level: str
) -> Action:
    by_card = {a.cards[0]: a for a in actions}
    best: tuple[float, int] | None = None
    choice = actions[-1]
    for i, card in enumerate(cards):
        if card not in by_card:
            continue
        rest = [c for c in cards if c != card]
        value = hand_value(rest, options)
        if level == "facil":
            score = share(value, "grande", options)
        else:
            score = _hand_score(value, others, options)
        if best is None or (score, -i) > best:
            best, choice = (score, -i), by_card[card]
    return choice


def _amount(actions: Sequence[Action], want: int) -> Action | None:
    """The ``envido`` action whose amount is closest to ``want`` (the cap may be lower)."""
    bets = [a for a in actions if a.kind == "envido" and a.amount is not None]
    if not bets:
        return None
    return min(bets, key=lambda a: abs((a.amount or 0) - want))


class _Spot:
    """The lance being bet, from the seat's point of view."""

    def __init__(self, v: Mapping[str, Any], options: Options) -> None:
        b = v["betting"]
        self.seat: int = v["seat"]
        self.b = b
        self.lance: str = b["lance"]
        cards = [Card.parse(c) for c in v["cards"]]
        self.value = hand_value(cards, options)
        self.s = share(self.value, self.lance, options)
        self.piles: list[int] = v["piles"]
        players = b["players"] if b["stage"] == "open" else b["in_lance"] + b["queue"]
        self.others = max(1, len({p for p in players if p != self.seat}))
        self.in_hand = len(v["in_hand"])
        self.hand_seats: list[int] = v["in_hand"]
        self.spoken: list[Mapping[str, Any]] = v["spoken"]
        self.deposit: int = v["deposits"]["juego" if self.lance == "punto" else self.lance]

    def best(self, s: float | None = None) -> float:
        return (self.s if s is None else s) ** self.others

    def worst(self, s: float | None = None) -> float:
        return (1 - (self.s if s is None else s)) ** self.others


SOUND = 0.5
"""The chance that an órdago's acceptance (or a bet) comes from a hand that means it, before
reading the player's other words this hand; the rest is taken as any hand (people bluff,
beginners throw órdagos loosely)."""
THROW_SOUND = 0.2
"""The same chance for the player who throws an órdago: a throw costs nothing when nobody takes
it, so it is made loosely far more often than an acceptance (which risks every pile). Measured
(two of ours against two random, 0.5 -> 0.2): 92.0 % -> 93.8 % of 4,000 juegos (seed 1), 92.3 %
-> 93.4 % of 8,000 (seed 2); against two `rules` players, who never throw one, 73.0 % -> 73.0 %
and 73.3 % -> 73.1 % (bench/ai_piedras.py)."""
WORD_ODDS = {"paso": 3.0, "quiero": 1.0, "no quiero": 1.0, "ordago": 0.4}
"""How each earlier word of a player multiplies the odds that he means his órdago: a sound
player mostly passes; one who bets or throws órdagos lance after lance may hold anything (a
numbered bet or raise: :data:`BET_ODDS`)."""
BET_ODDS = 0.6
ORDAGO_FLOOR = 0.85
"""The share of hands beaten that a meant órdago implies at least: an opening órdago."""
RAISED_FLOOR = 0.9
"""... an órdago over a bet, or from a player who has already bet this lance."""
ACCEPT_FLOOR = 0.7
"""... accepting an órdago."""
LATER = 0.3
BET_FLOOR = 0.7
"""... a first bet (envido), for the first envite's answer (P4.2)."""
ENVITE_WORST = 0.5
"""A first envite is accepted when the chance of being the worst times the players in it is
below this (being worst takes the deposit back multiplied)."""
"""The chance that a player still to answer an órdago accepts it."""


def beats(s: float, floor: float, sound: float = SOUND) -> float:
    """The chance that a hand beating the share ``s`` of hands beats a player whose action
    implies a hand of at least ``floor`` with chance ``sound`` (any hand otherwise).

    >>> round(beats(0.9, 0.8, sound=0.5), 2), round(beats(0.5, 0.8, sound=0.5), 2)
    (0.7, 0.25)
    """
    meant = max(0.0, s - floor) / (1.0 - floor)
    return sound * meant + (1.0 - sound) * s


def soundness(spot: _Spot, who: int, prior: float = SOUND) -> float:
    """The chance that ``who`` means his órdago or acceptance, read from everything he said
    earlier this hand (:data:`WORD_ODDS`) from ``prior``."""
    odds = prior / (1.0 - prior)
    words = [w for w in spot.spoken if w["seat"] == who]
    for w in words[:-1] if words and words[-1]["lance"] == spot.lance else words:
        odds *= WORD_ODDS.get(w["action"], BET_ODDS)
    return min(0.95, max(0.05, odds / (1.0 + odds)))


def _thrower_floor(spot: _Spot) -> float:
    """What the órdago implies: over a bet, or after betting himself, it says more than an
    opening one (P4.1, P4.3)."""
    words = [w for w in spot.spoken if w["lance"] == spot.lance]
    bet_before = any(w["action"] not in ("paso", "ordago") for w in words)
    return RAISED_FLOOR if bet_before else ORDAGO_FLOOR


def lose_anyway(spot: _Spot, refusing: bool = True) -> float:
    """The chance of losing the juego without this órdago: one in the players still in the
    hand, weighed by their stones (pile and bets in this lance: a big pile is further from
    being free, P1). Refusing an órdago in the re-envites takes the whole deposit (P4.3)."""
    put: list[int] = spot.b["put"]
    stones = {p: spot.piles[p] + put[p] for p in spot.hand_seats}
    if refusing and spot.b["stage"] == "reenvite":
        stones[spot.seat] = spot.piles[spot.seat] + spot.deposit
    total = sum(stones.values())
    if total <= 0:
        return 1.0 / max(2, spot.in_hand)
    return min(1.0, stones.get(spot.seat, 0) / total)


def accept_ordago(spot: _Spot) -> bool:
    """Accept an órdago when being the worst of those in it (then we take every pile and lose
    the juego, P4.4) is less likely than losing the juego anyway; else we are free. Being the
    worst needs every player in it to beat us: the thrower, read by his words, those who
    accepted before us and those still to answer who join it."""
    thrower = spot.b["ordago"]
    worst = 1.0 - beats(spot.s, _thrower_floor(spot), soundness(spot, thrower, THROW_SOUND))
    for other in spot.b["accepted"]:
        if other not in (spot.seat, thrower):
            worst *= 1.0 - beats(spot.s, ACCEPT_FLOOR, soundness(spot, other))
    for other in spot.b["queue"][1:]:
        if other != thrower:
            worst *= 1.0 - LATER * beats(spot.s, ACCEPT_FLOOR)
    return worst < lose_anyway(spot)


TAKER_FLOOR = 0.9
"""The share of hands beaten with which a player who means his words takes an órdago."""
LOOSE_TAKE = 0.3
"""The chance that a player who does not mean his words takes an órdago with any hand."""


def throw_pays(spot: _Spot) -> bool:
    """Throw an órdago when, summed over the others in the lance, being taken by a worse hand
    (we are free, P4.4) is worth more than being taken by a better one (we take every pile),
    each weighed by what it changes: the chance of losing the juego anyway, or the rest of it.
    Who takes it is read from his words: a player who means them takes it only with a hand
    beating :data:`TAKER_FLOOR` of hands (so a strong hand is taken mostly by a stronger one);
    one who does not takes it with any hand."""
    s = spot.s
    anyway = lose_anyway(spot, refusing=False)
    b = spot.b
    others = b["players"] if b["stage"] == "open" else b["in_lance"]
    gain = loss = 0.0
    for other in others:
        if other == spot.seat:
            continue
        q = soundness(spot, other)
        gain += q * max(0.0, s - TAKER_FLOOR) + (1.0 - q) * LOOSE_TAKE * s
        loss += q * (1.0 - max(s, TAKER_FLOOR)) + (1.0 - q) * LOOSE_TAKE * (1.0 - s)
    return gain * anyway > loss * (1.0 - anyway)


def _open(spot: _Spot, actions: Sequence[Action], level: str, rng: random.Random) -> Action:
    kinds = {a.kind: a for a in actions}
    best, worst = spot.best(), spot.worst()
    if level == "facil":
        if spot.s >= 0.8 and rng.random() < 0.7:
            return _amount(actions, 2) or kinds["paso"]
        return kinds["paso"]
    if "ordago" in kinds and throw_pays(spot):
        return kinds["ordago"]
    if best >= 0.5 and worst <= 0.15:
        want = 2 + round(6 * (best - 0.5))
        return _amount(actions, want) or kinds["paso"]
    return kinds["paso"]


def _first_envite(spot: _Spot, actions: Sequence[Action], level: str, rng: random.Random) -> Action:
    kinds = {a.kind: a for a in actions}
    if level == "facil":
        threshold = 0.8 if spot.b["ordago"] is not None else 0.55
        return kinds["quiero" if spot.s >= threshold + rng.uniform(-0.1, 0.1) else "no_quiero"]
    if spot.b["ordago"] is not None:
        return kinds["quiero" if accept_ordago(spot) else "no_quiero"]
    # Accepting puts stones in that the worst takes back multiplied (P5): the bettor is read
    # by his words as for an órdago (a bet means a hand beating BET_FLOOR of hands).
    players_in = len(spot.b["in_lance"]) + 1
    worst = 1.0 - beats(spot.s, BET_FLOOR, soundness(spot, spot.b["bettor"]))
    worst *= (1.0 - spot.s) ** (spot.others - 1)
    return kinds["quiero" if worst * players_in < ENVITE_WORST else "no_quiero"]


def _reenvite(spot: _Spot, actions: Sequence[Action], level: str, rng: random.Random) -> Action:
    kinds = {a.kind: a for a in actions}
    b = spot.b
    facing = b["level"] - b["put"][spot.seat]
    if b["ordago"] is not None:
        keep = accept_ordago(spot) if level == "normal" else spot.s >= 0.85
        return kinds["quiero" if keep else "no_quiero"]
    stay = kinds.get("quiero") or kinds.get("paso")
    assert stay is not None
    worst, best = spot.worst(), spot.best()
    if level == "facil":
        if spot.s >= 0.85 and rng.random() < 0.5:
            return _amount(actions, 2) or stay
        return stay
    if "ordago" in kinds and throw_pays(spot):
        return kinds["ordago"]
    if worst <= 0.1 and best >= 0.5:
        raise_to = _amount(actions, 2 + round(4 * (best - 0.5)))
        if raise_to is not None:
            return raise_to
    if facing and "no_quiero" in kinds:
        players_in = len(b["in_lance"])
        final = b["level"] * players_in
        stay_cost = worst * final - facing
        if stay_cost > spot.deposit:
            return kinds["no_quiero"]
    return stay


def choose(
    view: ViewLike,
    legal_actions: Sequence[Action],
    rng: random.Random,
    level: str = "normal",
) -> Action:
    """One of ``legal_actions`` for the seat whose ``view`` this is (see the module docstring).

    >>> import random
    >>> from engine import piedras
    >>> s = piedras.new_game(players=4, seed=3)
    >>> a = choose(piedras.view(s, 2), piedras.legal_actions(s, 2), random.Random(0))
    >>> a in piedras.legal_actions(s, 2)
    True
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    v = _data(view)
    options = Options(**v["options"])
    if legal_actions[0].kind == "descarto":
        cards = [Card.parse(c) for c in v["cards"]]
        others = max(1, len(v["in_hand"]) - 1)
        return _discard(cards, legal_actions, others, options, level)
    spot = _Spot(v, options)
    stage = spot.b["stage"]
    if stage == "open":
        return _open(spot, legal_actions, level, rng)
    if stage == "envite":
        return _first_envite(spot, legal_actions, level, rng)
    return _reenvite(spot, legal_actions, level, rng)


def baseline(view: ViewLike, legal_actions: Sequence[Action], rng: random.Random) -> Action:
    """The fixed rule player: discard the lowest card (grande order), bet 2 with a hand that
    beats 70 % of hands in the lance, accept a bet with 50 %, an órdago with 90 %, always stay
    in re-envites, never raise.

    >>> import random
    >>> from engine import piedras
    >>> s = piedras.new_game(players=3, hands=[["12o", "12c", "1e", "4b", "5b"],
    ...     ["7o", "6c", "5e", "4o", "10b"], ["3o", "11c", "10e", "7c", "1b"]])
    >>> str(baseline(piedras.view(s, 0), piedras.legal_actions(s, 0), random.Random(0)))
    'descarto 1e'
    """
    v = _data(view)
    options = Options(**v["options"])
    kinds = {a.kind: a for a in legal_actions}
    if legal_actions[0].kind == "descarto":
        cards = [Card.parse(c) for c in v["cards"]]
        return _discard(cards, legal_actions, 1, options, "facil")
    spot = _Spot(v, options)
    stage = spot.b["stage"]
    if stage == "open":
        return (_amount(legal_actions, 2) if spot.s >= 0.7 else None) or kinds["paso"]
    if spot.b["ordago"] is not None:
        return kinds["quiero" if spot.s >= 0.9 else "no_quiero"]
    if stage == "envite":
        return kinds["quiero" if spot.s >= 0.5 else "no_quiero"]
    stay = kinds.get("quiero") or kinds.get("paso")
    assert stay is not None
    return stay


__all__ = ["LEVELS", "baseline", "choose", "share"]
