## Words for a newcomer (issue 24): who moves first, the table in words, castle notes, an idle order

# at a game's start — to those who do not move first (the first one gets «Your turn!»)
game-first-turn = ▶️ { $player } moves first. The bot will write to you here when it is your turn.

# an order played that did nothing (engine: order.idle): the group learns it, and why
event-order-idle = ↪️ { $order } — to no effect: { $reason ->
        [marriage_houses] fewer than two houses — nothing to move.
        [infirmary_empty] the graveyard is empty.
        [ball_no_men] no opponent's house without a castle holds a man.
        [ball_declined] { $player } takes no one.
       *[other] the order did nothing.
    }

# a castle that can nearly be built (engine.explain.castle_needs): all it lacks, in one line
why-castle = { $castle } cannot be built yet — it lacks { $needs }.
why-castle-merchant = a { $colour } Merchant in your hand
why-castle-lord = a Lord in your { $colour } house
why-castle-cards = cards in your { $colour } house ({ $cards } needed, { $has } now)
why-castle-supply = the castle itself — it is not in the supply
why-castle-and = { " and " }
