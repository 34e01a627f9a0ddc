"""Records: figures after scripted games, written once, bounded history, /olvidame, ratings,
pictures, and the commands that show them (stub Bot, in-memory and fakeredis stores)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest

import engine.mus as mus
from bot.games.registry import GAMES
from bot.handlers import records as handlers
from bot.records import book, chart, rating
from bot.records.flush import store_pending
from bot.records.model import ANONYMOUS_ID, GameRecord, HandLog, RecordedPlayer, pair_key
from bot.records.replay import hand_text
from bot.records.store import Records, RedisRecords, SQLiteRecords, open_records
from bot.table import Table
from locales import t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted
from redis.asyncio.cluster import RedisCluster
from stores import connect, sqlite_store
from test_handlers import GROUP, Harness

from bot.store import SQLiteStore
from tests.redis_cluster import cluster_available

ANA, BEA, CRIS, DANI = 101, 102, 103, 104
PLAYERS = [(ANA, "Ana"), (BEA, "Bea"), (CRIS, "Cris"), (DANI, "Dani")]
# Pair 0 = Ana + Cris (seats 0, 2); pair 1 = Bea + Dani (seats 1, 3).
REYES = "12o 12c 12e 3b"  # three reyes and a 3 (a rey with 8 reyes): the best grande here


def mus_table(hands: list[str], tid: str, chat: int = GROUP, now: float = 1000.0) -> Table:
    """A one-juego vaca to 30 with an explicit first deal."""
    table = Table(chat_id=chat, creator=ANA, tid=tid, game="mus")
    table.options = GAMES["mus"].parse_options(["30", "juegos=1"])
    for uid, name in PLAYERS:
        table.join(uid, name)
    posted.start(table, 1, now, 60)
    state = mus.new_game(options=mus.Options(**table.options), hands=hands, seed=1)
    table.state = mus.to_json(state)
    book.open_hand(table)
    return table


def play(table: Table, plays: list[tuple[int, str]], now: float = 1100.0) -> None:
    for seat, text in plays:
        posted.play(table, seat, text, now, 60)


def vaca_to_bea(tid: str = "g1") -> Table:
    """Bea calls an órdago at grande holding three reyes; Ana wants it: Bea and Dani win."""
    table = mus_table(["4o 5c 6e 7b", REYES, "4c 5e 6b 7o", "1o 1c 2e 2b"], tid)
    play(table, [(0, "corto"), (0, "paso"), (1, "ordago"), (0, "quiero")])
    return table


def vaca_to_ana(tid: str = "g2") -> Table:
    """Ana calls an órdago with three reyes and Bea wants it: Ana and Cris win."""
    table = mus_table([REYES, "4o 5c 6e 7b", "1o 1c 2e 2b", "4c 5e 6b 7o"], tid)
    play(table, [(0, "corto"), (0, "ordago"), (1, "quiero")])
    return table


async def store_all(records: Records, table: Table) -> None:
    """What the publisher does with the document's pending records."""
    for item in table.rec_out:
        if item.hand:
            await records.add_hand(
                table.chat_id, table.tid, item.hand, HandLog(**item.doc).model_dump_json()
            )
        else:
            await records.add_game(GameRecord.model_validate(item.doc))


@pytest.fixture(
    params=["sqlite", "fakeredis"] + (["cluster", "valkey"] if cluster_available() else [])
)
async def records(request: pytest.FixtureRequest) -> AsyncIterator[Records]:
    if request.param == "sqlite":
        yield SQLiteRecords(sqlite_store())
    elif request.param == "fakeredis":
        yield RedisRecords(fakeredis.FakeAsyncRedis(), prefix="test")
    else:
        async with cluster_records(request, valkey=request.param == "valkey") as made:
            yield made


@contextlib.asynccontextmanager
async def cluster_records(
    request: pytest.FixtureRequest, keep: int = 200, *, valkey: bool = False
) -> AsyncIterator[Records]:
    """Records on the session's Redis (or Valkey) Cluster, under a prefix of their own (removed
    after)."""
    url = request.getfixturevalue("valkey_cluster_url" if valkey else "redis_cluster_url")
    client = RedisCluster.from_url(url)
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    try:
        yield RedisRecords(client, prefix=prefix, keep=keep)
    finally:
        async for key in client.scan_iter(match=f"{prefix}:*"):
            await client.delete(key)
        await client.aclose()


# ---- what a game adds -------------------------------------------------------------------------


