"""The table as a Telegram Mini App: a page over the chat, its JSON API and its pushes.

- :mod:`bot.miniapp.auth`: the signed ``startapp`` payload naming a table, and Telegram's
  ``initData`` check (who is asking), pure;
- :mod:`bot.miniapp.views`: what a page may see of a table (the engine's per-seat view);
- :mod:`bot.miniapp.feed`: which tables changed, from every process (Redis pub/sub, or this
  process and a poll of the SQLite file);
- :mod:`bot.miniapp.server`: the page and its API (aiohttp, in the bot's event loop).
"""
