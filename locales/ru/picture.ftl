# Картинка партии: стол и очки по ходам (bot/words/picture.py). Цветные эмодзи
# на картинке не рисуются: цвет дома назван словом (colour-*).
picture-title = Смута
picture-title-chat = Смута · { $chat }
picture-final = Итог после { $turns } { $turns ->
    [one] хода
   *[other] ходов
}
picture-running = Ход { $turn } · в колоде { $deck } · приказов { $orders }
picture-points = { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
}{ $castles ->
    [0] {""}
   *[other] {" "}(карты { $cards } + замки { $castles } × { $each })
}{ $over ->
    [1] {""}
   *[other] {" "}· в руке { $hand }
}
picture-castle-permanent = ♜ постоянный
picture-castle-one-time = ♜ разовый
picture-no-houses = домов нет
picture-chart = Очки по ходам
picture-turns = ход
# подпись к ответу на «/table фото»
picture-caption = ⚜️ Стол · ход { $turn }

review-head = 🔎 Разбор вашей партии в «{ $title }»: ходы, которые стоили вам дороже всего
review-head-practice = 🔎 Разбор вашей тренировочной партии: ходы, которые стоили вам дороже всего
review-moment = <b>{ $n }. Ход { $turn }.</b> Вы выбрали: { $chosen }. Сильный компьютер выбрал бы: { $better } — { $reason }.
review-none = Сильный компьютер сыграл бы так же, как вы: дорогих ошибок нет.
btn-review-moment = 🎞 { $n }. Ход { $turn } в повторе
btn-reviews-off = 🔕 Не присылать разборы
btn-reviews-on = 🔔 Присылать разборы
reviews-off = 🔕 Разборы больше не придут. Вернуть — /settings здесь, в личном чате.
reviews-on = 🔔 После каждой вашей партии здесь будет разбор.

# /settings в личном чате: свои настройки человека
own-settings-title = ⚙️ <b>Ваши настройки</b>
own-settings-lang = 🌐 Язык: русский — сменить: /lang
own-settings-reviews-on = 🔎 Разбор после каждой партии: да
own-settings-reviews-off = 🔎 Разбор после каждой партии: нет
own-settings-hint = <i>Разбор — после каждой сыгранной до конца партии: два-три хода, которые стоили вам дороже всего, что выбрал бы сильный компьютер и почему, и ваши очки по ходам. Настройки игры в группе — /settings в группе.</i>
own-settings-time = 🕒 Ваше время сейчас: { $time } ({ $offset }) — если не так, поправьте кнопками ниже
own-settings-quiet = 🌙 Тихие часы: { $start }:00–{ $end }:00 — в партиях в своём темпе бот тогда не звонит, а срок хода, попавший на них, переносится на их конец
own-settings-quiet-off = 🌙 Тихих часов нет: в партиях в своём темпе бот может позвонить и ночью
btn-time-earlier = 🕒 −1 ч
btn-time-later = 🕒 +1 ч
btn-quiet = 🌙 Тихие часы
