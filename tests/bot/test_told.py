"""Every event explained where it lands (issue 16), in both languages, through
the real dispatcher:

- a drawn смута gets one short line of what it does in the group's log (or
  that it touched nobody), and the same line heads every prompt it causes;
- a character's effect is named by the character (Казначей's order);
- whoever loses a card, an order or a house is told in private, in one line,
  by whom and how — at the top of their next message;
- a turn that starts again says why;
- a practice game's «Ваш ход!» begins with what the computers did since (a
  line a turn; in full a tap away).
"""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.types import User

from bot.service import journal
from bot.store.memory import MemoryStore
from bot.words.keyboards import LobbyCb
from bot.words.render import kebab
from engine import pending
from engine.cards import catalog_for
from engine.scenario import build, resolve
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, decisions_of, group_texts

GROUP = -100616
NAMES = {"ru": ["Анна", "Борис", "Вера"], "en": ["Anna", "Boris", "Vera"]}
LANGS = ["ru", "en"]


async def seated(h: Harness, position: dict[str, Any], lang: str) -> list[User]:
    """People (one a seat of `position`) at a group game in `lang` that stands
    at `position`; the one who decides has their prompt."""
    count = len(position["players"])
    users = [person(400 + i, NAMES[lang][i], lang) for i in range(count)]
    await h.open_game(GROUP, users[0], users[1:])
    table = await h.table(GROUP)
    table.state = build(position)
    journal.told_all(table)
    table.lang = lang  # type: ignore[assignment]
    assert await h.store.save(table)
    decision = pending(table.state)
    assert decision is not None
    decider = users[decision.seat]
    await h.say(decider.id, decider, "/hand")
    return users


async def play(h: Harness, users: list[User], *parts: str) -> None:
    """The decider answers with the option `parts` describe (card kinds as in
    `engine.scenario`), pressing through their prompt."""
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    option = resolve(table.state, parts)
    await h.answer(users[decision.seat], GROUP, option)


def prompt_text(h: Harness, user: User) -> str:
    """The text of the message that asks `user` their pending question."""
    live = [
        text
        for (chat, message), text in h.tg.texts.items()
        if chat == user.id and decisions_of(h.tg.markups.get((chat, message)))
    ]
    assert live, f"{user.first_name} has no prompt"
    return live[-1]


def story(text: str) -> list[str]:
    """The lines of a prompt message between its header and its question."""
    return text.split("\n\n")[0].split("\n")[1:]


def smuta_line(h: Harness, lang: str, smuta: str, initiator: str) -> str:
    """The log's line of a смута drawn by `initiator` (a name as the texts show it)."""
    tr = h.tr
    return tr.t(
        lang,
        "event-smuta-start",
        mode="drawn",
        smuta=tr.t(lang, f"card-{smuta}"),
        initiator=initiator,
        does=tr.t(lang, "smuta-does-" + kebab(smuta), hand=7, fire_each="yes"),
    )


