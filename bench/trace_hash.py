"""One hash of whole traces of seeded random games, to show that a change to an engine keeps
its rules, events, stored states and views byte for byte.

Every step records the state's stored form (``to_json``), each seat's legal actions and view
(and the public view), the move, and the transition's events (kind, data, audience) or the
refusal; random moves include señas, moves given as text and some refused moves. States also
round-trip through ``from_json`` and ``pickle``. Run it on two checkouts and compare::

    PYTHONPATH=. python bench/trace_hash.py [--games 400] [--out trace.txt]

``--out`` writes the trace itself (one JSON line per step), to find where two traces differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import envite, mus, piedras
from engine.core import Action, IllegalAction, Transition


def _events(t: Transition[Any]) -> list[Any]:
    return [[e.kind, e.data, None if e.to is None else sorted(e.to)] for e in t.events]


def _play(game: Any, name: str, state: Any, players: int, rng: random.Random) -> Iterator[Any]:
    """One game's steps, as JSON-plain lists."""
    senas = getattr(game, "legal_senas", None)
    for _ in range(3000):
        if state.is_over:
            return
        row: list[Any] = [name, game.to_json(state)]
        assert game.from_json(game.to_json(state)) == state
        assert pickle.loads(pickle.dumps(state)) == state
        row.append([[str(a) for a in game.legal_actions(state, s)] for s in range(players)])
        row.append([game.view(state, s).to_dict() for s in [*range(players), None]])
        seat = rng.choice(state.to_act)
        actions = game.legal_actions(state, seat)
        move: Action | str
        roll = rng.random()
        if senas is not None and roll < 0.08:
            mover = rng.randrange(players)
            options = senas(state, mover)
            if options:
                seat, actions = mover, options
        if roll > 0.97:  # a refused move, most likely: another seat, or any word
            seat = rng.randrange(players)
            move = rng.choice(["paso", "quiero", "envido 7", "mus", "descarto 1o", "ordago"])
        elif roll > 0.9:
            move = str(rng.choice(actions))
        else:
            move = rng.choice(actions)
        row.append([seat, str(move)])
        try:
            t = game.apply(state, seat, move)
        except IllegalAction as exc:
            row.append(["refused", exc.reason, exc.params])
            yield row
            continue
        if rng.random() < 0.5:  # events read before or after the state
            row.append(_events(t))
            state = t.state
        else:
            state = t.state
            row.append(_events(t))
        yield row
    raise AssertionError(f"{name} game not over after 3000 steps")


def traces(games: int) -> Iterator[Any]:
    for seed in range(games):
        rng = random.Random(seed)
        yield from _play(mus, "mus", mus.new_game(seed=seed), 4, rng)
        if seed % 4 == 0:
            players = (4, 6, 8)[seed % 3]
            start = envite.new_game(players=players, options=envite.Options(chicos=2), seed=seed)
            yield from _play(envite, "envite", start, players, rng)
        if seed % 4 == 2:
            players = (4, 5, 8)[seed % 3]
            yield from _play(piedras, "piedras", piedras.new_game(players=players, seed=seed),
                             players, rng)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    digest = hashlib.sha256()
    steps = 0
    out = args.out.open("w") if args.out else None
    for row in traces(args.games):
        line = json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        digest.update(line.encode())
        digest.update(b"\n")
        if out:
            out.write(line + "\n")
        steps += 1
    print(f"{digest.hexdigest()}  {steps} steps, {args.games} seeds")


if __name__ == "__main__":
    main()
