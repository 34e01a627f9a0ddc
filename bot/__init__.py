"""Tapete's Telegram adapter: settings, storage, timers, handlers and rendering."""
