# A game's picture: the table and the points turn by turn (bot/words/picture.py).
# Colour emoji are not drawn on it: a house's colour is named in words (colour-*).
picture-title = Smuta
picture-title-chat = Smuta · { $chat }
picture-final = Final score after { $turns } { $turns ->
    [one] turn
   *[other] turns
}
picture-running = Turn { $turn } · { $deck } in the deck · { $orders } orders
picture-points = { $points } { $points ->
    [one] point
   *[other] points
}{ $castles ->
    [0] {""}
   *[other] {" "}(cards { $cards } + castles { $castles } × { $each })
}{ $over ->
    [1] {""}
   *[other] {" "}· { $hand } in hand
}
picture-castle-permanent = ♜ permanent
picture-castle-one-time = ♜ one-time
picture-no-houses = no houses
picture-chart = Points turn by turn
picture-turns = turn
# the caption of «/table photo»'s answer
picture-caption = ⚜️ The table · turn { $turn }

review-head = 🔎 A review of your game in “{ $title }”: the moves that cost you the most
review-head-practice = 🔎 A review of your practice game: the moves that cost you the most
review-moment = <b>Turn { $turn }.</b> You chose: { $chosen }. The strong computer would have chosen: { $better } — { $reason }.
review-none = The strong computer would have played as you did: no costly mistakes.
btn-review-moment = 🎞 Turn { $turn } in the replay
