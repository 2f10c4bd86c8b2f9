# Смута — события движка (event-*), вопросы (prompt-*) и кнопки вариантов (opt-*).
# Имена игроков не склоняются и пол их неизвестен: настоящее время, «игрок X».
# Личные события (deck.drew.private, hand.shown …) читает сам игрок — «вы»: $me говорит,
# кто из участников события читатель (player — тот, кто действует; source, target …;
# none — никто, как в группе). $own = yes, когда два участника — один и тот же игрок.

## Партия и ход

event-game-start = 🎲 Игра началась: { $players } { $players ->
        [one] игрок
        [few] игрока
       *[many] игроков
    }. Первый ход — { $first }.
event-game-over = 🏁 Игра окончена.
event-game-step-cap = ⚠️ Партия прервана: слишком много шагов движка ({ $steps }).
event-turn-start = ▶️ <b>Ход { $turn }</b>: { $player } · { $actions } { $actions ->
        [one] действие
        [few] действия
       *[many] действий
    }
event-turn-restart = { $reason ->
        [power] 🔁 Постоянный Замок Власти: { $player } начинает новый ход.
       *[betrayal] 🔁 Предательство: { $player } начинает ход заново.
    }
event-turn-nothing-to-do = 🤷 { $player }: сделать нечего — ход пропущен.
event-turn-ended = ✅ { $player } заканчивает ход.
event-seat-computer = 🤖 За игрока { $player } теперь играет компьютер.
event-seat-human = 🙋 { $player } снова в игре.

## Действия

event-deck-drew = 🎴 { $player } берёт карту из колоды.
event-deck-drew-private = 🎴 Вы берёте из колоды: { $card }.
event-deck-drew-smuta = 🎴 { $player } вытягивает смуту { $smuta }.
event-deck-empty = ⏳ { $player } берёт последнюю карту колоды! { $own ->
        [yes] Этот ход доигрывается, затем каждый из остальных делает ещё по одному ходу.
       *[no] Ход игрока { $current } доигрывается, затем каждый, кроме игрока { $current }, делает ещё по одному ходу.
    }
# $reason — что дало приказ: действие, свойство Казначея или Лазутчицы, Грааль, Замок Торговли
event-order-drawn = { $reason ->
        [treasurer] 💰 Казначей: { $player } берёт приказ.
        [spy] 🕵️‍♀️ Лазутчица: { $player } берёт приказ.
        [trade] 🟠 Замок Торговли: { $player } берёт приказ.
        [grail] 🏆 Святой Грааль: { $player } берёт приказ.
       *[action] 📜 { $player } берёт приказ.
    }
event-order-drawn-private = { $reason ->
        [treasurer] 💰 Казначей: вы берёте приказ { $card }.
        [spy] 🕵️‍♀️ Лазутчица: вы берёте приказ { $card }.
        [trade] 🟠 Замок Торговли: вы берёте приказ { $card }.
        [grail] 🏆 Святой Грааль: вы берёте приказ { $card }.
       *[action] 📜 Вы берёте приказ: { $card }.
    }
event-lay = 🏠 { $own ->
        [yes] { $player } выкладывает { $card_acc }.
       *[no] { $player } подкладывает { $card_acc } в дом игрока { $target }.
    }
event-placed = { $card } ложится в дом { $colour } игрока { $player }.
event-discard = 🗑 Из руки игрока { $player } сбрасывается { $card }.
event-discard-captured = 🗑 Из руки игрока { $player } сбрасывается { $card }, но карту забирает себе { $owner } ({ $castle }).
event-order-played = 📣 { $player } играет приказ «{ $order }».
event-marriage-moved = 💍 { $player } перекладывает { $card_acc } в свой дом { $to }.
event-ball-took = 💃 Бал: { $player } забирает { $card_acc } из дома игрока { $source }.
event-resurrected = ✨ { $own ->
        [yes] { $player } воскрешает { $card_acc }.
       *[no] { $player } воскрешает { $card_acc } и кладёт в дом игрока { $target }.
    }
# $cause — что отправило карту в колоду сгинувших
event-card-killed = { $cause ->
        [poison] 🤢 Отрава:
        [fire] 🔥 Пожар:
        [alchemist] ⚗️ Алхимик:
        [priest] ✝️ Священник:
       *[other] ☠️
    } { $by } отправляет в колоду сгинувших { $card_acc } { $own ->
        [yes] из своего дома.
       *[no] из дома игрока { $player }.
    }

