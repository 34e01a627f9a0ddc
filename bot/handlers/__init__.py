"""Thin Telegram handlers: parse the update, change the table with CAS, publish. Wiring: bot.app."""
