"""/replay's file reads as a plain text: each turn opens with its header after a
blank line (never glued to the last action of the turn before), and nothing
invisible is in it (the isolates that keep a name's direction in a message)."""

from __future__ import annotations

import pytest

from bot.store.memory import MemoryStore
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, Witness
from tests.bot.helpers.finishing import play_to_the_end

GROUP = -100313


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_replay_puts_each_turn_after_a_blank_line_with_nothing_invisible(
    lang: str,
) -> None:
    h = Harness(MemoryStore())
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    await h.open_game(GROUP, anna, [boris], computers=1, lang=lang)
    await play_to_the_end(h, GROUP, Witness())
    number = (await h.store.history(GROUP))[0].number
    await h.say(anna.id, anna, f"/replay {number}")
    text = h.tg.files[-1][2].decode()

    assert "\u2068" not in text and "\u2069" not in text
    lines = text.split("\n")
    header = h.tr.t(lang, "event-turn-start", turn=1, player="x", actions=3).split(" ")[0]
    headers = [i for i, line in enumerate(lines) if line.startswith(header)]
    assert len(headers) > 10, "a whole game has many turns"
    glued = [lines[i - 1] for i in headers if lines[i - 1] != ""]
    assert not glued, f"turn headers glued to the line before: {glued[:3]}"
    # every turn's lines follow its header, up to the next blank line
    turns = text.split("\n\n")
    assert sum(1 for t in turns if t.startswith(header)) == len(headers)
    assert "Анна" in text and "Борис" in text
