# Smuta — cards, castles, colours and what they do (/card). English beside the Russian.
# English needs no cases: .acc and .dat repeat the name.

## House cards

card-lord = Lord
    .acc = Lord
    .dat = Lord
card-lady = Lady
    .acc = Lady
    .dat = Lady
card-knight = Knight
    .acc = Knight
    .dat = Knight
card-page = Page
    .acc = Page
    .dat = Page
card-servant = Servant
    .acc = Servant
    .dat = Servant
card-treasurer = Treasurer
    .acc = Treasurer
    .dat = Treasurer
card-healer = Healer
    .acc = Healer
    .dat = Healer
card-plague = Plague Carrier
    .acc = Plague Carrier
    .dat = Plague Carrier
card-harlot = Harlot
    .acc = Harlot
    .dat = Harlot
card-alchemist = Alchemist
    .acc = Alchemist
    .dat = Alchemist
card-spy = Spy
    .acc = Spy
    .dat = Spy
card-minstrel = Minstrel
    .acc = Minstrel
    .dat = Minstrel
card-jester = Jester
    .acc = Jester
    .dat = Jester
card-mercenary = Mercenary
    .acc = Mercenary
    .dat = Mercenary
card-priest = Priest
    .acc = Priest
    .dat = Priest

## Orders

card-ball = Ball
    .acc = Ball
    .dat = Ball
card-marriage = Marriage
    .acc = Marriage
    .dat = Marriage
card-infirmary = Infirmary
    .acc = Infirmary
    .dat = Infirmary
card-merchant = Merchant
    .acc = Merchant
    .dat = Merchant

## Smuty (trouble cards), each with its emoji

card-feast = 🍗 Great Feast
    .acc = 🍗 Great Feast
    .dat = 🍗 Great Feast
card-conspiracy = 🤫 Conspiracy
    .acc = 🤫 Conspiracy
    .dat = 🤫 Conspiracy
card-thrones = 🪑 Game of Thrones
    .acc = 🪑 Game of Thrones
    .dat = 🪑 Game of Thrones
card-inquisition = ⚖️ Inquisition
    .acc = ⚖️ Inquisition
    .dat = ⚖️ Inquisition
card-new_era = 🌅 New Era
    .acc = 🌅 New Era
    .dat = 🌅 New Era
card-poison = 🤢 Poison
    .acc = 🤢 Poison
    .dat = 🤢 Poison
card-betrayal = 🤴 Betrayal
    .acc = 🤴 Betrayal
    .dat = 🤴 Betrayal
card-prophet = 🔮 Prophet
    .acc = 🔮 Prophet
    .dat = 🔮 Prophet
card-reformation = ⛪ Reformation
    .acc = ⛪ Reformation
    .dat = ⛪ Reformation
card-grail = 🏆 Holy Grail
    .acc = 🏆 Holy Grail
    .dat = 🏆 Holy Grail
card-campaign = ⚔️ Lucky Campaign
    .acc = ⚔️ Lucky Campaign
    .dat = ⚔️ Lucky Campaign
card-drought = 🌞 Drought
    .acc = 🌞 Drought
    .dat = 🌞 Drought
card-earthquake = 🌎 Earthquake
    .acc = 🌎 Earthquake
    .dat = 🌎 Earthquake
card-fire = 🔥 Fire
    .acc = 🔥 Fire
    .dat = 🔥 Fire
card-pestilence = 🦠 Pestilence
    .acc = 🦠 Pestilence
    .dat = 🦠 Pestilence

## Castles and colours

castle-red = 🔴 Castle of Power
castle-blue = 🔵 Castle of Intrigue
castle-green = 🟢 Castle of Knowledge
castle-orange = 🟠 Castle of Trade

colour-red = 🔴 red
colour-blue = 🔵 blue
colour-green = 🟢 green
colour-orange = 🟠 orange

## /card: what a card does
## Numbers from the game's rules: $hand (hand limit), $actions (actions a turn),
## $trade_actions (with a permanent Castle of Trade), $deal_house, $deal_orders (the deal),
## $castle_points, $castle_cards (castles), $fire_each (Fire: yes — from each house),
## $points (this house card's points).

about-lord =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }. No property.
    A castle can only be built on a house that holds a Lord (of any colour). The smuta Game of Thrones takes Lords out of hands.
about-lady =
    Woman · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> you may take one man of her colour from an opponent's house into your houses (not from a castle house).
    Each Lady in your houses gives the order Ball one more transfer.
about-knight =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }. No property.
about-page =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }. No property.
about-servant =
    { $points } { $points ->
        [one] point
       *[other] points
    }, neither man nor woman.
    A two-coloured card (one for each pair of colours): it lies with one side up and belongs to the house of that colour. The owner of the row chooses the side when the Servant enters it.
    Drought flips Servants to their other side; Marriage moves a Servant without flipping it.
about-treasurer =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> take the top card of the orders deck (if you hold fewer than { $hand } cards).
about-healer =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    A house with a Healer is not destroyed by Pestilence, even if it holds a Plague Carrier.
about-plague =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    He may be laid into a house <b>of his colour</b> in <b>any</b> player's row — from your hand or when resurrected — but never into an opponent's castle house. If there is no such house, it is made at an end of the row.
    Pestilence destroys a house with a Plague Carrier unless it holds a Healer.