def test_the_table_queues_each_hand_and_the_game_once_over() -> None:
    table = vaca_to_bea()
    assert table.status == "over" and table.rec_hand is None
    assert [p.hand for p in table.rec_out] == [1, 0]
    record = GameRecord.model_validate(table.rec_out[1].doc)
    assert record.places == [1, 0, 1, 0] and record.hands == 1
    assert [(p.id, p.name, p.team) for p in record.players] == [
        (ANA, "Ana", 0), (BEA, "Bea", 1), (CRIS, "Cris", 0), (DANI, "Dani", 1)
    ]  # fmt: skip
    assert record.started == 1000.0 and record.ended == 1100.0
    # Hand-computed: everyone played one hand; Bea's pair won it, its juego and the grande;
    # Bea called one órdago and won it.
    assert record.tally == {
        "0": {"hands": 1},
        "1": {"hands": 1, "hands_won": 1, "juegos": 1, "lance_grande": 1, "ordagos": 1,
              "ordagos_won": 1},
        "2": {"hands": 1},
        "3": {"hands": 1, "hands_won": 1, "juegos": 1, "lance_grande": 1},
    }  # fmt: skip


async def test_statistics_after_scripted_games_equal_hand_computed_figures(
    records: Records,
) -> None:
    await store_all(records, vaca_to_bea("g1"))
    await store_all(records, vaca_to_ana("g2"))
    await store_all(records, vaca_to_bea("g3"))
    stats = await records.stats(GROUP, "mus")
    assert stats["*:games"] == 3 and stats["*:hands"] == 3
    assert (stats[f"{BEA}:games"], stats[f"{BEA}:won"]) == (3, 2)
    assert (stats[f"{ANA}:games"], stats[f"{ANA}:won"]) == (3, 1)
    assert stats[f"{BEA}:ordagos"] == 2 and stats[f"{BEA}:ordagos_won"] == 2
    assert stats[f"{ANA}:ordagos"] == 1 and stats[f"{ANA}:ordagos_won"] == 1
    assert stats[f"{DANI}:juegos"] == 2 and stats[f"{CRIS}:juegos"] == 1
    assert stats[f"{DANI}:lance_grande"] == 2 and f"{DANI}:ordagos" not in stats
    assert stats[f"{ANA}:hands"] == 3 and stats[f"{ANA}:hands_won"] == 1
    pairs = await records.pairs(GROUP, "mus")
    assert pairs == {
        f"{pair_key(ANA, CRIS)}:games": 3,
        f"{pair_key(ANA, CRIS)}:won": 1,
        f"{pair_key(BEA, DANI)}:games": 3,
        f"{pair_key(BEA, DANI)}:won": 2,
    }
    assert await records.names(GROUP) == {ANA: "Ana", BEA: "Bea", CRIS: "Cris", DANI: "Dani"}
    assert [g.id for g in await records.games(GROUP)] == ["g3", "g2", "g1"]
    assert await records.hand_numbers(GROUP, "g2") == [1]


async def test_a_game_recorded_twice_or_by_two_processes_at_once_counts_once(
    records: Records,
) -> None:
    table = vaca_to_bea()
    record = GameRecord.model_validate(table.rec_out[-1].doc)
    results = await asyncio.gather(*(records.add_game(record) for _ in range(4)))
    assert sorted(results) == [False, False, False, True]
    await store_all(records, table)  # the publisher again (a re-delivered update, a retry)
    stats = await records.stats(GROUP, "mus")
    assert stats["*:games"] == 1 and stats[f"{BEA}:won"] == 1
    assert len(await records.games(GROUP)) == 1


async def test_the_publisher_stores_the_pending_records_once_and_clears_them() -> None:
    h = Harness()
    table = vaca_to_bea()
    await h.store.create(GROUP, table.model_dump_json(exclude_defaults=True))
    other = type(h.svc)(h.svc.settings, connect(h.store), clock=h.svc.clock)
    h.svc.records, other.records = open_records(h.store), open_records(other.store)
    # Two processes publish the same document at once: the game counts once.
    await asyncio.gather(store_pending(h.svc, table), store_pending(other, table))
    loaded = await h.store.load(GROUP)
    assert loaded is not None and Table.model_validate_json(loaded.doc).rec_out == []
    assert (await h.svc.records.stats(GROUP, "mus"))["*:games"] == 1


