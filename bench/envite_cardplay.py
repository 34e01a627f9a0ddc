"""How much of an envite round card play can win against random cards: the measured limits.

Each deal's first round is played with cards only (no bets: the round is worth 2 either way,
so this is the share of rounds won by play). The measured team plays every seat of its team;
the other team plays a uniformly random lawful card (``--against rules``: the card play of the
independent rule team of ``bench/ai_envite.py``, the cheapest card that takes the trick, else
its lowest, leading its strongest; equal card play wins about 50 %). The measured team sits
as team 0 on even deals and team 1 on odd ones. Players of the measured team:

- ``ai``: ``engine.envite.ai.choose`` (level normal), given only the card plays;
- ``seeing``: exact expectimax seeing every hand (the other team's cards uniformly random, as
  they are): the best any card play can do against this opponent;
- ``search``: the same exact expectimax over ``--samples`` deals of the unseen cards (dealt
  consistently with the suits each seat showed it lacks), choosing the card best on average:
  what searching instead of the rules of thumb gains without seeing hidden cards.

The rules come from the engine (``envite.playable`` for lawful cards, ``envite.trick_winner``
for tricks); only the search tree is written here. Run ``python bench/envite_cardplay.py --n 2000``
(4 players; ``search`` costs about 0.1 s a round with 32 samples; ``--players 6 --modes ai
--against rules`` for teams of three).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.envite as envite
from bench.ai_envite import rules_player
from engine.cards import DECK, Card
from engine.core import Action
from engine.envite import ai

MODES = ("ai", "seeing", "search")


@dataclass(frozen=True)
class _Position:
    """The part of a round a lawful play depends on (what ``envite.playable`` reads)."""

    players: int
    vira: Card
    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def chance(pos: _Position, leader: int, won: tuple[int, int], team: int) -> float:
    """Chance that ``team`` wins the round from ``pos``: it plays its best card, the other team
    a uniformly random lawful one."""
    if won[team] >= 2:
        return 1.0
    if won[1 - team] >= 2:
        return 0.0
    n = pos.players
    if len(pos.trick) == n:
        winner = (leader + envite.trick_winner(pos.trick, pos.vira, n // 2)) % n
        tricks = (won[0] + (winner % 2 == 0), won[1] + (winner % 2 == 1))
        return chance(_Position(n, pos.vira, pos.hands, ()), winner, tricks, team)
    seat = (leader + len(pos.trick)) % n
    values = [
        chance(_play(pos, seat, card), leader, won, team)
        for card in envite.playable(pos, seat)  # type: ignore[arg-type]
    ]
    return max(values) if seat % 2 == team else sum(values) / len(values)


def _play(pos: _Position, seat: int, card: Card) -> _Position:
    hands = list(pos.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    return _Position(pos.players, pos.vira, tuple(hands), (*pos.trick, card))


def _won(s: envite.EnviteState) -> tuple[int, int]:
    return (
        sum(1 for t in s.tricks if t.winner % 2 == 0),
        sum(1 for t in s.tricks if t.winner % 2 == 1),
    )


def _best(s: envite.EnviteState, seat: int, deals: Sequence[tuple[tuple[Card, ...], ...]]) -> Card:
    cards = envite.playable(s, seat)
    totals = [0.0] * len(cards)
    for hands in deals:
        pos = _Position(s.players, s.vira, hands, s.trick)
        for i, card in enumerate(cards):
            totals[i] += chance(_play(pos, seat, card), s.leader, _won(s), seat % 2)
    return cards[max(range(len(cards)), key=totals.__getitem__)]


def _deals(
    s: envite.EnviteState, seat: int, samples: int, rng: random.Random
) -> list[tuple[tuple[Card, ...], ...]]:
    """Deals of the cards ``seat`` has not seen to the other seats, each seat void in the suits
    it failed to follow (rejection, 50 tries; the last try is kept when none fits)."""
    k = s.players // 2
    suit = {c: ("t" if envite.is_trump(c, s.vira, k) else c.suit) for c in DECK}
    top = envite.top_card(s.vira, k)
    seen = {s.vira, *s.hands[seat], *s.trick, *(c for t in s.tricks for c in t.cards)}
    unseen = [c for c in DECK if c not in seen]
    void: list[set[str]] = [set() for _ in range(s.players)]
    for leader, cards in [(t.leader, t.cards) for t in s.tricks] + [(s.leader, s.trick)]:
        for i, card in enumerate(cards):
            if suit[card] != suit[cards[0]]:
                void[(leader + i) % s.players].add(suit[cards[0]])
    deals = []
    for _ in range(samples):
        for _try in range(50):
            rng.shuffle(unseen)
            hands, at, fits = list(s.hands), 0, True
            for other in range(s.players):
                if other == seat:
                    continue
                size = len(s.hands[other])
                hands[other] = tuple(unseen[at : at + size])
                at += size
                fits = fits and all(suit[c] not in void[other] or c == top for c in hands[other])
            if fits:
                break
        deals.append(tuple(hands))
    return deals


def _choose(
    s: envite.EnviteState, seat: int, mode: str, samples: int, rng: random.Random
) -> Action:
    plays = [a for a in envite.legal_actions(s, seat) if a.kind == "tiro"]
    if mode == "ai":
        return ai.choose(envite.view(s, seat), plays, rng)
    deals = [s.hands] if mode == "seeing" else _deals(s, seat, samples, rng)
    card = _best(s, seat, deals)
    return next(a for a in plays if a.cards[0] == card)


def round_won(
    seed: int,
    mode: str,
    team: int,
    samples: int,
    rng: random.Random,
    players: int = 4,
    against: str = "random",
) -> bool:
    """Play the first round of deal ``seed`` with cards only; whether ``team`` won it."""
    s = envite.new_game(players=players, options=envite.Options(sinsenas=True), seed=seed)
    while True:
        seat = s.to_act[0]
        plays = [a for a in envite.legal_actions(s, seat) if a.kind == "tiro"]
        if seat % 2 == team:
            action = _choose(s, seat, mode, samples, rng)
        elif against == "rules":
            action = rules_player(envite.view(s, seat).to_dict(), plays)
        else:
            action = rng.choice(plays)
        before = s.score
        s = envite.apply(s, seat, action).state
        if s.score != before:
            return s.score[team] > before[team]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="rounds per mode")
    parser.add_argument("--samples", type=int, default=32, help="deals per decision (search)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=range(4, 13, 2))
    parser.add_argument("--against", default="random", choices=("random", "rules"))
    args = parser.parse_args(argv)
    for mode in args.modes.split(","):
        rng = random.Random(args.seed)
        start = time.perf_counter()
        wins = sum(
            round_won(
                args.seed * 100_003 + i, mode, i % 2, args.samples, rng, args.players, args.against
            )
            for i in range(args.n)
        )
        lo, hi = wilson(wins, args.n)
        label = f"{mode} ({args.samples} deals)" if mode == "search" else mode
        print(
            f"{label:<18} rounds won {wins / args.n:.1%} [{lo:.1%}, {hi:.1%}] of {args.n}"
            f"  ({time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
