## Подсказки (issue 24): ход сильного компьютера и его конкретная польза

hint-strong = 💡 Сильный компьютер выбрал бы: { $choice }
    Почему: { $reason }
hint-normal = 💡 Сильный не успел; обычный компьютер выбрал бы: { $choice }
    Почему: { $reason }
hint-reason-castle = замок даст +{ $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    } и закроет дом от смут (кроме стихийных бедствий)
hint-reason-lay = карта сразу приносит { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }
hint-reason-lay-lord = Лорд приносит { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }, а дом с Лордом сможет получить замок
hint-reason-lay-castle-ready = карта приносит { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }, и дом готов к замку: Купец уже в руке
hint-reason-lay-property = карта приносит { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }, и её свойство сработает сразу
hint-reason-plant = у этой карты 0 очков: пусть лежит в доме соперника, а не в вашем
hint-reason-plant-plague = Чума ещё в колоде: она унесёт этот дом соперника вместе с Чумовым
hint-reason-plant-harlot = Инквизиция ещё в колоде: она унесёт этот дом соперника вместе с Блудницей
hint-reason-draw = в руке { $n } { $n ->
        [one] карта
        [few] карты
       *[many] карт
    }: новая карта — больше выбора в следующих ходах
hint-reason-order-merchant = дому с Лордом нужен Купец для замка, а в колоде приказов { $n }
hint-reason-infirmary = Лазарет вернёт верхнюю карту сгинувших: +{ $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }
hint-reason-ball = Бал заберёт к вам мужчин из чужих домов: { $n }
hint-reason-end-risk = в колоде { $deck } { $deck ->
        [one] карта
        [few] карты
       *[many] карт
    }, и смут среди них { $smuty }: ещё одна карта может оказаться смутой
hint-reason-discard-zero = у этой карты 0 очков — её не жалко
hint-reason-take = заберёте к себе карту в { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }
hint-reason-kill = соперник потеряет карту в { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }
hint-reason-cleanse-plague = Чума ещё в колоде: без Чумового ваш дом её переживёт
hint-reason-cheapest = это самая дешёвая карта из тех, что можно отдать: { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }
hint-reason-quake = этот левый дом — { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }, и он станет вашим
hint-reason-target-hand = у этого игрока больше всего карт в руке: { $n }
hint-reason-spy-discard = соперник лишится этого приказа
hint-reason-merchant = дому с Лордом нужен именно этот Купец, чтобы построить замок
hint-reason-end-left = левый дом целиком забирает Землетрясение, а оно ещё в колоде
hint-reason-end-right = из правого дома берёт карту Удачный Поход, а он ещё в колоде
hint-reason-order-safe = в колоде { $deck } { $deck ->
        [one] карта
        [few] карты
       *[many] карт
    }, и смут среди них { $smuty }, а в колоде приказов смут нет
hint-reason-towards-castle = карта ляжет в дом с Лордом — ближе к замку
hint-reason-cleanse-harlot = Инквизиция ещё в колоде: без Блудницы ваш дом её переживёт
hint-reason-target-points = у этого игрока больше всего очков на столе: { $points }
hint-reason-end-quake-out = Землетрясение уже вышло из колоды — а оно забирает как раз левый дом
hint-reason-end-campaign-out = Удачный Поход уже вышел из колоды — а он берёт как раз из правого дома
hint-reason-castle-soon = в доме с Лордом почти хватает карт на замок
hint-reason-plague = Чума ещё в колоде: дом с Чумовым (без Лекаря) может сгинуть
hint-reason-harlot = Инквизиция ещё в колоде: дом с Блудницей может сгинуть
hint-reason-earthquake = Землетрясение ещё в колоде: левый дом могут забрать целиком
hint-reason-hand = карты в руке — это ходы потом
hint-reason-castle-side = постоянная сторона замка будет работать до конца игры
hint-reason-others = это ослабит соперников
hint-reason-best = так ваш стол в целом сильнее
settings-hints-anyone = <i>Пока у настроек нет такого автора, включить подсказки может любой участник группы.</i>
