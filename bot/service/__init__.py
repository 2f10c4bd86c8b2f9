"""The game service, by part (see `bot.service.games`): lobby, play, seats,
telling and the groups' outboxes, a chat's home (profile, ratings, history,
notify), the computers' thinking and the timers.

Between a chat and the engine: it loads, asks the engine, saves with
compare-and-set, and tells people through `bot.telegram` in `bot.words`."""
