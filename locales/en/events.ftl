# Smuta — engine events (event-*), questions (prompt-*) and option buttons (opt-*).
# Private events (deck.drew.private, hand.shown …) are read by the player concerned: "you".
# $me says which of the event's people the reader is (player — the one who acts; source,
# target …; none — nobody, as in the group). $own = yes when two of them are one player.

## The game and the turn

event-game-start = 🎲 The game begins: { $players } { $players ->
        [one] player
       *[other] players
    }. { $first } goes first.
event-game-over = 🏁 The game is over.
event-game-step-cap = ⚠️ The game was stopped: the engine took too many steps ({ $steps }).
event-turn-start = ▶️ <b>Turn { $turn }</b>: { $player } · { $actions } { $actions ->
        [one] action
       *[other] actions
    }
event-turn-restart = { $reason ->
        [power] 🔁 Permanent Castle of Power: { $player } starts a new turn.
       *[betrayal] 🔁 Betrayal: { $player } starts the turn again.
    }
event-turn-nothing-to-do = 🤷 { $player } has nothing to do — the turn is skipped.
event-turn-ended = ✅ { $player } ends the turn.
event-seat-computer = 🤖 The computer now plays for { $player }.
event-seat-human = 🙋 { $player } is back in the game.

## Actions

event-deck-drew = 🎴 { $player } draws a card from the deck.
event-deck-drew-private = 🎴 You draw from the deck: { $card }.
event-deck-drew-smuta = 🎴 { $player } draws the smuta { $smuta }.
event-deck-empty = ⏳ { $player } draws the last card of the deck! { $own ->
        [yes] This turn is played out, then every other player has one more turn.
       *[no] { $current }'s turn is played out, then every player but { $current } has one more turn.
    }
# $reason — what gave the order: the action, a Treasurer's or a Spy's property, the Grail, the Castle of Trade
event-order-drawn = { $reason ->
        [treasurer] 💰 Treasurer: { $player } draws an order.
        [spy] 🕵️‍♀️ Spy: { $player } draws an order.
        [trade] 🟠 Castle of Trade: { $player } draws an order.
        [grail] 🏆 Holy Grail: { $player } draws an order.
       *[action] 📜 { $player } draws an order.
    }
event-order-drawn-private = { $reason ->
        [treasurer] 💰 Treasurer: you draw the order { $card }.
        [spy] 🕵️‍♀️ Spy: you draw the order { $card }.
        [trade] 🟠 Castle of Trade: you draw the order { $card }.
        [grail] 🏆 Holy Grail: you draw the order { $card }.
       *[action] 📜 You draw an order: { $card }.
    }
event-lay = 🏠 { $own ->
        [yes] { $player } lays out { $card }.
       *[no] { $player } lays { $card } into { $target }'s house.
    }
event-placed = { $card } goes into { $player }'s { $colour } house.
event-discard = 🗑 { $card } is discarded from { $player }'s hand.
event-discard-captured = 🗑 { $card } is discarded from { $player }'s hand, but { $owner } takes it ({ $castle }).
event-order-played = 📣 { $player } plays the order { $order }.
event-marriage-moved = 💍 { $player } moves { $card_acc } into their { $to } house.
event-ball-took = 💃 Ball: { $player } takes { $card_acc } from { $source }'s house.
event-resurrected = ✨ { $own ->
        [yes] { $player } resurrects { $card }.
       *[no] { $player } resurrects { $card } into { $target }'s house.
    }
# $cause — what sent the card to the graveyard
event-card-killed = { $cause ->
        [poison] 🤢 Poison:
        [fire] 🔥 Fire:
        [alchemist] ⚗️ Alchemist:
        [priest] ✝️ Priest:
       *[other] ☠️
    } { $by } sends { $card } { $own ->
        [yes] from their own house
       *[no] from { $player }'s house
    } to the graveyard.

## Castles

