"""A fake Telegram Bot API server for end-to-end tests (standard library only).

It serves ``/bot<token>/<method>`` on 127.0.0.1 like the real Bot API: the request body is read as
python-telegram-bot sends it (``application/x-www-form-urlencoded`` where every non-string value is
JSON-encoded), JSON bodies and query strings are accepted too, and the answer is
``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": ..., "description": ...}``.

The server keeps a small model of Telegram: users, group and private chats, every message (its
current text and keyboard plus the history of sends and edits), callback answers and every API
call. Tests drive it through the simulation API::

    tg = FakeTelegram().start()
    ana = tg.user("Ana")
    group = tg.group("Mus del jueves", members=[ana])
    ana.start_private()                    # Ana opened a private chat with the bot
    ana.send(group, "/nueva mus")          # queues a Message update with a bot_command entity
    await tg.settle()                      # waits until the bot has handled it
    lobby = group.last_bot_message()
    ana.press(lobby, "Unirme")             # queues a CallbackQuery update

Inline mode works like a client: ``ana.inline_query(group, "mus")`` (or pressing a
``switch_inline_query_current_chat`` button) queues an ``inline_query`` update, the bot's
``answerInlineQuery`` is checked and kept (``tg.wait_inline_answer(query_id)``), and
``ana.choose_inline_result(query_id, result_id)`` posts the result in the chat ``via_bot`` (a
``message`` update) and, with inline feedback on, queues a ``chosen_inline_result`` update.
Answers are cached for ``cache_time`` seconds like Telegram does (per user when ``is_personal``):
an identical query in that time is answered from the cache and the bot never sees it.

Several tokens may be served at once, all for the same bot identity: each token has its own update
queue, so two ``Application`` objects can poll "the same bot" and a test chooses which one gets each
update (``deliver_to=``), or hands the same update to both (``deliver_to="all"``).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import email
import email.policy
import html
import inspect
import itertools
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

log = logging.getLogger("fake_telegram")

#: Fields whose form value is a JSON document (every other field is a string, int or bool).
IDLE_CONFIRM = 0.02
"""Seconds the watched bots must stay idle before :meth:`FakeTelegram.settle` returns: a
publication of one process that wakes another one's crosses Redis (pub/sub) in between."""

JSON_FIELDS = {
    "reply_markup",
    "allowed_updates",
    "commands",
    "scope",
    "entities",
    "caption_entities",
    "link_preview_options",
    "reply_parameters",
    "results",
    "media",
    "button",
    "ephemeral_message_parameters",
}
INT_FIELDS = {
    "chat_id",
    "message_id",
    "user_id",
    "offset",
    "limit",
    "timeout",
    "cache_time",
    "from_chat_id",
    "message_thread_id",
    "receiver_user_id",
    "ephemeral_message_id",
}
BOOL_FIELDS = {
    "show_alert",
    "disable_notification",
    "protect_content",
    "drop_pending_updates",
    "disable_web_page_preview",
    "allow_sending_without_reply",
    "only_if_banned",
    "is_personal",
}

EPHEMERAL_WINDOW = 15.0
"""Seconds a bot that is no administrator has, after a member's press, to write to him
ephemerally (Bot API 10.2)."""
FORBIDDEN_DM = "Forbidden: bot can't initiate conversation with a user"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
#: Fields of an inline keyboard button of which exactly one must be set (besides ``text``).
BUTTON_KINDS = {
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
}
ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
)
#: BotCommandScope types and the fields each one needs.
SCOPE_FIELDS = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}
INLINE_RESULT_TYPES = {
    "article",
    "photo",
    "gif",
    "mpeg4_gif",
    "video",
    "audio",
    "voice",
    "document",
    "location",
    "venue",
    "contact",
    "game",
    "sticker",
}
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
ALLOWED_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "tg-emoji",
    "code",
    "pre",
    "blockquote",
}
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>")
_BARE_AMP = re.compile(r"&(?!(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);)")


