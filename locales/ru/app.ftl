# Смута — Mini App: стол в окне Telegram (bot/webapp). Тексты страницы —
# простой текст (без HTML); app-open и ошибки идут в чат с parse_mode HTML.

btn-app = 🃏 Стол
app-open = 🃏 Стол этой игры открывается кнопкой ниже: все игроки, их дома, ваши карты и ваш выбор.
app-hand-empty = пусто
app-log = 📜 Последние ходы
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
