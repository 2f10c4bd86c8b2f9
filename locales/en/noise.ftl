# Dead ends the bot leads out of (issue 24): /newgame in private, a non-player's
# «🃏 Table»; /hand, which asks again below.

err-group-game-only = A game with friends opens in a group: add me to a group and send /newgame there — everyone gets their cards and questions here, in private. To play right now against the computer: /practice.
app-open-watch = 🃏 This game's table opens with the button below. You are not playing at it, so you will see the public table: the players, their houses and the piles — nobody's hand.
prompt-moved = ⬇️ <i>The question is asked again below — answer there.</i>

## The lobby: a calm first screen, levels and settings a tap away

btn-computers = 🤖 Computer…
btn-settings = ⚙️ Settings
btn-hints-on = 💡 Hints: on
btn-hints-off = 💡 Hints: off
lobby-hints-on = 💡 Hints in this game: on
lobby-hints-off = 💡 Hints in this game: off
lobby-hints-now-on = 💡 This game will have hints.
lobby-hints-now-off = This game will have no hints.
lobby-levels-short = 🤖 Easy plays at random, normal looks a move ahead, strong works out the game's end.
err-hints-creator = 💡 Whoever opened the table chooses the hints for this game.
