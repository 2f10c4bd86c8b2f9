# Several games at once (issue 40, item 3): /games, /hand asking which game,
# the limit of tables.

cmd-games = All my games: whose turn, how long is left
games-title = 🎲 <b>Your games: { $n }</b>
games-line = { $i }. <b>{ $title }</b> — { $state }
games-yours = ❗ waiting for you
games-waiting = waiting for { $player }
games-lobby = gathering players
games-timed = { $state } · ⏳ { $left }
games-seconds = { $n } s
games-minutes = { $n } min
games-hours = { $h } h { $m } min
games-days = { $d } d { $h } h
games-buttons = ↩️ brings that game's question and hand here, 🃏 opens its table.
games-none = You are in no game right now. With friends: add me to a group and send /newgame there. Against the computer: /practice, right here.
games-which = Which game? You sit at several tables — pick one, and its hand and question come here.
games-gone = That game is no more (it ended, or you left it). Your games: /games.
btn-games-bring = ↩️ { $title }
btn-games-app = 🃏 { $title }
err-too-many-tables = 🪑 You already sit at { $limit } tables, the most one can. Finish or leave one of your games first (/games lists them).
table-title-practice = ⚜️ <b>{ $title }</b> · turn { $turn }
result-title-practice = 🏁 <b>{ $title }</b>: game over!