about-harlot =
    Woman · { $points } { $points ->
        [one] point
       *[other] points
    }.
    She may be laid into a house <b>of her colour</b> in <b>any</b> player's row — from your hand or when resurrected — but never into an opponent's castle house. If there is no such house, it is made at an end of the row.
    Inquisition destroys a house with a Harlot unless it has a castle.
about-alchemist =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    A house with an Alchemist cannot be targeted by Poison — by anyone, its owner included.
    <b>On appearing in a house:</b> you may send one card from any house to the top of the graveyard — except castle houses and houses with an Alchemist (his own included).
about-spy =
    Woman · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> look at an opponent's hand and you may discard one order from it. Then — only in your own turn and not during a smuta — take the top card of the orders deck.
about-minstrel =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> look at an opponent's hand and you may lay out one woman from it into your houses (a Lady, Spy or Harlot).
about-jester =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house</b> — only in your own turn and not during a smuta: you may resolve a smuta from the smuta discard (not from the Prophet stack) as its initiator, as if you had drawn it. Your turn then ends — except after Betrayal (the turn starts again) or with a permanent Castle of Power that you hold when the smuta ends (a new turn); the smuta goes back to the discard.
about-mercenary =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> take a random card from an opponent's hand (if you hold fewer than { $hand } cards).
about-priest =
    Man · { $points } { $points ->
        [one] point
       *[other] points
    }.
    <b>On appearing in a house:</b> you may send one Harlot or one Plague Carrier from any house without a castle to the graveyard.

about-ball =
    Order. Take men from your opponents' houses into yours: <b>1 transfer + 1 for each Lady</b> in your houses.
    Any men, from any opponents, but never from a castle house. Each goes into your house of its colour. All transfers are made first, then their on-appearing properties resolve in order.
about-marriage =
    Order. Move one card from one of your houses into another of your houses, whatever its colour — your castle house too, into it or out of it.
    The card keeps its own colour, a Servant is not flipped, no property fires.
    A house its last card leaves disappears, and its castle returns to the supply.
    With one house (or none) the order does nothing — you may play it, and it just goes to the discard.
about-infirmary =
    Order. Lay out the top card of the graveyard (resurrection); its on-appearing property fires.
    A Plague Carrier or Harlot may go into a house of its colour in any player's row, except an opponent's castle house.
about-merchant =
    Order of a colour. A Merchant is spent to build the castle of its colour (that is a separate action, not a discard).
    It has no other use, but it can be discarded like any card.

about-feast =
    Round after round, starting with the initiator, everyone takes the top card of the game deck, until everyone holds { $hand } cards or the deck runs out. A player with { $hand } skips.
    • If the next card of the deck is a smuta, the Feast ends at once for everyone; the smuta is not taken and stays face up.
    • No discarding during the Feast.
about-conspiracy =
    In turn, starting with the initiator, each player gives one of their laid-out house cards to any opponent — into that opponent's house of its colour (a new house goes at an end of the row; the receiver chooses the end and a Servant's side).
    • Giving is compulsory if there is something to give and someone to take it — even a house's last card.
    • You cannot give a card received in this same Conspiracy.
    • Cards in castle houses take no part; nothing goes into an opponent's castle house.
    • The on-appearing property fires for the receiver.
about-thrones =
    In turn, starting with the initiator, each player shows their whole hand to the player on their left.
    Every Lord in that hand is laid out at once into the looker's houses (by colour; a new house at an end of the row). The other cards stay in the hand.
about-inquisition =
    In turn, starting with the initiator, each player sends to the graveyard, <b>whole</b>, every house of theirs that holds at least one Harlot.
    • A castle house is protected.
    • The player chooses the order of their houses.
about-new_era =
    Round after round, starting with the initiator, each player lays out for themselves the top card of the graveyard — until the graveyard is empty.
    • The card is laid out by the usual rules; on-appearing properties fire at once.
    • A Plague Carrier or Harlot may go into a house of its colour in any player's row (except an opponent's castle house).
    • A card sent to the graveyard during this smuta (by an Alchemist, say) goes on top and comes back next.
about-poison =
    One round, starting with the initiator: each player may discard one card from their hand (a house card or an order) and, for it, send any house card on the table — their own or an opponent's — to the graveyard. You may discard only when there is a card to send.
    • Castle houses and houses with an Alchemist cannot be targeted — by anyone.
    • A permanent Castle of Intrigue (orders) or Castle of Knowledge (house cards) catches the discarded card if its owner has room.
about-betrayal =
    Starting with the player on the initiator's left, each opponent takes one random card from the initiator's hand (if there is one and they hold fewer than { $hand } cards).
about-prophet =
    The initiator chooses any smuta from the smuta discard and resolves it at once, fully, as its initiator. It is then laid on the Prophet — these cards can never be chosen again (not by a Jester either).
    • An empty smuta discard: no effect.
    • The Prophet cannot choose the Prophet.
