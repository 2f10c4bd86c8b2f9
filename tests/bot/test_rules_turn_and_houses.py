"""/rules says what a newcomer would otherwise learn the hard way, in both
languages: «Ход» counts the 4th action of a permanent Замок Торговли (not only
«Замки» does), «Дома» says a castle stays when its Лорд leaves (RULES.md §5:
the requirements are checked only when building); and the README's «Как
играть» says that a tie on castles too is shared (RULES.md §7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

README = Path(__file__).resolve().parents[2] / "README.md"


def paragraph(text: str, heading: str) -> str:
    found = [p for p in text.split("\n\n") if p.startswith(f"<b>{heading}")]
    assert len(found) == 1, (heading, text)
    return found[0]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_rules_turn_counts_the_castle_of_trade_and_houses_keep_a_castle_without_its_lord(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    await h.say(anna.id, anna, "/start")
    await h.say(anna.id, anna, "/rules")
    rules = h.tg.sent(anna.id)[-2].text  # the first of /rules' two messages
    turn = paragraph(rules, {"ru": "Ход", "en": "A turn"}[lang])
    assert h.tr.t(lang, "castle-orange") in turn
    assert {"ru": "до 3 действий", "en": "1 to 3 actions"}[lang] in turn
    assert {"ru": "до 4 действий", "en": "up to 4 actions"}[lang] in turn
    houses = paragraph(rules, {"ru": "Дома", "en": "Houses"}[lang])
    stays = {"ru": "уйдёт Лорд — замок останется", "en": "if its Lord leaves, the castle stays"}
    assert stays[lang] in houses


def test_the_readme_says_a_tie_on_castles_too_is_shared() -> None:
    how_to_play = README.read_text(encoding="utf-8").split("## Как играть")[1]
    goal = how_to_play.split("**Начало.**")[0]
    assert "больше замков" in goal
    assert "если и замков поровну" in goal and "победа общая" in goal
    turn = how_to_play.split("**Ход**")[1].split("\n\n")[0]
    assert "Замка Торговли — до 4" in turn
