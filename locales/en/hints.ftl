## Hints (issue 24): the strong computer's move and its concrete gain

hint-strong = 💡 The strong computer would choose: { $choice }
    Why: { $reason }
hint-normal = 💡 The strong one ran out of time; the normal computer would choose: { $choice }
    Why: { $reason }
hint-reason-castle = a castle gives +{ $points } { $points ->
        [one] point
       *[other] points
    } and shields its house from troubles (not disasters)
hint-reason-lay = the card brings { $points } { $points ->
        [one] point
       *[other] points
    } at once
hint-reason-lay-lord = a Lord brings { $points } { $points ->
        [one] point
       *[other] points
    }, and a house with a Lord can get a castle
hint-reason-lay-castle-ready = the card brings { $points } { $points ->
        [one] point
       *[other] points
    } and readies its house for a castle: the Merchant is in hand
hint-reason-lay-property = the card brings { $points } { $points ->
        [one] point
       *[other] points
    }, and its property works at once
hint-reason-plant = this card is worth 0 points: better in an opponent's house than in yours
hint-reason-plant-plague = Pestilence is still in the deck: it takes this house with the Plague Carrier
hint-reason-plant-harlot = the Inquisition is still in the deck: it takes this house with the Harlot
hint-reason-draw = { $n } { $n ->
        [one] card
       *[other] cards
    } in hand: a new card means more choice in your next moves
hint-reason-order-merchant = a house with a Lord needs a Merchant for its castle; the orders deck holds { $n }
hint-reason-infirmary = the Infirmary brings back the graveyard's top card: +{ $points } { $points ->
        [one] point
       *[other] points
    }
hint-reason-ball = the Ball brings men from other players' houses into yours: { $n }
hint-reason-end-risk = { $deck } { $deck ->
        [one] card
       *[other] cards
    } left in the deck, { $smuty } of them troubles: one more card may be a trouble
hint-reason-discard-zero = this card is worth 0 points — no loss
hint-reason-take = you take a card worth { $points } { $points ->
        [one] point
       *[other] points
    }
hint-reason-kill = an opponent loses a card worth { $points } { $points ->
        [one] point
       *[other] points
    }
hint-reason-cleanse-plague = Pestilence is still in the deck: without the Plague Carrier the house survives it
hint-reason-cheapest = the cheapest card you may give up: { $points } { $points ->
        [one] point
       *[other] points
    }
hint-reason-quake = this left house is worth { $points } { $points ->
        [one] point
       *[other] points
    }, and it becomes yours
hint-reason-target-hand = this player holds the most cards: { $n }
hint-reason-spy-discard = the opponent loses this order
hint-reason-merchant = a house with a Lord needs this very Merchant to build its castle
hint-reason-end-left = the Earthquake takes the left house whole, and it is still in the deck
hint-reason-end-right = the Lucky Campaign takes a card from the right house, and it is still in the deck
hint-reason-order-safe = { $deck } { $deck ->
        [one] card
       *[other] cards
    } left in the deck, { $smuty } of them troubles — and the orders deck holds none
hint-reason-towards-castle = the card goes into a house with a Lord — closer to a castle
hint-reason-cleanse-harlot = the Inquisition is still in the deck: without the Harlot your house survives it
hint-reason-target-points = this player has the most points on the table: { $points }
hint-reason-end-quake-out = the Earthquake has left the deck — and it is the left house it takes
hint-reason-end-campaign-out = the Lucky Campaign has left the deck — and it is the right house it takes from
hint-reason-castle-soon = the house with a Lord is nearly big enough for a castle
hint-reason-plague = Pestilence is still in the deck: a Plague Carrier's house (no Healer) may be lost
hint-reason-harlot = the Inquisition is still in the deck: a house with a Harlot may be lost
hint-reason-earthquake = the Earthquake is still in the deck: the left house may be taken whole
hint-reason-hand = cards in hand are moves for later
hint-reason-castle-side = the castle's permanent side keeps working to the end of the game
hint-reason-others = it weakens the others
hint-reason-best = your table is stronger this way, all in all
settings-hints-anyone = <i>While the settings have no such author, any member of the group may turn hints on.</i>
