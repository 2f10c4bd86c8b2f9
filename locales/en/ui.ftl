# Smuta — the lobby, the table, results, the bot's replies and errors.
# Texts go out with parse_mode HTML; button labels are plain text.

ok = 👌

## The lobby

lobby-title = ⚜️ <b>Smuta</b> — gathering players
lobby-empty = <i>Nobody at the table yet.</i>
lobby-settings = ⏱ Per turn: { $turn } s · per choice: { $choice } s
lobby-length = ⏳ A game takes ≈ { $low }–{ $high } minutes for { $players ->
        [2] two
        [3] three
        [4] four
        [5] five
       *[6] six
    }.
lobby-hint = { $min } to { $max } players. Press “🙋 I'm in”; the table's creator or a group admin starts the game.
lobby-started = 🎲 <b>The game begins!</b> At the table:
lobby-moved = ⬇️ <i>The lobby is below.</i>
lobby-cancelled = ❌ The game was called off.
lobby-joined = ✅ You are at the table!
lobby-joined-private = ✅ You are at the table! The game is played in the group; here I will send you your hand and questions.
lobby-left = 👋 You left the table.
lobby-computer-added = 🤖 A computer player sits down.
lobby-updated = ⚙️ Settings changed.
lobby-start-bot-first = First open a private chat with me (the button below) and press Start — that seats you at the table at once, and your cards will come there.
bot-name = Computer { $n } · { $level }
# a player's name that shows nothing (empty, or invisible characters only)
person-fallback = someone
player-fallback = Player { $n }

## Buttons

btn-join = 🙋 I'm in
btn-leave = 🚪 Leave
btn-go = ▶️ Start
btn-lang = 🌐 Русский
btn-time = ⏱ Time
btn-cancel = ❌ Call off
btn-back = 🔙 Back
btn-rematch = 🔁 Play again
btn-open-bot = 💬 Open the bot's chat
btn-stop-yes = 🛑 Yes, stop
btn-stop-no = ↩️ No, play on

## The game

game-started = 🎲 The game begins!
game-left = 👋 You left the game — the computer plays on for you. Changed your mind? /back in the private chat.
back-done = 🙋 You are back in the game!
back-nothing = There is no game where the computer plays for you.
back-too-often = 🔁 You have come back to this game too often — the computer plays for you until it ends.
hand-title = ✋ <b>Your hand</b> — { $n } { $n ->
        [one] card
       *[other] cards
    }
private-header = 💬 <b>{ $chat }</b>
remind = ⏰ They are waiting for you! { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    } left, then the computer chooses.

## The table
## /rules explains the table's signs (rules-text, "Signs"): keep them together.

table-title = ⚜️ <b>Smuta</b> · turn { $turn }
table-deck = 🎴 deck { $n }
table-deck-top = (face up on top: { $smuta })
table-final-turns = ⏳ last turns: { $n }
table-orders = 📜 orders { $n }
table-graveyard = ⚰️ graveyard: { $n ->
        [0] empty
       *[other] { $n }, on top { $top }
    }
table-orders-discard = 🗑 orders discard: { $n ->
        [0] empty
       *[other] { $n }, on top { $top }
    }
table-smuta-discard = 🌀 smuta discard: { $n ->
        [0] empty
       *[other] { $n }, on top { $top }
    }
table-prophet = 🔮 Prophet stack: { $smuty }
table-castles = 🏰 castles in supply: { $castles }
table-orders-short = 📜 orders { $n }{ $discarded ->
        [0] {""}
       *[other] , { $discarded } discarded
    }
table-graveyard-short = ⚰️ graveyard { $n } (on top { $top })
table-smuta-discard-short = 🌀 smuta discard { $n } (on top { $top })
table-prophet-short = 🔮 Prophet holds { $n }
table-castles-short = 🏰 { $n ->
        [0] no castles left
       *[other] castles left: { $castles }
    }
# a house whose cards do not fit the line: how many cards it holds
table-house-count = { $n } { $n ->
        [one] card
       *[other] cards
    }
