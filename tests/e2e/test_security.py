"""End to end, security: the webhook's secret, logs at every level, hostile identities.

The webhook test starts python-telegram-bot's own webhook server on 127.0.0.1 (as ``tapete
--webhook`` does) and posts updates to it over real HTTP.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import socket
import time
import urllib.error
import urllib.request
from typing import Any

import polling
import pytest
from driver import LANG, PREFIX, card_mentions, open_table, play_hand, read_doc
from fake_telegram import FakeTelegram

import engine.mus as mus
from bot.store import DEDUPE_KEEP
from locales import t as dt

pytestmark = pytest.mark.e2e

SECRET = "s3cret_Webhook-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any], secret: str | None) -> int:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


async def test_webhook_refuses_a_missing_or_wrong_secret(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    from conftest import make_settings

    from bot.app import build_application

    settings = make_settings(tg, webhook_url="https://bot.example.org/hook", webhook_secret=SECRET)
    app = build_application(settings, redis=redis_factory.client())
    port = _free_port()
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_webhook(
        listen="127.0.0.1",
        port=port,
        url_path=settings.webhook_path,
        secret_token=settings.webhook_secret,
        webhook_url=settings.webhook_url,
    )
    try:
        ana = tg.user("Ana", "ana")
        group = tg.group("Forja", members=[ana])
        url = f"http://127.0.0.1:{port}/hook"

        first = random.randrange(10**9, 2 * 10**9)  # update ids are de-duplicated in Redis

        def forged(n: int) -> dict[str, Any]:
            update_id = first + n
            tg.queued_at[update_id] = time.monotonic()  # so the test's cleanup deletes its key
            return {
                "update_id": update_id,
                "message": {
                    "message_id": update_id,
                    "date": 1,
                    "chat": group.to_json(),
                    "from": ana.to_json(),
                    "text": "/nueva mus",
                    "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
                },
            }

        assert await asyncio.to_thread(_post, url, forged(1), None) == 403
        assert await asyncio.to_thread(_post, url, forged(2), "wrong") == 403
        await asyncio.sleep(0.5)
        assert await read_doc(redis_factory.client(), group.id) is None, "a forged update played"
        assert not group.bot_messages()
        # With the secret, the same update is handled: Telegram's posts get through.
        assert await asyncio.to_thread(_post, url, forged(3), SECRET) == 200
        await tg.wait_for(lambda: group.bot_messages() or None, what="the lobby")
        setwebhook = tg.calls_to("setWebhook")
        assert setwebhook and setwebhook[-1].params.get("secret_token") == SECRET
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)


@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING", "ERROR"])
async def test_no_card_and_no_token_in_logs_at_any_level(
    level: str, tg: FakeTelegram, apps: Any, redis_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A whole hand with ``TAPETE_LOG_LEVEL`` at each level, every logger captured."""
    from bot.__main__ import configure_logging

    token = tg.tokens[0]
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    levels = {n: logging.getLogger(n).level for n in ("telegram", "httpx", "httpcore")}
    out = io.StringIO()
    configure_logging(level, [token], stream=out)
    root.handlers.extend(saved_handlers)  # caplog's handler too: it sees every record
    caplog.set_level(logging.DEBUG, logger="bot")
    try:
        await apps.start()
        redis = redis_factory.client()
        table, _users, _group = await open_table(tg, redis)
        hands: set[str] = set()
        state = await table.state()
        for seat in range(4):
            hands |= set(mus.view(state, seat).to_dict()["cards"])
        state = await play_hand(table, random.Random(7))
        await tg.settle()
        await apps.stop_all()
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)
    text = out.getvalue()
    records = [r.getMessage() + (r.exc_text or "") for r in caplog.get_records("call")]
    if level in ("DEBUG", "INFO"):
        assert "Application started" in text, "the captured handler saw nothing"
    assert token not in text
    assert not [r for r in records if token in r]
    deck = sorted(hands)
    assert not card_mentions(text, deck), card_mentions(text, deck)
    assert not [r[:200] for r in records if card_mentions(r, deck)]


