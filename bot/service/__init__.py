"""The game service, by part: see `bot.games`."""
