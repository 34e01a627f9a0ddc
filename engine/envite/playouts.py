"""Play-outs of an envite round for the computer player (``ai``): the unseen cards dealt
consistently with what the table showed, then every seat playing a quick policy (E3, E4).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from engine.cards import DECK, Card
from engine.envite.knowledge import SMALL_TRUMPS, _Table
from engine.envite.ranking import TRUMP, Ranker
from engine.envite.senas import card_sena

T = TypeVar("T")
SAMPLES = 64
"""Deals of the unseen cards played out, at most, to judge a bet, an answer or a tumbo."""
BATCH = 16
"""Playouts between two looks at whether the decision is already clear."""
NOISE = 0.3
"""In those playouts, the share of the other team's cards that are a random lawful card (people
err; a playout where both teams play alike undervalues a good hand against a weak team)."""
TRIES = 48
"""Deals drawn at most for one playout until it fits a partner's "triunfos pequeños" (about
one deal in two does); the last one is kept when none fits."""


_SUIT_INDEX = {"o": 0, "c": 1, "e": 2, "b": 3, TRUMP: 4}
_LED_LETTERS = ("o", "c", "e", "b", TRUMP)
_TRUMP_INDEX = 4


class _Cards:
    """One vira and team size as integer tables (a card is its index in ``DECK``).

    Built from the engine's own :class:`~engine.envite.ranking.Ranker`: ``suit[c]`` is the suit
    a card counts as (4: trumps, E3), ``key[c][led]`` its strength in a trick led in ``led``
    (higher wins, E3), ``throw[c]`` the order for throwing away (plain low cards first),
    ``small[c]`` whether it gives the seña "triunfos pequeños" (S3).
    """

    def __init__(self, r: Ranker, vira: Card, k: int) -> None:
        self.suit = [_SUIT_INDEX[r.suits[c._text]] for c in DECK]
        self.key = [[r.key(c, led) for led in _LED_LETTERS] for c in DECK]
        self.throw = [
            1000 + k[_TRUMP_INDEX] if s == _TRUMP_INDEX else k[s]
            for s, k in zip(self.suit, self.key, strict=True)
        ]
        self.lead = [k[s] for s, k in zip(self.suit, self.key, strict=True)]
        self.top = r.top.index
        self.small = [card_sena(c, vira, k) == SMALL_TRUMPS for c in DECK]

    def lawful(self, hand: list[int], led: int) -> list[int]:
        """E4: follow the suit led; at an arrastre the top card is never forced out."""
        suit = self.suit
        same = [x for x in hand if suit[x] == led]
        if led == _TRUMP_INDEX:
            top = self.top
            return same if any(x != top for x in same) else hand
        return same or hand

    def playout(
        self,
        hands: list[list[int]],
        leader: int,
        trick: list[int],
        won: list[int],
        erring: int,
        noise: float,
        rng: random.Random,
    ) -> int:
        """Play the round out with a quick policy for every seat; the team that wins it (E4).

        Leading: the strongest card. Following: the lowest lawful card when a partner holds
        the trick or nothing wins, else the lowest card that wins. ``hands`` is used up.
        """
        key, suit, throw, lead, top = self.key, self.suit, self.throw, self.lead, self.top
        n = len(hands)
        led = best_key = best_seat = 0
        if trick:
            led = suit[trick[0]]
            for i, card in enumerate(trick):
                if key[card][led] > best_key or i == 0:
                    best_key, best_seat = key[card][led], (leader + i) % n
        count = len(trick)
        while True:
            if count == 0:
                h = hands[leader]
                card = max(h, key=lead.__getitem__)
                h.remove(card)
                led, best_key, best_seat, count = suit[card], lead[card], leader, 1
            while count < n:
                seat = (leader + count) % n
                h = hands[seat]
                same = [x for x in h if suit[x] == led]  # E4, as in lawful()
                if led == _TRUMP_INDEX:
                    lawful = same if any(x != top for x in same) else h
                else:
                    lawful = same or h
                if seat % 2 == erring and noise and rng.random() < noise:
                    card = lawful[int(rng.random() * len(lawful))]
                elif (best_seat - seat) % 2 == 0:
                    card = min(lawful, key=throw.__getitem__)
                else:
                    card = -1
                    for x in lawful:
                        kx = key[x][led]
                        if kx > best_key and (card < 0 or kx < key[card][led]):
                            card = x
                    if card < 0:
                        card = min(lawful, key=throw.__getitem__)
                h.remove(card)
                kc = key[card][led]
                if kc > best_key:
                    best_key, best_seat = kc, seat
                count += 1
            team = best_seat % 2
            won[team] += 1
            if won[team] >= 2 or won[0] + won[1] >= 3:
                return team
            leader, count = best_seat, 0


_CARD_TABLES: dict[tuple[str, int], _Cards] = {}


def _cards_of(t: _Table) -> _Cards:
    found = _CARD_TABLES.get((t.vira._text, t.k))
    if found is None:
        found = _CARD_TABLES[(t.vira._text, t.k)] = _Cards(t.r, t.vira, t.k)
    return found


def _deals(t: _Table, c: _Cards) -> tuple[list[int], Any]:
    """What is known of the round for playouts, and a function dealing one sample of the rest.

    Returns (the current trick's cards, ``deal(rng) -> hands``): the unseen cards dealt at
    random to the seats that hold them, a seat seen not to follow a suit getting none of it
    (E4) and a partner who signalled "ciego" no trump (S3); the seat's own cards, the
    mocho's for its mandador and cards a partner signalled stay where they are known to be.
    A partner who signalled "triunfos pequeños" and has not played one yet is dealt one (the
    deal is drawn again, up to :data:`TRIES` times).
    """
    n = t.n
    played = [0] * n
    shown: list[list[int]] = [[] for _ in range(n)]  # cards each seat played this round
    void: list[set[int]] = [set() for _ in range(n)]
    rounds = [(tr["leader"], [Card.parse(x).index for x in tr["cards"]]) for tr in t.tricks]
    current = [card.index for _, card in t.trick]
    if t.trick:
        rounds.append((t.trick[0][0], current))
    for lead_seat, cards in rounds:
        led = c.suit[cards[0]]
        for i, card in enumerate(cards):
            seat = (lead_seat + i) % n
            played[seat] += 1
            shown[seat].append(card)
            if c.suit[card] != led:
                void[seat].add(led)
    for who in t.blind:  # S3 "ciego": no trump at all, the top one included
        void[who].add(_TRUMP_INDEX)
    fixed: dict[int, list[int]] = {t.seat: [x.index for x in t.mine]}
    if t.mocho is not None and t.mocho_hand:
        fixed[t.mocho] = [x.index for x in t.mocho_hand]
    for who, told in t.told_by.items():
        if who not in fixed:
            fixed[who] = [x.index for x in told]
    unseen = [x.index for x in t.unseen]
    open_seats = sorted(
        (s for s in range(n) if 3 - played[s] > len(fixed.get(s, ()))),
        key=lambda s: -len(void[s]),
    )
    top, suit = c.top, c.suit
    blind = t.blind

    size = len(unseen)
    small = c.small
    small_from = [s for s in t.small if not any(small[x] for x in shown[s])]

    def deal(rng: random.Random) -> list[list[int]]:
        hands = one_deal(rng)
        for _ in range(TRIES - 1 if small_from else 0):
            if all(any(small[x] for x in hands[s]) for s in small_from):
                break
            hands = one_deal(rng)
        return hands

    def one_deal(rng: random.Random) -> list[list[int]]:
        pool = list(unseen)
        rnd = rng.random
        for i in range(size - 1):  # a shuffle drawing floats: far quicker than rng.shuffle
            j = i + int(rnd() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        hands = [list(fixed.get(s, ())) for s in range(n)]
        for s in open_seats:
            need = 3 - played[s] - len(hands[s])
            banned = void[s]
            if banned:
                keeps_top = s not in blind
                took = [x for x in pool if suit[x] not in banned or (x == top and keeps_top)]
                took = took[:need]
                if len(took) < need:
                    took += [x for x in pool if x not in took][: need - len(took)]
                for x in took:
                    pool.remove(x)
            else:
                took, pool = pool[:need], pool[need:]
            hands[s].extend(took)
        return hands

    return current, deal


def _leader(t: _Table) -> int:
    if t.trick:
        return t.trick[0][0]
    return int(t.tricks[-1]["winner"]) if t.tricks else t.mano


def _sampled_chance(t: _Table, rng: random.Random, samples: int) -> float:
    """Chance of winning the round: the unseen cards dealt at random (:func:`_deals`), then
    the round played out (:meth:`_Cards.playout`)."""
    c = _cards_of(t)
    current, deal = _deals(t, c)
    leader, team = _leader(t), t.seat_team
    wins = 0
    for _ in range(samples):
        won = list(t.won_by_team)
        if c.playout(deal(rng), leader, list(current), won, 1 - team, NOISE, rng) == team:
            wins += 1
    return wins / samples


def _sampled_decision(t: _Table, rng: random.Random, decide: Callable[[float], T]) -> T:
    """``decide(p)`` at the chance ``p`` of winning the round, estimated by playouts in
    batches of :data:`BATCH` (up to :data:`SAMPLES`, fewer from 8 players up): it stops as
    soon as the decision is the same at both ends of the estimate's margin (two standard
    errors), most decisions being clear long before the last batch."""
    low = decide(0.0)
    if low == decide(1.0):  # the same whatever the cards: no playout needed
        return low
    c = _cards_of(t)
    current, deal = _deals(t, c)
    leader, team = _leader(t), t.seat_team
    # From 8 players up a playout is longer: fewer and smaller batches.
    batch = BATCH if t.n <= 6 else BATCH // 2
    most = SAMPLES if t.n <= 6 else SAMPLES * 4 // t.n
    wins = count = 0
    while True:
        for _ in range(batch):
            won = list(t.won_by_team)
            if c.playout(deal(rng), leader, list(current), won, 1 - team, NOISE, rng) == team:
                wins += 1
        count += batch
        p = wins / count
        if count >= most:
            return decide(p)
        margin = 2.0 * math.sqrt(max(p * (1 - p), 0.05) / count)
        low = decide(max(0.0, p - margin))
        if low == decide(min(1.0, p + margin)):
            return low