## Замки

event-castle-built = 🏰 { $player } строит замок { $colour } ({ $side }).
event-castle-one-time = ⚡ Срабатывает разовое свойство замка { $colour } игрока { $player }.
event-castle-flipped = 🔄 { $player } переворачивает замок { $colour } ({ $side }).
event-castle-returned = 🏚 Дом { $colour } игрока { $player } опустел — замок возвращается в запас.
event-castles-returned = 🏚 Все замки возвращаются в запас (их лишились: { $players }).
event-house-vanished = Дом { $colour } игрока { $player } опустел.
event-house-destroyed = { $by ->
        [inquisition] ⚖️ Инквизиция
        [pestilence] 🦠 Чума
       *[other] 💥 Разрушение
    }: дом { $colour } игрока { $player } целиком уходит в колоду сгинувших — { $cards }.
event-power-took = 🔴 Замок Власти: { $player } выбирает приказ из колоды.
event-power-took-private = 🔴 Замок Власти: вы берёте { $card_acc }.
event-intrigue-took = 🔵 Замок Интриг: { $player } забирает приказ из руки игрока { $source }.
event-intrigue-took-private = 🔵 Замок Интриг: { $me ->
        [player] вы забираете { $card_acc } из руки игрока { $source }.
        [source] { $player } забирает у вас { $card_acc }.
       *[other] { $card } переходит из руки игрока { $source } к игроку { $player }.
    }

## Свойства персонажей

event-lady-took = 👸 Миледи: { $player } забирает { $card_acc } из дома игрока { $source }.
event-hand-looked = { $reason ->
        [spy] 🕵️‍♀️ Лазутчица
        [minstrel] 🎻 Менестрель
        [intrigue] 🔵 Замок Интриг
        [thrones] 🪑 Игра Престолов
       *[other] 👁 Взгляд
    }: { $player } смотрит руку игрока { $target }.
event-hand-shown = 👁 Вы смотрите руку игрока { $target }: { $n ->
        [0] она пуста.
       *[other] { $cards }.
    }
event-spy-discarded = 🕵️‍♀️ Лазутчица: { $player } сбрасывает { $card_acc } из руки игрока { $target }.
event-minstrel-took = 🎻 Менестрель: { $player } выкладывает к себе { $card_acc } из руки игрока { $source }.
event-mercenary-took = 🗡 Наёмник: { $player } вытягивает случайную карту из руки игрока { $source }.
event-mercenary-took-private = 🗡 Наёмник: { $me ->
        [player] вы вытягиваете { $card_acc } из руки игрока { $source }.
        [source] { $player } вытягивает у вас { $card_acc }.
       *[other] { $card } переходит из руки игрока { $source } к игроку { $player }.
    }
event-jester-replays = 🃏 Шут: { $player } снова разыгрывает смуту { $smuta }.

## Смуты

# $does — что смута делает, одной строкой (smuta-does-*)
event-smuta-start = { $mode ->
        [prophet] 🔮 <b>{ $smuta }</b> по воле Пророка ({ $initiator }): { $does }
        [jester] 🃏 <b>{ $smuta }</b> по воле Шута ({ $initiator }): { $does }
       *[drawn] 🌀 <b>Смута { $smuta }</b> ({ $initiator }): { $does }
    }
# говорится, только когда смута никого не задела
event-smuta-end = { $touched ->
        [no] { $smuta }: никого не задело.
       *[yes] Смута { $smuta } завершена.
    }
event-feast-took = 🍗 Великий Пир: { $player } берёт карту из колоды.
event-feast-took-private = 🍗 Великий Пир: вы берёте { $card_acc }.
event-feast-smuta-revealed = 🍗 Следующая карта колоды — смута { $smuta }: Великий Пир окончен, а смута остаётся лежать открытой.
event-feast-deck-empty = 🍗 Игровая колода опустела — Великий Пир окончен.
event-grail-orders-empty = 🏆 Колода приказов опустела — Святой Грааль окончен.
event-betrayal-full-hand = 🤴 У игрока { $player } полная рука — карта не берётся.
event-betrayal-took = 🤴 { $player } вытягивает случайную карту из руки игрока { $source }.
event-betrayal-took-private = 🤴 Предательство: { $me ->
        [player] вы забираете { $card_acc } из руки игрока { $source }.
        [source] { $player } забирает у вас { $card_acc }.
       *[other] { $card } переходит из руки игрока { $source } к игроку { $player }.
    }