def test_library_debug_lines_never_reach_the_log() -> None:
    """python-telegram-bot logs each request's parameters at DEBUG: they are never written."""
    from bot.__main__ import configure_logging

    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        configure_logging("DEBUG", ["123:TOKEN"], stream=out)
        logging.getLogger("telegram._bot").debug("sendMessage params {'text': 'rey de oros'}")
        logging.getLogger("httpx").info("POST http://x/bot123:TOKEN/sendMessage")
        lib = logging.getLogger("telegram.ext.ExtBot")
        lib.setLevel(logging.DEBUG)  # even when a library logger is turned up again
        lib.debug("Calling Bot API endpoint `sendMessage` with parameters `12o`")
        logging.getLogger("telegram.ext").warning("bot123:TOKEN failed")
        logging.getLogger("bot.flow").debug("table -100 written")
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        logging.getLogger("telegram.ext.ExtBot").setLevel(logging.NOTSET)
        logging.getLogger("telegram").setLevel(logging.NOTSET)
    text = out.getvalue()
    assert "rey de oros" not in text and "12o" not in text and "123:TOKEN" not in text
    assert "bot*** failed" in text
    assert "table -100 written" in text


def _post_as_chat(tg: FakeTelegram, group: Any, text: str, user_id: int, sender: Any) -> int:
    """A message posted as a chat: ``from`` is Telegram's placeholder, ``sender_chat`` the
    chat (the group itself for an anonymous admin, a channel for a post as a channel)."""
    placeholder = {"id": user_id, "is_bot": user_id != 777000, "first_name": "Group"}
    message = {
        "message_id": random.randrange(10**6, 10**7),
        "date": int(time.time()),
        "chat": group.to_json(),
        "from": placeholder,
        "sender_chat": sender,
        "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
    }
    return tg.push_update({"message": message})


