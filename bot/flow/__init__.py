"""The table as a game session: its named operations on the table document.

:mod:`bot.table` is the document (who sits where, the engine state, the clocks' fields, the
outbox) with its lobby operations; the modules here change it while a game is played, each with
one job: :mod:`~bot.flow.moves` (dealing, a seat's action, the timer), :mod:`~bot.flow.clock` (the
turn clock, the computer players' pauses, the nudge), :mod:`~bot.flow.seating` (pause, a seat left
or handed over, "Vuelvo") and :mod:`~bot.flow.discard` (the private discard). Every operation is
pure (no I/O): a handler loads a table, calls one inside a compare-and-set update and saves it.
"""