class ApiError(Exception):
    """An error answer of the Bot API."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters  # ResponseParameters (migrate_to_chat_id, retry_after)


def html_to_text(source: str) -> str:
    """Check Telegram's HTML subset and return the plain text a client would show.

    >>> html_to_text("<b>Ana</b> &amp; Luis")
    'Ana & Luis'
    """
    stack: list[str] = []
    pos = 0
    for match in _TAG.finditer(source):
        _check_text(source[pos : match.start()], pos)
        closing, name, _attrs = match.group(1), match.group(2).lower(), match.group(3)
        if name not in ALLOWED_TAGS:
            raise ApiError(
                400,
                f'Bad Request: can\'t parse entities: Unsupported start tag "{name}" at byte '
                f"offset {match.start()}",
            )
        if closing:
            if not stack or stack[-1] != name:
                raise ApiError(
                    400,
                    f'Bad Request: can\'t parse entities: Unexpected end tag "{name}" at byte '
                    f"offset {match.start()}",
                )
            stack.pop()
        else:
            stack.append(name)
        pos = match.end()
    _check_text(source[pos:], pos)
    if stack:
        raise ApiError(
            400,
            f"Bad Request: can't parse entities: Can't find end tag corresponding to {stack[-1]}",
        )
    return html.unescape(_TAG.sub("", source))


def _check_text(chunk: str, offset: int) -> None:
    if "<" in chunk:
        raise ApiError(
            400,
            f"Bad Request: can't parse entities: unescaped '<' at byte offset "
            f"{offset + chunk.index('<')}",
        )
    amp = _BARE_AMP.search(chunk)
    if amp:
        raise ApiError(
            400,
            f"Bad Request: can't parse entities: unescaped '&' at byte offset "
            f"{offset + amp.start()}",
        )


# --------------------------------------------------------------------------------------- model


@dataclass
class Call:
    """One Bot API request as the server received it."""

    seq: int
    token: str
    method: str
    params: dict[str, Any]
    ok: bool = True
    result: Any = None
    error: str | None = None
    at: float = field(default_factory=time.monotonic)


@dataclass
class Version:
    """One state of a message: how it was sent or edited."""

    method: str
    text: str
    raw: str
    reply_markup: dict[str, Any] | None
    at: float


@dataclass
class Message:
    """A message in a chat, as the server currently knows it."""

    chat: Chat
    message_id: int
    from_bot: bool
    sender: User | None
    text: str  # plain text, as a client shows it
    raw: str  # as sent (with HTML tags when parse_mode=HTML)
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    date: int
    history: list[Version] = field(default_factory=list)
    deleted: bool = False
    entities: list[dict[str, Any]] | None = None
    via_bot: bool = False  # sent by the user through the bot's inline mode
    inline_message_id: str | None = None  # only for an inline message with a keyboard
    photo: bytes | None = None  # sendPhoto: the uploaded image (``text`` is its caption)
    reply_to: Message | None = None  # the message this one answers (a user's reply)
    #: an ephemeral message: the one user who sees it, else ``None``
    receiver: int | None = None
    replaces: int | None = None  # the group message it is shown in place of, for its receiver

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button of the current keyboard, row after row."""
        return _buttons(self.reply_markup)

    def button_texts(self) -> list[str]:
        return [b["text"] for b in self.buttons()]

    def all_texts(self) -> list[str]:
        """Current and every past text of this message (plain and raw)."""
        out = [v.text for v in self.history] + [v.raw for v in self.history]
        return out or [self.text]

    def to_json(self, bot: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {
            # An ephemeral message is known by its own id, in a sequence of its own.
            "message_id": 0 if self.receiver is not None else self.message_id,
            "date": self.date,
            "chat": self.chat.to_json(),
            "text": self.text,
        }
        if self.photo is not None:
            del data["text"]
            width, height = png_size(self.photo) or (1, 1)
            data["photo"] = [
                {
                    "file_id": f"photo-{self.chat.id}-{self.message_id}",
                    "file_unique_id": f"p{self.chat.id}x{self.message_id}",
                    "width": width,
                    "height": height,
                    "file_size": len(self.photo),
                }
            ]
            if self.text:
                data["caption"] = self.text
        data["from"] = bot if self.from_bot else self.sender.to_json() if self.sender else None
        if data["from"] is None:
            del data["from"]
        if self.via_bot:
            data["via_bot"] = bot
        if self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_json(bot)
        if self.entities:
            data["entities"] = self.entities
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.receiver is not None:
            data["ephemeral_message_id"] = self.message_id
        if len(self.history) > 1:
            data["edit_date"] = int(self.history[-1].at) or self.date
        return data

    def __repr__(self) -> str:
        return f"<Message {self.chat.id}/{self.message_id} {self.text[:60]!r}>"


def _buttons(markup: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not markup:
        return []
    return [b for row in markup.get("inline_keyboard", []) for b in row]


@dataclass
class InlineAnswer:
    """What the bot answered to an inline query (``answerInlineQuery``), as the user sees it."""

    results: list[dict[str, Any]]
    cache_time: int
    is_personal: bool
    next_offset: str
    button: dict[str, Any] | None
    at: float
    from_cache: bool = False  # Telegram served it from its cache: the bot was not asked

    def ids(self) -> list[str]:
        return [str(r["id"]) for r in self.results]

    def titles(self) -> list[str]:
        return [str(r.get("title", "")) for r in self.results]

    def descriptions(self) -> list[str | None]:
        return [r.get("description") for r in self.results]

    def result(self, result_id: str) -> dict[str, Any]:
        for r in self.results:
            if str(r["id"]) == result_id:
                return r
        raise AssertionError(f"no inline result {result_id!r}; the results are {self.ids()}")


@dataclass
class InlineQuery:
    """An inline query a user typed in a chat (``@bot query``)."""

    id: str
    user: User
    chat: Chat
    query: str
    offset: str
    chat_type: str
    at: float
    answer: InlineAnswer | None = None
    chosen: list[str] = field(default_factory=list)  # result ids the user picked

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.user.to_json(),
            "query": self.query,
            "offset": self.offset,
            "chat_type": self.chat_type,
        }


class Chat:
    """A group (``type`` supergroup or group) or a private chat with one user.

    A group's members (getChatMember "member") are the users it was created with, added with
    ``add``, or who posted in it; the others are "left" (or "kicked" after ``remove(ban=True)``).
    """

    def __init__(
        self,
        server: FakeTelegram,
        chat_id: int,
        kind: str,
        title: str | None = None,
        user: User | None = None,
    ) -> None:
        self.server = server
        self.id = chat_id
        self.type = kind
        self.title = title
        self.user = user
        self.members: set[int] = set()
        self.admins: set[int] = set()
        self.creator: int | None = None
        self.banned: set[int] = set()  # getChatMember status "kicked"
        self.bot_admin = False  # the bot's own status in this group
        self.migrated_to: int | None = None  # a group upgraded to this supergroup
        self.messages: list[Message] = []
        self._ids = itertools.count(1)
        #: ephemeral messages: each seen by its ``receiver`` only, never in ``messages``
        self.ephemeral: list[Message] = []
        self._ephemeral_ids = itertools.count(1)

    # --- membership (what getChatMember answers)
    def add(self, *users: User) -> Chat:
        """Users join (or are added to) this group: their status becomes "member"."""
        with self.server._lock:
            for user in users:
                self.members.add(user.id)
                self.banned.discard(user.id)
        return self

    def remove(self, *users: User, ban: bool = False) -> Chat:
        """Users leave (status "left") or are banned (status "kicked") from this group."""
        with self.server._lock:
            for user in users:
                self.members.discard(user.id)
                self.admins.discard(user.id)
                if self.creator == user.id:
                    self.creator = None
                if ban:
                    self.banned.add(user.id)
        return self

    def promote(self, *users: User) -> Chat:
        """Users become administrators of this group."""
        with self.server._lock:
            for user in users:
                self.members.add(user.id)
                self.admins.add(user.id)
        return self

    def status_of(self, user: User) -> str:
        """The getChatMember status of ``user`` here."""
        with self.server._lock:
            return str(self.server._member_json(self, user.id)["status"])

    # --- what users posted here
    def user_messages(self) -> list[Message]:
        """Messages users sent here (typed, or chosen from the bot's inline results)."""
        with self.server._lock:
            return [m for m in self.messages if not m.from_bot and not m.deleted]

    def to_json(self) -> dict[str, Any]:
        if self.type == "private" and self.user:
            data: dict[str, Any] = {
                "id": self.id,
                "type": "private",
                "first_name": self.user.first_name,
            }
            if self.user.username:
                data["username"] = self.user.username
            return data
        return {"id": self.id, "type": self.type, "title": self.title}

    # --- what the bot posted here
    def bot_messages(self, *, include_deleted: bool = False) -> list[Message]:
        with self.server._lock:
            return [m for m in self.messages if m.from_bot and (include_deleted or not m.deleted)]

    def ephemeral_for(self, user: User, *, include_deleted: bool = False) -> list[Message]:
        """The ephemeral messages ``user`` sees here (nobody else sees them)."""
        with self.server._lock:
            return [
                m
                for m in self.ephemeral
                if m.receiver == user.id and (include_deleted or not m.deleted)
            ]

    def last_bot_message(self) -> Message:
        msgs = self.bot_messages()
        assert msgs, f"the bot has not posted in chat {self.id}"
        return msgs[-1]

    def message_with_button(self, text_or_data: str) -> Message:
        """The newest bot message whose current keyboard has this button."""
        for msg in reversed(self.bot_messages()):
            if any(_button_matches(b, text_or_data) for b in msg.buttons()):
                return msg
        raise AssertionError(f"no message in chat {self.id} has a button {text_or_data!r}")

    def texts(self) -> list[str]:
        """Every text the bot ever showed here (each send and each edit), plain and raw."""
        with self.server._lock:
            return [t for m in self.messages if m.from_bot for t in m.all_texts()]

    def __repr__(self) -> str:
        return f"<Chat {self.id} {self.type} {self.title or ''}>"


class User:
    """A simulated Telegram user."""

    def __init__(
        self,
        server: FakeTelegram,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str = "es",
    ) -> None:
        self.server = server
        self.id = user_id
        self.first_name = first_name
        self.username = username
        self.language_code = language_code
        self.started = False  # has opened a private chat with the bot
        self.blocked = False  # has blocked the bot
        self.private = Chat(server, user_id, "private", user=self)
        self.opened_urls: list[str] = []  # url buttons this user pressed

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }
        if self.username:
            data["username"] = self.username
        return data

    def send(
        self,
        chat: Chat,
        text: str,
        *,
        deliver_to: str | Iterable[str] | None = None,
        reply_to: Message | None = None,
    ) -> int:
        """Queue a text message from this user (a command gets its ``bot_command`` entity),
        optionally as a reply to ``reply_to``."""
        return self.server.send_message_update(
            self, chat, text, deliver_to=deliver_to, reply_to=reply_to
        )

    def start_private(
        self, payload: str | None = None, *, deliver_to: str | Iterable[str] | None = None
    ) -> int:
        """Open the private chat with the bot (``/start`` or a deep link's ``/start payload``)."""
        self.started = True
        text = "/start" if payload is None else f"/start {payload}"
        return self.send(self.private, text, deliver_to=deliver_to)

    def press(
        self,
        message: Message,
        button: str,
        *,
        deliver_to: str | Iterable[str] | None = None,
        stale_ok: bool = True,
        into: Chat | None = None,
    ) -> str:
        """Press an inline button by its text or callback data; returns the callback query id.

        The button is looked up in the current keyboard first and then, if ``stale_ok``, in the
        keyboards the message showed before (a client may still display an old one).

        Other kinds of button do what a client does: ``switch_inline_query_current_chat`` types
        "@bot <query>" in the message's chat and returns the new inline query id;
        ``switch_inline_query`` (and ``..._chosen_chat``) does the same in the chat ``into`` the
        user picks; ``url`` opens the link (a ``t.me/<bot>?start=<payload>`` link opens the
        private chat and sends ``/start <payload>``) and returns the url.
        """
        found = self.server.find_button(message, button, stale_ok=stale_ok)
        if "callback_data" in found:
            data = str(found["callback_data"])
            return self.server.send_callback_update(self, message, data, deliver_to=deliver_to)
        if "switch_inline_query_current_chat" in found:
            query = str(found["switch_inline_query_current_chat"])
            return self.inline_query(message.chat, query, deliver_to=deliver_to)
        if "switch_inline_query" in found or "switch_inline_query_chosen_chat" in found:
            if into is None:
                raise AssertionError(f"button {button!r} asks the user to pick a chat: pass into=")
            chosen = found.get("switch_inline_query_chosen_chat")
            query = str(chosen.get("query", "")) if chosen else str(found["switch_inline_query"])
            return self.inline_query(into, query, deliver_to=deliver_to)
        if "url" in found:
            url = str(found["url"])
            with self.server._lock:
                self.opened_urls.append(url)
            link = re.fullmatch(
                rf"https?://t\.me/{re.escape(self.server.bot_username)}\?start=([A-Za-z0-9_-]+)",
                url,
                re.IGNORECASE,
            )
            if link:
                self.start_private(link.group(1), deliver_to=deliver_to)
            return url
        raise AssertionError(f"the fake cannot press {found}")

    def inline_query(
        self,
        chat: Chat,
        query: str = "",
        *,
        offset: str = "",
        deliver_to: str | Iterable[str] | None = None,
    ) -> str:
        """Type "@bot ``query``" in ``chat``; returns the inline query id.

        Telegram sends the bot an ``inline_query`` update, unless it still has a cached answer
        for the same text and offset (``cache_time`` of an earlier answer, per user when it was
        ``is_personal``): then the answer is shown again and the bot is not asked.
        """
        return self.server.send_inline_query(self, chat, query, offset, deliver_to=deliver_to)

    def more_results(self, query_id: str, *, deliver_to: str | Iterable[str] | None = None) -> str:
        """Scroll to the end of the results: the same query with the answer's ``next_offset``."""
        with self.server._lock:
            record = self.server.inline_queries[query_id]
            answer = record.answer
            assert answer and answer.next_offset, f"inline query {query_id} has no next_offset"
            chat, text, offset = record.chat, record.query, answer.next_offset
        return self.inline_query(chat, text, offset=offset, deliver_to=deliver_to)

    def choose_inline_result(
        self, query_id: str, result_id: str, *, deliver_to: str | Iterable[str] | None = None
    ) -> Message:
        """Tap a result of an answered inline query: it is posted in the chat ``via_bot``.

        The bot gets the new message as a ``message`` update and, with inline feedback on, a
        ``chosen_inline_result`` update. Returns the posted message.
        """
        return self.server.choose_inline_result(self, query_id, result_id, deliver_to=deliver_to)

    def press_results_button(
        self, query_id: str, *, deliver_to: str | Iterable[str] | None = None
    ) -> int:
        """Tap the button above the inline results (``start_parameter``): opens the private
        chat with the bot and sends ``/start <start_parameter>``; returns the update id."""
        with self.server._lock:
            answer = self.server.inline_queries[query_id].answer
            assert answer and answer.button, f"inline query {query_id} shows no button"
            payload = answer.button.get("start_parameter")
        assert payload, "the results button opens a web app, not the private chat"
        return self.start_private(str(payload), deliver_to=deliver_to)

    def press_data(
        self, message: Message, data: str, *, deliver_to: str | Iterable[str] | None = None
    ) -> str:
        """Press a button with arbitrary callback data (forged or remembered)."""
        return self.server.send_callback_update(self, message, data, deliver_to=deliver_to)

    def answers(self) -> list[dict[str, Any]]:
        """The callback answers the bot gave to this user's presses."""
        with self.server._lock:
            return [a for a in self.server.answers.values() if a["user_id"] == self.id]

    def __repr__(self) -> str:
        return f"<User {self.id} {self.first_name}>"


