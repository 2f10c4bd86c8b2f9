# Smuta — the welcome, help, the rules (/rules) and the commands menu.

welcome =
    👋 Hello! I run the card game <b>«Smuta»</b> (Time of Troubles) in group chats.

    Add me to a group and type /newgame to gather players. Here, in the private chat, I will send you your hand and questions: answer with the buttons.

    /rules — the rules · /card — what a card does · /lang — language · /help — all commands

help-group =
    <b>Commands in a group</b>
    /newgame — gather players for a new game
    /join — sit down at the table
    /leave — leave the table or the game
    /go — start the game (the table's creator or an admin)
    /table — show the table again
    /stop — stop the game (the table's creator or an admin)
    /back — take your seat back from the computer
    /rules — the rules
    /card name — what a card, smuta or castle does
    /help — this help

    Your cards and questions come to your private chat with the bot.

help-private =
    <b>Commands in the private chat</b>
    /start — start talking to the bot
    /hand — send my hand and the current question
    /back — take your seat back from the computer
    /lang — language
    /rules — the rules
    /card name — what a card, smuta or castle does
    /help — this help

    Games are played in groups: add me to one and type /newgame.

rules-text =
    <b>🏰 Smuta — the rules</b>

    <b>Goal.</b> Gather the most points in your houses. Each castle adds 3 more.

    <b>Set-up.</b> 2–6 players. Each is dealt 5 house cards and 1 order. The 15 smuty (troubles) are shuffled into the game deck. A random player starts, then play goes clockwise: the next player is the one on your left.

    <b>A turn</b> is 1 to 3 actions of your choice (you may end it earlier):
    1. Draw the top card of the game deck. If it is a smuta, it is resolved at once and your turn ends.
    2. Draw the top order.
    3. Lay out a house card from your hand.
    4. Play an order.
    5. Discard a card from your hand (a house card goes to the graveyard, an order to the orders discard).
    6. Build a castle.

    <b>Hand</b> — at most 7 cards: with a full hand you gain no card from anywhere.

    <b>Houses.</b> A card goes into your house of its colour; if there is none, a new house is placed at the left or right end of your row, never between houses. The ends of the row are your left and right houses. A Plague Carrier or Harlot may also go into other players' houses, but never into an opponent's castle house. Characters' properties fire «on appearing in a house» — during smuty too. An emptied house disappears.

    <b>Characters</b> (the property fires on appearing in a house): the Lady takes a man of her colour from an opponent; the Treasurer draws an order; the Spy looks at an opponent's hand, discards an order from it and (in your own turn) draws an order; the Minstrel looks at an opponent's hand and lays out a woman from it; the Mercenary takes a random card from an opponent; the Priest sends a Harlot or Plague Carrier to the graveyard; the Alchemist — any card on the table; the Jester (in your own turn) replays a smuta from the discard. The Healer saves a house from Pestilence, the Alchemist from Poison. The Servant has two colours.

    <b>Orders.</b> Ball — take men from opponents' houses; Marriage — move a card between your houses; Infirmary — resurrect the top card of the graveyard; Merchant — pays for a castle.

    <b>Smuty</b> are resolved as soon as they are drawn: everyone in turn, usually starting with the initiator. Normal actions are not allowed meanwhile. Then the initiator's turn ends (after Betrayal, or with a permanent Castle of Power, it starts again). The smuty: Great Feast, Conspiracy, Game of Thrones, Inquisition, New Era, Poison, Betrayal, Prophet, Reformation, Holy Grail, Lucky Campaign and the disasters — Drought, Earthquake, Fire, Pestilence.

    <b>Castles.</b> An action: your house of colour X with a Lord and at least 3 cards + a Merchant of colour X from your hand. The castle is laid permanent or one-time side up (a one-time side fires at once). A castle house is untouchable: nothing can be taken out of it, destroyed or slipped into it. Drought, Earthquake, Fire and Pestilence first return every castle to the supply.
    🔴 Power · 🔵 Intrigue · 🟢 Knowledge · 🟠 Trade

    <b>The end.</b> When the game deck runs out, the current turn is played out and every other player has one more turn. Points: the cards in your houses (Lord and Lady 3, Knight 2, Plague Carrier and Harlot 0, the rest 1) plus 3 per castle. On a tie, more castles wins; otherwise the win is shared.

    More about any card: /card name (for example, /card feast).

## The commands menu (plain text, up to 256 characters)

cmd-newgame = Gather players for a new game
cmd-join = Sit down at the table
cmd-leave = Leave the table or the game
cmd-go = Start the game
cmd-stop = Stop the game
cmd-table = Show the table again
cmd-back = Take your seat back from the computer
cmd-rules = The rules of the game
cmd-help = All commands
cmd-card = What a card does: /card name
cmd-start = Start talking to the bot
cmd-hand = Send my hand and the current question
cmd-lang = Choose the language
