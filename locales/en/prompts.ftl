# Smuta — the question of every menu level in the private chat (bot/prompts.py).
# A menu level is one part of a choice: which card, then into whose house, then at which end.

## Questions of the levels

ask-lay-card = Which card do you lay out?
ask-lay-target = Where does { $card_acc } go — into whose house?
ask-lay-side = Which side up do you lay { $card_acc }?
ask-lay-end = You have no { $colour } house yet — at which end of your row does it go?
ask-discard-card = Which card do you discard?
ask-build-card = Which castle do you build?
ask-build-side = Which side up do you lay { $castle }?
ask-play-card = Which order do you play?
ask-marriage-card = Which card does Marriage move?
ask-marriage-to = Into which of your houses does { $card_acc } move?
ask-from-whom = From whose house?
ask-take-man = Whom do you take from { $target }'s houses?
ask-kill-card = Which card of { $target } goes to the graveyard?
ask-campaign-whom = From whose right house?
ask-campaign-card = Which card do you take from { $target }'s right house?
ask-give-card = Which card do you give? (Here is whom each may go to.)
ask-give-to = Whom do you give { $card_acc } to?

## What the choice is about

ask-ctx-hand = { $player }: ✋ { $n } { $n ->
        [one] card
       *[other] cards
    } in hand
ask-ctx-gift = { $card } → { $players }
ask-ctx-house = { $player }: { $house }
ask-ctx-no-house = { $player }: no { $colour } house — a new one would be made at an end of the row
ask-ctx-no-houses = { $player }: no houses
ask-ctx-left = { $player } — left house: { $house }
ask-ctx-right = { $player } — right house: { $house }
ask-ctx-cards = { $player }: { $cards }

rows-own = 🏘 <b>Your houses</b> — left to right:
rows-own-none = 🏘 You have no houses yet.
rows-of = 🏘 { $player }'s houses — left to right:

## Why a usual action is missing

why-hand-full = You hold { $limit } { $limit ->
        [one] card
       *[other] cards
    } — the limit: no drawing cards or orders{ $smuta_open ->
        [yes] { "" } (the open smuta on top of the deck may be drawn).
       *[other] .
    }
why-deck-empty = The deck is empty — no more drawing cards.
why-orders-empty = The orders deck is empty — no drawing orders.

## Buttons that give something up

opt-discard-card = 🗑 { $card }
opt-give = 🎁 { $card } → { $player }
opt-burn = ⚰️ { $card }

## An order that would do nothing now (engine.explain.idle_orders)

opt-play-idle = 📣 { $card } — to no effect
opt-ball-none = 🚫 Take no one
why-idle-marriage = { $card } would do nothing now: it moves a card between two of your houses, and { $houses ->
        [0] you have none
       *[other] you have one
    }. You may still play it: it just goes to the discard.
why-idle-infirmary = { $card } would do nothing now: the graveyard is empty. You may still play it: it just goes to the discard.
why-idle-ball = { $card } would do nothing now: no opponent's house without a castle holds a man. You may still play it: it just goes to the discard.

## An answer in a message's story: what asked it (but a turn's actions) — "✔️ 👸 Lady: Boris → 🔴 Knight"

did-alchemist-kill = ⚗️ Alchemist
did-ball-take = 💃 Ball
did-campaign-take = ⚔️ Lucky Campaign
did-conspiracy-give = 🤫 Conspiracy
did-destroy-order = 💥 House to go first
did-earthquake-target = 🌎 Earthquake
did-fire-burn = 🔥 Fire
did-house-end = 🏘 { $card }, new { $colour } house
did-intrigue-take = 🔵 Castle of Intrigue
did-intrigue-target = 🔵 Castle of Intrigue
did-jester-smuta = 🃏 Jester
did-lady-take = 👸 { $card }
did-mercenary-target = 🗡 Mercenary
did-minstrel-lay = 🎻 Minstrel
did-minstrel-target = 🎻 Minstrel
did-plant-row = 🏠 { $card }
did-poison-discard = 🤢 Poison
did-poison-target = 🤢 Poison
did-power-order = 🔴 Castle of Power
did-priest-kill = ✝️ Priest
did-prophet-smuta = 🔮 Prophet
did-servant-side = 🔀 { $card }
did-spy-discard = 🕵️‍♀️ Spy
did-spy-target = 🕵️‍♀️ Spy