event-castle-built = 🏰 { $player } builds the { $colour } castle ({ $side }).
event-castle-one-time = ⚡ The one-time side of { $player }'s { $colour } castle fires.
event-castle-flipped = 🔄 { $player } flips the { $colour } castle ({ $side }).
event-castle-returned = 🏚 { $player }'s { $colour } house is empty — its castle returns to the supply.
event-castles-returned = 🏚 Every castle returns to the supply (lost by: { $players }).
event-house-vanished = { $player }'s { $colour } house is empty.
event-house-destroyed = { $by ->
        [inquisition] ⚖️ Inquisition
        [pestilence] 🦠 Pestilence
       *[other] 💥 Destruction
    }: { $player }'s { $colour } house goes to the graveyard whole — { $cards }.
event-power-took = 🔴 Castle of Power: { $player } picks an order from the deck.
event-power-took-private = 🔴 Castle of Power: you take { $card_acc }.
event-intrigue-took = 🔵 Castle of Intrigue: { $player } takes an order from { $source }'s hand.
event-intrigue-took-private = 🔵 Castle of Intrigue: { $me ->
        [player] you take { $card } from { $source }'s hand.
        [source] { $player } takes { $card } from your hand.
       *[other] { $card } passes from { $source }'s hand to { $player }.
    }

## Characters' properties

event-lady-took = 👸 Lady: { $player } takes { $card_acc } from { $source }'s house.
event-hand-looked = { $reason ->
        [spy] 🕵️‍♀️ Spy
        [minstrel] 🎻 Minstrel
        [intrigue] 🔵 Castle of Intrigue
        [thrones] 🪑 Game of Thrones
       *[other] 👁 A look
    }: { $player } looks at { $target }'s hand.
event-hand-shown = 👁 You look at { $target }'s hand: { $n ->
        [0] it is empty.
       *[other] { $cards }.
    }
event-spy-discarded = 🕵️‍♀️ Spy: { $player } discards { $card } from { $target }'s hand.
event-minstrel-took = 🎻 Minstrel: { $player } lays out { $card_acc } from { $source }'s hand.
event-mercenary-took = 🗡 Mercenary: { $player } takes a random card from { $source }'s hand.
event-mercenary-took-private = 🗡 Mercenary: { $me ->
        [player] you take { $card } from { $source }'s hand.
        [source] { $player } takes { $card } from your hand.
       *[other] { $card } passes from { $source }'s hand to { $player }.
    }
event-jester-replays = 🃏 Jester: { $player } plays the smuta { $smuta } again.

## Smuty

# $does — what the smuta does, in one line (smuta-does-*)
event-smuta-start = { $mode ->
        [prophet] 🔮 <b>{ $smuta }</b>, called up by the Prophet ({ $initiator }): { $does }
        [jester] 🃏 <b>{ $smuta }</b>, called up by the Jester ({ $initiator }): { $does }
       *[drawn] 🌀 <b>Smuta { $smuta }</b> ({ $initiator }): { $does }
    }
# told only when the smuta touched nobody
event-smuta-end = { $touched ->
        [no] { $smuta }: nobody was touched.
       *[yes] The smuta { $smuta } is over.
    }
event-feast-took = 🍗 Great Feast: { $player } takes a card from the deck.
event-feast-took-private = 🍗 Great Feast: you take { $card_acc }.
event-feast-smuta-revealed = 🍗 The next card of the deck is a smuta, { $smuta }: the Great Feast is over, and the smuta stays there face up.
event-feast-deck-empty = 🍗 The game deck is empty — the Great Feast is over.
event-grail-orders-empty = 🏆 The orders deck is empty — the Holy Grail is over.
event-betrayal-full-hand = 🤴 { $player }'s hand is full — no card is taken.
event-betrayal-took = 🤴 { $player } takes a random card from { $source }'s hand.
event-betrayal-took-private = 🤴 Betrayal: { $me ->
        [player] you take { $card } from { $source }'s hand.
        [source] { $player } takes { $card } from your hand.
       *[other] { $card } passes from { $source }'s hand to { $player }.
    }