event-thrones-lords = 🪑 { $player } выкладывает к себе из руки игрока { $source }: { $cards }.
event-prophet-nothing = 🔮 Сброс смут пуст — Пророк не даёт эффекта.
event-prophet-chose = 🔮 { $player } выбирает смуту { $smuta }.
event-conspiracy-nothing-to-give = 🤫 { $player }: отдать некому или нечего.
event-conspiracy-gave = 🤫 { $player } отдаёт { $card_acc } игроку { $target }.
event-drought-flipped = 🌞 { $player } переворачивает { $card_acc } с { $from } на { $colour } — в дом { $colour }.
event-campaign-nothing = ⚔️ { $player }: забрать нечего.
event-campaign-took = ⚔️ { $player } забирает { $card_acc } из правого дома игрока { $source }.
event-poison-passed = 🤢 { $player } не сбрасывает карту.
event-earthquake-nothing = 🌎 { $player }: забрать нечего.
event-earthquake-took = 🌎 { $player } забирает левый дом { $colour } игрока { $source }: { $cards }.

## Вопросы (prompt-<вид решения>)

prompt-action = { $actions_taken ->
        [0] 🎯 <b>Ваш ход!</b> Что делаете?
       *[other] 🎯 <b>Ваш ход продолжается.</b> Что дальше — или закончите ход?
    }
prompt-actions-left = Осталось { $n } { $n ->
        [one] действие
        [few] действия
       *[many] действий
    }.
prompt-timed-out = ⏰ <i>Время вышло — бот выбрал:</i> { $choice }
prompt-lady-take = 👸 { $card }: можно забрать к себе мужчину её цвета из дома соперника.
prompt-alchemist-kill = ⚗️ Алхимик: можно отправить в колоду сгинувших одну карту из любого дома (кроме домов с замком и с Алхимиком).
prompt-priest-kill = ✝️ Священник: можно отправить в колоду сгинувших Блудницу или Чумового из любого дома без замка.
prompt-spy-target = 🕵️‍♀️ Лазутчица: чью руку посмотреть?
prompt-spy-discard = 🕵️‍♀️ Какой приказ сбросить из руки игрока { $target }? Можно и не сбрасывать.
prompt-minstrel-target = 🎻 Менестрель: чью руку посмотреть?
prompt-minstrel-lay = 🎻 Какую женщину из руки игрока { $target } выложить к себе? Можно и пропустить.
prompt-mercenary-target = 🗡 Наёмник: у кого вытянуть случайную карту?
prompt-jester-smuta = 🃏 Шут: какую смуту из сброса разыграть как её инициатор (или пропустить)? Потом ваш ход закончится — кроме Предательства (ход начнётся заново) и постоянного Замка Власти у вас к концу смуты (новый ход).
prompt-servant-side = 🔀 Какой стороной положить { $card_acc }?
prompt-house-end = 🏘 { $card }: дома { $colour } у вас ещё нет — с какого края ряда его поставить?
prompt-plant-row = 🏠 В чей дом положить { $card_acc }?
prompt-ball-take = 💃 Бал: выберите мужчину из дома соперника (переносов осталось: { $left }).
prompt-power-order = 🔴 Замок Власти: какой приказ взять из колоды?
prompt-intrigue-target = 🔵 Замок Интриг: чью руку посмотреть?
prompt-intrigue-take = 🔵 Замок Интриг: какой приказ забрать из руки игрока { $target }?
prompt-prophet-smuta = 🔮 Пророк: какую смуту из сброса разыграть?
prompt-conspiracy-give = 🤫 Заговор: какую карту и кому отдать?
prompt-fire-burn = 🔥 Пожар: какую карту из дома, лишившегося замка, отправить в колоду сгинувших?
prompt-campaign-take = ⚔️ Удачный Поход: какую карту забрать из правого дома соперника?
prompt-poison-discard = 🤢 Отрава: какую карту сбросить с руки, чтобы отправить в колоду сгинувших карту со стола? Можно и не сбрасывать.
prompt-poison-target = 🤢 Отрава: какую карту отправить в колоду сгинувших?
prompt-destroy-order = 💥 Ваши дома уходят в колоду сгинувших. Какой уходит следующим? (Карты дома, ушедшего последним, окажутся сверху.)
prompt-earthquake-target = 🌎 Землетрясение: чей левый дом забрать?

