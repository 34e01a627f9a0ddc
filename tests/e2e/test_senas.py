"""End to end: señas (rules/senas.md) through Telegram. A seña pressed in a player's private
hand message reaches his partner only (and, with ``senasvistas``, each opponent who catches it:
every one at ``pillar=1``, none at ``pillar=0``); pressed twice it is sent once; pressed after
its hand it is refused privately; from the table message it goes through inline mode, posting
only "🤫". No group text ever shows a seña.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, MusTable, play_hand, read_doc, t
from fake_telegram import Chat, FakeTelegram, Message, User

import engine.mus as mus

pytestmark = pytest.mark.e2e


def st(key: str, **params: Any) -> str:
    return t(LANG, key, **params)


NOTICE = st("senas.notice", name="", sena="").split("<b>")[0].strip()  # "te hace la seña:"
CAUGHT = st("senas.caught", name="", to="", sena="").split(" ")[1]  # "Pillas"


async def open_mus(
    tg: FakeTelegram, redis: Any, options: str, *, cut: bool = True
) -> tuple[MusTable, list[User], Chat]:
    users = [tg.user(n, n.lower()) for n in ("Ana", "Bea", "Cris", "Dani")]
    group = tg.group("Señas", members=users, creator=users[0])
    for user in users:
        user.start_private()
    await tg.settle()
    users[0].send(group, f"/nueva mus {options}")
    lobby = await tg.wait_for(
        lambda: next(
            (m for m in group.bot_messages() if t(LANG, "button.join") in m.button_texts()), None
        ),
        what="the lobby",
    )
    for user in users:
        user.press(lobby, t(LANG, "button.join"))
        await tg.settle(quiet=0.05)
    users[0].press(lobby, t(LANG, "button.start"))
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    table = MusTable(tg, group, users, redis)
    if not cut:
        return table, users, group
    state = await table.state()
    doc = await table.doc()
    table.seat_user(doc, state.to_act[0]).send(group, "/corto")
    await tg.wait_for(lambda: True, timeout=0.1)
    await table.tg.settle()
    assert (await table.state()).phase == "lance"
    return table, users, group


async def sena_buttons(table: MusTable, user: User) -> tuple[Message, list[dict[str, Any]]]:
    def found() -> tuple[Message, list[dict[str, Any]]] | None:
        msg = table.hand_message(user)
        buttons = [b for b in msg.buttons() if str(b.get("callback_data", "")).startswith("s:")]
        return (msg, buttons) if buttons else None

    result: tuple[Message, list[dict[str, Any]]] = await table.tg.wait_for(
        found, what="seña buttons in the private hand"
    )
    return result


def notices(user: User, mark: str) -> list[str]:
    return [m.raw for m in user.private.bot_messages() if mark in m.raw]


def group_texts(group: Chat) -> list[str]:
    out = []
    for m in group.messages:
        out += m.all_texts()
        for v in m.history:
            for row in (v.reply_markup or {}).get("inline_keyboard", []):
                out += [str(b.get("text", "")) for b in row]
    return out


def assert_group_silent(group: Chat, label: str) -> None:
    for text in group_texts(group):
        assert NOTICE not in text and CAUGHT not in text, text
        assert f"🤫 {label}" not in text and f"<b>{label}</b>" not in text, text


@pytest.mark.parametrize(
    ("options", "caught"),
    [("", False), ("senasvistas pillar=1", True), ("senasvistas pillar=0", False)],
)
async def test_sena_reaches_the_partner_only(
    tg: FakeTelegram, apps: Any, redis_factory: Any, options: str, caught: bool
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_mus(tg, redis, options)
    doc = await table.doc()
    sender, partner = table.seat_user(doc, 1), table.seat_user(doc, 3)
    opponents = [table.seat_user(doc, 0), table.seat_user(doc, 2)]
    msg, buttons = await sena_buttons(table, sender)
    data = str(buttons[0]["callback_data"])
    name = data.split(":", 4)[4]
    label = st(f"senas.mus.{name.replace(' ', '_')}")
    assert buttons[0]["text"] == f"🤫 {label}"
    state = await table.state()
    assert name in mus.senas(state.hands[1], state.options)

    query = sender.press(msg, data)
    answer = await tg.wait_answer(query)
    assert answer.get("text") == st("senas.sent", sena=label)
    await tg.wait_for(lambda: notices(partner, NOTICE), what="the partner's notice")
    await tg.settle()
    assert notices(partner, NOTICE) == [st("senas.notice", name="Bea", sena=label)]
    for user in opponents:
        assert notices(user, NOTICE) == []
        assert len(notices(user, CAUGHT)) == (1 if caught else 0)
    assert notices(sender, NOTICE) == [] and notices(sender, CAUGHT) == []
    assert (await table.state()).to_act == state.to_act  # no turn passed

    # Pressed twice: one seña; the second press is refused in private.
    again = sender.press_data(msg, data)
    refused = await tg.wait_answer(again)
    assert refused.get("text") == st("error.sena_already_sent")
    await tg.settle()
    assert len(notices(partner, NOTICE)) == 1
    assert all(b.get("callback_data") != data for b in table.hand_message(sender).buttons())

    # After its hand the seña is refused in private, and nothing is sent.
    other_msg, other = await sena_buttons(table, partner)
    late = str(other[0]["callback_data"])
    await play_hand(table, random.Random(3), mus_rounds_wanted=0)
    await tg.settle()
    query = partner.press_data(other_msg, late)
    closed = await tg.wait_answer(query)
    assert closed.get("text") == st("error.sena_closed")
    await tg.settle()
    assert notices(sender, NOTICE) == []
    assert_group_silent(group, label)


async def test_s1_senas_are_dealt_with_the_hand_refused_before_the_cut_and_no_edit_at_it(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """The private hand comes with its señas (S2) from the deal, so the cut (S1: the window
    opens) costs no edit of the four hand messages; pressed before the cut, a seña is refused
    to the presser alone and nothing is sent."""
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_mus(tg, redis, "", cut=False)
    await tg.settle()
    state = await table.state()
    assert state.phase == "mus"
    doc = await table.doc()
    for seat, user in enumerate(table.seat_user(doc, s) for s in range(4)):
        msg = table.hand_message(user)
        shown = [str(b["callback_data"]).split(":", 4)[4] for b in msg.buttons()]
        assert shown == [a.name for a in mus.coming_senas(state, seat)]
        assert len(msg.history) == 1, "the hand was edited before any move"
    sender = next(u for u in users if table.hand_message(u).buttons())
    seat = next(s for s in range(4) if table.seat_user(doc, s) is sender)
    msg = table.hand_message(sender)
    data = str(msg.buttons()[0]["callback_data"])
    refused = await tg.wait_answer(sender.press_data(msg, data))
    assert refused.get("text") == st("error.sena_not_yet") and refused.get("show_alert")
    await tg.settle()
    assert all(notices(u, NOTICE) == [] for u in users)
    assert (await table.state()).senas_sent == ()
    edits = {u.id: len(table.hand_message(u).history) for u in users}
    table.seat_user(doc, state.to_act[0]).send(group, "/corto")
    await tg.settle()
    assert (await table.state()).phase == "lance"
    assert {u.id: len(table.hand_message(u).history) for u in users} == edits  # no edit
    assert table.hand_message(sender).buttons()[0]["callback_data"] == data  # and it works now
    answer = await tg.wait_answer(sender.press_data(msg, data))
    name = data.split(":", 4)[4]
    assert answer.get("text") == st("senas.sent", sena=st(f"senas.mus.{name.replace(' ', '_')}"))
    partner = table.seat_user(doc, (seat + 2) % 4)
    await tg.wait_for(lambda: notices(partner, NOTICE), what="the partner's notice")


async def test_sena_from_the_table_message_through_inline_mode(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_mus(tg, redis, "")
    doc = await table.doc()
    sender, partner = table.seat_user(doc, 2), table.seat_user(doc, 0)
    query = sender.press(table.table_message(doc), st("senas.table_button"))
    answer = await tg.wait_inline_answer(query)
    assert answer.ids(), "no señas offered inline"
    state = await table.state()
    offered = [str(a) for a in mus.legal_senas(state, 2)]
    assert [rid.split(":", 3)[3] for rid in answer.ids()] == offered
    posted = sender.choose_inline_result(query, answer.ids()[0])
    assert posted.text == "🤫"
    await tg.wait_for(lambda: notices(partner, NOTICE), what="the partner's notice")
    await tg.settle()
    name = offered[0].removeprefix("seña ")
    label = st(f"senas.mus.{name.replace(' ', '_')}")
    assert notices(partner, NOTICE) == [st("senas.notice", name="Cris", sena=label)]
    others = [table.seat_user(doc, s) for s in (1, 3)]
    assert all(notices(u, NOTICE) == [] for u in others)
    assert_group_silent(group, label)


async def test_no_senas_with_sinsenas(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_mus(tg, redis, "sinsenas")
    await tg.settle()
    for user in users:
        assert not [
            b
            for b in table.hand_message(user).buttons()
            if str(b.get("callback_data", "")).startswith("s:")
        ]
    doc = await table.doc()
    assert st("senas.table_button") not in table.table_message(doc).button_texts()
    assert any(st("senas.opt.off") in x for x in group_texts(group))
