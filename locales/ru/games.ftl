# Несколько игр сразу (issue 40, п. 3): /games, /hand, который спрашивает, в какой игре,
# предел столов.

cmd-games = Все мои игры: чей ход и сколько осталось
games-title = 🎲 <b>Ваши игры: { $n }</b>
games-line = { $i }. <b>{ $title }</b> — { $state }
games-yours = ❗ ждут вашего ответа
games-waiting = ждём: { $player }
games-lobby = набор игроков
games-timed = { $state } · ⏳ { $left }
games-seconds = { $n } с
games-minutes = { $n } мин
games-hours = { $h } ч { $m } мин
games-days = { $d } д { $h } ч
games-buttons = ↩️ — вопрос и рука этой игры сюда, 🃏 — её стол.
games-none = Сейчас вы ни в одной игре. С друзьями: добавьте меня в группу и отправьте там /newgame. Против компьютера — /practice здесь же.
games-which = В какой игре? Вы сидите за несколькими столами — выберите, и её рука и вопрос придут сюда.
games-gone = Этой игры больше нет (она закончилась, или вы вышли). Ваши игры — /games.
btn-games-bring = ↩️ { $title }
btn-games-app = 🃏 { $title }
err-too-many-tables = 🪑 Вы уже сидите за { $limit } столами — больше нельзя. Доиграйте или выйдите из одной из игр (/games — все ваши игры).
table-title-practice = ⚜️ <b>{ $title }</b> · ход { $turn }
result-title-practice = 🏁 <b>{ $title }</b>: игра окончена!