table-player = <b>{ $player }</b> · ✋ { $hand } · ⭐ { $points }
table-actions = { $n } { $n ->
        [one] action
       *[other] actions
    } left
table-choosing = 💭 choosing
table-moved = ⬇️ <i>The table is below.</i>
table-castle-permanent = 🏰♾️
table-castle-one-time = 🏰⚡

## Results

result-title = 🏁 <b>The game is over!</b>
result-aborted = ⚠️ <b>The game was stopped.</b> The score at that moment:
result-stopped = 📊 The score when it stopped:
result-line = { $player } — <b>{ $points }</b> { $points ->
        [one] point
       *[other] points
    }{ $castles ->
        [0] { " " }(cards { $cards }, no castles)
       *[other] { " " }(cards { $cards } + 🏰 { $castles } × { $each })
    }
result-tie-break = <i>Equal points for { $players } — more castles ranks higher.</i>
result-tie-castles = { $player }: 🏰 { $castles }
result-winners = { $n ->
        [one] 👑 Winner: <b>{ $players }</b>
       *[other] 👑 Winners: <b>{ $players }</b>
    }

## The turn's log

log-empty-turn = <i>Nothing happened this turn.</i>
log-skipped = <i>⋯ lines left out: { $count }</i>
log-left = 🚪 { $player } leaves the game — the computer plays on.
log-back = 🙋 { $player } is back in the game.
log-timeout = ⏰ { $player } ran out of time — the choice was made automatically.
log-away = 💤 { $player } keeps missing turns — the computer plays on (to come back: /back in the private chat).

## Stopping

stop-confirm = 🛑 Stop the game? It ends here: I will show the score as it stands, but it will not count for the ratings.
stop-confirm-practice = 🛑 Stop the practice game? It ends here: I will show the score as it stands.
stop-confirm-tutor = 🛑 Leave the lesson? You can take it again from the start at any time: /learn.
stop-done = 🛑 { $player } stops the game.
stop-done-short = The game is stopped.
stop-kept = Playing on!
stop-everyone-left = 🛑 Everyone has left — the game is over.
stop-removed = 🛑 The bot was removed from the group — the game there is over and does not count.
stop-prompt = 🛑 <i>The game was stopped — nothing to answer any more.</i>

## Language and /card

lang-choose = 🌐 Выберите язык / Choose your language:
lang-set = ✅ Language: English.
card-usage = Write the name of a card, order, smuta or castle: <i>/card Lady</i>, <i>/card feast</i>, <i>/card castle of power</i>. Every card: /cards.
card-unknown = 🤷 I don't know the card “{ $query }”. { $n ->
        [0] Every card: /cards.
       *[other] Did you mean { $names }? Every card: /cards.
    }
card-castles = 🏰 <b>Castles</b> — one of each colour, each with two sides:
card-list =
    🗂 <b>Every card</b>

    <b>House cards</b> (with their points): { $houses }

    <b>Orders:</b> { $orders }

    <b>Smuty:</b> { $smuty }

    <b>Disasters</b> (smuty too): { $disasters }

    <b>Castles:</b> { $castles }

    More: /card name (for example, /card feast).

## Errors (alerts — under 200 characters)