# ====================================================================== смуты
@pytest.mark.parametrize("lang", LANGS)
async def test_a_drawn_smuta_says_what_it_does_or_that_it_touched_nobody(lang: str) -> None:
    """Чума with no castle and no Чумовой anywhere: the log says what Чума does,
    then that it touched nobody; so does the private message of the one who drew it."""
    h = Harness(MemoryStore())
    anna, _boris = await seated(
        h,
        {
            "players": [
                {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
            ],
            "deck": ["pestilence", "lord.orange", "page.red"],
        },
        lang,
    )
    since = len(h.tg.requests)
    message = (await h.store.messages(GROUP))["prompt:0"]
    await play(h, [anna, _boris], "draw")
    said = "\n".join(group_texts(h.tg, GROUP, since))
    line = smuta_line(h, lang, "pestilence", f"\u2068{NAMES[lang][0]}\u2069")
    nobody = h.tr.t(lang, "event-smuta-end", touched="no", smuta=h.tr.t(lang, "card-pestilence"))
    assert line in said and nobody in said, said
    assert said.index(line) < said.index(nobody)
    mine = h.tg.texts[(anna.id, message)]
    assert line in mine and nobody in mine, mine


@pytest.mark.parametrize("lang", LANGS)
async def test_every_prompt_a_smuta_causes_states_its_rule(lang: str) -> None:
    """Заговор: the initiator's own question and the next giver's both begin
    with the line of what Заговор does, just above the question."""
    h = Harness(MemoryStore())
    users = await seated(
        h,
        {
            "players": [
                {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {
                    "houses": [
                        {"colour": "red", "cards": ["page.red"]},
                        {"colour": "blue", "cards": ["lord.blue"]},
                    ]
                },
                {"houses": [{"colour": "green", "cards": ["lord.green"]}]},
            ],
            "deck": ["conspiracy", "lord.orange", "page.red"],
        },
        lang,
    )
    anna, boris, _ = users
    line = smuta_line(h, lang, "conspiracy", f"\u2068{NAMES[lang][0]}\u2069")
    question = h.tr.t(lang, "prompt-conspiracy-give")
    await play(h, users, "draw")
    lines = story(prompt_text(h, anna))
    assert line in lines and question in lines, lines
    assert lines.index(line) < lines.index(question)
    await play(h, users, "lord.red", "1")  # Анна gives her Лорд to Борис
    lines = story(prompt_text(h, boris))
    assert lines.index(line) == lines.index(question) - 1, lines
    # Борис is told first what landed on him, by whom
    table = await h.table(GROUP)
    assert table.state is not None
    lord = table.state.players[1].houses[0].cards[-1]
    card = h.app.games.render.card(lang, table.state, lord, "acc")
    gift = h.tr.t(
        lang, "you-conspiracy-gave", player=f"\u2068{NAMES[lang][0]}\u2069", card_acc=card
    )
    assert lines[0] == gift, lines


# ====================================================================== characters
@pytest.mark.parametrize("lang", LANGS)
async def test_a_characters_effect_is_named_by_the_character(lang: str) -> None:
    """Казначей's order: «Казначей: Анна берёт приказ» in the log, not a bare
    extra draw; in private, which order."""
    h = Harness(MemoryStore())
    users = await seated(
        h,
        {
            "players": [
                {"hand": ["treasurer.red", "page.red"]},
                {"hand": ["page.green"]},
            ],
            "deck": ["lord.orange", "page.orange"],
            "orders": ["ball", "marriage"],
        },
        lang,
    )
    since = len(h.tg.requests)
    await play(h, users, "lay", "treasurer.red")
    said = "\n".join(group_texts(h.tg, GROUP, since))
    name = f"\u2068{NAMES[lang][0]}\u2069"
    drawn = h.tr.t(lang, "event-order-drawn", reason="treasurer", player=name)
    assert drawn in said and drawn.startswith("💰 "), said
    plain = h.tr.t(lang, "event-order-drawn", reason="action", player=name)
    assert plain not in said
    table = await h.table(GROUP)
    assert table.state is not None
    ball = next(c for c in table.state.players[0].hand if c.startswith("o"))
    mine = story(prompt_text(h, users[0]))
    card = h.app.games.render.card(lang, table.state, ball)
    assert h.tr.t(lang, "event-order-drawn-private", reason="treasurer", card=card) in mine


# ====================================================================== losses
#: a case → its position, Анна's moves, and the sign Борис's line begins with
LOSSES: dict[str, tuple[dict[str, Any], list[tuple[str, ...]], str]] = {
    # Анна's Лазутчица discards Борис's Бал
    "spy": (
        {
            "players": [
                {"hand": ["spy.red", "page.red"]},
                {"hand": ["ball", "page.green"]},
            ],
            "deck": ["lord.orange", "page.orange"],
            "orders": ["marriage"],
        },
        [("lay", "spy.red"), ("ball",)],
        "🕵️‍♀️",
    ),
    # Анна's Миледи takes Борис's Рыцарь
    "lady": (
        {
            "players": [
                {"hand": ["lady.red", "page.blue"]},
                {
                    "hand": ["page.green"],
                    "houses": [{"colour": "red", "cards": ["knight.red", "page.red"]}],
                },
            ],
            "deck": ["lord.orange", "page.orange"],
        },
        [("lay", "lady.red"), ("1", "knight.red")],
        "👸",
    ),
    # Анна's Алхимик sends Борис's Лорд to the graveyard
    "alchemist": (
        {
            "players": [
                {"hand": ["alchemist.red", "page.blue"]},
                {
                    "hand": ["page.orange"],
                    "houses": [{"colour": "green", "cards": ["lord.green", "page.green"]}],
                },
            ],
            "deck": ["lord.orange", "page.orange"],
        },
        [("lay", "alchemist.red"), ("1", "lord.green")],
        "⚗️",
    ),
    # Анна draws Чума: Борис's house with a Чумовой goes whole
    "pestilence": (
        {
            "players": [
                {"hand": ["page.orange"]},
                {
                    "hand": ["page.red"],
                    "houses": [
                        {"colour": "green", "cards": ["plague.green", "lord.green"]},
                        {"colour": "blue", "cards": ["lord.blue"]},
                    ],
                },
            ],
            "deck": ["pestilence", "lord.orange", "page.orange"],
        },
        [("draw",)],
        "🦠",
    ),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(LOSSES))
async def test_whoever_loses_something_is_told_in_private_by_whom_and_how(
    case: str, lang: str
) -> None:
    """Борис loses a card, an order or a house in Анна's turn: his next
    message («Ваш ход!») begins with one line saying what, by whom and how —
    and nobody else is told it."""
    position, moves, sign = LOSSES[case]
    h = Harness(MemoryStore())
    users = await seated(h, position, lang)
    anna, boris = users
    for parts in moves:
        await play(h, users, *parts)
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    if decision.seat == 0:  # Анна's turn goes on: she ends it
        await play(h, users, "end")
    text = prompt_text(h, boris)
    lines = story(text)
    told = [line for line in lines if line.split(" ")[0] == sign]
    assert len(told) == 1, lines
    if case != "pestilence":  # a смута strikes by itself; a person is named
        assert NAMES[lang][0] in told[0], told
    assert h.tr.t(lang, "prompt-action", actions_taken=0) in text
    # Анна's own messages say nothing of the kind
    for (chat, _message), mine in h.tg.texts.items():
        if chat == anna.id:
            assert told[0] not in mine


# ====================================================================== a new turn
@pytest.mark.parametrize("lang", LANGS)
async def test_a_restarted_turn_says_why(lang: str) -> None:
    """Святой Грааль drawn with a permanent Замок Власти: the turn starts anew,
    and the log and Анна's new message say it is the castle."""
    h = Harness(MemoryStore())
    users = await seated(
        h,
        {
            "players": [
                {
                    "hand": ["page.orange"],
                    "houses": [
                        {
                            "colour": "red",
                            "cards": ["lord.red", "page.red", "knight.red"],
                            "castle": "permanent",
                        }
                    ],
                },
                {"hand": ["page.green"]},
            ],
            "deck": ["grail", "lord.orange", "page.blue"],
            "orders": ["ball", "marriage"],
        },
        lang,
    )
    anna = users[0]
    since = len(h.tg.requests)
    before = [r for r in h.tg.sent(anna.id)]
    await play(h, users, "draw")
    why = h.tr.t(lang, "event-turn-restart", reason="power", player=f"\u2068{NAMES[lang][0]}\u2069")
    assert why in "\n".join(group_texts(h.tg, GROUP, since))
    new = [r for r in h.tg.sent(anna.id) if r not in before]
    assert len(new) == 1, "a new turn: a new message"
    assert why in story(new[0].text)
    assert h.tr.t(lang, "prompt-action", actions_taken=0) in new[0].text


# ====================================================================== practice
@pytest.mark.parametrize("lang", LANGS)
async def test_practice_begins_your_turn_with_what_the_computers_did(lang: str) -> None:
    """A practice game: the computer draws Чума, which wipes Анна's house with
    its Чумовой; her «Ваш ход!» begins with the computer's turn — the draw,
    what Чума does, and her house going — not with the house simply gone."""
    h = Harness(MemoryStore())
    anna = person(500, NAMES[lang][0], lang)
    await h.say(anna.id, anna, "/start")
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    lobby = (await h.store.messages(anna.id))["lobby"]
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=table.game_no).pack())
    table = await h.table(anna.id)
    # Анна ends her turn; the computer can only draw, and draws Чума
    table.state = build(
        {
            "players": [
                {
                    "hand": ["page.orange"],
                    "houses": [
                        {"colour": "green", "cards": ["plague.green", "lord.green"]},
                        {"colour": "blue", "cards": ["lord.blue"]},
                    ],
                },
                {"computer": True},
            ],
            "deck": ["pestilence", "lord.orange", "page.red"],
            "orders": [],
            "actions_left": 2,
            "actions_taken": 1,
        }
    )
    journal.told_all(table)  # what she saw of the game dealt before this position
    assert await h.store.save(table)
    await h.say(anna.id, anna, "/hand")
    for _ in range(20):
        now = await h.table(anna.id)
        assert now.state is not None
        decision = pending(now.state)
        assert decision is not None
        if decision.seat == 0 and decision.params.get("actions_taken") == 0:
            break
        if decision.seat == 0:
            await h.answer(anna, anna.id, ("end",))
        else:
            await h.tick(5)
    else:
        raise AssertionError("Анна's turn never came back")
    # her «Ваш ход!» sums the computer's turn up in a line (issue 24); its
    # «Подробнее» tells it in full
    assert story(prompt_text(h, anna))[0] == h.tr.t(
        lang,
        "practice-digest-line-you",
        player=h.tr.t(lang, "practice-digest-bot", n=1, case="nom"),
        parts=h.tr.t(
            lang, "practice-digest-smuta", mode="drawn", smuta=h.tr.t(lang, "card-pestilence")
        ),
        you=h.tr.t(lang, "practice-digest-you-houses", n=1, colours="🟢"),
    )
    message = h.last_with_button(anna.id, "dt:")
    details = next(d for _, d in h.buttons(anna.id, message) if d.startswith("dt:"))
    await h.press(anna, anna.id, message, details)
    lines = story(h.tg.texts[(anna.id, message)])
    render = h.app.games.render
    tr = h.tr
    computer = render.name(lang, now, 1)
    assert (
        tr.t(lang, "event-deck-drew-smuta", player=computer, smuta=tr.t(lang, "card-pestilence"))
        in lines
    )
    assert smuta_line(h, lang, "pestilence", computer) in lines
    cat = catalog_for(now.state.rules)
    wiped = [line for line in lines if line.startswith("🦠")]
    assert wiped and render.name(lang, now, 0) in wiped[0], lines
    assert all(cat[c].type != "plague" for h_ in now.state.players[0].houses for c in h_.cards)
