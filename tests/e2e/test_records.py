"""End to end: a finished vaca is kept: it appears in /historial and /ranking, /estadisticas
and /mano show it, and /ranking foto sends a picture (sendPhoto through the fake Bot API)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, PREFIX, open_table, ordago_policy, play_hand
from fake_telegram import FakeTelegram, png_size

from locales import t as locale_t

pytestmark = pytest.mark.e2e


async def test_a_finished_vaca_appears_in_history_and_ranking(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    ana = users[0]
    state = await table.state()
    hands = 0
    while not state.is_over:
        hands += 1
        assert hands <= 6
        state = await play_hand(
            table, random.Random(hands), mus_rounds_wanted=0, lance_policy=ordago_policy
        )
    await tg.settle()
    doc = await table.doc()
    assert doc["status"] == "over" and not doc.get("rec_out")  # stored, then cleared
    tid = doc["tid"]
    assert await redis.exists(f"{PREFIX}:rec:game:{group.id}:{tid}") == 1
    assert await redis.ttl(f"{PREFIX}:rec:game:{group.id}:{tid}") == -1  # kept for good
    winners = [u for i, u in enumerate(users) if i % 2 == state.winner]

    ana.send(group, "/historial")
    await tg.settle()
    history = group.bot_messages()[-1].text
    assert tid in history and f"manos: {hands}" in history
    pair = locale_t(LANG, "records.and", a=winners[0].first_name, b=winners[1].first_name)
    assert "🏆 " + pair in history

    ana.send(group, "/ranking")
    await tg.settle()
    ranking = group.bot_messages()[-1].text
    assert "Ranking de Mus" in ranking and "partidas: 1" in ranking
    top = ranking.split("\n")[1]
    assert top.startswith("1. ") and any(u.first_name in top for u in winners)

    winners[0].send(group, "/estadisticas")
    await tg.settle()
    stats = group.bot_messages()[-1].text
    assert "vacas: 1 (ganadas 1)" in stats and f"manos: {hands}" in stats

    ana.send(group, f"/mano {tid} 1")
    await tg.settle()
    replay = group.bot_messages()[-1].text
    assert replay.startswith("🔁 Mano 1") and "Ana" in replay

    mark = len(tg.calls)
    ana.send(group, "/ranking foto")
    await tg.wait_for(  # drawing the picture may take a while on a loaded machine
        lambda: [c for c in tg.calls[mark:] if c.method.lower() == "sendphoto"] or None,
        timeout=30,
        what="the ranking picture",
    )
    await tg.settle()
    photos = [c for c in tg.calls[mark:] if c.method.lower() == "sendphoto"]
    assert len(photos) == 1 and photos[0].ok
    picture = group.bot_messages()[-1]
    assert picture.photo is not None and png_size(picture.photo) == (800, 450)
    assert picture.text == "Ranking de Mus"