err-no-game = There is no game in this chat. Start one: /newgame
err-game-exists = A game or a lobby is already open here.
err-busy = Too many presses at once — please try again.
err-no-lobby = No players are being gathered right now.
err-already-joined = You are already at the table.
err-lobby-full = The table is full.
err-not-seated = You are not at this table.
err-not-creator = Only the table's creator or a group admin can do that.
err-seats = A game needs 2 to 6 players.
err-no-humans = At least one human player is needed.
err-old-game = That game is over.
err-old-button = This button is out of date.
prompt-resent = The game has moved on: fresh buttons went to whoever chooses now.
err-not-your-turn = Another player is choosing now.
err-bad-button = Unknown button.
err-bad-link = The link is broken — ask for a new one in the group.
err-no-games = You are in no game right now.
err-private-only = This command works in the private chat with the bot.
err-group-only = This command works in a group.
err-unreachable = ⚠️ { $player }, I cannot write to you privately. <a href="{ $link }">Open a chat with me</a> and press Start.
err-unavailable = Not saved: the game store is unavailable right now, moves are not being recorded. Everything before this is safe — please try again in a minute.
overloaded = 🐢 The bot is overloaded — press again.
err-store-full = Not saved: the game store is full. Everything before this is safe — please try again in a minute.
err-store-readonly = Not saved: the game store is read-only right now (its copy has not taken over yet). Everything before this is safe — please try again in a minute.
err-internal = Something went wrong. Please try again.
err-game-over = The game is already over.
err-no-decision = There is nothing to choose right now.
err-stale-decision = This question is out of date.
err-not-your-decision = Another player is choosing now.
err-illegal-option = That is not allowed now.
err-no-such-seat = There is no such seat at the table.

## Leaving a game

leave-confirm = 🚪 Leave the game? The computer will play for you; /back in the private chat brings you back while the game lasts.
btn-leave-yes = 🚪 Yes, leave
btn-leave-no = ↩️ No, I play on
leave-kept = Playing on!
game-left-last = 👋 You left — no people are left at the table, the game is over.
err-not-your-button = This button is not for you.
err-channel-sender = 📢 This came from a channel or the group, not from a person: games cannot be played or managed that way. Send the command as yourself.
err-not-member = 🔒 This table is for the group's members. Join the group, and the link will work.

## Computers and practice

level-easy = easy
level-normal = normal
level-strong = strong
btn-add-easy = 🤖 Easy
btn-add-normal = 🤖 Normal
btn-add-strong = 🤖 Strong
btn-drop-computer = ➖ Remove a computer
btn-clock-on = ⏱ Use a clock
btn-clock-off = ⏱ No clock
lobby-computer-dropped = ➖ A computer leaves the table.
practice-title = Practice
practice-lobby-title = 🎯 <b>Practice</b> — you against the computer
practice-untimed = ⏱ No clock: take all the time you need.
practice-hint = 1 to { $max } opponents. The table and your questions come here, in this chat; to end it: /stop.
practice-cancelled = ❌ Practice cancelled. A new one: /practice.
practice-running = You have a practice game going: /hand — your question, /table — the table, /stop — end it.
err-practice-solo = This is a practice table: only computers play at it.
err-no-computer = There is no computer at the table.

## Play again

rematch-opened = 🔁 A new table is open — I invited the others in private.
rematch-gone = That game is gone — start a new one: /newgame
rematch-not-yours = "Play again" is for those who played. /newgame starts a new game.
rematch-invite = 🔁 { $player } asks you to play again in the group <b>{ $chat }</b>. The button below takes you to the table.
## A chat's home: settings, ratings, history, the call

settings-title = ⚙️ <b>The chat's settings</b> — every new game starts from them
settings-lang = 🌐 Language: English
settings-level = 🤖 The computer by default: { $level }
settings-rules = 📜 <b>Rules</b>
settings-hint = <i>Group admins may change them, and so may their author while they play here (at the table or in one of the last { $games } games); while there is no such author, any player here may, and becomes the author. A game under way keeps its own rules.</i>
settings-saved = ⚙️ Saved — from the next game on.
btn-settings-level = 🤖 Level
err-settings-not-yours = Only group admins and the settings' author, while they play here, may change them; with no author, anyone who plays here may.
variant-hand-limit = ✋ Hand: { $value }
variant-hand-limit-about = nobody may hold more cards than this
variant-actions = 🎯 Actions a turn: { $value }
variant-actions-about = how many actions (draw, lay out, play, discard, build) a turn has; a permanent Castle of Trade gives one more
variant-fire = 🔥 Fire: { $value ->
        [1] from each house
       *[0] from one house
    }
