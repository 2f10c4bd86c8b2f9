# Smuta — the Mini App: the table in a Telegram window (bot/webapp). The page's
# texts are plain text (no HTML); app-open and errors go to the chat as HTML.

btn-app = 🃏 Table
app-open = 🃏 This game's table opens with the button below: every player, their houses, your cards and your choice.
app-hand-empty = empty
app-log = 📜 Latest moves
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
