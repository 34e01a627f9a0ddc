"""Playing from the group (issue 24's aims): people who never open a private chat with the bot.

    REDIS_URL=redis://127.0.0.1:6379/0 nice -n 10 .venv/bin/python bench/group_play.py \
        [--tables 3] [--hands 4] [--rounds 3] [--seed 1] [--private]

Each Mus table is four people who sit down without a private chat and play ``--hands`` hands
(the first of each with a round of mus): every discard on the player's ephemeral hand ("🂠 Mis
cartas", its toggles, "descarto"), every bet on the table message's buttons. Each envite table
(four players, one chico) plays ``--rounds`` rounds with every card pressed on the player's
ephemeral hand. Through the whole stack: the fake Bot API of the tests, the real
``Application``, Redis at ``REDIS_URL`` (fresh chat ids; the keys are deleted at the end).

Each player reads his hand before he moves: he presses "Mis cartas" only when his ephemeral
hand does not show his cards as they are now (and, in a discard, their toggles).

Printed, per Mus hand and per envite card: chat switches (messages the bot wrote to, or a player
wrote in, a private chat), the players' posts in the group, new group messages, Bot API calls
(all but getUpdates, by method; from the first move, the start press left out), and whether
every card played shows in some version of a group message. ``--private``: the same Mus moves
by people who opened a private chat first, each discard on the private hand message (the way
before issue 24), to compare the calls.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

import polling  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from driver import PREFIX, MusTable, card_mentions  # noqa: E402
from envite_driver import EnviteTable  # noqa: E402
from fake_telegram import Call, Chat, FakeTelegram, User  # noqa: E402
from group_driver import (  # noqa: E402
    play_envite_round_from_the_group,
    play_mus_hand_from_the_group,
    seated_without_private_chats,
)


def switches(users: list[User]) -> int:
    """Messages in the players' private chats, either way (each one a trip there)."""
    return sum(len(u.private.bot_messages()) + len(u.private.user_messages()) for u in users)


def calls_of(tg: FakeTelegram, since: int) -> list[Call]:
    return [c for c in tg.calls[since:] if c.method.lower() != "getupdates"]


def unseen_cards(group: Chat, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that no version of any group message shows."""
    texts = " ".join(v for m in group.bot_messages(include_deleted=True) for v in m.all_texts())
    seen = set(card_mentions(texts, cards))
    return [c for c in cards if c not in seen]


async def run(args: argparse.Namespace) -> int:
    from bot.app import build_application
    from bot.settings import Settings

    rnd = random.Random()
    tg = FakeTelegram(
        first_group_id=-1007000000000 - rnd.randrange(10**8) * 1000,
        first_user_id=7_000_000_000 + rnd.randrange(10**8) * 1000,
        first_update_id=rnd.randrange(10**9, 2 * 10**9),
    ).start()
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    reader, client = aioredis.Redis.from_url(url), aioredis.Redis.from_url(url)
    settings = Settings(
        telegram_bot_token=tg.tokens[0],
        telegram_api_url=tg.base_url,
        turn_timeout=600.0,
        timer_tick=1.0,
        redis_prefix=PREFIX,
    )
    app = build_application(settings, redis=client)
    await polling.start(app)
    mus_figures: Counter[str] = Counter()
    envite_figures: Counter[str] = Counter()
    methods: Counter[str] = Counter()
    try:
        for index in range(args.tables):
            rng = random.Random(args.seed * 1000 + index)
            users, group, _ = await seated_without_private_chats(tg, reader, private=args.private)
            table = MusTable(tg, group, users, reader)
            await tg.settle(quiet=0.1)  # the start press's answer and lobby edit are no hand's
            dms = switches(users)
            mark, posted, posts = tg.mark(), len(group.bot_messages()), len(group.user_messages())
            for hand in range(args.hands):
                state = await play_mus_hand_from_the_group(
                    tg, table, rng, mus_rounds=1 if hand == 0 else 0, private=args.private
                )
                mus_figures["hands"] += 1
                if state.is_over:
                    break
            await tg.settle(quiet=0.1)
            calls = calls_of(tg, mark)
            methods.update(c.method for c in calls)
            mus_figures["calls"] += len(calls)
            mus_figures["group messages"] += len(group.bot_messages()) - posted
            mus_figures["posts"] += len(group.user_messages()) - posts
            mus_figures["switches"] += switches(users) - dms
            if args.private:
                continue

            users, group, _ = await seated_without_private_chats(tg, reader, game="envite")
            envite = EnviteTable(tg, group, users, reader)
            await tg.settle(quiet=0.1)
            mark = tg.mark()
            posted, posts = len(group.bot_messages()), len(group.user_messages())
            for _ in range(args.rounds):
                state, played = await play_envite_round_from_the_group(tg, envite, rng)
                envite_figures["rounds"] += 1
                envite_figures["cards"] += len(played)
                await tg.settle(quiet=0.1)  # the round's result is posted
                unseen = unseen_cards(group, played)
                envite_figures["cards seen"] += len(played) - len(unseen)
                if unseen:
                    print(f"not shown in the group: {unseen} of {played}")
                if state.is_over:
                    break
            await tg.settle(quiet=0.1)
            envite_figures["calls"] += len(calls_of(tg, mark))
            envite_figures["group messages"] += len(group.bot_messages()) - posted
            envite_figures["posts"] += len(group.user_messages()) - posts
            envite_figures["switches"] += switches(users)
    finally:
        await polling.stop(app)
        ids = [str(c) for c in tg.chats]
        keys = [k async for k in reader.scan_iter(match=f"{PREFIX}:*", count=1000)]
        doomed = [k for k in keys if any(i in k.decode() for i in ids)]
        for i in range(0, len(doomed), 500):
            await reader.delete(*doomed[i : i + 500])
        await reader.zrem(f"{PREFIX}:timers", *ids)
        await reader.zrem(f"{PREFIX}:pub", *ids)
        await reader.aclose()
        await client.aclose()
        tg.stop()
    hands, rounds = max(mus_figures["hands"], 1), max(envite_figures["rounds"], 1)
    cards = max(envite_figures["cards"], 1)
    print(f"Mus                      {args.tables} tables, {mus_figures['hands']} hands")
    print(f"  chat switches          {mus_figures['switches'] / hands:.2f} per hand (aim 0)")
    print(f"  players' group posts   {mus_figures['posts'] / hands:.2f} per hand")
    print(f"  new group messages     {mus_figures['group messages'] / hands:.2f} per hand (<= 2)")
    print(f"  Bot API calls          {mus_figures['calls'] / hands:.1f} per hand (<= 28.8)")
    by = ", ".join(f"{m} {n / hands:.2f}" for m, n in methods.most_common())
    print(f"    by method            {by}")
    if args.private:
        return 0
    print(f"envite of 4              {args.tables} tables, {envite_figures['rounds']} rounds")
    print(f"  chat switches          {envite_figures['switches'] / rounds:.2f} per round (aim 0)")
    print(f"  players' posts         {envite_figures['posts'] / cards:.2f} per card (aim 0)")
    print(f"  new group messages     {envite_figures['group messages'] / rounds:.2f} per round")
    print(f"  cards shown in group   {envite_figures['cards seen']} of {envite_figures['cards']}")
    print(f"  Bot API calls          {envite_figures['calls'] / cards:.2f} per card")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--hands", type=int, default=4, help="Mus hands per table")
    parser.add_argument("--rounds", type=int, default=3, help="envite rounds per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--private",
        action="store_true",
        help="the same Mus moves by people who opened a private chat first, each discard on "
        "the private hand message (the way before issue 24): what the ephemeral hand saves",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
