# Смута — набор игроков, стол, итоги, ответы и ошибки бота.
# Тексты идут с parse_mode HTML; подписи кнопок — простой текст.

ok = 👌

## Набор игроков

lobby-title = ⚜️ <b>Смута</b> — набор игроков
lobby-empty = <i>За столом пока никого.</i>
lobby-settings = ⏱ На ход: { $turn } с · на выбор: { $choice } с
lobby-length = ⏳ Партия — ≈ { $low }–{ $high } минут { $players ->
        [2] на двоих
        [3] на троих
        [4] на четверых
        [5] на пятерых
       *[6] на шестерых
    }.
lobby-hint = Нужно от { $min } до { $max } игроков. Жмите «🙋 Играю»; начинает создатель стола или админ группы.
lobby-started = 🎲 <b>Игра началась!</b> За столом:
lobby-cancelled = ❌ Набор игроков отменён.
lobby-moved = ⬇️ <i>Набор игроков — ниже.</i>
lobby-joined = ✅ Вы за столом!
lobby-joined-private = ✅ Вы за столом! Игра идёт в группе, а сюда я буду присылать вашу руку и вопросы.
lobby-left = 👋 Вы встали из-за стола.
lobby-computer-added = 🤖 Компьютер садится за стол.
lobby-updated = ⚙️ Настройки изменены.
lobby-start-bot-first = Сначала откройте личный чат со мной (кнопка ниже) и нажмите «Запустить» — я сразу посажу вас за стол, а ваши карты буду присылать туда.
bot-name = Компьютер { $n } · { $level }
# имя игрока, в котором нечего показать (пустое, из одних невидимых знаков)
person-fallback = кто-то
player-fallback = Игрок { $n }

## Кнопки

btn-join = 🙋 Играю
btn-leave = 🚪 Выйти
btn-go = ▶️ Начать
btn-lang = 🌐 English
btn-time = ⏱ Время
btn-cancel = ❌ Отменить
btn-back = 🔙 Назад
btn-rematch = 🔁 Ещё партию
btn-open-bot = 💬 Открыть чат с ботом
btn-stop-yes = 🛑 Да, остановить
btn-stop-no = ↩️ Нет, играем

## Игра

game-started = 🎲 Игра началась!
game-left = 👋 Вы вышли из игры — дальше за вас играет компьютер. Передумали? /back в личном чате.
back-done = 🙋 Вы снова в игре!
back-nothing = Нет игр, где за вас играет компьютер.
back-too-often = 🔁 Вы слишком часто возвращались в эту партию — до её конца за вас играет компьютер.
hand-title = ✋ <b>Ваша рука</b> — { $n } { $n ->
        [one] карта
        [few] карты
       *[many] карт
    }
private-header = 💬 <b>{ $chat }</b>
remind = ⏰ Вас ждут! { $seconds ->
        [one] Осталась { $seconds } секунда
        [few] Осталось { $seconds } секунды
       *[many] Осталось { $seconds } секунд
    }, потом выбор сделает компьютер.

## Стол
## Значки стола объясняет /rules (rules-text, «Значки»): держите их вместе.

table-title = ⚜️ <b>Смута</b> · ход { $turn }
table-deck = 🎴 колода { $n }
table-deck-top = (сверху открыта { $smuta })
table-final-turns = ⏳ последних ходов: { $n }
table-orders = 📜 приказы { $n }
table-graveyard = ⚰️ сгинувшие: { $n ->
        [0] нет
       *[other] { $n }, сверху { $top }
    }
table-orders-discard = 🗑 сброс приказов: { $n ->
        [0] нет
       *[other] { $n }, сверху { $top }
    }
table-smuta-discard = 🌀 сброс смут: { $n ->
        [0] нет
       *[other] { $n }, сверху { $top }
    }
table-prophet = 🔮 стопка Пророка: { $smuty }
table-castles = 🏰 замки в запасе: { $castles }
table-orders-short = 📜 приказы { $n }{ $discarded ->
        [0] {""}
       *[other] , в сбросе { $discarded }
    }
