"""End to end: the "/" menu per scope and language, refusals that do not spam the group, and
``/idioma en`` re-rendering the table at once (issue 10, item 6)."""

from __future__ import annotations

from typing import Any

import pytest
from driver import LANG, open_table, read_raw, t
from fake_telegram import FakeTelegram
from telegram.ext import CommandHandler

from bot.games.registry import GAMES

pytestmark = pytest.mark.e2e

GROUPS = {"type": "all_group_chats"}
PRIVATE = {"type": "all_private_chats"}


def names(commands: list[dict[str, Any]]) -> list[str]:
    return [str(c["command"]) for c in commands]


async def test_command_scopes_registered_per_language(tg: FakeTelegram, apps: Any) -> None:
    app = await apps.start()
    await tg.settle()
    handled = {
        name
        for group in app.handlers.values()
        for h in group
        if isinstance(h, CommandHandler)
        for name in h.commands
    }
    for lang in ("es", "en", ""):
        group_menu, private_menu = tg.my_commands(GROUPS, lang), tg.my_commands(PRIVATE, lang)
        assert group_menu and private_menu, lang
        for command in group_menu + private_menu:
            assert command["command"] in handled, command  # every listed command works
            assert 0 < len(command["description"]) <= 256
        english = lang == "en"
        for game in GAMES.values():  # every game's actions, in the menu's language
            for c in game.menu_commands:
                assert (c.en if english else c.es) in names(group_menu), (lang, c)
        lobby = ["new", "join", "language"] if english else ["nueva", "unirme", "idioma"]
        assert set(lobby) <= set(names(group_menu))
        private = ["cards", "discard", "language", "help"]
        private = private if english else ["cartas", "descarto", "idioma", "ayuda"]
        assert set(private) <= set(names(private_menu))
        assert not {"ordago", "allin", "nueva", "new"} & set(names(private_menu))
    # As a phone shows it: a Spanish user sees the Spanish group menu, an English one English.
    ana, john = tg.user("Ana", "ana"), tg.user("John", "john", language_code="en")
    group = tg.group("Mus", members=[ana, john], creator=ana)
    assert "ordago" in tg.menu(group, ana) and "allin" in tg.menu(group, john)
    assert "descarto" in tg.menu(ana.private, ana) and "discard" in tg.menu(john.private, john)
    assert "nueva" not in tg.menu(ana.private, ana)


async def test_an_onlookers_ten_refused_commands_make_at_most_one_group_message(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start(answer_quiet=30.0)
    _table, _users, group = await open_table(tg, redis)
    await tg.settle()
    onlooker = tg.user("Eva", "eva")
    onlooker.start_private()
    await tg.settle()
    before = await read_raw(redis, group.id)
    mark = tg.mark()
    for i in range(10):
        onlooker.send(group, "/paso" if i % 2 else "/ordago")
    await tg.settle()
    posted = tg.group_calls(since=mark, chat=group)
    assert len(posted) <= 1, [c.params.get("text") for c in posted]
    assert [c.params.get("text") for c in posted] == [t(LANG, "error.not_seated")]
    told = [m.text for m in onlooker.private.bot_messages()]
    assert t(LANG, "error.not_seated") in told  # the later refusals went to him privately
    assert await read_raw(redis, group.id) == before


async def test_idioma_en_rerenders_the_table_at_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    await tg.settle()
    doc = await table.doc()
    assert "· mano 1 ·" in table.table_message(doc).text
    mark = tg.mark()
    users[0].send(group, "/idioma en")
    await tg.wait_for(
        lambda: "· hand 1 ·" in table.table_message(doc).text,
        timeout=3,
        what="the table in English",
    )
    await table.assert_messages_current()  # exactly the English render of the stored table
    assert "🂠 My cards" in table.table_message(doc).button_texts()
    # Edited in place: no new table message in the group, only the confirmation.
    posted = [c.params.get("text") for c in tg.group_calls(since=mark, chat=group)]
    assert posted == [t("en", "msg.language_set")], posted
    title = t("en", "hand.title", game="Mus", title=group.title, hand=1)
    for user in users:
        await tg.wait_for(
            lambda u=user: any(m.text.startswith(title) for m in u.private.bot_messages()),
            timeout=3,
            what="the private hand in English",
        )