event-thrones-lords = 🪑 { $player } lays out from { $source }'s hand: { $cards }.
event-prophet-nothing = 🔮 The smuta discard is empty — the Prophet has no effect.
event-prophet-chose = 🔮 { $player } chooses the smuta { $smuta }.
event-conspiracy-nothing-to-give = 🤫 { $player } has nothing to give, or nobody to give it to.
event-conspiracy-gave = 🤫 { $player } gives { $card_acc } to { $target }.
event-drought-flipped = 🌞 { $player } flips { $card } from { $from } to { $colour } — into their { $colour } house.
event-campaign-nothing = ⚔️ { $player } has nothing to take.
event-campaign-took = ⚔️ { $player } takes { $card_acc } from { $source }'s right house.
event-poison-passed = 🤢 { $player } discards nothing.
event-earthquake-nothing = 🌎 { $player } has nothing to take.
event-earthquake-took = 🌎 { $player } takes { $source }'s left { $colour } house: { $cards }.

## Questions (prompt-<decision kind>)

prompt-action = { $actions_taken ->
        [0] 🎯 <b>Your turn!</b> What do you do?
       *[other] 🎯 <b>Your turn goes on.</b> What next — or do you end the turn?
    }
prompt-actions-left = { $n } { $n ->
        [one] action
       *[other] actions
    } left.
prompt-timed-out = ⏰ <i>Time is up — the bot chose:</i> { $choice }
prompt-lady-take = 👸 { $card }: you may take a man of her colour from an opponent's house.
prompt-alchemist-kill = ⚗️ Alchemist: you may send one card from any house to the graveyard (not from castle houses or houses with an Alchemist).
prompt-priest-kill = ✝️ Priest: you may send a Harlot or a Plague Carrier from any house without a castle to the graveyard.
prompt-spy-target = 🕵️‍♀️ Spy: whose hand do you look at?
prompt-spy-discard = 🕵️‍♀️ Which order of { $target }'s hand do you discard? You may discard none.
prompt-minstrel-target = 🎻 Minstrel: whose hand do you look at?
prompt-minstrel-lay = 🎻 Which woman of { $target }'s hand do you lay out into your houses? You may skip.
prompt-mercenary-target = 🗡 Mercenary: whose hand do you take a random card from?
prompt-jester-smuta = 🃏 Jester: which smuta from the discard do you resolve as its initiator (or skip)? Your turn then ends — except after Betrayal (the turn starts again) or with a permanent Castle of Power that you hold when the smuta ends (a new turn).
prompt-servant-side = 🔀 Which side up do you lay { $card_acc }?
prompt-house-end = 🏘 { $card }: you have no { $colour } house yet — at which end of your row does it go?
prompt-plant-row = 🏠 Into whose house does { $card_acc } go?
prompt-ball-take = 💃 Ball: choose a man from an opponent's house (transfers left: { $left }).
prompt-power-order = 🔴 Castle of Power: which order do you take from the deck?
prompt-intrigue-target = 🔵 Castle of Intrigue: whose hand do you look at?
prompt-intrigue-take = 🔵 Castle of Intrigue: which order do you take from { $target }'s hand?
prompt-prophet-smuta = 🔮 Prophet: which smuta from the discard do you resolve?
prompt-conspiracy-give = 🤫 Conspiracy: which card do you give, and to whom?
prompt-fire-burn = 🔥 Fire: which card of a house that lost its castle goes to the graveyard?
prompt-campaign-take = ⚔️ Lucky Campaign: which card do you take from an opponent's right house?
prompt-poison-discard = 🤢 Poison: which card of your hand do you discard to send a card on the table to the graveyard? You may discard none.
prompt-poison-target = 🤢 Poison: which card goes to the graveyard?
prompt-destroy-order = 💥 Your houses go to the graveyard. Which one goes next? (The cards of the last house end on top.)
prompt-earthquake-target = 🌎 Earthquake: whose left house do you take?