async def test_channel_and_anonymous_admin_identities_are_refused(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    ana = tg.user("Ana", "ana")
    group = tg.group("Anónimos", members=[ana], creator=ana)
    refusal = dt(LANG, "security.shared_identity")
    channel = {"id": -1002223334445, "type": "channel", "title": "Canal"}

    # An anonymous admin cannot open a table (it would belong to everyone posting that way).
    _post_as_chat(tg, group, "/nueva mus", 1087968824, group.to_json())
    await tg.wait_for(lambda: refusal in group.texts() or None, what="the refusal")
    assert await read_doc(redis, group.id) is None

    ana.send(group, "/nueva mus")
    await tg.wait_for(lambda: group.bot_messages()[-1].buttons() or None, what="the lobby")
    await tg.settle()  # the lobby's message id is written down after it is sent
    before = await read_doc(redis, group.id)
    for user_id, sender in ((1087968824, group.to_json()), (136817688, channel), (777000, channel)):
        count = sum(refusal in x for x in group.texts())
        _post_as_chat(tg, group, "/unirme", user_id, sender)
        await tg.wait_for(
            lambda c=count: sum(refusal in x for x in group.texts()) > c or None,
            what="one more refusal",
        )
    _post_as_chat(tg, group, "/empezar", 1087968824, group.to_json())
    await tg.settle()
    assert await read_doc(redis, group.id) == before, "a shared identity changed the table"
    # Help still answers them.
    sends = len(group.bot_messages())
    _post_as_chat(tg, group, "/ayuda", 1087968824, group.to_json())
    await tg.wait_for(lambda: len(group.bot_messages()) > sends or None, what="the help")
    assert refusal not in group.bot_messages()[-1].text


async def test_deep_link_join_refuses_a_wrong_key_and_an_outsider(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    tg.ephemeral_supported = False  # the deep link: where the hand cannot be shown in the group
    from driver import deep_link_payload

    redis = redis_factory.client()
    await apps.start()
    ana, dani, eve = tg.user("Ana", "ana"), tg.user("Dani", "dani"), tg.user("Eve", "eve")
    group = tg.group("Enlaces", members=[ana, dani], creator=ana)
    ana.start_private()
    ana.send(group, "/nueva mus")
    await tg.wait_for(lambda: group.bot_messages() or None, what="the lobby")
    dani.send(group, "/unirme")
    link = await tg.wait_for(
        lambda: next(
            (p for m in group.bot_messages() if (p := deep_link_payload(m, tg.bot_username))), None
        ),
        what="the deep link",
    )
    await tg.settle()
    before = await read_doc(redis, group.id)
    assert before is not None and link.endswith(before[1]["join_key"])
    assert eve.id not in group.members and group.status_of(eve) == "left"

    eve.start_private(link)  # someone outside the group who got hold of the link
    await tg.wait_for(lambda: eve.private.bot_messages() or None, what="Eve's refusal")
    assert eve.private.bot_messages()[-1].text == dt("es", "security.join_not_member")
    wrong = link[:-4] + ("0000" if not link.endswith("0000") else "1111")
    dani.start_private(wrong)
    await tg.wait_for(lambda: dani.private.bot_messages() or None, what="Dani's refusal")
    assert dani.private.bot_messages()[-1].text == dt("es", "security.join_bad_link")
    await tg.settle()
    assert await read_doc(redis, group.id) == before, "a refused join changed the table"

    dani.start_private(link)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id, dani.id]  # Ana: the creator


async def test_every_key_expires_or_is_bounded_after_a_whole_game(
    tg: FakeTelegram, apps: Any, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a whole game (with a language chosen, refusals, /cartas, a private /idioma), every
    key the bot wrote has a time to live, except the timer and publication sets, whose members
    are only tables that still exist (so they are bounded by the live tables)."""
    import secrets as secrets_module

    from driver import ordago_policy

    monkeypatch.setattr(secrets_module, "randbits", lambda bits: 20261130)
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    users[0].send(group, "/idioma es")
    users[1].send(users[1].private, "/idioma en")  # refused: it stores nothing
    users[2].send(group, "/envido abc")
    users[3].send(users[3].private, "/cartas")
    await tg.settle()
    assert users[1].private.bot_messages()[-1].text == dt("es", "security.private_chat")
    assert not await redis.exists(f"{PREFIX}:prefs:chat:{users[1].id}")
    state = await table.state()
    hands = 0
    while not state.is_over:
        hands += 1
        assert hands <= 6
        state = await play_hand(
            table, random.Random(hands), mus_rounds_wanted=0, lance_policy=ordago_policy
        )
    await tg.settle()
    await apps.stop_all()

    mine = [str(group.id), *(str(u.id) for u in users)]
    found = [k async for k in redis.scan_iter(match=f"{PREFIX}:*", count=1000)]
    keys = sorted(k.decode() if isinstance(k, bytes) else str(k) for k in found)
    assert any(f"{PREFIX}:t:{group.id}" == k for k in keys)
    assert any(f"{PREFIX}:prefs:chat:{group.id}" == k for k in keys)
    # De-duplication keeps one small window of update ids per chat, never a key per update.
    assert f"{PREFIX}:seen:{group.id}" in keys
    assert not any(k.startswith(f"{PREFIX}:upd:") for k in keys)
    window = (await redis.get(f"{PREFIX}:seen:{group.id}")).split()
    assert 0 < len(window) <= DEDUPE_KEEP
    forever = []
    for key in keys:
        if key in (f"{PREFIX}:timers", f"{PREFIX}:pub"):
            for member in await redis.zrange(key, 0, -1):
                chat = member.decode() if isinstance(member, bytes) else str(member)
                if chat in mine:
                    assert await redis.exists(f"{PREFIX}:t:{chat}"), (key, chat)
            continue
        if key.startswith(f"{PREFIX}:rec:"):
            continue  # records are kept on purpose, bounded per group (tests/bot/test_records)
        if await redis.ttl(key) < 0:
            forever.append(key)
    assert not forever, f"keys that never expire: {forever}"


async def test_a_player_who_blocked_the_bot_is_announced_once_and_the_game_goes_on(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(turn_timeout=2.5)
    table, _users, group = await open_table(tg, redis)
    doc = await table.doc()
    blocker = table.seat_user(doc, 3)
    blocker.blocked = True
    notice = dt("es", "security.blocked", name=f"{blocker.first_name}")
    timeouts = 0
    state = await table.state()
    hand = state.hand_number
    for _ in range(40):
        state = await table.state()
        if state.hand_number != hand or state.is_over or timeouts >= 2:
            break
        seat = state.to_act[0]
        if seat == 3 and len(state.to_act) == 1:
            turn = (await table.doc())["turn"]
            await table.wait_turn_after(turn, timeout=6.0)  # the timer plays for him
            timeouts += 1
        elif 3 not in state.to_act or len(state.to_act) > 1:
            others = [s for s in state.to_act if s != 3]
            await table.act(others[0], mus.default_action(state, others[0]), "command")
        else:
            await asyncio.sleep(0.2)
    await tg.settle()
    assert timeouts >= 1, "the blocker never had to act"
    said = [m.text for m in group.bot_messages() if m.text == notice]
    assert len(said) == 1, [m.text for m in group.bot_messages()][-5:]
    assert (await table.doc())["shown"]["unreachable"] == [blocker.id]
    assert (await table.doc())["status"] == "playing"


async def test_group_upgraded_to_a_supergroup_mid_hand_goes_on_there(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    from driver import MusTable

    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    users[0].send(group, "/idioma en")
    await tg.settle()
    state = await table.state()
    await table.act(state.to_act[0], mus.parse_action("mus"), "command")  # mid-hand
    before = await table.doc()
    old_messages = len(group.bot_messages())

    new = tg.migrate(group)
    moved = await tg.wait_for(lambda: read_doc(redis, new.id), what="the table in the new chat")
    await tg.settle()
    assert await read_doc(redis, group.id) is None
    doc = moved[1]
    assert doc["chat_id"] == new.id and doc["state"] == before["state"]
    assert doc["lang"] == "en" and doc["players"] == before["players"]
    assert await redis.hget(f"{PREFIX}:prefs:chat:{new.id}", "lang") in (b"en", "en")
    assert await redis.zscore(f"{PREFIX}:timers", str(new.id)) is not None
    assert await redis.zscore(f"{PREFIX}:timers", str(group.id)) is None
    for user in users:
        linked = {int(x) for x in await redis.smembers(f"{PREFIX}:u:{user.id}")}
        assert new.id in linked and group.id not in linked
    # The table message is posted in the supergroup (the old chat's messages are not there).
    assert new.bot_messages() and new.bot_messages()[-1].buttons()
    assert len(group.bot_messages()) == old_messages

    # The hand goes on in the supergroup, by command and by button, to its end.
    users[0].send(new, "/idioma es")  # the driver speaks Spanish
    await tg.settle()
    there = MusTable(tg, new, users, redis)
    there.check.seen = 0
    state = await play_hand(there, random.Random(4))
    assert state.hand_number == 2 or state.is_over
    # The private hands' buttons now point at the new chat.
    await there.assert_dms_show_hands()


# ---- operations ----------------------------------------------------------------------------


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status), response.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode()


async def test_health_and_metrics_answer(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    port = _free_port()
    redis = redis_factory.client()
    await apps.start(metrics_port=port, metrics_listen="127.0.0.1")
    _table, users, group = await open_table(tg, redis)
    users[0].send(group, "/envido abc")  # a refusal
    await tg.settle()
    status, body = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/health")
    assert (status, json.loads(body)) == (200, {"ok": True})
    status, text = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/metrics")
    assert status == 200
    lines = {
        line.split(" ")[0]: line.split(" ")[-1] for line in text.splitlines() if line[:1] != "#"
    }
    assert float(lines['tapete_updates_total{kind="message"}']) >= 5
    assert float(lines['tapete_updates_total{kind="callback_query"}']) >= 3
    assert float(lines["tapete_update_seconds_count"]) >= 8
    assert float(lines['tapete_bot_api_calls_total{method="sendMessage",status="200"}']) >= 5
    assert any(k.startswith("tapete_bot_api_calls_total") and '"403"' in k for k in lines), (
        "the refused private message to Dani (who never opened the chat) is counted"
    )
    for name in ("tapete_cas_conflicts_total", "tapete_publish_backlog", "tapete_timers_due"):
        assert name in lines, name
    assert tg.tokens[0] not in text and "rey" not in text


async def test_health_says_503_when_the_store_does_not_answer() -> None:
    from types import SimpleNamespace

    from bot.ops import StatusServer

    class DeadStore:
        async def version_of(self, chat_id: int) -> int:
            raise ConnectionError("redis is down")

        async def backlog(self, now: float) -> tuple[int, int]:
            raise ConnectionError("redis is down")

    port = _free_port()
    svc = SimpleNamespace(store=DeadStore(), clock=time.time)
    server = StatusServer(svc, "127.0.0.1", port)  # type: ignore[arg-type]
    await server.start()
    try:
        status, body = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/health")
        assert (status, json.loads(body)) == (503, {"ok": False})
        status, text = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/metrics")
        assert status == 200 and "tapete_publish_backlog" in text
    finally:
        await server.stop()


def test_json_logs_name_the_chat_and_table_and_hide_the_token() -> None:
    from bot.__main__ import configure_logging
    from bot.ops import LOG_CHAT, LOG_TABLE

    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        configure_logging("INFO", ["123:TOKEN"], stream=out, fmt="json")
        chat, table = LOG_CHAT.set(-1005), LOG_TABLE.set("ab12cd")
        logging.getLogger("bot.flow").info("wrote via bot123:TOKEN")
        LOG_CHAT.reset(chat)
        LOG_TABLE.reset(table)
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
    line = json.loads(out.getvalue().splitlines()[-1])
    assert line["chat"] == -1005 and line["table"] == "ab12cd" and line["level"] == "INFO"
    assert line["msg"] == "wrote via bot***"


# ---- the SQLite store ----------------------------------------------------------------------


async def test_a_table_on_the_sqlite_store_survives_a_restart(
    tg: FakeTelegram, tmp_path: Any, redis_factory: Any
) -> None:
    """``make run`` without Redis: tables live in an SQLite file; a restart loses nothing."""
    from conftest import AppRunner, make_settings
    from driver import MusTable

    from bot.app import build_application
    from bot.store.sqlite import SQLiteStore

    path = tmp_path / "tapete.sqlite3"

    async def start() -> Any:
        settings = make_settings(tg, sqlite_path=str(path), redis_url=None)
        app = build_application(settings)
        assert isinstance(app.bot_data["tapete"].store, SQLiteStore)
        await AppRunner._start(app)
        return app

    app = await start()
    ana, bea, cris, dani = (tg.user(n, n.lower()) for n in ("Ana", "Bea", "Cris", "Dani"))
    group = tg.group("Mesa en disco", members=[ana, bea, cris, dani], creator=ana)
    for user in (ana, bea, cris, dani):
        user.start_private()
    await tg.settle()
    ana.send(group, "/nueva mus")
    await tg.settle()
    for user in (ana, bea, cris, dani):
        user.send(group, "/unirme")
        await tg.settle()
    ana.send(group, "/empezar")
    await tg.settle()
    reader = SQLiteStore(path)
    loaded = await reader.load(group.id)
    assert loaded is not None and json.loads(loaded.doc)["status"] == "playing"
    await polling.stop(app)

    app = await start()  # a restart: the table is still there, and the hand is played out
    try:
        reader.forget()
        loaded = await reader.load(group.id)
        assert loaded is not None and json.loads(loaded.doc)["status"] == "playing"

        class FileTable(MusTable):
            async def doc(self) -> dict[str, Any]:
                reader.forget()
                found = await reader.load(group.id)
                assert found is not None
                return dict(json.loads(found.doc))

        table = FileTable(tg, group, [ana, bea, cris, dani], None)
        state = await play_hand(table, random.Random(2))
        assert state.hand_number == 2 or state.is_over
    finally:
        await polling.stop(app)
        await reader.aclose()


@pytest.mark.parametrize("game", ["mus", "envite", "piedras"])
async def test_forged_cross_chat_presses_seat_nobody(
    tg: FakeTelegram, apps: Any, redis_factory: Any, game: str
) -> None:
    """Issue 25, item 3: join, team and lobby buttons whose data names another group's table
    are refused wherever they are pressed (her own group, her private chat), and a press on the
    real lobby by someone who can see it but is not in its group seats nobody either."""
    redis = redis_factory.client()
    await apps.start()
    ana, bea, eve = tg.user("Ana", "ana"), tg.user("Bea", "bea"), tg.user("Eve", "eve")
    group = tg.group("La de Ana", members=[ana, bea], creator=ana)
    own = tg.group("La de Eve", members=[eve], creator=eve)
    for user in (ana, bea, eve):
        user.start_private()
    ana.send(group, f"/nueva {game}")
    eve.send(own, "/nueva mus")
    join = dt(LANG, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None),
        what="Ana's lobby",
    )
    mine = await tg.wait_for(
        lambda: next((m for m in own.bot_messages() if join in m.button_texts()), None),
        what="Eve's lobby",
    )
    await tg.settle()
    before = await read_doc(redis, group.id)
    assert before is not None
    tid = before[1]["tid"]
    forged = [f"j:{group.id}:{tid}", f"e:{group.id}:{tid}:1", f"g:{group.id}:{tid}"]
    hello = eve.private.bot_messages()[-1]
    for where in (mine, hello):
        for data in forged:
            answer = await tg.wait_answer(eve.press_data(where, data))
            assert answer.get("text") == dt(LANG, "security.forged_press"), (data, answer)
    # The real lobby, seen by someone outside its group (a public group can be read).
    answer = await tg.wait_answer(eve.press(lobby, join))
    assert answer.get("text") == dt(LANG, "security.join_not_member")
    await tg.settle()
    assert await read_doc(redis, group.id) == before, "a forged press changed the table"
    assert not any(
        int(c.params.get("chat_id", 0)) == eve.id and "La de Ana" in str(c.params.get("text"))
        for c in tg.calls
    ), "Eve was written to about Ana's table"
    # The group's own members still join by the button.
    bea.press(lobby, join)
    await tg.settle()
    after = await read_doc(redis, group.id)
    assert after is not None
    assert [p["user_id"] for p in after[1]["players"]] == [ana.id, bea.id]
