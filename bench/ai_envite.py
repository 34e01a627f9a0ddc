"""Envite computer player strength: games won by an AI team against other teams.

Each match is one game as a default table plays it (``--chicos 2``: best of three chicos; ``1``:
one chico), between two teams of 2 or 3 (4 and 6 players). Team "AI" plays every seat of its
team with ``engine.envite.ai.choose`` at the given level; the other team is one of:

- ``random``: a uniformly random legal action;
- ``rules``: an independent rule-based team written from rules/envite.md alone (none of
  ``engine.envite.ai``): it bets with strong trumps, accepts with a hand above average, raises
  with a very strong one, plays tumbo with a trump, and plays the cheapest card that takes the
  trick, else its lowest (:func:`rules_player`);
- ``baseline``: ``engine.envite.ai.baseline`` (our own fixed rule player);
- ``facil``: the AI at level ``facil``.

**Seats swapped on the same deals**: every deal seed is played twice, the AI team as team 0 and
then as team 1 (the deals of each round come from the seed, not from the play). A figure is the
share of matches the AI team wins with its 95 % Wilson interval. Decision time is one ``view`` +
``choose`` call on one core.

Señas are on, as at a default table (rules/senas.md): after every move each computer seat (the
AI team's, and the ``facil`` team's) makes the señas its ``choose_senas`` wants, as the bot's
computer players do; ``--sinsenas`` plays without them. The rule team makes none.

Run alone: ``python bench/ai_envite.py --n 1000`` (uses 2 processes); ``bench/ai.py --game
envite`` calls :func:`run`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.envite as envite
from bench.ai import percentile, wilson
from engine.cards import Card
from engine.core import Action
from engine.envite import ai

Row = tuple[str, str]
Player = Callable[[envite.EnviteState, int, random.Random], Action]
OPPONENTS = ("random", "rules", "baseline", "facil")

# --------------------------------------------------------------------------- the rule team
# Written from rules/envite.md (E3 ranking, E4 play, E5 bets, E6 tumbo), not from our player.

_HIGH_TRUMPS = 4
"""The top trumps of E3 that count as strong (malilla, rey, caballo, sota for k = 2; the fixed
trumps first for bigger teams)."""
_BET_AT, _ACCEPT_AT, _RAISE_AT, _FUERA_AT, _TUMBO_AT = 2.0, 1.25, 3.0, 3.5, 1.0
"""Hand strength (:func:`_strength`) to bet, accept, raise, accept chico fuera, play tumbo."""
_PLAIN_ORDER = (2, 3, 4, 5, 6, 7, 1, 10, 11, 12)  # E3 non-trumps, low to high


def _strength(cards: Sequence[Card], vira: Card, k: int, us: int, them: int) -> float:
    """A trump counts 1 (1.5 among the top four), a plain rey 0.25; a trick won counts 1.2
    and a trick lost -1.2 (E4: two tricks win the round). An average hand is about 1."""
    order = envite.trump_order(vira, k)
    score = 1.2 * (us - them)
    for card in cards:
        if card in order:
            score += 1.5 if order.index(card) < _HIGH_TRUMPS else 1.0
        elif card.rank == 12:
            score += 0.25
    return score


def _order(card: Card, vira: Card, k: int) -> int:
    """Throwing order: plain cards low to high, then trumps low to high (E3)."""
    order = envite.trump_order(vira, k)
    if card in order:
        return 100 + len(order) - order.index(card)
    return _PLAIN_ORDER.index(card.rank)


def rules_player(v: Mapping[str, Any], actions: Sequence[Action]) -> Action:
    """The rule team's choice for the seat whose view (``to_dict()``) is ``v``."""
    by_kind = {a.kind: a for a in actions}
    vira, k = Card.parse(v["vira"]), v["k"]
    team = v["seat"] % 2
    playing_mocho = v["mocho"] is not None and v["turn"] == v["mocho"]
    cards = [Card.parse(c) for c in (v["mocho_cards"] if playing_mocho else v["cards"]) or ()]
    won = v["tricks_won"]
    strength = _strength(cards, vira, k, won[team], won[1 - team])
    if "tumbo" in by_kind:
        return by_kind["tumbo" if strength >= _TUMBO_AT else "no_tumbo"]
    if "quiero" in by_kind:
        raises = [a for a in actions if a.kind in ("siete", "nueve", "chico_fuera", "envido")]
        if raises and strength >= _RAISE_AT:
            return raises[0]
        fuera = v["bet"] is not None and v["bet"]["step"] == "chico fuera"
        return by_kind[
            "quiero" if strength >= (_FUERA_AT if fuera else _ACCEPT_AT) else "no_quiero"
        ]
    plays = [a for a in actions if a.kind == "tiro"]
    if "envido" in by_kind and strength >= _BET_AT:
        return by_kind["envido"]
    if not plays:
        return actions[0]
    trick = [Card.parse(c) for _, c in v["trick"]]
    if not trick:  # leading: the strongest card
        return max(plays, key=lambda a: _order(a.cards[0], vira, k))
    best = envite.trick_winner(trick, vira, k)
    partner_holds = v["trick"][best][0] % 2 == team
    cheapest = sorted(plays, key=lambda a: _order(a.cards[0], vira, k))
    if not partner_holds:
        for a in cheapest:  # the cheapest card that takes the trick
            if envite.trick_winner([*trick, a.cards[0]], vira, k) == len(trick):
                return a
    return cheapest[0]