## Options (button parts)

opt-draw = 🎴 Draw a card
opt-order = 📜 Draw an order
opt-lay = 🏠 Lay out
opt-play = 📣 Play an order
opt-discard = 🗑 Discard
opt-build = 🏰 Build a castle
opt-end = ✅ End the turn
opt-skip = ⏭ Skip
opt-pass = ⏭ Discard nothing
opt-done = ✅ Enough
opt-left = ⬅️ Left
opt-right = Right ➡️
opt-permanent = ♾️ Permanent side
opt-one-time = ⚡ One-time side
opt-here = 📍 Here

## What a smuta does — one line in the log and above every question it asks

smuta-does-feast = everyone in turn draws from the deck until all hold { $hand } { $hand ->
        [one] card
       *[other] cards
    }.
smuta-does-conspiracy = everyone in turn gives an opponent one of the house cards they have laid out.
smuta-does-thrones = everyone shows their hand to the player on their left, who lays out every Lord in it.
smuta-does-inquisition = every house with a Harlot (but a castle's) goes to the graveyard whole.
smuta-does-new-era = everyone in turn lays out the top card of the graveyard until it is empty.
smuta-does-poison = everyone may discard a card to send a card on the table to the graveyard.
smuta-does-betrayal = the opponents in turn take a random card from the initiator's hand, then the initiator's turn starts again.
smuta-does-prophet = the initiator plays any smuta from the smuta discard.
smuta-does-reformation = castle owners turn their castles over.
smuta-does-grail = everyone in turn draws orders until all hold { $hand } { $hand ->
        [one] card
       *[other] cards
    }.
smuta-does-campaign = everyone in turn takes a card from an opponent's right house.
smuta-does-drought = castles go back to the supply; every Servant turns over and moves to the house of its new colour.
smuta-does-earthquake = castles go back to the supply; everyone in turn takes an opponent's whole left house.
smuta-does-fire = castles go back to the supply; whoever lost one sends a card to the graveyard { $fire_each ->
        [yes] from each such house.
       *[no] from one such house.
    }
smuta-does-pestilence = castles go back to the supply; every house with a Plague Carrier and no Healer goes to the graveyard whole.

## To you, in private: what was taken from you (or laid on you), by whom and how. For the events of render.LANDS_ON.

you-ball-took = 💃 Ball: { $player } takes { $card_acc } from you.
you-lady-took = 👸 Lady: { $player } takes { $card_acc } from you.
you-campaign-took = ⚔️ Lucky Campaign: { $player } takes { $card_acc } from your right house.
you-earthquake-took = 🌎 Earthquake: { $player } takes your left { $colour } house — { $cards }.
you-minstrel-took = 🎻 Minstrel: { $player } lays out { $card_acc } from your hand.
you-thrones-lords = 🪑 Game of Thrones: { $player } lays out the Lords from your hand — { $cards }.
you-card-killed = { $cause ->
        [poison] 🤢 Poison:
        [fire] 🔥 Fire:
        [alchemist] ⚗️ Alchemist:
        [priest] ✝️ Priest:
       *[other] ☠️
    } { $by } sends { $card } from your house to the graveyard.
you-house-destroyed = { $by ->
        [inquisition] ⚖️ Inquisition
        [pestilence] 🦠 Pestilence
       *[other] 💥 Destruction
    }: your { $colour } house goes to the graveyard whole — { $cards }.
you-spy-discarded = 🕵️‍♀️ Spy: { $player } discards { $card } from your hand.
you-discard-captured = { $castle }: { $owner } takes the { $card } you discarded.
you-conspiracy-gave = 🤫 Conspiracy: { $player } gives you { $card_acc }.
you-lay = 🏠 { $player } lays { $card } into your house.
you-resurrected = ✨ { $player } resurrects { $card } into your house.
