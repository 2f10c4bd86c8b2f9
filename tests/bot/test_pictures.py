"""The game's picture (issue 27, item 5): the result carries it into the group,
`/table фото` (and `/table photo`) answers with the running table, and it is
in the chat's language, sized to the game, under 200 KB.

The picture is looked at through its data (`bot.words.picture.Picture`: every
word on it, in the reader's language) and through the PNG itself (Pillow reads
its size; a picture taller for more players and longer houses)."""

from __future__ import annotations

import io
from concurrent.futures import Executor, Future
from typing import Any

import pytest
from aiogram.methods import SendMessage
from PIL import Image

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Seat, Table
from bot.words.i18n import Translator
from bot.words.picture import MAX_BYTES, WIDTH, draw, picture_of, plain
from engine import Command, GameSetup, apply, new_game, pending
from engine.ai import decide
from engine.story import scores_by_turn, table_points
from tests.bot.fake_telegram import text_of
from tests.bot.harness import Harness, people
from tests.bot.helpers.rematches import GROUP, finished_game

NAMES = {"ru": ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"], "en": list("ABCDEF")}


def played(players: int, seed: int) -> tuple[GameSetup, list[Command], Any]:
    """A whole game of computers (normal level) and its command log."""
    setup = GameSetup(players=players, seed=seed)
    state, _ = new_game(setup)
    commands = []
    while (d := pending(state)) is not None:
        option = decide(state, d, "normal")
        apply(state, d.seat, d.id, option)
        commands.append(Command(seat=d.seat, decision=d.id, option=option))
    return setup, commands, state


def table_of(setup: GameSetup, state: Any, lang: str) -> Table:
    n = setup.players
    return Table(
        chat_id=GROUP,
        game_no=1,
        creator_id=1,
        lang=lang,  # type: ignore[arg-type]
        title="Группа" if lang == "ru" else "Group",
        status="finished",
        seats=[Seat(user_id=100 + i, name=NAMES[lang][i]) for i in range(n)],
        setup=setup,
        state=state,
    )


def png_size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


@pytest.fixture(scope="module")
def games() -> dict[int, tuple[GameSetup, list[Command], Any]]:
    return {3: played(3, 4), 6: played(6, 9)}


def test_the_story_ends_at_the_final_score(games: dict[int, Any]) -> None:
    for setup, commands, state in games.values():
        story = scores_by_turn(setup, commands)
        assert story.turns[0] == 0 and all(p[0] == 0 for p in story.points), "the deal: 0"
        assert [p[-1] for p in story.points] == state.result.scores
        assert story.turns == sorted(story.turns) and story.turns[-1] == state.turn
        assert len(story.turns) == state.turn + 1, "a column a turn, and the deal"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_picture_speaks_the_chat_language(lang: str, games: dict[int, Any]) -> None:
    tr = Translator()
    other = "en" if lang == "ru" else "ru"
    setup, commands, state = games[3]
    picture = picture_of(
        tr, lang, table_of(setup, state, lang), state, scores_by_turn(setup, commands)
    )
    words = [picture.title, picture.subtitle, picture.chart.title, picture.chart.axis]
    assert (
        picture.chart.title
        == plain(tr.t(lang, "picture-chart"))
        != plain(tr.t(other, "picture-chart"))
    )
    assert picture.subtitle == plain(tr.t(lang, "picture-final", turns=state.turn))
    assert [r.name for r in picture.rows] == NAMES[lang][:3] == picture.chart.names
    # every house names its colour in the chat's language (never the colour alone)
    for row, player in zip(picture.rows, state.players, strict=True):
        assert [h.colour for h in row.houses] == [h.colour for h in player.houses]
        for box in row.houses:
            assert box.heading.startswith(plain(tr.t(lang, f"colour-{box.colour}")))
            words.append(box.heading)
            words += [name for name, _ in box.cards]
    # the score line is the engine's count, and the winners are starred
    for seat, row in enumerate(picture.rows):
        assert row.points.startswith(str(state.result.scores[seat]))
        assert row.winner == (seat in state.result.winners)
    cyrillic = any("а" <= ch <= "я" for w in words for ch in w.lower())
    assert cyrillic == (lang == "ru")


def test_the_picture_follows_the_game_and_stays_small(games: dict[int, Any]) -> None:
    tr = Translator()
    sizes = {}
    for players, (setup, commands, state) in games.items():
        for lang in ("ru", "en"):
            table = table_of(setup, state, lang)
            png = draw(picture_of(tr, lang, table, state, scores_by_turn(setup, commands)))
            assert len(png) < MAX_BYTES, f"{players} players, {lang}: {len(png)} bytes"
            sizes[players, lang] = png_size(png)
    assert all(w == WIDTH for w, _ in sizes.values())
    assert sizes[6, "ru"][1] > sizes[3, "ru"][1], "six rows of houses take more room than three"
    assert sizes[3, "ru"] == sizes[3, "en"], "the same game: the same size in either language"


async def test_the_result_carries_the_game_picture(store: Store) -> None:
    h = Harness(store)
    since = len(h.tg.requests)
    _, result = await finished_game(h)
    pictures = h.tg.pictures(GROUP)
    assert len(pictures) == 1, "one picture: the result's"
    photo = pictures[0]
    assert h.message_id_of(photo) == result, "the picture is the result message, with «Ещё партию»"
    assert text_of(photo).startswith(h.tr.t("ru", "result-title"))
    assert not photo.disable_notification, "the result rings"
    png = next(p for c, m, p in h.tg.photos if m == result)
    assert len(png) < MAX_BYTES
    width, height = png_size(png)
    assert width == WIDTH and height > 800
    # the result is not sent twice as text
    texts = [r for r in h.tg.requests[since:] if isinstance(r, SendMessage) and r.chat_id == GROUP]
    assert not any(r.text.startswith(h.tr.t("ru", "result-title")) for r in texts)


@pytest.mark.parametrize("word", ["фото", "photo"])
async def test_table_photo_answers_with_the_running_table(word: str) -> None:
    h = Harness(MemoryStore())
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    table = await h.table(GROUP)
    await h.say(GROUP, boris, f"/table {word}")
    pictures = h.tg.pictures(GROUP)
    assert len(pictures) == 1
    assert table.state is not None
    assert text_of(pictures[0]) == h.tr.t("ru", "picture-caption", turn=table.state.turn)
    png = h.tg.photos[-1][2]
    assert len(png) < MAX_BYTES and png_size(png)[0] == WIDTH
    # the plain /table still answers with the text table
    await h.say(GROUP, boris, "/table")
    assert len(h.tg.pictures(GROUP)) == 1


class Broken(Executor):
    """A drawing thread that fails every picture."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(RuntimeError("no drawing today"))
        return future


async def test_a_picture_that_cannot_be_drawn_leaves_the_result_as_text() -> None:
    h = Harness(MemoryStore())
    h.app.games.pictures._executor = Broken()
    _, result = await finished_game(h)
    assert h.tg.pictures(GROUP) == []
    assert h.tg.texts[(GROUP, result)].startswith(h.tr.t("ru", "result-title"))


def test_the_points_are_the_rules_count(games: dict[int, Any]) -> None:
    _, _, state = games[6]
    assert [table_points(state, s) for s in range(6)] == state.result.scores
