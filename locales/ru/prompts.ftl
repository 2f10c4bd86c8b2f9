# Смута — вопросы каждого уровня меню в личном чате (bot/prompts.py).
# Уровень меню — это часть выбора: какую карту, потом в чей дом, потом каким краем.

## Вопросы уровней

ask-lay-card = Какую карту выложить?
ask-lay-target = Куда выложить { $card_acc } — в чей дом?
ask-lay-side = Какой стороной положить { $card_acc }?
ask-lay-end = Дома { $colour } у вас ещё нет — с какого края ряда его поставить?
ask-discard-card = Какую карту сбросить?
ask-build-card = Какой замок построить?
ask-build-side = Какой стороной положить { $castle }?
ask-play-card = Какой приказ сыграть?
ask-marriage-card = Какую карту переложить Брачным союзом?
ask-marriage-to = В какой ваш дом переложить { $card_acc }?
ask-from-whom = Из чьего дома?
ask-take-man = Кого забрать из домов игрока { $target }?
ask-kill-card = Какую карту игрока { $target } отправить в колоду сгинувших?
ask-campaign-whom = Из чьего правого дома брать?
ask-campaign-card = Какую карту забрать из правого дома игрока { $target }?
ask-give-card = Какую карту отдать? (Вот кому можно отдать каждую.)
ask-give-to = Кому отдать { $card_acc }?

## Что стоит за выбором

ask-ctx-hand = { $player }: ✋ { $n } { $n ->
        [one] карта
        [few] карты
       *[many] карт
    } в руке
ask-ctx-gift = { $card } → { $players }
ask-ctx-house = { $player }: { $house }
ask-ctx-no-house = { $player }: дома { $colour } нет — он появится с края ряда
ask-ctx-no-houses = { $player }: домов нет
ask-ctx-left = { $player } — левый дом: { $house }
ask-ctx-right = { $player } — правый дом: { $house }
ask-ctx-cards = { $player }: { $cards }

rows-own = 🏘 <b>Ваши дома</b> — слева направо:
rows-own-none = 🏘 Домов у вас пока нет.
rows-of = 🏘 Дома игрока { $player } — слева направо:

## Почему нет привычного действия

why-hand-full = В руке { $limit } { $limit ->
        [one] карта
        [few] карты
       *[many] карт
    } — это предел: брать карты и приказы нельзя{ $smuta_open ->
        [yes] { "" } (открытую смуту сверху колоды — можно).
       *[other] .
    }
why-deck-empty = Колода кончилась — брать карты больше нельзя.
why-orders-empty = Колода приказов кончилась — брать приказы нельзя.

## Кнопки, которые чем-то жертвуют

opt-discard-card = 🗑 { $card }
opt-give = 🎁 { $card } → { $player }
opt-burn = ⚰️ { $card }

## Приказ, который сейчас ничего не сделает (engine.explain.idle_orders)

opt-play-idle = 📣 { $card } — впустую
opt-ball-none = 🚫 Никого не брать
why-idle-marriage = { $card } сейчас ничего не сделает: он перекладывает карту между двумя вашими домами, а { $houses ->
        [0] домов у вас нет
       *[other] дом у вас один
    }. Сыграть можно — приказ просто уйдёт в сброс.
why-idle-infirmary = { $card } сейчас ничего не сделает: колода сгинувших пуста. Сыграть можно — приказ просто уйдёт в сброс.
why-idle-ball = { $card } сейчас ничего не сделает: в домах соперников без замков нет мужчин. Сыграть можно — приказ просто уйдёт в сброс.

## Ответ в истории сообщения: что спрашивало (кроме действий хода) — «✔️ 👸 Миледи: Борис → 🔴 Рыцарь»

did-alchemist-kill = ⚗️ Алхимик
did-ball-take = 💃 Бал
did-campaign-take = ⚔️ Удачный Поход
did-conspiracy-give = 🤫 Заговор
did-destroy-order = 💥 Первым уходит дом
did-earthquake-target = 🌎 Землетрясение
did-fire-burn = 🔥 Пожар
did-house-end = 🏘 { $card }, новый дом { $colour }
did-intrigue-take = 🔵 Замок Интриг
did-intrigue-target = 🔵 Замок Интриг
did-jester-smuta = 🃏 Шут
did-lady-take = 👸 { $card }
did-mercenary-target = 🗡 Наёмник
did-minstrel-lay = 🎻 Менестрель
did-minstrel-target = 🎻 Менестрель
did-plant-row = 🏠 { $card }
did-poison-discard = 🤢 Отрава
did-poison-target = 🤢 Отрава
did-power-order = 🔴 Замок Власти
did-priest-kill = ✝️ Священник
did-prophet-smuta = 🔮 Пророк
did-servant-side = 🔀 { $card }
did-spy-discard = 🕵️‍♀️ Лазутчица
did-spy-target = 🕵️‍♀️ Лазутчица