table-graveyard-short = ⚰️ сгинувшие { $n } (сверху { $top })
table-smuta-discard-short = 🌀 сброс смут { $n } (сверху { $top })
table-prophet-short = 🔮 у Пророка { $n }
table-castles-short = 🏰 { $n ->
        [0] замков в запасе нет
       *[other] замки в запасе: { $castles }
    }
# дом, чьи карты не поместились в строку: сколько в нём карт
table-house-count = { $n } { $n ->
        [one] карта
        [few] карты
       *[many] карт
    }
table-player = <b>{ $player }</b> · ✋ { $hand } · ⭐ { $points }
table-actions = осталось { $n } { $n ->
        [one] действие
        [few] действия
       *[many] действий
    }
table-choosing = 💭 выбирает
table-moved = ⬇️ <i>Стол — ниже.</i>
table-castle-permanent = 🏰♾️
table-castle-one-time = 🏰⚡

## Итоги

result-title = 🏁 <b>Игра окончена!</b>
result-aborted = ⚠️ <b>Игра прервана.</b> Счёт на этот момент:
result-stopped = 📊 Счёт на момент остановки:
result-line = { $player } — <b>{ $points }</b> { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }{ $castles ->
        [0] { " " }(карты { $cards }, замков нет)
       *[other] { " " }(карты { $cards } + 🏰 { $castles } × { $each })
    }
result-tie-break = <i>Очков поровну у { $players } — выше тот, у кого больше замков.</i>
result-tie-castles = { $player }: 🏰 { $castles }
result-winners = { $n ->
        [one] 👑 Победитель: <b>{ $players }</b>
       *[other] 👑 Победители: <b>{ $players }</b>
    }

## Журнал хода

log-empty-turn = <i>Ход прошёл без событий.</i>
log-skipped = <i>⋯ пропущено строк: { $count }</i>
log-left = 🚪 { $player } выходит из игры — дальше играет компьютер.
log-back = 🙋 { $player } возвращается в игру.
log-timeout = ⏰ { $player } не успевает — выбор сделан автоматически.
log-away = 💤 { $player } пропускает ходы — дальше играет компьютер (вернуться: /back в личном чате).

## Остановка

stop-confirm = 🛑 Остановить игру? Партия закончится здесь: покажу счёт на этот момент, но в рейтинг она не войдёт.
stop-done = 🛑 { $player } останавливает игру.
stop-done-short = Игра остановлена.
stop-kept = Играем дальше!
stop-everyone-left = 🛑 Все игроки вышли — игра окончена.
stop-removed = 🛑 Бота удалили из группы — игра там окончена и в рейтинг не войдёт.
stop-prompt = 🛑 <i>Игра остановлена — отвечать больше не нужно.</i>

## Язык и /card

lang-choose = 🌐 Выберите язык / Choose your language:
lang-set = ✅ Язык: русский.
card-usage = Напишите название карты, приказа, смуты или замка: <i>/card Миледи</i>, <i>/card пир</i>, <i>/card замок власти</i>. Все карты: /cards.
card-unknown = 🤷 Не знаю карту «{ $query }». { $n ->
        [0] Все карты: /cards.
       *[other] Может быть: { $names }? Все карты: /cards.
    }
card-castles = 🏰 <b>Замки</b> — по одному каждого цвета; у каждого две стороны:
card-list =
    🗂 <b>Все карты</b>

    <b>Карты дома</b> (с очками): { $houses }

    <b>Приказы:</b> { $orders }

    <b>Смуты:</b> { $smuty }

    <b>Стихийные бедствия</b> (тоже смуты): { $disasters }

    <b>Замки:</b> { $castles }

    Подробно: /card название (например, /card пир).

## Ошибки (всплывающие — короче 200 знаков)