def _button_matches(button: dict[str, Any], wanted: str) -> bool:
    return button.get("text") == wanted or button.get("callback_data") == wanted


def _missing_field(name: str) -> str:
    return f"Bad Request: can't parse inline query result: Can't find field \"{name}\""


def _inline_query_chat_type(user: User, chat: Chat) -> str:
    """``InlineQuery.chat_type`` as Telegram reports it for ``user`` typing in ``chat``."""
    if chat.type == "private":
        # The private chat with the bot is the one of the "sender"; a chat with another user
        # would be "private" (the fake has no chats between users).
        return "sender" if chat.user is user else "private"
    return chat.type


# -------------------------------------------------------------------------------------- server


@dataclass
class TimeOut:
    """A fault of :meth:`FakeTelegram.time_out`: calls of ``method`` the bot sees time out."""

    method: str
    effect: bool
    when: Callable[[dict[str, Any]], bool] | None
    left: int


class FakeTelegram:
    """The fake Bot API: a ThreadingHTTPServer on 127.0.0.1 plus the Telegram model."""

    def __init__(
        self,
        tokens: Iterable[str] = ("123456:TEST-TOKEN",),
        *,
        bot_id: int = 123456,
        bot_username: str = "TapeteTestBot",
        first_group_id: int = -1001000000001,
        first_user_id: int = 1001,
        first_update_id: int = 1000,
        supports_inline_queries: bool = True,
        inline_feedback: bool = True,
        inline_query_timeout: float = 10.0,
        inline_cache: bool = True,
    ) -> None:
        self.tokens = list(tokens)
        self.bot_id = bot_id
        self.bot_username = bot_username
        self.bot_json = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Tapete",
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": supports_inline_queries,
        }
        #: BotFather's "inline feedback": chosen_inline_result updates are sent
        self.inline_feedback = inline_feedback
        #: seconds after which answerInlineQuery says "query is too old"
        self.inline_query_timeout = inline_query_timeout
        #: Telegram's server-side cache of inline answers (``cache_time``, ``is_personal``)
        self.inline_cache = inline_cache
        self.inline_queries: dict[str, InlineQuery] = {}  # inline query id -> query
        #: (query, offset, user id when the answer was personal, else None) -> answer
        self._inline_answers_cache: dict[tuple[str, str, int | None], InlineAnswer] = {}
        self.chosen_results: list[dict[str, Any]] = []  # every ChosenInlineResult, in order
        self._inline_message_ids = itertools.count(1)
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._closed = False
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.calls: list[Call] = []
        self.unknown_methods: list[str] = []
        self.expect_bad_requests = False  # set by tests that provoke API errors on purpose
        self.answers: dict[str, dict[str, Any]] = {}  # callback query id -> answer
        self.callbacks: dict[str, dict[str, Any]] = {}  # callback query id -> the query
        #: callback query id -> (who pressed, in which chat, when: :meth:`now`)
        self.pressed: dict[str, tuple[int, int, float]] = {}
        #: Bot API 10.2 ephemeral messages: off, the server is older (it ignores the parameter)
        self.ephemeral_supported = True
        #: set: every ephemeral message sent is refused with this error (a client that cannot
        #: show them, a server that will not send them to this chat)
        self.refuse_ephemeral: str | None = None
        self.clock_offset = 0.0  # seconds :meth:`advance` moved the server's clock on
        #: (scope key, language code) -> commands, as set by setMyCommands
        self.commands: dict[tuple[tuple[Any, ...], str], list[dict[str, Any]]] = {}
        self.fail: dict[str, tuple[int, str]] = {}  # method (lower case) -> forced error
        #: (token, method in lower case) -> seconds the answer is held back (a slow network)
        self.delay: dict[tuple[str, str], float] = {}
        #: One-shot timeouts (:meth:`time_out`): the next call they match is answered only after
        #: :attr:`timeout_hold` seconds, when the bot no longer waits for it (it timed out).
        self.timeouts: list[TimeOut] = []
        #: Seconds a timed-out answer is held back: beyond the bot's ``TAPETE_API_TIMEOUT``.
        self.timeout_hold = 6.0
        #: Every call that timed out, and whether it took effect first.
        self.timed_out: list[tuple[dict[str, Any], bool]] = []
        self.queues: dict[str, list[tuple[int, dict[str, Any]]]] = {t: [] for t in self.tokens}
        self.confirmed: dict[str, int] = dict.fromkeys(self.tokens, 0)  # highest offset seen
        self.queued_at: dict[int, float] = {}
        self.last_delivery = 0.0  # when getUpdates last handed out updates
        #: Bot API requests (getUpdates aside) being answered now
        self.in_flight = 0
        #: the in-process bots' own word on being idle (:meth:`watch`)
        self.idle_probes: list[Callable[[], Awaitable[bool]]] = []
        #: token -> getUpdates requests received (counted when they arrive, not when they end)
        self.polls: dict[str, int] = {}
        #: update id -> (chat ids the bot is expected to answer in, callback query id or None)
        self.update_meta: dict[int, tuple[frozenset[int], str | None]] = {}
        self._update_ids = itertools.count(first_update_id)
        self.first_update_id = first_update_id
        self._user_ids = itertools.count(first_user_id)
        self._group_ids = itertools.count(-first_group_id)
        self._query_ids = itertools.count(1)
        self._round_robin = itertools.cycle(self.tokens)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> FakeTelegram:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()

    @property
    def base_url(self) -> str:
        """python-telegram-bot's ``base_url`` form: the token is appended to it."""
        return f"http://127.0.0.1:{self.port}/bot"

    def add_token(self, token: str) -> str:
        """Serve one more token (another poller for the same bot)."""
        with self._lock:
            if token not in self.queues:
                self.tokens.append(token)
                self.queues[token] = []
                self.confirmed[token] = 0
                self._round_robin = itertools.cycle(self.tokens)
        return token

    # ------------------------------------------------------------------ world
    def user(
        self, first_name: str, username: str | None = None, *, language_code: str = "es"
    ) -> User:
        with self._lock:
            user = User(self, next(self._user_ids), first_name, username, language_code)
            self.users[user.id] = user
            self.chats[user.id] = user.private
            return user

    def group(
        self,
        title: str = "Mus",
        members: Iterable[User] = (),
        *,
        creator: User | None = None,
        admins: Iterable[User] = (),
        chat_id: int | None = None,
        kind: str = "supergroup",
        bot_admin: bool = False,
    ) -> Chat:
        """A group (``kind`` "supergroup" or "group"); ``creator`` and ``admins`` are members."""
        assert kind in ("group", "supergroup"), kind
        with self._lock:
            cid = chat_id if chat_id is not None else -next(self._group_ids)
            chat = Chat(self, cid, kind, title=title)
            chat.bot_admin = bot_admin
            chat.admins = {u.id for u in admins}
            chat.creator = creator.id if creator else None
            chat.members = {u.id for u in members} | chat.admins
            if chat.creator is not None:
                chat.members.add(chat.creator)
            self.chats[cid] = chat
            return chat

    def migrate(self, chat: Chat, *, by: User | None = None) -> Chat:
        """Upgrade a group to a supergroup, as Telegram does: a new chat id with the same
        people; the old chat refuses every method (400 with ``migrate_to_chat_id``) and its
        messages are not in the new one. The bot gets the two service messages: one in the
        old chat (``migrate_to_chat_id``), one in the new chat (``migrate_from_chat_id``)."""
        with self._lock:
            new = self.group(
                chat.title or "",
                [self.users[u] for u in chat.members if u in self.users],
                kind="supergroup",
                bot_admin=chat.bot_admin,
            )
            new.admins, new.creator, new.banned = set(chat.admins), chat.creator, set(chat.banned)
            chat.migrated_to = new.id
            who = by or (self.users.get(chat.creator) if chat.creator is not None else None)
            sender = who.to_json() if who is not None else {"id": 777000, "is_bot": False}
            now = int(time.time())
            for where, field, other in (
                (chat, "migrate_to_chat_id", new.id),
                (new, "migrate_from_chat_id", chat.id),
            ):
                message = {
                    "message_id": next(where._ids),
                    "date": now,
                    "chat": where.to_json(),
                    "from": sender,
                    field: other,
                }
                self.push_update({"message": message})
            return new

    # ------------------------------------------------------------------ updates
    def _targets(self, deliver_to: str | Iterable[str] | None) -> list[str]:
        if deliver_to is None:
            return [self.tokens[0]]
        if deliver_to == "all":
            return list(self.tokens)
        if deliver_to == "round_robin":
            return [next(self._round_robin)]
        if isinstance(deliver_to, str):
            return [deliver_to]
        return list(deliver_to)

    def push_update(
        self, payload: dict[str, Any], deliver_to: str | Iterable[str] | None = None
    ) -> int:
        """Queue an update (``payload`` without ``update_id``) for one or more pollers."""
        with self._cond:
            update_id = next(self._update_ids)
            update = {"update_id": update_id, **payload}
            for token in self._targets(deliver_to):
                self.queues[token].append((update_id, update))
            self.queued_at[update_id] = time.monotonic()
            self._cond.notify_all()
            return update_id

    def send_message_update(
        self,
        user: User,
        chat: Chat,
        text: str,
        *,
        deliver_to: str | Iterable[str] | None = None,
        reply_to: Message | None = None,
    ) -> int:
        with self._lock:
            if chat.type != "private":
                chat.members.add(user.id)
            msg = Message(
                chat=chat,
                message_id=next(chat._ids),
                from_bot=False,
                sender=user,
                text=text,
                raw=text,
                parse_mode=None,
                reply_markup=None,
                date=int(time.time()),
                reply_to=reply_to,
            )
            if text.startswith("/"):
                command = text.split()[0]
                msg.entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
            msg.history.append(Version("user", text, text, None, time.monotonic()))
            chat.messages.append(msg)
            payload = {"message": msg.to_json(self.bot_json)}
            update_id = self.push_update(payload, deliver_to)
            self.update_meta[update_id] = (frozenset({chat.id, user.id}), None)
        return update_id

    def find_button(
        self, message: Message, button: str, *, stale_ok: bool = True
    ) -> dict[str, Any]:
        """The button shown on ``message`` with this text or callback data (see ``press``)."""
        with self._lock:
            for b in message.buttons():
                if _button_matches(b, button):
                    return b
            if stale_ok:
                for version in reversed(message.history):
                    for b in _buttons(version.reply_markup):
                        if _button_matches(b, button):
                            return b
        raise AssertionError(
            f"{message!r} has no button {button!r}; it shows {message.button_texts()}"
        )

    def find_callback_data(self, message: Message, button: str, *, stale_ok: bool = True) -> str:
        with self._lock:
            for b in message.buttons():
                if _button_matches(b, button) and "callback_data" in b:
                    return str(b["callback_data"])
            if stale_ok:
                for version in reversed(message.history):
                    for b in _buttons(version.reply_markup):
                        if _button_matches(b, button) and "callback_data" in b:
                            return str(b["callback_data"])
        raise AssertionError(
            f"{message!r} has no button {button!r}; it shows {message.button_texts()}"
        )

    def send_callback_update(
        self,
        user: User,
        message: Message,
        data: str,
        *,
        deliver_to: str | Iterable[str] | None = None,
    ) -> str:
        with self._lock:
            if message.receiver is not None and message.receiver != user.id:
                raise AssertionError(f"{user.first_name} cannot see {message!r}")
            query_id = f"{user.id}{next(self._query_ids):08d}"
            self.pressed[query_id] = (user.id, message.chat.id, self.now())
            query = {
                "id": query_id,
                "from": user.to_json(),
                "chat_instance": str(abs(message.chat.id)),
                "data": data,
            }
            if message.inline_message_id:
                query["inline_message_id"] = message.inline_message_id
            else:
                query["message"] = message.to_json(self.bot_json)
            self.callbacks[query_id] = query
            update_id = self.push_update({"callback_query": query}, deliver_to)
            self.update_meta[update_id] = (frozenset({message.chat.id, user.id}), query_id)
        return query_id

    def send_inline_query(
        self,
        user: User,
        chat: Chat,
        query: str,
        offset: str = "",
        *,
        deliver_to: str | Iterable[str] | None = None,
    ) -> str:
        """``user`` typed "@bot ``query``" in ``chat``: queue an ``inline_query`` update."""
        with self._lock:
            if not self.bot_json["supports_inline_queries"]:
                raise AssertionError("inline mode is off (supports_inline_queries=False)")
            assert len(query) <= 256, "a client sends at most 256 characters of inline query"
            now = time.monotonic()
            record = InlineQuery(
                id=f"{user.id}{next(self._query_ids):08d}",
                user=user,
                chat=chat,
                query=query,
                offset=offset,
                chat_type=_inline_query_chat_type(user, chat),
                at=now,
            )
            self.inline_queries[record.id] = record
            cached = self._cached_answer(user, query, offset, now)
            if cached is not None:
                record.answer = InlineAnswer(**{**cached.__dict__, "at": now, "from_cache": True})
                return record.id
            update_id = self.push_update({"inline_query": record.to_json()}, deliver_to)
            self.update_meta[update_id] = (frozenset(), record.id)
        return record.id

    def _cached_answer(
        self, user: User, query: str, offset: str, now: float
    ) -> InlineAnswer | None:
        if not self.inline_cache:
            return None
        for key in ((query, offset, user.id), (query, offset, None)):
            answer = self._inline_answers_cache.get(key)
            if answer is not None and now < answer.at + answer.cache_time:
                return answer
        return None

    def choose_inline_result(
        self,
        user: User,
        query_id: str,
        result_id: str,
        *,
        deliver_to: str | Iterable[str] | None = None,
    ) -> Message:
        """``user`` taps a result: post it in the chat ``via_bot`` and tell the bot."""
        with self._lock:
            record = self.inline_queries.get(query_id)
            assert record is not None, f"unknown inline query {query_id}"
            assert record.user is user, f"inline query {query_id} was typed by {record.user}"
            assert record.answer is not None, f"the bot has not answered inline query {query_id}"
            result = record.answer.result(result_id)
            content = result.get("input_message_content")
            if not content or "message_text" not in content:
                raise AssertionError(f"the fake only posts text results, not {result}")
            chat = record.chat
            if chat.type != "private":
                chat.members.add(user.id)
            raw = str(content["message_text"])
            mode = content.get("parse_mode")
            text = html_to_text(raw) if mode and str(mode).upper() == "HTML" else raw
            markup = result.get("reply_markup") or None
            msg = Message(
                chat=chat,
                message_id=next(chat._ids),
                from_bot=False,
                sender=user,
                text=text,
                raw=raw,
                parse_mode=mode,
                reply_markup=markup,
                date=int(time.time()),
                via_bot=True,
            )
            if markup:
                msg.inline_message_id = f"AQAAA{next(self._inline_message_ids):06d}{user.id}"
            msg.history.append(Version("inline", text, raw, markup, time.monotonic()))
            chat.messages.append(msg)
            record.chosen.append(result_id)
            update_id = self.push_update({"message": msg.to_json(self.bot_json)}, deliver_to)
            self.update_meta[update_id] = (frozenset({chat.id, user.id}), None)
            if self.inline_feedback:
                chosen: dict[str, Any] = {
                    "result_id": result_id,
                    "from": user.to_json(),
                    "query": record.query,
                }
                if msg.inline_message_id:
                    chosen["inline_message_id"] = msg.inline_message_id
                self.chosen_results.append(chosen)
                self.push_update({"chosen_inline_result": chosen}, deliver_to)
        return msg

    # ------------------------------------------------------------------ observation
    def inline_answer(self, query_id: str) -> InlineAnswer | None:
        """The answer shown for an inline query (None while the bot has not answered)."""
        with self._lock:
            record = self.inline_queries.get(query_id)
            return record.answer if record else None

    async def wait_inline_answer(self, query_id: str, timeout: float = 5.0) -> InlineAnswer:
        """Wait until the inline query has its results (from the bot or Telegram's cache)."""
        answer: InlineAnswer = await self.wait_for(
            lambda: self.inline_answer(query_id), timeout, f"the answer to inline query {query_id}"
        )
        return answer

    def my_commands(self, scope: dict[str, Any] | None = None, language_code: str = "") -> Any:
        """The commands set for exactly this scope and language (like ``getMyCommands``)."""
        with self._lock:
            key = (self._scope_key(scope), language_code)
            return [dict(c) for c in self.commands.get(key, [])]

    def menu(self, chat: Chat, user: User) -> list[str]:
        """The command names ``user`` sees in ``chat``'s menu, resolved as Telegram clients do.

        The first scope with commands wins, for the user's language first and then for all
        languages (a group's admin scopes apply only to its administrators).
        """
        with self._lock:
            if chat.type == "private":
                scopes: list[tuple[Any, ...]] = [
                    ("chat", chat.id, None),
                    ("all_private_chats", None, None),
                ]
            else:
                admin = user.id in chat.admins or user.id == chat.creator
                scopes = [("chat_member", chat.id, user.id)]
                scopes += [("chat_administrators", chat.id, None)] if admin else []
                scopes += [("chat", chat.id, None)]
                scopes += [("all_chat_administrators", None, None)] if admin else []
                scopes += [("all_group_chats", None, None)]
            scopes.append(("default", None, None))
            for scope in scopes:
                for lang in (user.language_code, ""):
                    commands = self.commands.get((scope, lang))
                    if commands:
                        return [str(c["command"]) for c in commands]
            return []

    def calls_to(self, method: str, since: int = 0) -> list[Call]:
        low = method.lower()
        with self._lock:
            return [c for c in self.calls[since:] if c.method.lower() == low]

    def count(self, method: str | None = None) -> int:
        with self._lock:
            if method is None:
                return sum(1 for c in self.calls if c.method.lower() != "getupdates")
            return len(self.calls_to(method))

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        with self._lock:
            for c in self.calls:
                out[c.method] = out.get(c.method, 0) + 1
        return out

    def mark(self) -> int:
        """A position in the call log, for ``since=`` arguments."""
        with self._lock:
            return len(self.calls)

    def polls_started(self, token: str) -> int:
        """How many getUpdates requests came with ``token`` so far, those still waiting
        included (a long poll is recorded in :attr:`calls` only when it returns)."""
        with self._lock:
            return self.polls.get(token, 0)

    def pending(self) -> int:
        """Updates queued but not yet fetched and confirmed by their poller."""
        with self._lock:
            return sum(
                1 for t, q in self.queues.items() for uid, _ in q if uid >= self.confirmed[t]
            )

    def delivered(self, update_id: int, token: str | None = None) -> bool:
        """Whether the poller fetched the update (its offset moved past it)."""
        with self._lock:
            tokens = [token] if token else [t for t, q in self.queues.items() if q]
            return all(self.confirmed[t] > update_id or not self._has(t, update_id) for t in tokens)

    def _has(self, token: str, update_id: int) -> bool:
        return any(uid == update_id for uid, _ in self.queues[token])

    def answer(self, query_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self.answers.get(query_id)

    def messages(self, chat: Chat | None = None) -> list[Message]:
        with self._lock:
            chats = [chat] if chat else list(self.chats.values())
            return [m for c in chats for m in c.messages if m.from_bot]

    def group_calls(self, since: int = 0, chat: Chat | None = None) -> list[Call]:
        """Successful sendMessage calls into groups (new group messages)."""
        with self._lock:
            return [
                c
                for c in self.calls[since:]
                if c.method.lower() == "sendmessage"
                and c.ok
                and int(c.params.get("chat_id", 0)) < 0
                and (chat is None or int(c.params["chat_id"]) == chat.id)
            ]

    def latencies(self) -> list[float]:
        """Seconds from each update being queued to the bot's first API call about it.

        The call is matched by chat (the update's chat or the sender's private chat) or by
        callback query id; meaningful when each chat has one update in flight at a time.
        """
        out = []
        with self._lock:
            calls = sorted(
                (c for c in self.calls if c.method.lower() != "getupdates"), key=lambda c: c.at
            )
            times = [c.at for c in calls]
            for update_id, (chats, query_id) in self.update_meta.items():
                start = self.queued_at[update_id]
                for c in calls[bisect.bisect_left(times, start) :]:
                    if (
                        query_id is not None
                        and query_id
                        in (c.params.get("callback_query_id"), c.params.get("inline_query_id"))
                    ) or (c.params.get("chat_id") in chats):
                        out.append(c.at - start)
                        break
        return out

    async def wait_for(
        self,
        condition: Callable[[], Any],
        timeout: float = 5.0,
        what: str = "",
        interval: float = 0.005,
    ) -> Any:
        """Wait until ``condition()`` is truthy and return its value (AssertionError on timeout).

        ``condition`` may be a coroutine function (e.g. reading Redis).
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                value = condition()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or condition}")
            await asyncio.sleep(interval)

    async def wait_call(
        self,
        method: str,
        since: int,
        where: Callable[[Call], bool] | None = None,
        timeout: float = 5.0,
    ) -> Call:
        """Wait for the first call to ``method`` after ``since`` that matches ``where``."""

        def found() -> Call | None:
            for c in self.calls_to(method, since):
                if where is None or where(c):
                    return c
            return None

        call: Call = await self.wait_for(found, timeout, f"a {method} call")
        return call

    async def wait_answer(self, query_id: str, timeout: float = 5.0) -> dict[str, Any]:
        answer: dict[str, Any] = await self.wait_for(
            lambda: self.answers.get(query_id), timeout, f"the answer to callback {query_id}"
        )
        return answer

    def watch(self, idle: Callable[[], Awaitable[bool]]) -> None:
        """Let :meth:`settle` ask a bot running in this process whether it is idle (it has no
        update in hand, no publication running, no timer about to fire)."""
        self.idle_probes.append(idle)

    def unwatch(self, idle: Callable[[], Awaitable[bool]]) -> None:
        with contextlib.suppress(ValueError):
            self.idle_probes.remove(idle)

    async def settle(self, quiet: float = 0.2, timeout: float = 8.0) -> None:
        """Wait until every queued update was fetched and the bot is done with it.

        With the bots watched (:meth:`watch`: those of this process), as soon as none of them
        has anything in hand and no Bot API call is being answered, and that stays so for
        :data:`IDLE_CONFIRM` s (a wake-up between two of them crosses Redis); else (bots in
        other processes) once the bot made no call for ``quiet`` s.
        """
        deadline = time.monotonic() + timeout
        idle_since: float | None = None
        while True:
            with self._lock:
                last = max(
                    (c.at for c in reversed(self.calls) if c.method.lower() != "getupdates"),
                    default=0.0,
                )
                last = max(last, self.last_delivery)
                busy = self.pending()
                calls = self.in_flight
                probes = list(self.idle_probes)
            now = time.monotonic()
            if not probes:
                if not busy and not calls and now - last >= quiet:
                    return
            elif busy or calls or not all([await probe() for probe in probes]):
                idle_since = None
            elif idle_since is None:
                idle_since = now
            elif now - idle_since >= IDLE_CONFIRM:
                return
            if now > deadline:
                raise AssertionError(f"the bot did not settle ({busy} updates pending)")
            await asyncio.sleep(0.005)

    # ------------------------------------------------------------------ dispatch
    def handle(self, token: str, method: str, params: dict[str, Any]) -> Any:
        """Run one Bot API method (called from the HTTP handler threads)."""
        if token not in self.queues:
            raise ApiError(401, "Unauthorized")
        low = method.lower()
        if low in self.fail:
            code, description = self.fail[low]
            parameters = None
            if code == 429:  # "Too Many Requests: retry after N"
                parameters = {"retry_after": int(description.rsplit(" ", 1)[-1])}
            raise ApiError(code, description, parameters)
        if low == "getupdates":
            return self._get_updates(token, params)
        pause = self.delay.get((token, low))
        if pause:
            time.sleep(pause)  # before the call takes effect, like a slow request
        fault = self._take_timeout(low, params)
        if fault is not None and not fault.effect:
            self._held(params, effect=False)  # lost on the way: nothing happened
        with self._lock:
            func = getattr(self, f"_m_{low}", None)
            if func is None:
                self.unknown_methods.append(method)
                log.warning("fake Telegram: unknown method %s %s", method, params)
                raise ApiError(400, f"Bad Request: method {method} is not implemented by the fake")
            result = func(params)
        if fault is not None:
            self._held(params, effect=True)  # done, but the answer comes too late
        return result

    def time_out(
        self,
        method: str,
        *,
        effect: bool,
        when: Callable[[dict[str, Any]], bool] | None = None,
        times: int = 1,
    ) -> TimeOut:
        """The next ``times`` calls of ``method`` (those ``when`` accepts, given the call's
        parameters) time out for the bot: with ``effect`` they take effect first (a message is
        sent) and the answer is lost; without, the request is lost on its way (nothing
        happens). Either way the bot sees no answer within its timeout."""
        fault = TimeOut(method.lower(), effect, when, times)
        with self._lock:
            self.timeouts.append(fault)
        return fault

    def _take_timeout(self, low: str, params: dict[str, Any]) -> TimeOut | None:
        with self._lock:
            for fault in self.timeouts:
                wanted = fault.when is None or fault.when(params)
                if fault.method == low and fault.left > 0 and wanted:
                    fault.left -= 1
                    if fault.left == 0:
                        self.timeouts.remove(fault)
                    return fault
        return None

    def _held(self, params: dict[str, Any], *, effect: bool) -> None:
        """Answer no sooner than the bot gives up (:attr:`timeout_hold`); without ``effect``
        the answer is an error the bot never reads."""
        with self._lock:
            self.timed_out.append((dict(params), effect))
        time.sleep(self.timeout_hold)
        if not effect:
            raise ApiError(504, "Gateway Timeout: held back by the fake (the bot timed out)")

    def count_in_flight(self, change: int) -> None:
        with self._lock:
            self.in_flight += change

    def record(self, call: Call) -> None:
        with self._lock:
            call.seq = len(self.calls)
            self.calls.append(call)

    def _get_updates(self, token: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        allowed = params.get("allowed_updates")
        deadline = time.monotonic() + timeout
        with self._cond:
            self.polls[token] = self.polls.get(token, 0) + 1
            if offset:
                self.confirmed[token] = max(self.confirmed[token], offset)
                self.queues[token] = [(u, x) for u, x in self.queues[token] if u >= offset]
            while True:
                ready = [
                    x
                    for _, x in self.queues[token]
                    if not allowed or any(k in allowed for k in x if k != "update_id")
                ][:limit]
                remaining = deadline - time.monotonic()
                if ready:
                    self.last_delivery = time.monotonic()
                if ready or remaining <= 0 or self._closed:
                    return ready
                self._cond.wait(remaining)

    # --- helpers of the methods
    def _chat(self, params: dict[str, Any]) -> Chat:
        chat_id = params.get("chat_id")
        if chat_id is None:
            raise ApiError(400, "Bad Request: chat_id is empty")
        chat = self.chats.get(int(chat_id))
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _message(self, params: dict[str, Any], what: str) -> Message:
        if "inline_message_id" in params:
            if what == "delete":
                raise ApiError(400, "Bad Request: chat_id is empty")
            wanted = str(params["inline_message_id"])
            for chat in self.chats.values():
                for msg in chat.messages:
                    if msg.inline_message_id == wanted:
                        return msg
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self._chat(params)
        if chat.user is not None and chat.user.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        message_id = int(params.get("message_id") or 0)
        for msg in chat.messages:
            if msg.message_id == message_id and not msg.deleted:
                if not msg.from_bot and what != "delete":
                    raise ApiError(400, "Bad Request: message can't be edited")
                return msg
        raise ApiError(400, f"Bad Request: message to {what} not found")

    def _render(self, params: dict[str, Any]) -> tuple[str, str, str | None]:
        raw = params.get("text")
        if raw is None or str(raw).strip() == "":
            raise ApiError(400, "Bad Request: message text is empty")
        raw = str(raw)
        mode = params.get("parse_mode")
        if mode and str(mode).upper() == "HTML":
            text = html_to_text(raw)
        elif mode:
            # MarkdownV2 / Markdown: not validated; the plain text keeps the markup.
            text = raw
        else:
            text = raw
        if len(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        return raw, text, mode

    @staticmethod
    def _markup(params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            return markup  # reply keyboards / remove: kept as is
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ApiError(400, 'Bad Request: field "inline_keyboard" must be an Array of Array')
        for b in _buttons(markup):
            if not isinstance(b, dict) or not b.get("text"):
                raise ApiError(400, "Bad Request: text buttons are unallowed in inline keyboards")
            kinds = [k for k in b if k != "text"]
            if len(kinds) != 1 or kinds[0] not in BUTTON_KINDS:
                raise ApiError(400, "Bad Request: can't parse inline keyboard button")
            data = b.get("callback_data")
            if data is not None and (
                not isinstance(data, str) or not 1 <= len(data.encode()) <= 64
            ):
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if "url" in b and not (
                isinstance(b["url"], str) and b["url"].startswith(("https://", "http://", "tg://"))
            ):
                raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
            for kind in ("switch_inline_query", "switch_inline_query_current_chat"):
                if kind in b and not isinstance(b[kind], str):
                    raise ApiError(
                        400,
                        f'Bad Request: can\'t parse inline keyboard button: Field "{kind}" '
                        "must be of type String",
                    )
            chosen = b.get("switch_inline_query_chosen_chat")
            if chosen is not None and not isinstance(chosen, dict):
                raise ApiError(400, "Bad Request: can't parse inline keyboard button")
        if not rows or all(not r for r in rows):
            return None
        return markup

    # --- the methods
    def _m_getme(self, params: dict[str, Any]) -> Any:
        return self.bot_json

    def _m_deletewebhook(self, params: dict[str, Any]) -> Any:
        if params.get("drop_pending_updates"):
            for token in self.queues:
                self.queues[token] = []
        return True

    def _m_setwebhook(self, params: dict[str, Any]) -> Any:
        return True

    def _m_getwebhookinfo(self, params: dict[str, Any]) -> Any:
        return {"url": "", "has_custom_certificate": False, "pending_update_count": 0}

    def _scope_key(self, scope: dict[str, Any] | None) -> tuple[Any, ...]:
        """A BotCommandScope as ``(type, chat id or None, user id or None)``, checked."""
        scope = scope or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in SCOPE_FIELDS:
            raise ApiError(400, "Bad Request: can't parse BotCommandScope JSON object")
        kind = str(scope["type"])
        for name in SCOPE_FIELDS[kind]:
            if scope.get(name) is None:
                raise ApiError(
                    400,
                    f'Bad Request: can\'t parse BotCommandScope: Field "{name}" '
                    "must be of type Integer",
                )
        chat_id = user_id = None
        if "chat_id" in SCOPE_FIELDS[kind]:
            chat = self._chat({"chat_id": scope["chat_id"]})
            if kind != "chat" and chat.type == "private":
                raise ApiError(400, "Bad Request: can't change commands in private chats")
            chat_id = chat.id
        if "user_id" in SCOPE_FIELDS[kind]:
            user_id = int(scope["user_id"])
            if user_id not in self.users:
                raise ApiError(400, "Bad Request: user not found")
        return (kind, chat_id, user_id)

    @staticmethod
    def _language(params: dict[str, Any]) -> str:
        lang = str(params.get("language_code") or "")
        if lang and not re.fullmatch(r"[a-z]{2}", lang):
            raise ApiError(400, "Bad Request: LANG_CODE_INVALID")
        return lang

    def _m_setmycommands(self, params: dict[str, Any]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        if len(commands) > 100:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        seen: set[str] = set()
        for c in commands:
            name = c.get("command") if isinstance(c, dict) else None
            if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            description = c.get("description")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
            if name in seen:
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            seen.add(name)
        key = (self._scope_key(params.get("scope")), self._language(params))
        if commands:
            self.commands[key] = [
                {"command": c["command"], "description": c["description"]} for c in commands
            ]
        else:
            self.commands.pop(key, None)
        return True

    def _m_deletemycommands(self, params: dict[str, Any]) -> Any:
        key = (self._scope_key(params.get("scope")), self._language(params))
        self.commands.pop(key, None)
        return True

    def _m_getmycommands(self, params: dict[str, Any]) -> Any:
        key = (self._scope_key(params.get("scope")), self._language(params))
        return [dict(c) for c in self.commands.get(key, [])]

    def _m_setmydescription(self, params: dict[str, Any]) -> Any:
        return True

    def _m_setmyshortdescription(self, params: dict[str, Any]) -> Any:
        return True

    def _check_private(self, params: dict[str, Any]) -> None:
        """A private chat the bot may write to: the user started it and did not block it."""
        chat_id = params.get("chat_id")
        if chat_id is not None and int(chat_id) > 0:
            user = self.users.get(int(chat_id))
            if user is None:
                raise ApiError(400, "Bad Request: chat not found")
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, FORBIDDEN_DM)

    def _m_sendchataction(self, params: dict[str, Any]) -> Any:
        self._check_private(params)
        self._chat(params)
        return True

    def _m_sendmessage(self, params: dict[str, Any]) -> Any:
        if self.ephemeral_supported and "ephemeral_message_parameters" in params:
            return self._send_ephemeral(params)
        self._check_private(params)
        chat = self._chat(params)
        raw, text, mode = self._render(params)
        markup = self._markup(params)
        now = time.monotonic()
        msg = Message(
            chat=chat,
            message_id=next(chat._ids),
            from_bot=True,
            sender=None,
            text=text,
            raw=raw,
            parse_mode=mode,
            reply_markup=markup,
            date=int(time.time()),
        )
        msg.history.append(Version("sendMessage", text, raw, markup, now))
        chat.messages.append(msg)
        return msg.to_json(self.bot_json)

    def _m_sendphoto(self, params: dict[str, Any]) -> Any:
        """An uploaded PNG (multipart) with an optional caption (at most 1024 characters)."""
        self._check_private(params)
        chat = self._chat(params)
        photo = params.get("photo")
        if not isinstance(photo, bytes):
            raise ApiError(400, "Bad Request: there is no photo in the request")
        size = png_size(photo)
        if size is None:
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        width, height = size
        if len(photo) > 10 * 1024 * 1024 or width + height > 10_000:
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        if max(width, height) > 20 * min(width, height):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        raw = str(params.get("caption") or "")
        mode = params.get("parse_mode")
        text = html_to_text(raw) if mode and str(mode).upper() == "HTML" else raw
        if len(text) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        now = time.monotonic()
        msg = Message(
            chat=chat,
            message_id=next(chat._ids),
            from_bot=True,
            sender=None,
            text=text,
            raw=raw,
            parse_mode=mode,
            reply_markup=self._markup(params),
            date=int(time.time()),
            photo=photo,
        )
        msg.history.append(Version("sendPhoto", text, raw, msg.reply_markup, now))
        chat.messages.append(msg)
        return msg.to_json(self.bot_json)

    def _m_editmessagetext(self, params: dict[str, Any]) -> Any:
        msg = self._message(params, "edit")
        raw, text, mode = self._render(params)
        markup = self._markup(params)
        if (
            raw == msg.raw
            and (mode or None) == (msg.parse_mode or None)
            and markup == (msg.reply_markup)
        ):
            raise ApiError(400, NOT_MODIFIED)
        msg.raw, msg.text, msg.parse_mode, msg.reply_markup = raw, text, mode, markup
        msg.history.append(Version("editMessageText", text, raw, markup, time.monotonic()))
        return True if msg.inline_message_id else msg.to_json(self.bot_json)

    def _m_editmessagereplymarkup(self, params: dict[str, Any]) -> Any:
        msg = self._message(params, "edit")
        markup = self._markup(params)
        if markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        msg.reply_markup = markup
        msg.history.append(
            Version("editMessageReplyMarkup", msg.text, msg.raw, markup, time.monotonic())
        )
        return True if msg.inline_message_id else msg.to_json(self.bot_json)

    def _m_deletemessage(self, params: dict[str, Any]) -> Any:
        msg = self._message(params, "delete")
        msg.deleted = True
        return True

    def _m_answercallbackquery(self, params: dict[str, Any]) -> Any:
        query_id = str(params.get("callback_query_id"))
        query = self.callbacks.get(query_id)
        if query is None or query_id in self.answers:
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[query_id] = {
            "user_id": query["from"]["id"],
            "data": query.get("data"),
            "text": text,
            "show_alert": bool(params.get("show_alert")),
            "url": params.get("url"),
            "at": time.monotonic(),
        }
        return True

    def _member_json(self, chat: Chat, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            if chat.type != "private" and chat.bot_admin:
                return {
                    "status": "administrator",
                    "user": self.bot_json,
                    "can_be_edited": False,
                    "is_anonymous": False,
                    **dict.fromkeys(ADMIN_RIGHTS, True),
                }
            return {"status": "member", "user": self.bot_json}
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        if chat.type == "private":
            if chat.user is not user:
                raise ApiError(400, "Bad Request: user not found")
            return {"status": "member", "user": user.to_json()}
        if user_id in chat.banned:
            return {"status": "kicked", "user": user.to_json(), "until_date": 0}
        if chat.creator == user_id:
            return {"status": "creator", "user": user.to_json(), "is_anonymous": False}
        if user_id in chat.admins:
            rights = dict.fromkeys(ADMIN_RIGHTS, True)
            return {
                "status": "administrator",
                "user": user.to_json(),
                "can_be_edited": False,
                "is_anonymous": False,
                **rights,
            }
        if user_id in chat.members:
            return {"status": "member", "user": user.to_json()}
        return {"status": "left", "user": user.to_json()}

    def _m_getchatmember(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        return self._member_json(chat, int(params.get("user_id") or 0))

    def _m_answerinlinequery(self, params: dict[str, Any]) -> Any:
        query_id = str(params.get("inline_query_id"))
        record = self.inline_queries.get(query_id)
        now = time.monotonic()
        # Unknown, already answered (or answered from Telegram's cache), or too late.
        if (
            record is None
            or record.answer is not None
            or now - record.at > self.inline_query_timeout
        ):
            raise ApiError(400, QUERY_TOO_OLD)
        results = params.get("results")
        if not isinstance(results, list):
            raise ApiError(400, "Bad Request: can't parse inline query results JSON object")
        if len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        seen: set[str] = set()
        checked = [self._inline_result(r, seen) for r in results]
        cache_time = params.get("cache_time")
        cache_time = 300 if cache_time is None else int(cache_time)
        if cache_time < 0:
            raise ApiError(400, "Bad Request: CACHE_TIME_INVALID")
        next_offset = str(params.get("next_offset") or "")
        if len(next_offset.encode()) > 64:
            raise ApiError(400, "Bad Request: NEXT_OFFSET_INVALID")
        button = params.get("button")
        if button is not None:
            self._results_button(button)
        answer = InlineAnswer(
            results=checked,
            cache_time=cache_time,
            is_personal=bool(params.get("is_personal")),
            next_offset=next_offset,
            button=button,
            at=now,
        )
        record.answer = answer
        owner = record.user.id if answer.is_personal else None
        self._inline_answers_cache[(record.query, record.offset, owner)] = answer
        return True

    def _inline_result(self, result: Any, seen: set[str]) -> dict[str, Any]:
        if not isinstance(result, dict):
            raise ApiError(400, "Bad Request: can't parse inline query result JSON object")
        for name in ("type", "id"):
            if name not in result:
                raise ApiError(
                    400,
                    _missing_field(name),
                )
        if result["type"] not in INLINE_RESULT_TYPES:
            raise ApiError(400, "Bad Request: RESULT_TYPE_INVALID")
        result_id = result["id"]
        if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= 64:
            raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
        if result_id in seen:
            raise ApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
        seen.add(result_id)
        if result["type"] == "article":
            for name in ("title", "input_message_content"):
                if name not in result:
                    raise ApiError(
                        400,
                        _missing_field(name),
                    )
            if not isinstance(result["title"], str) or not result["title"].strip():
                raise ApiError(400, "Bad Request: RESULT_TITLE_EMPTY")
        content = result.get("input_message_content")
        if content is not None:
            if not isinstance(content, dict):
                raise ApiError(400, "Bad Request: can't parse input message content")
            if "message_text" in content:
                text = content["message_text"]
                if not isinstance(text, str) or not text.strip():
                    raise ApiError(400, "Bad Request: MESSAGE_EMPTY")
                mode = content.get("parse_mode")
                plain = html_to_text(text) if mode and str(mode).upper() == "HTML" else text
                if len(plain) > 4096:
                    raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        markup = result.get("reply_markup")
        if markup is not None:
            if not isinstance(markup, dict) or "inline_keyboard" not in markup:
                raise ApiError(400, "Bad Request: REPLY_MARKUP_INVALID")
            self._markup({"reply_markup": markup})
        return result

    @staticmethod
    def _results_button(button: Any) -> None:
        if not isinstance(button, dict) or not str(button.get("text") or "").strip():
            raise ApiError(400, "Bad Request: can't parse InlineQueryResultsButton JSON object")
        kinds = [k for k in ("web_app", "start_parameter") if k in button]
        if len(kinds) != 1:
            raise ApiError(400, "Bad Request: can't parse InlineQueryResultsButton JSON object")
        start = button.get("start_parameter")
        if start is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", str(start)):
            raise ApiError(400, "Bad Request: START_PARAM_INVALID")

    def _m_getchatadministrators(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        ids = ([chat.creator] if chat.creator else []) + sorted(chat.admins)
        return [self._member_json(chat, uid) for uid in ids]

    def _m_getchat(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        return {**chat.to_json(), "accent_color_id": 0, "max_reaction_count": 11}

    # --- ephemeral messages (Bot API 10.2): one member of a group sees them, nobody else
    def now(self) -> float:
        """The server's clock for the 15-second rule of ephemeral messages."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the server's clock on (a test never sleeps through Telegram's windows)."""
        with self._lock:
            self.clock_offset += seconds

    def _ephemeral_allowed(self, chat: Chat, receiver: int, query_id: str | None) -> None:
        """The rules of a send: a group, a member of it, and a bot that is an administrator or
        quotes that member's press in this chat within :data:`EPHEMERAL_WINDOW` seconds."""
        if chat.type == "private":
            raise ApiError(400, "Bad Request: ephemeral messages can't be sent to private chats")
        if self._member_json(chat, receiver)["status"] not in (
            "member",
            "administrator",
            "creator",
        ):
            raise ApiError(400, "Bad Request: USER_NOT_PARTICIPANT")
        if chat.bot_admin:
            return
        press = self.pressed.get(query_id or "")
        if press is None or press[:2] != (receiver, chat.id):
            raise ApiError(400, "Bad Request: EPHEMERAL_CALLBACK_QUERY_REQUIRED")
        if self.now() - press[2] > EPHEMERAL_WINDOW:
            raise ApiError(400, "Bad Request: EPHEMERAL_CALLBACK_QUERY_EXPIRED")

    def _send_ephemeral(self, params: dict[str, Any]) -> Any:
        if self.refuse_ephemeral is not None:
            raise ApiError(400, self.refuse_ephemeral)
        chat = self._chat(params)
        options = params["ephemeral_message_parameters"]
        if not isinstance(options, dict) or "receiver_user_id" not in options:
            raise ApiError(400, "Bad Request: receiver_user_id is empty")
        receiver = int(options["receiver_user_id"])
        query_id = options.get("callback_query_id")
        self._ephemeral_allowed(chat, receiver, None if query_id is None else str(query_id))
        replaces: int | None = None
        if options.get("replace_callback_query_message"):
            query = self.callbacks.get(str(query_id))
            shown = (query or {}).get("message") or {}
            if "ephemeral_message_id" in shown:
                raise ApiError(400, "Bad Request: an ephemeral message is edited, not replaced")
            replaces = shown.get("message_id")
        raw, text, mode = self._render(params)
        markup = self._markup(params)
        msg = Message(
            chat=chat,
            message_id=next(chat._ephemeral_ids),
            from_bot=True,
            sender=None,
            text=text,
            raw=raw,
            parse_mode=mode,
            reply_markup=markup,
            date=int(time.time()),
            receiver=receiver,
        )
        msg.history.append(Version("sendMessage", text, raw, markup, time.monotonic()))
        msg.replaces = replaces
        chat.ephemeral.append(msg)
        return msg.to_json(self.bot_json)

    def _ephemeral(self, params: dict[str, Any]) -> Message:
        if not self.ephemeral_supported:
            raise ApiError(404, "Not Found")  # an older server: the method does not exist
        chat = self._chat(params)
        receiver = int(params.get("receiver_user_id") or 0)
        wanted = int(params.get("ephemeral_message_id") or 0)
        # The edit methods quote no press: the fake allows a bot that is no administrator to
        # change the message within the window of the receiver's latest press in this chat.
        latest = max(
            (
                q
                for q, (who, where, _) in self.pressed.items()
                if (who, where) == (receiver, chat.id)
            ),
            key=lambda q: self.pressed[q][2],
            default=None,
        )
        self._ephemeral_allowed(chat, receiver, latest)
        for msg in chat.ephemeral:
            if msg.message_id == wanted and msg.receiver == receiver and not msg.deleted:
                return msg
        raise ApiError(400, "Bad Request: message to edit not found")

    def _m_editephemeralmessagetext(self, params: dict[str, Any]) -> Any:
        msg = self._ephemeral(params)
        raw, text, mode = self._render(params)
        markup = self._markup(params)
        if (
            raw == msg.raw
            and (mode or None) == (msg.parse_mode or None)
            and markup == msg.reply_markup
        ):
            raise ApiError(400, NOT_MODIFIED)
        msg.raw, msg.text, msg.parse_mode, msg.reply_markup = raw, text, mode, markup
        msg.history.append(Version("editEphemeralMessageText", text, raw, markup, time.monotonic()))
        return True

    def _m_editephemeralmessagereplymarkup(self, params: dict[str, Any]) -> Any:
        msg = self._ephemeral(params)
        markup = self._markup(params)
        if markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        msg.reply_markup = markup
        msg.history.append(
            Version("editEphemeralMessageReplyMarkup", msg.text, msg.raw, markup, time.monotonic())
        )
        return True

    def _m_deleteephemeralmessage(self, params: dict[str, Any]) -> Any:
        self._ephemeral(params).deleted = True
        return True


class _Server(ThreadingHTTPServer):
    """One thread per connection, and a listen backlog as deep as a real server's: with the
    default of 5, a burst of new connections (each Application opens them as its pools warm up)
    while the accept loop waits for the interpreter overflowed it, and the kernel dropped the
    others' handshakes: their first call came 1, 3 or 7 s late (SYN retransmissions), or timed
    out, as no real Bot API server ever makes a client wait."""

    daemon_threads = True
    request_queue_size = 1024


class _Handler(BaseHTTPRequestHandler):
    fake: FakeTelegram
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        parts = urlsplit(self.path)
        match = re.fullmatch(r"/bot([^/]+)/([A-Za-z]+)", parts.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if not match:
            self._reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        token, method = match.group(1), match.group(2)
        try:
            params = _parse_params(parts.query, body, self.headers.get("Content-Type") or "")
        except ValueError as err:
            self._reply(400, {"ok": False, "error_code": 400, "description": f"Bad Request: {err}"})
            return
        call = Call(seq=0, token=token, method=method, params=params)
        counted = method.lower() != "getupdates"  # a long poll is no work in progress
        if counted:
            self.fake.count_in_flight(1)
        try:
            self._answer(call)
        finally:
            if counted:
                self.fake.count_in_flight(-1)

    def _answer(self, call: Call) -> None:
        try:
            result = self.fake.handle(call.token, call.method, call.params)
        except ApiError as err:
            call.ok, call.error = False, err.description
            self.fake.record(call)
            payload = {"ok": False, "error_code": err.code, "description": err.description}
            if err.parameters:
                payload["parameters"] = err.parameters
            self._reply(err.code, payload)
            return
        call.result = result
        self.fake.record(call)
        self._reply(200, {"ok": True, "result": result})

    def setup(self) -> None:
        super().setup()
        # One small write per answer and no Nagle delay: latency figures measure the bot.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _reply(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        head = (
            f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        with contextlib.suppress(OSError):
            self.wfile.write(head + data)
            self.wfile.flush()


def _parse_params(query: str, body: bytes, content_type: str) -> dict[str, Any]:
    raw: dict[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
    if body:
        if content_type.startswith("application/json"):
            raw.update(json.loads(body))
            return raw
        if content_type.startswith("multipart/form-data"):
            raw.update(_multipart(body, content_type))
        else:
            raw.update(parse_qsl(body.decode(), keep_blank_values=True))
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if not isinstance(value, str):
            params[key] = value
        elif key in JSON_FIELDS:
            params[key] = json.loads(value)
        elif key in INT_FIELDS and re.fullmatch(r"-?\d+", value):
            params[key] = int(value)
        elif key in BOOL_FIELDS:
            params[key] = value.lower() in ("true", "1")
        else:
            params[key] = value
    return params


def _multipart(body: bytes, content_type: str) -> dict[str, Any]:
    """The fields of a multipart/form-data body: text fields as text, uploaded files as bytes
    (a field ``attach://name`` is resolved to the file sent as ``name``)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    parsed = email.message_from_bytes(head + body, policy=email.policy.HTTP)
    fields: dict[str, Any] = {}
    for part in parsed.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        fields[name] = data if part.get_filename() else data.decode()
    for key, value in list(fields.items()):
        if isinstance(value, str) and value.startswith("attach://"):
            fields[key] = fields.get(value.removeprefix("attach://"), value)
    return fields


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG image, ``None`` if ``data`` is not one.

    >>> png_size(b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR" + (640).to_bytes(4, "big")
    ...          + (480).to_bytes(4, "big")), png_size(b"GIF89a")
    ((640, 480), None)
    """
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def iter_cards_in(text: str, cards: Iterable[str]) -> Iterator[str]:
    """The canonical card texts of ``cards`` that appear as whole words in ``text``."""
    for card in cards:
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", text, re.IGNORECASE):
            yield card
