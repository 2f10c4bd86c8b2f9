# The tutor (/learn and a first /practice): a 🎓 line above the question, one a step.

cmd-learn = Tutorial: a first game with guidance
tutor-title = Tutorial
tutor-welcome =
    🎓 <b>Tutorial</b>: a game against two computers on a prepared deal. Above each question a 🎓 line says what to do and why.
    Leave at any time — /stop; take it again — /learn.
tutor-draw = Start with a card from the deck — “{ opt-draw }”: a turn is up to { $actions } actions.
tutor-lay = Lay out { $card_acc } — “{ opt-lay }”: it goes into your house of its colour and scores its points.
tutor-order = Draw an order — “{ opt-order }”: an order is a special action you play on your turn.
tutor-discard = { $hand } cards is a full hand, so you can't draw: discard a spare one — { $card_acc } (a house card goes to the graveyard).
tutor-castle = A castle is worth +{ $castle_points } points: { $card } builds it on your house of its colour that holds a Lord and at least { $castle_cards } cards.
tutor-build = You can build the castle — “{ opt-build }”: +{ $castle_points } points and a power; you choose which side is up.
tutor-play = Play { $card_acc } — “{ opt-play }”: an order works at once, then goes to the discard.
tutor-own = You know every action now — play on by yourself; “{ btn-hint }” suggests a move.
tutor-smuta = This is a smuta: it never goes to a hand, it is played at once — and the drawer's turn usually ends there.
tutor-smuta-feast = Great Feast: everyone in turn draws from the deck until hands are full.
tutor-smuta-conspiracy = Conspiracy: everyone gives an opponent a card from their houses — a castle's house is safe.
tutor-smuta-thrones = Game of Thrones: your left neighbour sees your hand and takes every Lord in it.
tutor-smuta-inquisition = Inquisition: a house holding a Harlot goes to the graveyard whole.
tutor-smuta-new-era = New Era: cards come back from the graveyard to the table, one each in turn.
tutor-smuta-poison = Poison: discard a card from your hand to send any house card on the table to the graveyard.
tutor-smuta-betrayal = Betrayal: opponents take cards from the drawer's hand, but the drawer's turn starts again.
tutor-smuta-prophet = Prophet: the drawer plays any smuta from the discard once more.
tutor-smuta-reformation = Reformation: every castle turns to its other side.
tutor-smuta-grail = Holy Grail: everyone in turn draws orders until hands are full.
tutor-smuta-campaign = Lucky Campaign: everyone takes a card from an opponent's right house.
tutor-smuta-drought = Drought: castles go back to the supply, and Servants move to the house of their other colour.
tutor-smuta-earthquake = Earthquake: castles go back to the supply, and everyone takes an opponent's whole left house.
tutor-smuta-fire = Fire: castles go back to the supply, and each house that lost one loses a card.
tutor-smuta-pestilence = Pestilence: castles go back to the supply, and a house with a Plague Carrier but no Healer dies whole.
tutor-end =
    🎓 <b>Tutorial done!</b> Now play with friends: add me to a group and send /newgame there.
    Another game against the computer — /practice; the tutorial again — /learn.