err-no-game = В этом чате сейчас нет игры. Начать: /newgame
err-game-exists = Здесь уже идёт игра или набор игроков.
err-busy = Слишком много нажатий сразу — попробуйте ещё раз.
err-no-lobby = Сейчас нет набора игроков.
err-already-joined = Вы уже за столом.
err-lobby-full = Стол полон.
err-not-seated = Вы не за этим столом.
err-not-creator = Это может только создатель стола или админ группы.
err-seats = Для игры нужно от 2 до 6 игроков.
err-no-humans = Нужен хотя бы один живой игрок.
err-old-game = Эта игра уже закончилась.
err-old-button = Эта кнопка устарела.
prompt-resent = Игра ушла вперёд: свежие кнопки отправлены тому, кто выбирает сейчас.
err-not-your-turn = Сейчас выбирает другой игрок.
err-bad-button = Непонятная кнопка.
err-bad-link = Ссылка повреждена — попросите новую в группе.
err-no-games = Сейчас вы ни в одной игре.
err-private-only = Эта команда работает в личном чате с ботом.
err-group-only = Эта команда работает в группе.
err-unreachable = ⚠️ { $player }, я не могу написать вам в личный чат. <a href="{ $link }">Откройте чат со мной</a> и нажмите «Запустить».
err-unavailable = Не сохранено: хранилище игр сейчас недоступно, ходы не записываются. Всё, что было до этого, цело — попробуйте ещё раз через минуту.
err-store-full = Не сохранено: хранилище игр переполнено. Всё, что было до этого, цело — попробуйте ещё раз через минуту.
err-internal = Что-то пошло не так. Попробуйте ещё раз.
err-game-over = Игра уже закончилась.
err-no-decision = Сейчас ничего выбирать не нужно.
err-stale-decision = Этот вопрос уже устарел.
err-not-your-decision = Сейчас выбирает другой игрок.
err-illegal-option = Так сейчас нельзя.
err-no-such-seat = Такого места за столом нет.

## Выход из игры

leave-confirm = 🚪 Выйти из игры? Дальше за вас будет играть компьютер; вернуться можно командой /back в личном чате, пока партия идёт.
btn-leave-yes = 🚪 Да, выйти
btn-leave-no = ↩️ Нет, играю
leave-kept = Играем дальше!
game-left-last = 👋 Вы вышли — людей за столом не осталось, игра окончена.
err-not-your-button = Эта кнопка не для вас.
err-channel-sender = 📢 Сообщение от имени канала или группы — не от человека: так играть и управлять играми нельзя. Напишите команду от своего имени.
err-not-member = 🔒 За этот стол садятся участники группы. Вступите в группу — и ссылка сработает.

## Компьютеры и тренировка

level-easy = лёгкий
level-normal = обычный
level-strong = сильный
btn-add-easy = 🤖 Лёгкий
btn-add-normal = 🤖 Обычный
btn-add-strong = 🤖 Сильный
btn-drop-computer = ➖ Убрать компьютер
btn-clock-on = ⏱ С таймером
btn-clock-off = ⏱ Без таймера
lobby-computer-dropped = ➖ Компьютер встаёт из-за стола.
practice-title = Тренировка
practice-lobby-title = 🎯 <b>Тренировка</b> — вы против компьютера
practice-untimed = ⏱ Без таймера: думайте сколько нужно.
practice-hint = От 1 до { $max } соперников. Стол и вопросы будут здесь, в этом чате; закончить — /stop.
practice-cancelled = ❌ Тренировка отменена. Новая — /practice.
practice-running = У вас уже идёт тренировка: /hand — ваш вопрос, /table — стол, /stop — закончить.
err-practice-solo = Это тренировочный стол: за ним играют только с компьютером.
err-no-computer = За столом нет компьютеров.

## Ещё партию

rematch-opened = 🔁 Новый стол открыт — остальных я позвал в личке.
rematch-gone = Той партии уже нет — начните новую: /newgame
rematch-not-yours = «Ещё партию» — для тех, кто играл. Новую игру начинает /newgame.
rematch-invite = 🔁 { $player } зовёт сыграть ещё партию в группе <b>{ $chat }</b>. Кнопка ниже посадит вас за стол.
## Дом чата: настройки, рейтинг, история, созыв