## Варианты (части кнопок)

opt-draw = 🎴 Взять карту
opt-order = 📜 Взять приказ
opt-lay = 🏠 Выложить
opt-play = 📣 Сыграть приказ
opt-discard = 🗑 Сбросить
opt-build = 🏰 Построить замок
opt-end = ✅ Закончить ход
opt-skip = ⏭ Пропустить
opt-pass = ⏭ Не сбрасывать
opt-done = ✅ Хватит
opt-left = ⬅️ Слева
opt-right = Справа ➡️
opt-permanent = ♾️ Постоянное свойство
opt-one-time = ⚡ Разовое свойство
opt-here = 📍 Сюда

## Что делает смута — одна строка в журнале и над каждым вопросом, который она задаёт

smuta-does-feast = все по кругу берут карты из колоды, пока у всех не будет по { $hand } { $hand ->
        [one] карте
        [few] карты
       *[many] карт
    }.
smuta-does-conspiracy = каждый по очереди отдаёт сопернику одну свою выложенную карту дома.
smuta-does-thrones = каждый показывает руку соседу слева, и тот выкладывает себе все Лорды из неё.
smuta-does-inquisition = каждый дом с Блудницей (кроме домов с замком) целиком уходит в колоду сгинувших.
smuta-does-new-era = все по кругу выкладывают себе верхнюю карту колоды сгинувших, пока она не опустеет.
smuta-does-poison = каждый может сбросить карту с руки и за неё отправить в колоду сгинувших карту со стола.
smuta-does-betrayal = соперники по очереди тянут по случайной карте из руки инициатора, потом его ход начинается заново.
smuta-does-prophet = инициатор разыгрывает любую смуту из сброса смут.
smuta-does-reformation = владельцы замков переворачивают их на другую сторону.
smuta-does-grail = все по кругу берут приказы, пока у всех не будет по { $hand } { $hand ->
        [one] карте
        [few] карты
       *[many] карт
    }.
smuta-does-campaign = каждый по очереди забирает себе карту из правого дома соперника.
smuta-does-drought = замки уходят в запас; все Слуги переворачиваются и переходят в дом нового цвета.
smuta-does-earthquake = замки уходят в запас; каждый по очереди забирает весь левый дом соперника.
smuta-does-fire = замки уходят в запас; кто лишился замка, отправляет в колоду сгинувших по карте { $fire_each ->
        [yes] из каждого такого дома.
       *[no] из одного такого дома.
    }
smuta-does-pestilence = замки уходят в запас; дома с Чумовым и без Лекаря целиком уходят в колоду сгинувших.

## Вам — лично: что у вас забрали (или вам подложили), кто и как. Для событий из render.LANDS_ON.

you-ball-took = 💃 Бал: { $player } забирает у вас { $card_acc }.
you-lady-took = 👸 Миледи: { $player } забирает у вас { $card_acc }.
you-campaign-took = ⚔️ Удачный Поход: { $player } забирает у вас { $card_acc } из правого дома.
you-earthquake-took = 🌎 Землетрясение: { $player } забирает ваш левый дом { $colour } — { $cards }.
you-minstrel-took = 🎻 Менестрель: { $player } выкладывает к себе { $card_acc } из вашей руки.
you-thrones-lords = 🪑 Игра Престолов: { $player } выкладывает к себе Лордов из вашей руки — { $cards }.
you-card-killed = { $cause ->
        [poison] 🤢 Отрава:
        [fire] 🔥 Пожар:
        [alchemist] ⚗️ Алхимик:
        [priest] ✝️ Священник:
       *[other] ☠️
    } { $by } отправляет в колоду сгинувших { $card_acc } из вашего дома.
you-house-destroyed = { $by ->
        [inquisition] ⚖️ Инквизиция
        [pestilence] 🦠 Чума
       *[other] 💥 Разрушение
    }: ваш дом { $colour } целиком уходит в колоду сгинувших — { $cards }.
you-spy-discarded = 🕵️‍♀️ Лазутчица: { $player } сбрасывает { $card_acc } из вашей руки.
you-discard-captured = { $castle }: сброшенную вами карту забирает себе { $owner } — { $card }.
you-conspiracy-gave = 🤫 Заговор: { $player } отдаёт вам { $card_acc }.
you-lay = 🏠 { $player } подкладывает вам { $card_acc }.
you-resurrected = ✨ { $player } воскрешает { $card_acc } и кладёт в ваш дом.