async def test_the_bounded_history_drops_the_oldest_and_keeps_the_aggregates(
    request: pytest.FixtureRequest,
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        kept = [
            SQLiteRecords(sqlite_store(), keep=3),
            RedisRecords(fakeredis.FakeAsyncRedis(), keep=3),
        ]
        if cluster_available():
            kept.append(await stack.enter_async_context(cluster_records(request, keep=3)))
        for records in kept:
            await _drops_the_oldest(records)


async def _drops_the_oldest(records: Records) -> None:
    for i in range(5):
        await store_all(records, vaca_to_bea(f"g{i}"))
    assert [g.id for g in await records.games(GROUP, 10)] == ["g4", "g3", "g2"]
    assert await records.hand_numbers(GROUP, "g0") == []  # its hands went with it
    assert await records.hand_numbers(GROUP, "g4") == [1]
    stats = await records.stats(GROUP, "mus")
    assert stats["*:games"] == 5 and stats[f"{BEA}:won"] == 5


async def test_forgetting_a_user_removes_him_everywhere(records: Records) -> None:
    await store_all(records, vaca_to_bea("g1"))
    await store_all(records, vaca_to_ana("g2"))
    other_group = vaca_to_bea("g9")
    other_group.chat_id = GROUP - 1
    other_group.rec_out = [
        p.model_copy(update={"doc": {**p.doc, "chat": GROUP - 1}}) if p.hand == 0 else p
        for p in other_group.rec_out
    ]
    await store_all(records, other_group)
    assert await records.forget(BEA) == 2
    for chat in (GROUP, GROUP - 1):
        stats = await records.stats(chat, "mus")
        assert not [k for k in stats if k.startswith(f"{BEA}:")]
        assert stats["*:games"] >= 1 and f"{DANI}:games" in stats  # the results stay
        assert not [k for k in await records.pairs(chat, "mus") if str(BEA) in k]
        assert BEA not in await records.ratings(chat, "mus")
        assert BEA not in await records.names(chat)
        for game in await records.games(chat):
            seated = game.players[1]
            assert (seated.id, seated.name) == (ANONYMOUS_ID, "")
            assert game.players[3].name == "Dani"
            assert "Bea" not in game.model_dump_json()
    assert await records.forget(BEA) == 0


# ---- ratings ------------------------------------------------------------------------------------


def test_ratings_move_the_right_way() -> None:
    new = rating.NEW
    (w1, w2), (l1, l2) = rating.rate([[new, new], [new, new]], [0, 1])
    assert rating.shown(w1) > rating.shown(new) > rating.shown(l1)
    assert w1 == w2 and l1 == l2  # partners share the result
    strong: rating.Rating = (32.0, 4.0)
    weak: rating.Rating = (18.0, 4.0)
    # Beating a stronger pair gains more than beating a weaker one.
    (upset, _), _ = rating.rate([[weak, weak], [strong, strong]], [0, 1])
    (expected, _), _ = rating.rate([[strong, strong], [weak, weak]], [0, 1])
    assert upset[0] - weak[0] > expected[0] - strong[0] > 0
    # Individual games (piedras): the winner up, the others down.
    a, b, c = rating.rate([[new], [new], [new]], [0, 1, 1])
    assert a[0][0] > new[0] > b[0][0] and b == c


async def test_stored_ratings_follow_the_results(records: Records) -> None:
    await store_all(records, vaca_to_bea("g1"))
    await store_all(records, vaca_to_bea("g2"))
    rates = await records.ratings(GROUP, "mus")
    assert rating.shown(rates[BEA]) > 1000 > rating.shown(rates[ANA])
    games = await records.games(GROUP)
    bea = [g.players[1].rating for g in reversed(games)]
    assert bea[0] is not None and bea[1] is not None and bea[1] > bea[0] > 1000


# ---- pictures ------------------------------------------------------------------------------------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_pictures_are_valid_pngs_of_sensible_size() -> None:
    names = [("Ana $x$", 1120), ("Bea", 1040), ("Cris", 980), ("Dani", 930)]
    for png in (
        chart.ranking_png("Ranking de Mus", names),
        chart.timeline_png("Ana: valoración", [(1, 1010, True), (2, 990, False), (3, 1030, True)]),
    ):
        assert _png_size(png) == (800, 450)
        assert 5_000 < len(png) < 200_000


# ---- every game records its games ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"), [("mus", 4), ("envite", 4), ("envite", 6), ("piedras", 4)]
)
async def test_random_games_of_every_game_are_recorded_and_replay(game: str, players: int) -> None:
    rnd = random.Random(7)
    records = SQLiteRecords(sqlite_store())
    table = Table(chat_id=GROUP, creator=1, tid="r1", game=game)
    for i in range(players):
        table.join(i + 1, f"P{i}")
    posted.start(table, 7, 0.0, 60)
    kept: dict[int, str] = {}
    while table.status == "playing":
        seat = rnd.choice(table.to_act())
        action = rnd.choice(table.adapter.legal_actions(table.engine_state(), seat))
        posted.play(table, seat, action, 1.0, 60)
        for item in table.rec_out:
            if item.hand:
                kept[item.hand] = HandLog(**item.doc).model_dump_json()
        await store_all(records, table)
        table.rec_out = []
    assert kept and sorted(kept) == list(range(1, max(kept) + 1))
    (record,) = await records.games(GROUP)
    assert record.hands == len(kept) and record.places.count(0) >= 1
    stats = await records.stats(GROUP, game)
    assert stats["*:games"] == 1 and stats["*:hands"] == len(kept)
    assert sum(stats.get(f"{i + 1}:won", 0) for i in range(players)) == record.places.count(0)
    # Every stored hand replays exactly, and only public events make its text.
    for n, doc in kept.items():
        text = hand_text("es", game, record.options, record.players, doc)
        assert text is None or isinstance(text, str)
        state, _ = book.replay(table.adapter, HandLog.model_validate_json(doc))
        assert table.adapter.hand_number(state) >= n


