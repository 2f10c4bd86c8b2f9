"""A person's review of their own game (`bot.service.reviews.reviewed`, made in
the after-game worker): each moment names a move that seat really made, at the
turn it made it, and what the strong level would have done instead; the chart
is a PNG. The bot's sending after the result is not wired yet (issue 27 item 6)."""

from __future__ import annotations

from bot.service.reviews import reviewed
from bot.store.models import Seat, Table
from bot.words.i18n import Translator
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from engine import Command, GameSetup, apply, new_game, pending
from engine.ai.easy import choose
from engine.ai.review import own_choices


def test_a_review_names_moves_the_seat_really_made() -> None:
    setup = GameSetup(players=3, seed=7)
    state, _ = new_game(setup)
    commands: list[Command] = []
    while (d := pending(state)) is not None:
        option = choose(len(commands), d)
        commands.append(Command(seat=d.seat, decision=d.id, option=option))
        apply(state, d.seat, d.id, option)
    seats = [Seat(user_id=i + 1, name=f"P{i}") for i in range(3)]
    table = Table(chat_id=-1, game_no=1, title="Друзья", creator_id=1, seats=seats, setup=setup)
    table.state = state
    tr = Translator()
    made = reviewed(tr, "ru", table, commands, 0)
    assert made.lines and len(made.lines) == len(made.moves) <= 3
    assert made.png.startswith(b"\x89PNG")
    prompts = Prompts(Renderer(tr), tr)
    asked = {i: (s, d, o) for i, s, d, o in own_choices(setup, commands, 0)}
    for line, (turn, move) in zip(made.lines, made.moves, strict=True):
        s, d, o = asked[move + 1]
        assert commands[move].seat == 0 and tuple(commands[move].option or ()) == o
        assert s.turn == turn and f"Ход {turn}." in line
        assert prompts.asked("ru", table, s, d, o) in line, "the move they made, in words"
