"""The games, one package each (engine adapter, texts, buttons): :mod:`bot.games.base` is the
interface every game implements, :mod:`bot.games.registry` the list the bot hosts."""
