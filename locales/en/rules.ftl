# Smuta — the welcome, help, the rules (/rules) and the commands menu.

welcome =
    👋 Hello! I run the card game <b>Smuta</b> in group chats.

    Add me to a group and type /newgame to gather players. Here, in the private chat, I will send you your hand and questions: answer with the buttons.

    Want to learn first? /practice — a game against the computer right here, at your own pace.

    /rules — the rules · /card — what a card does · /cards — every card · /lang — language · /help — all commands

help-group =
    <b>Commands in a group</b>
    /newgame — gather players for a new game
    /join — sit down at the table
    /leave — leave the table or the game
    /go — start the game (the table's creator or an admin)
    /table — show the table again
    /stop — stop the game (the table's creator or an admin)
    /back — take your seat back from the computer
    /settings — the chat's settings: language, pace and time, computer, rule variants (admins and the settings' author change them)
    /top — this chat's leaderboard
    /history — the last 10 games
    /notify — call me in private when a new game is gathered (/notify off — stop)
    /rules — the rules
    /card name — what a card, smuta or castle does
    /cards — every card
    /help — this help

    Your cards and questions come to your private chat with the bot.

    <b>Pace.</b> ⚡ A live game — everyone at the table at once, a minute or two a move, about half an hour a game. 🐢 At own pace — up to 1, 8 or 24 hours a move: everyone moves when it suits them, the bot writes to you in private when it's your move and reminds you before time runs out, never rings at night; the group gets one message a day. Chosen in the lobby (“⚙️ Settings”).

help-private =
    <b>Commands in the private chat</b>
    /start — start talking to the bot
    /hand — send my hand and the current question
    /games — all my games: whose turn, how long is left; buttons bring a question back or open a table
    /learn — the tutorial: a first game where I guide every step
    /practice — practise against the computer, right here
    /table, /stop — the practice table again, end the practice game
    /back — take your seat back from the computer
    /away — going away: let the computer move for me (until /back)
    /lang — language
    /settings — my settings: a review after each game, my time and quiet hours
    /stats — my figures: overall and by chat
    /replay N — game № N move by move, as a file (the number is in the group's /history)
    /forgetme — forget me: preferences, subscriptions, statistics
    /rules — the rules
    /card name — what a card, smuta or castle does
    /cards — every card
    /help — this help

    Games are played in groups: add me to one and type /newgame.

rules-text =
    <b>⚜️ Smuta — the rules</b>

    <i>Smuta</i> (plural <i>smuty</i>) is Russian for a time of troubles: the game is named after its trouble cards, the smuty.

    <b>Goal.</b> Gather the most points: the points of the cards in your houses, plus { $castle_points } for each castle.

    <b>Set-up.</b> 2 to 6 players. Each is dealt { $deal_house } house { $deal_house ->
        [one] card
       *[other] cards
    } and { $deal_orders } { $deal_orders ->
        [one] order
       *[other] orders
    }. The other house cards and the 15 smuty make the game deck; orders have a deck of their own. A random player starts, then play goes clockwise: the next player is the one on your left.

    <b>A turn</b> is 1 to { $actions } { $actions ->
        [one] action
       *[other] actions
    } of your choice (you may end it earlier); with a permanent { castle-orange }, up to { $trade_actions } { $trade_actions ->
        [one] action
       *[other] actions
    }:
    1. Draw the top card of the game deck. A smuta does not go into your hand: it is resolved at once, and your turn ends.
    2. Draw the top order.
    3. Lay out a house card from your hand.
    4. Play an order.
    5. Discard a card from your hand (a house card goes to the graveyard, an order to the orders discard).
    6. Build a castle.

    <b>Hand</b> — at most { $hand } { $hand ->
        [one] card
       *[other] cards
    }: with a full hand you gain no card from anywhere (from the deck you may draw only a smuta lying face up on top).

    <b>Houses.</b> A card goes into your house of its colour (you have one of each colour at most); if there is none, a new house is placed at the left or right end of your row, never between houses. The two ends of the row are your <b>left</b> and <b>right</b> house; a single house is both. A Plague Carrier or Harlot may also go into a house of its colour in any player's row, except an opponent's castle house. A castle stands as long as its house has cards: if its Lord leaves, the castle stays. An emptied house disappears, and its castle returns to the supply (Marriage can do that too).

    <b>Smuty.</b> Whoever draws a smuta is its <b>initiator</b>. It is resolved at once: everyone in turn, usually from the initiator clockwise; no normal actions meanwhile. Then the initiator's turn ends — except after Betrayal (the turn starts again) or with a permanent Castle of Power held when the smuta ends (a new turn). The disasters (Drought, Earthquake, Fire, Pestilence) first return every castle to the supply.

    <b>The end.</b> When the game deck runs out, the turn is played out and every other player has one more turn. Points: the cards in your houses ({ $points }) plus { $castle_points } per castle. On a tie, more castles ranks higher; otherwise the win is shared.

    <b>Pace.</b> A game is either ⚡ <b>live</b> — everyone plays at once, a minute or two a move, and the computer moves for whoever runs out of time — or 🐢 <b>at own pace</b>: up to 1, 8 or 24 hours a move, everyone moving when it suits them. The bot writes to you in private when it's your move and reminds you before time runs out (it never rings in your quiet hours, nor sets a deadline in them: /settings in private); going away — /away. Such a game lasts days, and the group gets one message a day. The pace is chosen in the lobby.

    <b>Signs.</b> 🎴 deck · 📜 orders · ⚰️ graveyard · 🗑 orders discard · 🌀 smuta · 🔮 Prophet stack · ✋ cards in hand · ⭐ points · ▶️ whose turn · 💭 who is choosing · 🤖 computer · a player's houses, left to right: ⬅️ left, ➡️ right, ▫️ between, ↔️ the only one · 🏰♾️ / 🏰⚡ castle permanent / one-time side up. Every card on the table: /table full.

# /rules, the second message: characters, orders and castles (rules-text is the first)
rules-cards =
    <b>Characters</b> — the property fires when the card appears in a house (during smuty too):
    • The Lady may take a man of her colour from an opponent's house into yours.
    • The Treasurer draws the top order.
    • The Spy looks at an opponent's hand and may discard an order from it; in your own turn, not during a smuta, she also draws an order.
    • The Minstrel looks at an opponent's hand and may lay out a woman from it into your houses.
    • The Mercenary takes a random card from an opponent's hand.
    • The Priest may send a Harlot or a Plague Carrier from a house without a castle to the graveyard.
    • The Alchemist may send any card there — except from castle houses and houses with an Alchemist.
    • The Jester, in your own turn and not during a smuta, may replay a smuta from the smuta discard as its initiator — and your turn ends.
    • The Healer saves his house from Pestilence, the Alchemist from Poison; Pestilence takes a house with a Plague Carrier, the Inquisition a house with a Harlot.
    • The Servant has two colours: it lies one side up and belongs to the house of that colour.

    <b>Orders.</b>
    • Ball — take men from opponents' houses without a castle into yours: one, and one more for each Lady of yours.
    • Marriage — move a card from one of your houses into another.
    • Infirmary — lay out the top card of the graveyard.
    • Merchant — pays for the castle of its colour.
    An order may be played even when it would do nothing: it just goes to the discard.

    <b>Castles</b> — one of each colour, in the common supply. Building is an action: your house of colour X with a Lord (of any colour) and at least { $castle_cards } { $castle_cards ->
        [one] card
       *[other] cards
    } + a Merchant of colour X from your hand. The castle is laid permanent (♾️) or one-time (⚡, fires at once) side up:
    • { castle-red }: ♾️ a smuta you drew does not end your turn — a new one starts; ⚡ take any order you like from the orders deck.
    • { castle-blue }: ♾️ an order discarded from another player's hand goes into yours if you have room; ⚡ take an order from an opponent's hand.
    • { castle-green }: ♾️ a house card discarded from another player's hand goes into yours if you have room; ⚡ lay out the top card of the graveyard.
    • { castle-orange }: ♾️ your turns have { $trade_actions } { $trade_actions ->
        [one] action
       *[other] actions
    } instead of { $actions }; ⚡ draw the top two orders.
    A castle house is untouchable for everyone but its owner: only they lay cards into it and move them with Marriage.

    About a card: /card name (/card feast) · every card: /cards.

# /rules in a group: in short; the full rules come in private
rules-short =
    <b>⚜️ Smuta — in short</b>
    🎯 Gather the most points: the cards in your houses, plus { $castle_points } per castle.
    🎴 A turn is up to { $actions } { $actions ->
        [one] action
       *[other] actions
    }: draw a card or an order, lay a card into the house of its colour, play an order, discard, build a castle.
    ✋ A hand holds at most { $hand } { $hand ->
        [one] card
       *[other] cards
    }.
    🌀 A smuta drawn from the deck is resolved for everyone at once, and the drawer's turn ends.
    🏁 When the deck runs out, everyone has one more turn, and the points are counted.
    The full rules come in private — the button below. About a card: /card name.
btn-rules-full = 📖 The full rules

# "the rest — 1" in the list of card points (rules-text, $points)
rules-points-rest = the rest — { $points }

## The commands menu (plain text, up to 256 characters)

cmd-newgame = Gather players for a new game
cmd-join = Sit down at the table
cmd-leave = Leave the table or the game
cmd-go = Start the game
cmd-stop = Stop the game
cmd-table = Show the table again
cmd-back = Take your seat back from the computer
cmd-away = Going away: the computer moves for me
cmd-rules = The rules of the game
cmd-help = All commands
cmd-card = What a card does: /card name
cmd-cards = Every card, by family
cmd-start = Start talking to the bot
cmd-hand = Send my hand and the current question
cmd-lang = Choose the language
cmd-practice = Practise against the computer
cmd-settings = The chat's settings
cmd-my-settings = My settings: reviews, quiet hours
cmd-top = This chat's leaderboard
cmd-history = The last games
cmd-notify = Call me to the next game
cmd-stats = My figures
cmd-replay = A game move by move: /replay number
cmd-forgetme = Forget me
