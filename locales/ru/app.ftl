# Смута — Mini App: стол в окне Telegram (bot/webapp). Тексты страницы —
# простой текст (без HTML); app-open и ошибки идут в чат с parse_mode HTML.

btn-app = 🃏 Стол
app-open = 🃏 Стол этой игры открывается кнопкой ниже: все игроки, их дома, ваши карты и ваш выбор.
app-hand-empty = пусто
app-log = 📜 Ход игры
app-spectator = 👀 Вы смотрите партию со стороны.
app-offline = 📡 Нет связи — переподключаюсь…
app-no-game = В этом чате сейчас нет игры.
app-no-games = У вас нет идущих игр. Начните: /newgame в группе или /practice в чате с ботом.
app-pick-game = Выберите игру:
app-denied = Этот стол вам не виден: откройте его кнопкой «🃏 Стол» в Telegram.
app-no-card = Такой карты нет.
app-close = Закрыть
app-finished = 🏁 Игра окончена.
err-too-fast = Не так быстро — подождите секунду.
app-too-fast = ⏳ Слишком много запросов подряд — повторю через несколько секунд.
app-busy = ⏳ Сервер сейчас занят другими столами — подключусь снова чуть позже.
app-elsewhere = 🪟 Стол открыт в другом окне — здесь он больше не обновляется.

# — the story, the score, accessible names (issue 27)
app-log-new = 🆕 С вашего прошлого хода
app-log-earlier = Раньше
app-turn = Ход { $n } · { $name }
app-deal = Раздача
app-last = Последний ход: { $line }
app-last-mark = последний ход
app-timer = ⏱ { $name }: { $time }
app-timer-label = Время игрока { $name }: осталось { $time }
app-score-label = { $total } { $total ->
    [one] очко
    [few] очка
   *[many] очков
  }: { $cards } за карты, { $castles } за замки
app-hand-label = { $n } { $n ->
    [one] карта
    [few] карты
   *[many] карт
  } в руке
app-known = 👁 Вы знаете у него в руке:
app-card-house = { $name }, { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
  }, { $colours }
app-card-order = { $name }, приказ
app-card-smuta = { $name }, смута
app-order-tag = 📜 приказ
app-house = Дом: { $colour }
app-house-castle = Дом: { $colour }, { $castle }
app-castle-permanent = замок, постоянная сторона
app-castle-once = замок, разовая сторона
app-can-pick = можно выбрать
app-computer = компьютер
app-replay-title = 🎞 Игра № { $number }
app-replay-move = Шаг { $move } из { $total }
app-replay-prev = ◀ Назад
app-replay-next = Вперёд ▶
app-replay-slider = Ход партии
app-replay-denied = Эту игру может посмотреть только тот, кто в ней играл.
app-replay-unknown = Нет игры с таким номером.
btn-replay = 🎞 Игра № { $number }
replay-open = 🎞 Игра № { $number } ход за ходом — кнопкой ниже.
