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
review-moment = <b>{ $n }. Turn { $turn }.</b> You chose: { $chosen }. The strong computer would have chosen: { $better } — { $reason }.
review-none = The strong computer would have played as you did: no costly mistakes.
btn-review-moment = 🎞 { $n }. Turn { $turn } in the replay
btn-reviews-off = 🔕 No more reviews
btn-reviews-on = 🔔 Send me reviews
reviews-off = 🔕 No more reviews. To bring them back: /settings here, in the private chat.
reviews-on = 🔔 After each of your games, its review comes here.

# /settings in the private chat: the person's own settings
own-settings-title = ⚙️ <b>Your settings</b>
own-settings-lang = 🌐 Language: English — change it: /lang
own-settings-reviews-on = 🔎 A review after each game: yes
own-settings-reviews-off = 🔎 A review after each game: no
own-settings-hint = <i>A review comes after each game played to its end: the two or three moves that cost you the most, what the strong computer would have chosen and why, and your points turn by turn. A group's game settings: /settings in the group.</i>
own-settings-time = 🕒 Your time now: { $time } ({ $offset }) — if it's wrong, fix it with the buttons below
own-settings-quiet = 🌙 Quiet hours: { $start }:00–{ $end }:00 — in games at own pace the bot doesn't ring then, and a move's deadline falling in them moves to their end
own-settings-quiet-off = 🌙 No quiet hours: in games at own pace the bot may ring at night too
btn-time-earlier = 🕒 −1 h
btn-time-later = 🕒 +1 h
btn-quiet = 🌙 Quiet hours
