# Smuta — the Mini App: the table in a Telegram window (bot/webapp). The page's
# texts are plain text (no HTML); app-open and errors go to the chat as HTML.

btn-app = 🃏 Table
app-open = 🃏 This game's table opens with the button below: every player, their houses, your cards and your choice.
app-hand-empty = empty
app-log = 📜 The game so far
app-spectator = 👀 You are watching the game.
app-offline = 📡 No connection — reconnecting…
app-no-game = There is no game in this chat now.
app-no-games = You have no game going. Start one: /newgame in a group or /practice in the bot's chat.
app-pick-game = Choose a game:
app-denied = This table is not yours to see: open it with the “🃏 Table” button in Telegram.
app-no-card = No such card.
app-close = Close
app-finished = 🏁 The game is over.
err-too-fast = Not so fast — wait a second.
app-too-fast = ⏳ Too many requests in a row — trying again in a few seconds.
app-busy = ⏳ The server is busy with other tables — reconnecting a little later.
app-elsewhere = 🪟 The table is open in another window — it no longer updates here.

# — the story, the score, accessible names (issue 27)
app-log-new = 🆕 Since your last turn
app-log-earlier = Earlier
app-turn = Turn { $n } · { $name }
app-deal = The deal
app-last = Last move: { $line }
app-last-mark = last move
app-timer = ⏱ { $name }: { $time }
app-timer-label = { $name }'s time: { $time } left
app-score-label = { $total } { $total ->
    [one] point
   *[other] points
  }: { $cards } for cards, { $castles } for castles
app-hand-label = { $n } { $n ->
    [one] card
   *[other] cards
  } in hand
app-known = 👁 You know in their hand:
app-card-house = { $name }, { $points } { $points ->
    [one] point
   *[other] points
  }, { $colours }
app-card-order = { $name }, order
app-card-smuta = { $name }, smuta
app-order-tag = 📜 order
app-house = House: { $colour }
app-house-castle = House: { $colour }, { $castle }
app-castle-permanent = castle, permanent side
app-castle-once = castle, one-time side
app-can-pick = can be chosen
app-computer = computer
app-replay-title = 🎞 Game No. { $number }
app-replay-move = Move { $move } of { $total }
app-replay-prev = ◀ Back
app-replay-next = Next ▶
app-replay-slider = The game's moves
app-replay-denied = Only those who played this game may watch it.
app-replay-unknown = There is no game with this number.
btn-replay = 🎞 Game No. { $number }
replay-open = 🎞 Game No. { $number } move by move — with the button below.