# --------------------------------------------------------------------------- matches


def _opponent(kind: str) -> Player:
    def random_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return rng.choice(envite.legal_actions(s, seat))

    def rules(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return rules_player(envite.view(s, seat).to_dict(), envite.legal_actions(s, seat))

    def baseline_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return ai.baseline(envite.view(s, seat), envite.legal_actions(s, seat), rng)

    def facil_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return ai.choose(envite.view(s, seat), envite.legal_actions(s, seat), rng, "facil")

    return {
        "random": random_player,
        "rules": rules,
        "baseline": baseline_player,
        "facil": facil_player,
    }[kind]


def _signal(
    s: envite.EnviteState, levels: dict[int, str], rng: random.Random
) -> envite.EnviteState:
    """Every computer seat (its team's level in ``levels``) makes the señas it wants now."""
    for seat in range(s.players):
        level = levels.get(seat % 2)
        if level is None or seat == s.ghost:
            continue
        offered = envite.legal_senas(s, seat)
        if offered:
            for sena in ai.choose_senas(envite.view(s, seat), offered, rng, level):
                s = envite.apply(s, seat, sena).state
    return s


def _match(
    players: int,
    level: str,
    other: Player,
    against: str,
    deal: int,
    ai_team: int,
    senas: bool,
    chicos: int,
    rng: random.Random,
    times: list[float],
) -> bool:
    """One match on the deals of seed ``deal``, the AI as ``ai_team``: whether the AI won."""
    levels = {ai_team: level} if senas else {}
    if senas and against == "facil":
        levels[1 - ai_team] = "facil"
    options = envite.Options(chicos=cast(Literal[1, 2, 3, 4], chicos), sinsenas=not senas)
    s = envite.new_game(players=players, options=options, seed=deal)
    while not s.is_over:
        if levels:
            s = _signal(s, levels, rng)
        seat = s.to_act[0]
        if seat % 2 == ai_team:
            start = time.perf_counter()
            action = ai.choose(envite.view(s, seat), envite.legal_actions(s, seat), rng, level)
            times.append(time.perf_counter() - start)
        else:
            action = other(s, seat, rng)
        s = envite.apply(s, seat, action).state
    return s.winner == ai_team


def _matches(job: tuple[int, str, str, int, int, bool, int]) -> tuple[int, int, list[float]]:
    """Play the deals ``seed .. seed + count - 1`` twice each, seats swapped; return (AI
    matches won, matches, AI decision times in seconds)."""
    players, level, against, seed, count, senas, chicos = job
    other = _opponent(against)
    rng = random.Random(seed)
    wins = 0
    times: list[float] = []
    for deal in range(seed, seed + count):
        for ai_team in (0, 1):
            wins += _match(players, level, other, against, deal, ai_team, senas, chicos, rng, times)
    return wins, 2 * count, times


def run(
    n: int,
    level: str = "normal",
    seed: int = 1,
    processes: int = 2,
    senas: bool = True,
    chicos: int = 2,
    sizes: Sequence[int] = (4, 6),
    against: Sequence[str] = ("random", "rules"),
) -> list[Row]:
    """Rows (label, figure) for about ``n`` matches per match-up (``n // 2`` deals, each played
    with the seats both ways), each of ``chicos`` chicos to win (``senas``: the computer seats
    make señas, as at a default table)."""
    rows: list[Row] = []
    times: list[float] = []
    unit = "chicos" if chicos == 1 else f"games of {chicos} chicos"
    matchups = [(p, a) for p in sizes for a in against if not (level == "facil" == a)]
    deals = max(1, n // 2)
    with ProcessPoolExecutor(processes) as pool:
        for players, other in matchups:
            chunks = max(1, processes * 4)
            counts = [deals // chunks + (1 if i < deals % chunks else 0) for i in range(chunks)]
            jobs = []
            start = seed * 1_000_003 + players * 10_007
            for size in counts:
                if size:
                    jobs.append((players, level, other, start, size, senas, chicos))
                    start += size
            wins = total = 0
            for w, c, t in pool.map(_matches, jobs):
                wins += w
                total += c
                times.extend(t)
            lo, hi = wilson(wins, total)
            rows.append(
                (
                    f"envite {players}p AI {level} team vs {other} team: {unit} won"
                    + ("" if senas else " (sin señas)"),
                    f"{wins / total:.1%} [{lo:.1%}, {hi:.1%}] of {total}",
                )
            )
    rows.append(
        (
            f"envite AI {level} decision time p50 / p99",
            f"{percentile(times, 0.5) * 1000:.2f} ms / {percentile(times, 0.99) * 1000:.2f} ms",
        )
    )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="matches per match-up")
    parser.add_argument(
        "--chicos",
        type=int,
        choices=(1, 2, 3, 4),
        default=2,
        help="chicos to win a match (2: a default game)",
    )
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6], choices=range(4, 13, 2))
    parser.add_argument("--against", nargs="+", default=["random", "rules"], choices=OPPONENTS)
    parser.add_argument("--level", default="normal", choices=ai.LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sinsenas", action="store_true", help="no señas (table option)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = run(
        args.n,
        args.level,
        args.seed,
        senas=not args.sinsenas,
        chicos=args.chicos,
        sizes=args.players,
        against=args.against,
    )
    for label, figure in rows:
        print(f"{label:<58} {figure}")
    print(f"{'elapsed':<58} {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