about-reformation =
    In turn, starting with the initiator, every castle owner flips all their castles to the other side. Castles are not removed.
    • The new side works at once; a one-time side fires the moment it turns up.
about-grail =
    Round after round, starting with the initiator, everyone takes the top order, until everyone holds { $hand } cards. A player with { $hand } skips.
    • When the orders deck runs out, the Grail ends for everyone.
    • No discarding during the Grail.
about-campaign =
    In turn, starting with the initiator, each player chooses any opponent's <b>right</b> house and takes one card from it into their own house of its colour (a Servant into a house of either of its colours).
    • A single house is both left and right.
    • Nothing can be taken from a right house with a castle.
    • Compulsory if there is something to take; on-appearing properties fire.
about-drought =
    <i>A disaster.</i> Every castle returns to the supply.
    Then, in turn, starting with the initiator, each player flips all their Servants to the other side and moves them to their house of the new colour (a new house at an end of the row).
    • No property fires.
    • A Servant moved by Marriage flips from the side it was lying on.
about-earthquake =
    <i>A disaster.</i> Every castle returns to the supply.
    Then, in turn, starting with the initiator, each player chooses an opponent and takes <b>all</b> the cards of that opponent's <b>left</b> house, laying each out by its own colour (a Servant by either).
    • A single house is both left and right.
    • On-appearing properties fire (Servants have none; a Spy only looks at a hand and discards an order).
about-fire =
    <i>A disaster.</i> Every castle returns to the supply.
    Then everyone who lost a castle, in turn (starting with the initiator), sends to the graveyard { $fire_each ->
        [yes] one card of each house that lost its castle
       *[no] one card of one house that lost its castle
    }, choosing the card themselves.
    • Players without castles are not touched.
about-pestilence =
    <i>A disaster.</i> Every castle returns to the supply.
    Then, in turn, starting with the initiator, each player sends to the graveyard, <b>whole</b>, every house of theirs with a Plague Carrier and no Healer.
    • The player chooses the order of their houses.

# What becomes of the initiator's turn: added to every smuta
about-smuta-turn = { $smuta ->
        [betrayal] • Then the initiator's turn <b>starts again</b>: a whole new turn of up to { $actions } { $actions ->
            [one] action
           *[other] actions
        } ({ $trade_actions } with a permanent Castle of Trade); actions left over are lost.
        [prophet] • Then the initiator's turn ends — except after Betrayal (the turn starts again) or with a permanent Castle of Power that the initiator holds when the smuta ends (a new turn).
        [reformation] • Then the initiator's turn ends; if they hold a permanent Castle of Power when the smuta ends, a new turn starts.
        [drought] • The initiator's turn ends — even with a Castle of Power: it has already gone back to the supply.
        [earthquake] • The initiator's turn ends — even with a Castle of Power: it has already gone back to the supply.
        [fire] • The initiator's turn ends even if nobody was touched — and even with a Castle of Power: it has already gone back to the supply.
        [pestilence] • The initiator's turn ends — even with a Castle of Power: it has already gone back to the supply.
       *[other] • Then the initiator's turn ends (with a permanent Castle of Power that the initiator holds when the smuta ends, a new turn starts).
    }

about-castle-red =
    ♾️ <b>Permanent side:</b> when a smuta that you drew ends your turn, a new turn of yours starts instead — if the castle lies this side up when the smuta ends. A disaster first returns the castle to the supply, so there is no new turn.
    ⚡ <b>One-time side:</b> take any order of your choice from the orders deck, then the deck is shuffled.
about-castle-blue =
    ♾️ <b>Permanent side:</b> whenever an order is discarded from another player's hand, it goes into your hand instead (if you have room).
    ⚡ <b>One-time side:</b> look at an opponent's hand and take one order from it.
about-castle-green =
    ♾️ <b>Permanent side:</b> whenever a house card is discarded from another player's hand, it goes into your hand instead (if you have room).
    ⚡ <b>One-time side:</b> lay out the top card of the graveyard (resurrection).
about-castle-orange =
    ♾️ <b>Permanent side:</b> your turns (restarted ones too) have { $trade_actions } { $trade_actions ->
        [one] action
       *[other] actions
    } instead of { $actions }.
    ⚡ <b>One-time side:</b> take the top two cards of the orders deck.

# How a castle is built: added to every castle
about-castle-build =
    <i>There is one castle of each colour, in the common supply. Building one is an action: your { $colour ->
        [red] red house
        [blue] blue house
        [green] green house
        [orange] orange house
       *[any] house of the castle's colour
    } with a Lord (of any colour) and at least { $cards } { $cards ->
        [one] card
       *[other] cards
    }, and you spend { $colour ->
        [red] a red Merchant
        [blue] a blue Merchant
        [green] a green Merchant
        [orange] an orange Merchant
       *[any] a Merchant of the same colour
    } from your hand. The builder chooses the side; a one-time side fires at once.
    A castle house is untouchable for everyone but its owner: only they lay cards into it and move them with Marriage. Disasters first return the castle to the supply. At the end a castle is worth { $points } { $points ->
        [one] point
       *[other] points
    }.</i>
