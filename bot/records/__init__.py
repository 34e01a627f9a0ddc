"""Records: the history of every finished game and hand, statistics, ratings and pictures.

- :mod:`bot.records.model`: what is kept (pure data and the aggregates a game adds);
- :mod:`bot.records.book`: the table's side, pure: each hand's replayable log, the running tally
  and the records outbox of the document, filled where a hand or the game ends;
- :mod:`bot.records.store`: kept beside the tables (Redis or the SQLite file), written once
  per game;
- :mod:`bot.records.flush`: the publisher stores the outbox and clears it;
- :mod:`bot.records.rating`, :mod:`bot.records.stats`, :mod:`bot.records.chart`,
  :mod:`bot.records.replay`: what the commands (:mod:`bot.handlers.records`) show.
"""
