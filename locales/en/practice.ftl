# Smuta — practice (/practice): each computer's turn in one line (practice-digest-*) and «Details».
# The one acting is always a computer, «Computer N»; what was done to the reader follows the dash.

practice-digest-bot = Computer { $n }
practice-digest-player = { $player }
practice-digest-your-turn = Your turn
practice-digest-line = { $player }: { $parts }
practice-digest-line-you = { $player }: { $parts } — { $you }
practice-digest-and = and
practice-digest-by = { $doer } { $deed }

practice-digest-drew = drew { $n ->
        [1] a card
       *[other] { $n } cards
    }
practice-digest-orders = took { $n ->
        [1] an order
       *[other] { $n } orders
    }
practice-digest-drew-orders = drew { $n ->
        [1] a card
       *[other] { $n } cards
    } and took { $orders ->
        [1] an order
       *[other] { $orders } orders
    }
practice-digest-smuta = { $mode ->
        [prophet] 🔮 { $smuta }
        [jester] 🃏 { $smuta }
        [going] { $smuta } (continued)
       *[drawn] { $smuta }
    }
practice-digest-laid = laid out { $cards }
practice-digest-planted = laid { $cards } on { $whom_dat }
practice-digest-discarded = discarded { $cards }
practice-digest-played = played { $orders }
practice-digest-built = built { $n ->
        [1] castle
       *[other] castles
    } { $colours }
practice-digest-flipped = turned { $n ->
        [1] castle
       *[other] castles
    } { $colours }
practice-digest-raised = raised { $cards }
practice-digest-took = took { $cards } from { $whom }
practice-digest-took-house = took the { $colours } house from { $whom }
practice-digest-spied = discarded { $cards } from { $whom }'s hand
practice-digest-lost = lost { $cards }
practice-digest-lost-houses = lost { $n ->
        [1] the house
       *[other] the houses
    } { $colours }
practice-digest-castles-back = every castle went back to the supply
practice-digest-last-card = the deck ran out (one more turn for each of the others)
practice-digest-skipped = skipped the turn

practice-digest-you-got = you got { $cards }
practice-digest-you-drew = you drew { $cards }
practice-digest-you-planted = { $cards } laid on you
practice-digest-you-lost = you lost { $cards }
practice-digest-you-hand-taken = { $cards } taken from your hand
practice-digest-you-hand-discarded = { $cards } discarded from your hand
practice-digest-you-looked = your hand was looked at
practice-digest-you-houses = { $n ->
        [1] your house { $colours } is gone
       *[other] your houses { $colours } are gone
    }
practice-digest-you-castle = { $n ->
        [1] your castle { $colours } went back to the supply
       *[other] your castles { $colours } went back to the supply
    }

btn-details = 📜 Details
btn-details-less = 📜 Shorter