settings-title = ⚙️ <b>Настройки чата</b> — с них начинается каждая новая игра
settings-lang = 🌐 Язык: русский
settings-level = 🤖 Компьютер по умолчанию: { $level }
settings-rules = 📜 <b>Правила</b>
settings-hint = <i>Менять могут админы группы и автор настроек, пока он играет здесь (за столом или в одной из последних { $games } игр); пока такого автора нет — любой игрок чата, и он становится автором. Идущая игра доигрывается по своим правилам.</i>
settings-saved = ⚙️ Сохранено — действует с новой игры.
btn-settings-level = 🤖 Уровень
err-settings-not-yours = Менять настройки могут админы группы и их автор, пока он здесь играет; когда автора нет — любой, кто здесь играет.
variant-hand-limit = ✋ Рука: { $value }
variant-hand-limit-about = больше стольких карт на руке держать нельзя
variant-actions = 🎯 Действий за ход: { $value }
variant-actions-about = сколько действий (взять, выложить, сыграть, сбросить, построить) можно сделать за ход; постоянный Замок Торговли даёт на одно больше
variant-fire = 🔥 Пожар: { $value ->
        [1] из каждого дома
       *[0] из одного дома
    }
variant-fire-about = игрок, потерявший замки, отправляет в колоду сгинувших по карте из каждого дома, лишившегося замка, — или только из одного
top-title = 🏆 <b>Рейтинг чата</b>
top-line = { $place }. { $player } — { $rating } ± { $spread } · игр { $games }, побед { $wins }
top-empty = В этом чате ещё нет сыгранных игр в зачёт.
top-hint = <i>Рейтинг ± разброс: чем больше игр, тем он точнее. Тренировки, остановленные игры и игры меньше чем двух человек не в зачёт.</i>
stats-title = 📊 <b>Ваши результаты</b> — всего
stats-chat = 💬 <b>{ $chat }</b>
stats-figures = рейтинг { $rating } ± { $spread } · игр { $games }, побед { $wins } · очков { $points }, лучший счёт { $best }
stats-smuta-best = 💚 Любимая смута: { $smuta } (+{ $n })
stats-smuta-worst = 💔 Самая дорогая смута: { $smuta } (−{ $n })
stats-none = У вас ещё нет игр в зачёт.
stats-computer = 🤖 Компьютер · { $level }
history-title = 📜 <b>Последние игры</b>
history-line = № { $number } · { $date } · { $minutes } мин · { $players }
history-empty = В этом чате ещё не доиграли ни одной игры.
history-hint = <i>Ход игры файлом: /replay номер — в личном чате с ботом.</i>
history-forgotten = игрок
replay-title = Смута, игра № { $number } · { $chat } · { $players }
replay-caption = 📜 Игра № { $number }, ход за ходом
replay-usage = Напишите номер игры: /replay 12 (номера — в /history группы).
replay-unknown = Нет игры с таким номером.
replay-not-yours = Эту игру может получить только тот, кто в ней играл.
replay-failed = Не получилось отправить файл, попробуйте позже.
notify-on = 🔔 Позову вас в личке, когда здесь откроется набор. /notify off — не звать.
notify-off = 🔕 Больше не зову.
notify-start-bot = 🔔 Чтобы я мог позвать вас, откройте личный чат со мной и нажмите «Запустить».
notify-lobby = 🔔 В <b>{ $chat }</b> собирают игру в Смуту!
notify-called = 🔔 Позвали: { $n }
notify-unreachable = 🔔 { $players }: не могу написать вам в личку — <a href="{ $link }">запустите бота</a>, чтобы я звал вас на игры.
forgetme-confirm = 🗑 Забыть вас? Я удалю ваши настройки, подписки и статистику, а в истории игр вы станете «игрок». Вернуть это будет нельзя.
btn-forget-yes = 🗑 Да, забыть
btn-forget-no = ↩️ Нет
forgetme-kept = ↩️ Ничего не удалено.
forgetme-done = 🗑 Готово: ваши настройки, подписки и статистика удалены; в истории игр вы теперь «игрок».

## Подсказки

btn-hint = 💡 Подсказка
result-hints = { $player }: { $n ->
        [one] { $n } подсказка
        [few] { $n } подсказки
       *[many] подсказок: { $n }
    }
settings-hints-on = 💡 Подсказки в играх: да
settings-hints-off = 💡 Подсказки в играх: нет
btn-settings-hints = 💡 Подсказки
