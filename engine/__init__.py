"""Tapete's pure game engines: cards, actions, and one package per game.

Nothing in ``engine`` performs I/O, reads a clock, uses the global ``random`` or imports
``bot``. Randomness comes in as a seed, time as an action the caller submits.
"""
