"""How many people a table seats, and how long their game takes."""

from __future__ import annotations

MAX_SEATS = 6
MIN_SEATS = 2
#: how long a game takes, in minutes (the middle half of the games), by the
#: number of players: measured by `python -m benchmarks.game_length --games 30
#: --level normal` — the turns and decisions of games between computers that
#: look a move ahead (a 3-player game: 58–62 turns, as people's), at the pace
#: people kept in a 3-player game (25 s a turn, 5.9 s a decision); see BENCHMARKS.md
GAME_MINUTES = {2: (20, 25), 3: (20, 30), 4: (20, 30), 5: (25, 30), 6: (25, 35)}