variant-fire-about = a player who lost castles sends a card from each house that lost its castle to the graveyard — or from one only
top-title = 🏆 <b>This chat's leaderboard</b>
top-line = { $place }. { $player } — { $rating } ± { $spread } · games { $games }, wins { $wins }
top-empty = No counted game has been played in this chat yet.
top-hint = <i>Rating ± spread: the more games, the surer it is. Practice, stopped games and games of fewer than two people do not count.</i>
stats-title = 📊 <b>Your figures</b> — overall
stats-chat = 💬 <b>{ $chat }</b>
stats-figures = rating { $rating } ± { $spread } · games { $games }, wins { $wins } · points { $points }, best score { $best }
stats-smuta-best = 💚 Favourite smuta: { $smuta } (+{ $n })
stats-smuta-worst = 💔 Most costly smuta: { $smuta } (−{ $n })
stats-none = You have no counted games yet.
stats-computer = 🤖 Computer · { $level }
history-title = 📜 <b>The last games</b>
history-line = № { $number } · { $date } · { $minutes } min · { $players }
history-empty = No game has been finished in this chat yet.
history-hint = <i>A game move by move, as a file: /replay number — in the private chat with the bot.</i>
history-forgotten = player
replay-title = Smuta, game № { $number } · { $chat } · { $players }
replay-caption = 📜 Game № { $number }, move by move
replay-usage = Give the game's number: /replay 12 (the numbers are in the group's /history).
replay-unknown = There is no game with that number.
replay-not-yours = Only someone who played in this game can get it.
replay-failed = Could not send the file, try again later.
notify-on = 🔔 I will call you in private when a game is gathered here. /notify off — stop.
notify-off = 🔕 I will not call you any more.
notify-start-bot = 🔔 To be called, open a private chat with me and press “Start”.
notify-lobby = 🔔 A game of Smuta is being gathered in <b>{ $chat }</b>!
notify-called = 🔔 Called: { $n }
notify-unreachable = 🔔 { $players }: I cannot write to you in private — <a href="{ $link }">start the bot</a> so I can call you to games.
forgetme-confirm = 🗑 Forget you? I will delete your preferences, subscriptions and statistics, and in game histories you will be “player”. This cannot be undone.
btn-forget-yes = 🗑 Yes, forget me
btn-forget-no = ↩️ No
forgetme-kept = ↩️ Nothing was deleted.
forgetme-done = 🗑 Done: your preferences, subscriptions and statistics are gone; in game histories you are now “player”.

## Hints

btn-hint = 💡 Hint
result-hints = { $player }: { $n ->
        [one] { $n } hint
       *[other] hints: { $n }
    }
settings-hints-on = 💡 Hints in games: on
settings-hints-off = 💡 Hints in games: off
btn-settings-hints = 💡 Hints

## A game at own pace (issue 40)
remind-own = ⏰ Your move is waiting: { $hours ->
        [0] { "" }
       *[other] { $hours } h{ " " }
    }{ $minutes } min left. If time runs out the computer moves for you (and /away if you'll be gone longer).
btn-pace-own = 🐢 At own pace
btn-pace-live = ⚡ Live game
pace-own = 🐢 <b>At own pace</b>: up to { $hours } h a move, and as long for an answer when you are asked. Nobody has to be there at the same time: the bot writes to you when it's your move and reminds you before time runs out.
pace-own-length = 📅 A { $players }-player game is about { $clocks } moves and answers: up to ≈ { $days } days if everyone takes all their time; sooner if you answer right away.
pace-own-care = 🌙 The bot doesn't ring at night (quiet hours: /settings in your private chat with the bot); going away — /away, and the computer moves for you. The group gets one new message a day.
away-done = 🏖 While you're away, the computer moves for you — in all your games. To come back: /back.
away-nothing = You aren't playing any game — or the computer already moves for you (to come back: /back).
own-saved = ⚙️ Saved.
btn-im-back = 🙋 I'm back
err-store-noreplicas = Not saved: the game store isn't saving moves right now — its copies have fallen behind, and a move they lack could be lost. Everything before this is safe — please try again in a minute.
