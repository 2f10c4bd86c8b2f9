# Смута — тренировка (/practice): ход каждого компьютера одной строкой (practice-digest-*) и «Подробнее».
# Действует всегда компьютер — «Компьютер N» (мужской род: «выложил»); его имя склоняется
# (practice-digest-bot, $case: nom, gen, dat). Что сделали с читателем — после тире, неопределённо-личным
# оборотом или через «вы» («у вас забрали», «вы потеряли»), так что род не нужен.

practice-digest-bot = { $case ->
        [gen] Компьютера { $n }
        [dat] Компьютеру { $n }
       *[nom] Компьютер { $n }
    }
practice-digest-player = { $case ->
        [gen] игрока { $player }
        [dat] игроку { $player }
       *[nom] игрок { $player }
    }
practice-digest-your-turn = Ваш ход
practice-digest-line = { $player }: { $parts }
practice-digest-line-you = { $player }: { $parts } — { $you }
practice-digest-and = и
practice-digest-by = { $doer } { $deed }

practice-digest-drew = взял { $n ->
        [1] карту
        [one] { $n } карту
        [few] { $n } карты
       *[many] { $n } карт
    }
practice-digest-orders = взял { $n ->
        [1] приказ
        [one] { $n } приказ
        [few] { $n } приказа
       *[many] { $n } приказов
    }
practice-digest-drew-orders = взял { $n ->
        [1] карту
        [one] { $n } карту
        [few] { $n } карты
       *[many] { $n } карт
    } и { $orders ->
        [1] приказ
        [one] { $orders } приказ
        [few] { $orders } приказа
       *[many] { $orders } приказов
    }
practice-digest-smuta = { $mode ->
        [prophet] 🔮 { $smuta }
        [jester] 🃏 { $smuta }
        [going] { $smuta } (продолжение)
       *[drawn] { $smuta }
    }
practice-digest-laid = выложил { $cards }
practice-digest-planted = подложил { $cards } { $whom_dat }
practice-digest-discarded = сбросил { $cards }
practice-digest-played = сыграл { $orders }
practice-digest-built = построил { $n ->
        [1] замок
       *[other] замки
    } { $colours }
practice-digest-flipped = перевернул { $n ->
        [1] замок
       *[other] замки
    } { $colours }
practice-digest-raised = воскресил { $cards }
practice-digest-took = забрал { $cards } у { $whom }
practice-digest-took-house = забрал дом { $colours } у { $whom }
practice-digest-spied = сбросил { $cards } из руки { $whom }
practice-digest-lost = потерял { $cards }
practice-digest-lost-houses = потерял { $n ->
        [1] дом
       *[other] дома
    } { $colours }
practice-digest-castles-back = все замки вернулись в запас
practice-digest-last-card = колода кончилась (у остальных ещё по ходу)
practice-digest-skipped = пропустил ход

practice-digest-you-got = вы получили { $cards }
practice-digest-you-drew = вы взяли из колоды { $cards }
practice-digest-you-planted = вам подложили { $cards }
practice-digest-you-lost = вы потеряли { $cards }
practice-digest-you-hand-taken = из вашей руки забрали { $cards }
practice-digest-you-hand-discarded = из вашей руки сбросили { $cards }
practice-digest-you-looked = вашу руку посмотрели
practice-digest-you-houses = { $n ->
        [1] ваш дом { $colours } ушёл
       *[other] ваши дома { $colours } ушли
    }
practice-digest-you-castle = { $n ->
        [1] ваш замок { $colours } вернулся в запас
       *[other] ваши замки { $colours } вернулись в запас
    }

btn-details = 📜 Подробнее
btn-details-less = 📜 Короче