def test_mano_shows_exactly_what_the_group_saw_at_the_hand_end() -> None:
    """The replayed hand's text is the result message the group got then (only public events:
    the showdown's cards when the hand reached it, nothing else)."""
    for game, players in [("mus", 4), ("envite", 4), ("piedras", 5)]:
        rnd = random.Random(11)
        table = Table(chat_id=GROUP, creator=1, tid="r2", game=game)
        for i in range(players):
            table.join(i + 1, f"P{i}")
        posted.start(table, 11, 0.0, 60)
        compared = 0
        while table.status == "playing" and compared < 6:
            seat = rnd.choice(table.to_act())
            action = rnd.choice(table.adapter.legal_actions(table.engine_state(), seat))
            seen = dict(table.shown.unposted)  # (no table message here: a hand's end waits there)
            posted.play(table, seat, action, 1.0, 60)
            hands = [p for p in table.rec_out if p.hand]
            if not hands or table.shown.unposted == seen:
                table.rec_out = []
                continue
            players_ = [
                RecordedPlayer(id=p.user_id, name=p.name, seat=i)
                for i, p in enumerate(table.players)
            ]
            doc = HandLog(**hands[-1].doc).model_dump_json()
            text = hand_text("es", game, table.options, players_, doc)
            result = list(table.shown.unposted.values())[-1][1]
            assert text is not None and result.startswith(text)
            compared += 1
            table.rec_out = []
        assert compared >= 2


# ---- the commands ------------------------------------------------------------------------------


async def _played(h: Harness) -> None:
    h.svc.records = open_records(h.store)
    await store_all(h.svc.records, vaca_to_bea("g1"))
    await store_all(h.svc.records, vaca_to_ana("g2"))
    await store_all(h.svc.records, vaca_to_bea("g3"))


async def test_stats_ranking_history_and_hand_commands() -> None:
    h = Harness()
    await _played(h)
    await handlers.estadisticas(*h.command(BEA, "/estadisticas"))
    text = h.bot.group_sends()[-1]
    assert "📊 <b>Bea</b>" in text and "vacas: 3 (ganadas 2)" in text
    assert "órdagos echados: 2" in text and "lances ganados: grande 2" in text
    assert "pareja más habitual: Dani (2–1)" in text and "valoración: " in text
    assert "Bea y" not in text  # her own block names only her partner
    await handlers.estadisticas(*h.command(BEA, "/estadisticas cris"))
    assert "📊 <b>Cris</b>" in h.bot.group_sends()[-1]
    await handlers.estadisticas(*h.command(BEA, "/estadisticas Nadie"))
    assert h.bot.group_sends()[-1] == t("es", "records.stats.unknown", name="Nadie")
    await handlers.ranking(*h.command(ANA, "/ranking"))
    text = h.bot.group_sends()[-1]
    assert "Ranking de Mus" in text and "partidas: 3" in text
    assert text.index("Bea") < text.index("Ana") and "Bea y Dani: 2–1" in text
    assert "OpenSkill" in text
    await handlers.historial(*h.command(ANA, "/historial"))
    text = h.bot.group_sends()[-1]
    assert text.index("g3") < text.index("g2") < text.index("g1")
    assert "🏆 Bea y Dani · Ana y Cris" in text
    await handlers.mano(*h.command(ANA, "/mano g2 1"))
    text = h.bot.group_sends()[-1]
    assert "Mano 1" in text and "<b>Ana</b>" in text
    await handlers.mano(*h.command(ANA, "/mano g2 7"))
    assert t("es", "records.hand.not_found") in h.bot.group_sends()[-1]
    await handlers.mano(*h.command(ANA, "/mano"))
    assert h.bot.group_sends()[-1] == t("es", "records.hand.usage")
    await handlers.historial(*h.command(ANA, "/historial", chat_id=ANA))
    assert [c["text"] for k, c in h.bot.calls if c["chat_id"] == ANA][-1] == t(
        "es", "records.group_only"
    )


