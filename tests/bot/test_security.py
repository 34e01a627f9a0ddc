"""Security of the bot's own flow (unit level, StubBot + in-memory store): webhook start-up,
deep-link tokens and membership, shared identities, echoed text, private commands with two
tables, preferences."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from test_main import run_bot


def test_webhook_without_secret_refuses_to_start(tmp_path: Path) -> None:
    done = run_bot(
        tmp_path, "--webhook", TELEGRAM_BOT_TOKEN="1:x", TAPETE_WEBHOOK_URL="https://x.org/hook"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tapete: --webhook needs TAPETE_WEBHOOK_SECRET")


# ---- echoed text ------------------------------------------------------------------------------

RLO, LRI, BELL = "\u202e", "\u2066", "\x07"


def test_error_text_neutralises_bidi_and_controls_and_escapes_per_destination() -> None:
    from bot.games.render import error_text
    from engine.core import IllegalAction
    from locales import t

    exc = IllegalAction("unknown_action", text=f"{RLO}<b>x{BELL}{LRI}y")
    assert error_text("es", exc) == t("es", "error.unknown_action", text="&lt;b&gt;xy")
    assert error_text("en", exc, plain=True) == t("en", "error.unknown_action", text="<b>xy")
    for text in (error_text("es", exc), error_text("es", exc, plain=True)):
        assert not {RLO, LRI, BELL} & set(text)


async def test_a_typed_refusal_echo_is_neutralised_in_the_group() -> None:
    from test_handlers import GROUP, Harness

    from bot.handlers import play
    from locales import t

    h = Harness()
    await h.open_and_start()
    before = await h.store.load(GROUP)
    await play.action_command(*h.command(101, f"/envido {RLO}5<b>{BELL}"))
    said = h.bot.group_sends()[-1]
    assert said == t("es", "error.bad_amount", text="5&lt;b&gt;")
    assert await h.store.load(GROUP) == before


async def test_an_alert_echo_is_plain_text() -> None:
    from test_handlers import GROUP, Harness

    from bot import keyboards
    from bot.handlers import play
    from locales import t

    h = Harness()
    table = await h.open_and_start()
    before = await h.store.load(GROUP)
    seat = table.to_act()[0]
    forged = keyboards.pack("a", GROUP, table.tid, table.turn, f"<i>{RLO}z")
    await play.table_button(*h.press(table.players[seat].user_id, forged))
    alert = h.bot.answers()[-1]
    assert alert["text"] == t("es", "error.unknown_action", text="<i>z"), alert
    assert await h.store.load(GROUP) == before


# ---- deep-link joins -----------------------------------------------------------------------------


async def test_deep_link_join_needs_the_tables_key_and_membership() -> None:
    from types import SimpleNamespace

    from test_handlers import GROUP, Harness

    from bot.handlers import lobby
    from locales import t

    h = Harness()
    await lobby.nueva(*h.command(101, "/nueva mus"))
    key = (await h.table()).join_key
    before = await h.store.load(GROUP)
    outsiders = {105}

    async def get_chat_member(chat_id: int, user_id: int) -> object:
        return SimpleNamespace(status="left" if user_id in outsiders else "member")

    h.bot.get_chat_member = get_chat_member  # type: ignore[method-assign]
    for uid, payload, refusal in [
        (104, f"join_{GROUP}", "security.join_bad_link"),  # the old form: no key
        (104, f"join_{GROUP}_{'0' * len(key)}", "security.join_bad_link"),  # a guessed key
        (104, f"join_{GROUP}_", "security.join_bad_link"),
        (104, f"join_{GROUP + 1}_{key}", "security.join_bad_link"),  # another chat
        (105, f"join_{GROUP}_{key}", "security.join_not_member"),  # right link, not a member
    ]:
        await lobby.start_private(*h.command(uid, f"/start {payload}", chat_id=uid))
        assert h.bot.calls[-1][1]["text"] == t("es", refusal), payload
        assert await h.store.load(GROUP) == before, payload
    outsiders.clear()
    await lobby.start_private(*h.command(105, f"/start join_{GROUP}_{key}", chat_id=105))
    assert [p.user_id for p in (await h.table()).players] == [101, 105]


# ---- two tables at once ------------------------------------------------------------------------


async def test_private_commands_with_two_tables_name_the_table() -> None:
    from test_handlers import GROUP, USERS, Harness

    from bot.handlers import lobby, play
    from locales import t

    other = GROUP - 1
    h = Harness()
    for chat in (GROUP, other):
        await lobby.nueva(*h.command(101, "/nueva mus", chat_id=chat))
        for uid, _ in USERS:
            await lobby.unirme(*h.command(uid, "/unirme", chat_id=chat))
        await lobby.empezar(*h.command(101, "/empezar", chat_id=chat))
        for _ in range(4):  # everyone says mus: the discard
            table = await read(h, chat)
            seat = table.to_act()[0]
            await play.play(h.svc, chat, table.players[seat].user_id, "mus")
        assert set((await read(h, chat)).to_act()) == {0, 1, 2, 3}
    before = [await h.store.load(GROUP), await h.store.load(other)]
    ana = 101

    # Both tables wait for Ana's discard: she is asked which, nothing changes.
    await play.descarto(*h.command(ana, "/descarto 1", chat_id=ana))
    said = h.bot.calls[-1][1]
    assert said["chat_id"] == ana
    title = "Mus &lt;jueves&gt;"
    assert said["text"] == t("es", "security.which_table", titles=f"«{title}», «{title}»")
    assert [await h.store.load(GROUP), await h.store.load(other)] == before

    # /cartas in private sends the hand of each table (each names its group).
    sends = len([c for k, c in h.bot.calls if k == "send" and c["chat_id"] == ana])
    await play.cartas(*h.command(ana, "/cartas", chat_id=ana))
    hands = [c for k, c in h.bot.calls if k == "send" and c["chat_id"] == ana][sends:]
    assert len(hands) == 2, hands

    # Once she has discarded at the first table, /descarto goes to the other, and says so.
    first = await read(h, GROUP)
    card = first.adapter.seat_cards(first, 0)[0]
    await play.play(h.svc, GROUP, ana, f"descarto {card}")
    second = await read(h, other)
    card = second.adapter.seat_cards(second, 0)[0]
    await play.descarto(*h.command(ana, f"/descarto {card}", chat_id=ana))
    assert 0 not in (await read(h, other)).to_act()
    assert h.bot.calls[-1][1]["text"] == t("es", "security.discarded_at", title=title)


async def read(h: object, chat: int) -> Any:
    from bot.tables import read_table

    table = await read_table(h.svc, chat)  # type: ignore[attr-defined]
    assert table is not None
    return table


# ---- inline mode: results and presses that name a chat ---------------------------------------


def _chosen(h: Any, uid: int, rid: str) -> tuple[Any, Any]:
    """A ``chosen_inline_result`` update: ``uid`` chose the result ``rid`` (ids can be forged:
    they are ``<chat>:<tid>:<turn>:<action>``, see :func:`bot.handlers.inline.result_id`)."""
    from telegram import Update
    from test_handlers import _ids

    data = {
        "update_id": next(_ids),
        "chosen_inline_result": {"result_id": rid, "from": h._user(uid), "query": ""},
    }
    return Update.de_json(data, h.bot), h.context()


async def test_a_forged_chosen_inline_result_plays_nothing_at_another_table() -> None:
    """Issue 25, item 3: a chosen inline result names its table's chat; one chosen by someone
    not seated there (Eve), or by a seated player for a turn that is not his, changes nothing,
    writes nothing to the group and tells the chooser only why, in private."""
    from test_handlers import GROUP, Harness

    from bot.handlers import inline
    from engine.senas_play import sena
    from locales import t

    h = Harness()
    table = await h.open_and_start()
    seat = table.to_act()[0]
    owner = table.players[seat].user_id
    other = next(p.user_id for p in table.players if p.user_id != owner)
    action = str(table.adapter.legal_actions(table.engine_state(), seat)[0])
    move = inline.result_id(table, action)
    signal = inline.result_id(table, str(sena("duples")), table.hand)  # (a seña: any hand)
    before, group_sends = await h.store.load(GROUP), len(h.bot.group_sends())
    for uid, rid, refusal in [
        (105, move, "error.not_seated"),  # Eve sits at no table of this group
        (105, signal, "error.not_seated"),
        (other, move, "error.not_your_turn"),  # a player, for a turn that is not his
    ]:
        calls = len(h.bot.calls)
        await inline.chosen_result(*_chosen(h, uid, rid))
        assert await h.store.load(GROUP) == before, (uid, rid)
        said = [c for _k, c in h.bot.calls[calls:] if "text" in c]
        assert [(c["chat_id"], c["text"]) for c in said] == [(uid, t("es", refusal))], said
    assert len(h.bot.group_sends()) == group_sends
    await inline.chosen_result(*_chosen(h, owner, move))  # his own, at his turn: played
    assert (await h.table()).turn == table.turn + 1


async def test_a_press_on_an_inline_message_counts_only_for_a_member_of_the_group() -> None:
    """Issue 25, item 3: a press on a message posted through inline mode carries no chat (only
    ``inline_message_id``), so the chat its data names is checked by membership: an outsider's
    forged join is refused before any handler reads it, a member's goes on."""
    from types import SimpleNamespace

    import pytest
    from telegram import Update
    from telegram.ext import ApplicationHandlerStop
    from test_handlers import GROUP, Harness, _ids

    from bot import keyboards
    from bot.handlers import guard, lobby
    from locales import t

    h = Harness()
    await lobby.nueva(*h.command(101, "/nueva mus"))
    table = await h.table()
    before = await h.store.load(GROUP)

    async def get_chat_member(chat_id: int, user_id: int) -> object:
        return SimpleNamespace(status="member" if user_id < 105 else "left")

    h.bot.get_chat_member = get_chat_member  # type: ignore[method-assign]

    def inline_press(uid: int, data: str) -> tuple[Any, Any]:
        query = {
            "id": str(next(_ids)),
            "from": h._user(uid),
            "chat_instance": "ci",
            "data": data,
            "inline_message_id": "AQAAAB0000001",
        }
        update = {"update_id": next(_ids), "callback_query": query}
        return Update.de_json(update, h.bot), h.context()

    for data in (
        keyboards.pack("j", GROUP, table.tid),
        keyboards.pack("e", GROUP, table.tid, 1),
        keyboards.pack("g", GROUP, table.tid),
    ):
        with pytest.raises(ApplicationHandlerStop):
            await guard.refuse_forged_press(*inline_press(105, data))
        assert h.bot.answers()[-1]["text"] == t("es", "security.forged_press"), data
        assert await h.store.load(GROUP) == before
        await guard.refuse_forged_press(*inline_press(102, data))  # a member: not refused
