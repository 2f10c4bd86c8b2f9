## Words for a newcomer (issue 24): who moves first, the table in words, castle notes, an idle order

# at a game's start — to those who do not move first (the first one gets «Your turn!»)
game-first-turn = ▶️ { $player } moves first. The bot will write to you here when it is your turn.