async def test_commands_before_any_game_say_so() -> None:
    h = Harness()
    h.svc.records = open_records(h.store)
    await handlers.ranking(*h.command(ANA, "/ranking"))
    await handlers.historial(*h.command(ANA, "/historial"))
    await handlers.estadisticas(*h.command(ANA, "/estadisticas"))
    assert h.bot.group_sends() == [
        t("es", "records.none"),
        t("es", "records.none"),
        t("es", "records.stats.nothing", name="Ana"),
    ]


async def test_forgetme_asks_first_then_forgets(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness()
    await _played(h)
    await handlers.olvidame(*h.command(BEA, "/olvidame"))
    assert h.bot.group_sends()[-1] == t("es", "records.forget.ask")
    assert BEA in await h.svc.records.names(GROUP)  # type: ignore[union-attr]
    await handlers.olvidame(*h.command(BEA, "/olvidame sí"))
    assert h.bot.group_sends()[-1] == t("es", "records.forget.done")
    await handlers.historial(*h.command(ANA, "/historial"))
    assert "Bea" not in h.bot.group_sends()[-1] and "anónimo y Dani" in h.bot.group_sends()[-1]


async def test_pictures_are_sent_on_request() -> None:
    h = Harness()
    await _played(h)
    sent: list[dict[str, Any]] = []

    async def send_photo(chat_id: int, photo: bytes, **kw: Any) -> Any:
        sent.append({"chat_id": chat_id, "photo": photo, **kw})
        return None

    h.bot.send_photo = send_photo  # type: ignore[attr-defined]
    await handlers.ranking(*h.command(ANA, "/ranking foto"))
    await handlers.estadisticas(*h.command(BEA, "/estadisticas foto"))
    assert [s["chat_id"] for s in sent] == [GROUP, GROUP]
    assert all(_png_size(s["photo"]) == (800, 450) for s in sent)
    assert sent[0]["caption"] == "Ranking de Mus"
    assert h.bot.group_sends() == []  # a picture instead of text


def test_a_game_played_by_the_timer_alone_is_recorded_hand_by_hand() -> None:
    table = Table(chat_id=GROUP, creator=1, tid="tm", game="mus")
    for uid, name in PLAYERS:
        table.join(uid, name)
    posted.start(table, 4, 0.0, 60)
    kept: list[int] = []
    while table.status == "playing" and table.deadline is not None:
        table.timeouts = 0  # keep the table alive: only the defaults play
        for player in table.players:  # and nobody handed over to a computer player
            player.misses = 0
        posted.fire_timer(table, table.deadline, 60)
        kept += [p.hand for p in table.rec_out if p.hand and p.hand not in kept]
    assert table.status == "over"
    assert kept == list(range(1, len(kept) + 1))
    record = GameRecord.model_validate(table.rec_out[-1].doc)
    assert record.hands == len(kept)


async def test_sqlite_records_survive_a_restart_and_are_shared_by_processes() -> None:
    """With SQLite the records are in the file: another process on it reads them, and so does the
    bot after a restart (issue 22: they were in the process's memory)."""
    store = sqlite_store()
    table = vaca_to_bea("g1")
    await store_all(open_records(store), table)
    other = SQLiteStore(store.path)
    assert [g.id for g in await open_records(other).games(GROUP)] == ["g1"]
    await store.aclose()
    await other.aclose()
    restarted = SQLiteStore(store.path)
    records = open_records(restarted)
    assert [g.id for g in await records.games(GROUP)] == ["g1"]
    assert (await records.stats(GROUP, "mus"))["*:games"] == 1
    assert await records.hand_numbers(GROUP, "g1") == [1]
    again = GameRecord.model_validate(table.rec_out[-1].doc)
    assert not await records.add_game(again)  # recorded once, across the restart too
    await restarted.aclose()
