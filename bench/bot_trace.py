"""One hash of seeded games played through the bot's table flow, to show that a change to the
bot keeps what every player sees and what is stored, byte for byte.

Each game (Mus, envite of 4 and 6, piedras of 3 and 4, in Spanish and English, with people and
computer seats) is played from a seed by random legal moves, some typed, some refused, some
left to the timer; Mus and envite of 6 are played again with the turn nudge on (the people to
act nudged in private, as the bot's settings do by default). After every update the trace
records the stored document (``model_dump_json``), the lobby or table message and every seat's
private message as the publisher would post them (text and buttons), and the outbox. Run it
on two checkouts::

    PYTHONPATH=. python bench/bot_trace.py [--games 12] [--out trace.txt]

``--out`` writes the trace itself (one JSON line per update), to find where two traces differ.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import present
from bot.flow import discard, moves
from bot.table import Table
from engine.core import IllegalAction

SETUPS = (
    ("mus", {}, 4, 1),
    ("envite", {"chicos": 1}, 4, 1),
    ("envite", {"chicos": 1}, 6, 2),
    ("piedras", {}, 3, 0),
    ("piedras", {}, 4, 1),
)
"""Game, options, seats, computer seats among them."""
NUDGED = (("mus", {}, 4, 1), ("envite", {"chicos": 1}, 6, 2))
"""Setups played again with the turn nudge on (:data:`NUDGE_AFTER`) and each table message
posted as the publisher would (a nudge links to it): the people to act are nudged in private."""
NUDGE_AFTER = 20.0
TIMEOUT = 60.0
PAUSE = (1.5, 3.0)


def _markup(markup: Any) -> Any:
    return None if markup is None else markup.to_dict()


def _shown(table: Table) -> dict[str, Any]:
    """What the group and each seat would see now, and what is stored."""
    seen: dict[str, Any] = {"doc": table.model_dump_json()}
    if table.status == "lobby":
        text, markup = present.lobby_view(table)
        seen["lobby"] = [text, _markup(markup)]
        return seen
    text, markup = present.table_view(table)
    seen["table"] = [text, _markup(markup)]
    if table.status == "playing":
        hands = []
        for seat, player in enumerate(table.players):
            if not player.computer:
                hand_text, hand_markup = present.hand_view(table, seat)
                hands.append([seat, hand_text, _markup(hand_markup)])
        seen["hands"] = hands
    seen["outbox"] = [[n.seq, n.to, n.text] for n in table.shown.outbox]
    return seen


def _person_move(table: Table, seat: int, rng: random.Random, now: float) -> Table:
    """One move of a person: a discard by its buttons, a typed or a pressed action (through the
    flow's immutable verb, as the handlers), at times a refused one (the trace records the
    refusal); the table after it."""
    game = table.adapter
    state = table.engine_state()
    if game.features.in_discard(state):
        cards = game.seat_cards(table, seat)
        for card in rng.sample(cards, rng.randint(1, min(len(cards), 2))):
            discard.toggle(table, seat, card, True, table.discard_round)
        present.post(table, discard.confirm(table, seat, table.discard_round, now, TIMEOUT, PAUSE))
        return table
    legal = game.legal_actions(state, seat)
    if rng.random() < 0.05:
        after, step = moves.act(table, seat, "quiero 7", now, TIMEOUT, PAUSE)
    else:
        action = rng.choice([a for a in legal if a.kind != "ordago"] or legal)
        typed = str(action) if rng.random() < 0.5 else action
        after, step = moves.act(table, seat, typed, now, TIMEOUT, PAUSE)
    present.post(after, step)
    return after


def _game(
    index: int, game: str, options: dict[str, Any], seats: int, computers: int, nudge: float = 0
) -> Iterator[Any]:
    lang = "es" if index % 2 == 0 else "en"
    rng = random.Random(f"{game}:{seats}:{index}:{nudge}" if nudge else f"{game}:{seats}:{index}")
    table = Table(chat_id=-1000 - index, creator=1, tid=f"t{index}", game=game, lang=lang)
    table.nudge_after = nudge
    posted = itertools.count(100)
    table.options = dict(options)
    people = seats - computers
    for user in range(1, people + 1):
        table.join(user, f"Jugador {user} <&>")
        yield {"joined": user, **_shown(table)}
    for _ in range(computers):
        table.add_computer()
    now = 1000.0
    present.post(table, moves.start(table, index + 1, now, TIMEOUT, PAUSE))
    yield {"started": index + 1, **_shown(table)}
    for _ in range(4000):
        if table.status != "playing":
            break
        if nudge and table.shown.table_msg is None:
            table.shown.table_msg_posted(table.hand, next(posted))  # as the publisher records it
        now += rng.choice([0.5, 2.0, 5.0])
        to_act = [s for s in table.to_act() if not table.players[s].computer]
        if to_act and rng.random() < 0.9:
            seat = rng.choice(to_act)
            try:
                table = _person_move(table, seat, rng, now)
                yield {"seat": seat, **_shown(table)}
            except IllegalAction as exc:
                yield {"seat": seat, "refused": [exc.reason, sorted(map(str, exc.params))]}
            continue
        if table.deadline is None:
            break
        now = max(now, table.deadline)
        step = moves.fire_timer(table, now, TIMEOUT, PAUSE)
        present.post(table, step)
        yield {
            "timer": now,
            **({"nudged": len(step.nudges)} if step.nudges else {}),
            **_shown(table),
        }
        table.shown.outbox = []  # posted: the publisher empties it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games of each setup")
    parser.add_argument("--out", type=Path, help="write the trace, one JSON line per update")
    args = parser.parse_args()
    total = hashlib.sha256()
    out = args.out.open("w") if args.out else None
    updates = 0
    nudges = 0
    setups = [(*setup, 0.0) for setup in SETUPS] + [(*setup, NUDGE_AFTER) for setup in NUDGED]
    for game, options, seats, computers, nudge in setups:
        digest = hashlib.sha256()
        for index in range(args.games):
            for step in _game(index, game, options, seats, computers, nudge):
                line = json.dumps(step, sort_keys=True, ensure_ascii=False)
                digest.update(line.encode())
                updates += 1
                nudges += step.get("nudged", 0)
                if out is not None:
                    out.write(line + "\n")
        total.update(digest.digest())
        nudged = f", nudged after {nudge:.0f} s" if nudge else ""
        print(f"{game:8} {seats} seats{nudged}: {digest.hexdigest()[:16]}")
    print(f"{updates} updates ({nudges} nudges), trace {total.hexdigest()[:16]}")
    if out is not None:
        out.close()


if __name__ == "__main__":
    main()
