"""Every prompt says what it asks, at every menu level, in both languages.

Whole seeded games are played through the real dispatcher with every seat a
person (half the games in Russian, half in English). At each decision every
menu level not yet seen in that language is opened by its button, then the
decision is answered through its menu, as a person presses. Every prompt
message — sent, or edited by a press — must carry a question (at a lower
level a «❓» line after the path, never the path alone), no missing text and
no unresolved Fluent placeable. At the end every level the engine produced in
a language was shown in it.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest
from aiogram.types import User

import engine
from bot.service import journal
from bot.store.memory import MemoryStore
from bot.words.keyboards import PromptCb, menu_level
from bot.words.prompts import ASK, level_of
from engine import DEFAULT_RULES, Decision, pending
from engine.ai.easy import choose
from engine.cards import catalog_for
from engine.scenario import build, play
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, answer_data, is_prompt, prompts

GROUP = -100777
BARE_KEY = re.compile(
    r"(?:^|\s)(?:ask|why|rows|event|prompt|opt|card|table|colour|castle|result|rematch)-[a-z-]+"
)
#: games played: (players, seed, language)
GAMES = [(2, 3, "ru"), (3, 8, "en"), (4, 5, "ru"), (5, 2, "en"), (3, 21, "ru"), (4, 13, "en")]


def menu_levels(options: tuple[tuple[str, ...], ...]) -> dict[tuple[str, ...], int]:
    """Every level a decision's menu shows: its path → an option index under it."""
    seen: dict[tuple[str, ...], int] = {}
    todo = [(0, 0)]
    while todo:
        index, depth = todo.pop()
        shown, firsts = menu_level(options, index, depth)
        path = options[index][:shown]
        if not firsts or path in seen:
            continue
        seen[path] = index
        todo.extend((first, shown + 1) for first in firsts)
    return seen


def problems_of(text: str, shown_depth: int) -> list[str]:
    """What is wrong with a prompt message showing a level `shown_depth` deep."""
    found = []
    if "{" in text or "}" in text:
        found.append("an unresolved placeable")
    if BARE_KEY.search(text):
        found.append("a bare key")
    top = text.split("\n\n")[0].split("\n")
    asked = [line for line in top[1:] if "?" in line]
    if not asked:
        found.append("no question")
    paths = [i for i, line in enumerate(top) if line.startswith("➡️")]
    if shown_depth > 0:
        if not paths:
            found.append("no path at a lower level")
        elif not any(line.startswith("❓") and "?" in line for line in top[paths[-1] + 1 :]):
            found.append("a path with no question after it")
    elif paths:
        found.append("a path at the top level")
    return found


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


@contextmanager
def errors_logged() -> Iterator[list[str]]:
    handler = _Errors()
    logging.getLogger().addHandler(handler)
    try:
        yield handler.records
    finally:
        logging.getLogger().removeHandler(handler)


def shown_level(h: Harness, user_id: int, message_id: int, decision: Decision) -> tuple[str, int]:
    """The level a prompt message shows, read from its buttons."""
    data = [PromptCb.unpack(d) for _, d in h.buttons(user_id, message_id) if d.startswith("p:")]
    assert data, "a prompt without buttons"
    forward = [cb for cb in data if cb.depth > 0]
    depth = max(cb.depth for cb in forward) - 1  # the back button goes up, the others on
    index = forward[0].option
    return level_of(decision, decision.options[index][:depth]), depth


def seen(
    h: Harness,
    user_id: int,
    message: int,
    decision: Decision,
    lang: str,
    rendered: set[str],
    problems: list[str],
) -> None:
    """Note the level a prompt message shows, and what is wrong with it."""
    level, depth = shown_level(h, user_id, message, decision)
    rendered.add(level)
    for why in problems_of(h.tg.texts[(user_id, message)], depth):
        problems.append(f"{lang} {level}: {why}")


def check_answered(h: Harness, user_id: int, message_id: int, decision: Decision) -> None:
    """An answered prompt shows the choice made; its buttons are gone, or
    (the same player asked again at once) answer the next decision."""
    assert "✔️" in h.tg.texts[(user_id, message_id)]
    markup = h.tg.markups.get((user_id, message_id))
    if is_prompt(markup):
        pressed = {PromptCb.unpack(d).decision for _, d in h.buttons(user_id, message_id)}
        assert decision.id not in pressed, "the answered decision's buttons are still there"


async def open_every_level(
    h: Harness,
    user: User,
    message_id: int,
    game_no: int,
    decision: Decision,
    lang: str,
    rendered: set[str],
    problems: list[str],
) -> set[str]:
    """Look at the prompt as it is, open by its button every level of the
    decision's menu not yet `rendered` in `lang`, and go back to the top.
    Returns the levels the decision's menu has."""
    look = partial(seen, h, user.id, message_id, decision, lang, rendered, problems)
    look()
    levels = set()
    opened = False
    for path, index in menu_levels(decision.options).items():
        level = level_of(decision, path)
        levels.add(level)
        if level in rendered:
            continue
        cb = PromptCb(chat=GROUP, game=game_no, decision=decision.id, option=index, depth=len(path))
        await h.press(user, user.id, message_id, cb.pack())
        look()
        opened = True
    if opened:  # back to the top, as the first button pressed leaves it
        top = PromptCb(chat=GROUP, game=game_no, decision=decision.id, option=0, depth=0)
        await h.press(user, user.id, message_id, top.pack())
    return levels


async def test_every_menu_level_asks_its_question_in_both_languages() -> None:
    produced: dict[str, set[str]] = {"ru": set(), "en": set()}
    rendered: dict[str, set[str]] = {"ru": set(), "en": set()}
    kinds: dict[str, set[str]] = {"ru": set(), "en": set()}
    problems: list[str] = []
    with errors_logged() as errors:
        for players, seed, lang in GAMES:
            h = Harness(MemoryStore())
            users = [person(200 + i, f"Игрок {i}", lang) for i in range(players)]
            await h.open_game(GROUP, users[0], users[1:], seed=seed)
            by_id = {u.id: u for u in users}
            for _ in range(2000):
                table = await h.table(GROUP)
                assert table.state is not None
                decision = pending(table.state)
                if decision is None:
                    break
                seat = table.seats[decision.seat]
                assert seat.user_id is not None and seat.lang == lang
                user = by_id[seat.user_id]
                message_id = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
                kinds[lang].add(decision.kind)

                produced[lang] |= await open_every_level(
                    h, user, message_id, table.game_no, decision, lang, rendered[lang], problems
                )
                await h.answer(user, GROUP, choose(seed, decision))
                check_answered(h, user.id, message_id, decision)
            else:
                pytest.fail(f"game {seed} did not end")
            assert (await h.table(GROUP)).status == "finished"
    assert not errors, "\n".join(errors[:10])
    assert not problems, "\n".join(sorted(set(problems))[:20])
    for lang in ("ru", "en"):
        assert produced[lang] <= rendered[lang], f"{lang}: {produced[lang] - rendered[lang]}"
        # the games reached the usual levels and the usual kinds of decision
        assert {"action/0", "action/lay/1", "action/discard/1"} <= rendered[lang]
        assert {"action", "house_end"} <= kinds[lang]
        # what random play misses, a built position shows (its own test below)
        missing = every_level() - rendered[lang] - BUILT_LEVELS
        assert not missing, f"{lang}: no game nor built position shows {sorted(missing)}"


# ====================================================================== answered prompts
TURN = {
    "players": [
        {
            "hand": ["page.orange", "page.red", "knight.blue"],
            "houses": [{"colour": "red", "cards": ["lord.red"]}],
        },
        {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
    ],
    "current": 0,
    "actions_left": 3,
}


async def _seated_position(
    h: Harness, position: dict[str, object], lang: str = "ru"
) -> tuple[User, User]:
    anna, boris = person(301, "Анна", lang), person(302, "Борис", lang)
    await h.open_game(GROUP, anna, [boris])
    table = await h.table(GROUP)
    table.state = build(position)
    journal.told_all(table)
    assert await h.store.save(table)
    await h.say(anna.id, anna, "/hand")
    return anna, boris


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_turn_is_one_message_that_never_contradicts_itself(lang: str) -> None:
    """Three actions: each answer edits the same message — the choice made on
    top, the next question with the actions left under it; after the last one
    the message keeps what was chosen, asks nothing and says no «actions left»
    (the turn is over). A choice names the card and what was a choice: a card
    laid into the only house it can go to names no row and no colour."""
    h = Harness(MemoryStore())
    anna, _ = await _seated_position(h, TURN, lang)
    tr = h.tr
    message_id = (await h.store.messages(GROUP))["prompt:0"]
    start = await h.table(GROUP)
    assert start.state is not None
    in_hand = {_type(h, c): c for c in start.state.players[0].hand}
    since = len(h.tg.requests)
    seen = []
    moves = (("lay", "page.red"), ("discard", "knight.blue"), ("discard", "page.orange"))
    for verb, card in moves:
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None and decision.seat == 0
        assert (await h.store.messages(GROUP))["prompt:0"] == message_id, "a new message"
        option = next(o for o in decision.options if o[0] == verb and _type(h, o[1]) == card)
        await h.press(anna, anna.id, message_id, answer_data(table, decision, option))
        seen.append(h.tg.texts[(anna.id, message_id)])
    assert prompts(h.tg, anna.id, since) == [], "a new message within the turn"
    for text, left in zip(seen[:2], (2, 1), strict=True):
        assert tr.t(lang, "prompt-actions-left", n=left) in text, text
        assert tr.t(lang, "prompt-action", actions_taken=3 - left) in text
    done = seen[-1]
    assert not any(tr.t(lang, "prompt-actions-left", n=n) in done for n in range(4)), done
    assert "?" not in done and not is_prompt(h.tg.markups.get((anna.id, message_id)))
    answers = [line for line in done.split("\n") if line.startswith("✔️")]
    assert answers == [
        "✔️ " + " → ".join(parts)
        for parts in (
            (tr.t(lang, "opt-lay"), f"🔴 {tr.t(lang, 'card-page')}‹{in_hand['page.red']}›"),
            (
                tr.t(lang, "opt-discard"),
                tr.t(
                    lang,
                    "opt-discard-card",
                    card=f"🔵 {tr.t(lang, 'card-knight')}‹{in_hand['knight.blue']}›",
                ),
            ),
            (
                tr.t(lang, "opt-discard"),
                tr.t(
                    lang,
                    "opt-discard-card",
                    card=f"🟠 {tr.t(lang, 'card-page')}‹{in_hand['page.orange']}›",
                ),
            ),
        )
    ], done


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_ending_the_turn_keeps_the_story_of_the_turn(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, _ = await _seated_position(h, TURN, lang)
    table = await h.table(GROUP)
    decision = pending(table.state)  # type: ignore[arg-type]
    assert decision is not None
    message_id = (await h.store.messages(GROUP))["prompt:0"]
    first = next(o for o in decision.options if o[0] == "discard")
    await h.press(anna, anna.id, message_id, answer_data(table, decision, first))
    table = await h.table(GROUP)
    decision = pending(table.state)  # type: ignore[arg-type]
    assert decision is not None and ("end",) in decision.options
    assert (await h.store.messages(GROUP))["prompt:0"] == message_id
    await h.press(anna, anna.id, message_id, answer_data(table, decision, ("end",)))
    text = h.tg.texts[(anna.id, message_id)]
    assert text.split("\n")[-1] == "✔️ " + h.tr.t(lang, "opt-end")
    assert h.tr.t(lang, "prompt-actions-left", n=2) not in text


def _type(h: Harness, card_id: str) -> str:
    card = catalog_for(DEFAULT_RULES)[card_id]
    return f"{card.type}.{card.colours[0]}" if card.colours else card.type


# ====================================================================== castles and what is missing
FULL_HAND = {
    "players": [
        {
            "hand": [
                "merchant.red",
                "page.orange",
                "page.green",
                "knight.green",
                "ball",
                "lord.green",
            ],
            "houses": [
                {"colour": "red", "cards": ["lord.red", "page.red"]},
                {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]},
            ],
        },
        {"houses": [{"colour": "green", "cards": ["lord.green"]}]},
    ],
    "deck": ["page.red"],
    "orders": ["marriage"],
    "current": 0,
    "actions_left": 3,
    "rules": {"hand_limit": 6, "castle_min_cards": 2},
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_turn_says_why_a_usual_action_is_missing(lang: str) -> None:
    """A hand at the game's limit (6 here, not the default 7): no drawing, and
    the prompt says so with that number; a house ready for its castle without
    the Купец of its colour: the prompt names the castle that is missing."""
    h = Harness(MemoryStore())
    anna, _ = await _seated_position(h, FULL_HAND, lang)
    table = await h.table(GROUP)
    decision = pending(table.state)
    assert decision is not None
    assert ("draw",) not in decision.options and ("order",) not in decision.options
    message_id = (await h.store.messages(GROUP))["prompt:0"]
    text = h.tg.texts[(anna.id, message_id)]
    tr = h.tr
    assert tr.t(lang, "why-hand-full", limit=6, smuta_open="no") in text
    blue = tr.t(lang, "castle-blue")
    merchant = tr.t(lang, "why-castle-merchant", colour="🔵")
    assert tr.t(lang, "why-castle", castle=blue, needs=merchant) in text
    # the red house has its Купец, a Лорд and the game's 2 cards: it can be built
    assert "🔴" not in "".join(line for line in text.split("\n") if line.startswith("ℹ️"))
    labels = [t for t, _ in h.buttons(anna.id, message_id)]
    assert tr.t(lang, "opt-draw") not in labels and tr.t(lang, "opt-build") in labels
    # under the hand: her own row, left to right
    below = text.split(tr.t(lang, "rows-own"))[1].split("\n")[1:]
    assert below[0].startswith("  ⬅️ 🔴 ") and below[1].startswith("  ➡️ 🔵 "), below


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_building_a_castle_tells_both_sides_a_line_each(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, _ = await _seated_position(h, FULL_HAND, lang)
    message_id = (await h.store.messages(GROUP))["prompt:0"]
    build_button = next(
        d for t, d in h.buttons(anna.id, message_id) if t == h.tr.t(lang, "opt-build")
    )
    await h.press(anna, anna.id, message_id, build_button)
    text = h.tg.texts[(anna.id, message_id)]
    castle = h.tr.t(lang, "castle-red")
    assert h.tr.t(lang, "ask-build-side", castle=castle) in text
    sides = [line for line in text.split("\n") if line.startswith(("♾️", "⚡"))]
    assert len(sides) == 2, text
    labels = [t for t, _ in h.buttons(anna.id, message_id)]
    assert h.tr.t(lang, "opt-permanent") in labels and h.tr.t(lang, "opt-one-time") in labels


async def test_a_discard_button_names_the_card_it_gives_up() -> None:
    h = Harness(MemoryStore())
    anna, _ = await _seated_position(h, TURN)
    message_id = (await h.store.messages(GROUP))["prompt:0"]
    discard = next(d for t, d in h.buttons(anna.id, message_id) if t == h.tr.t("ru", "opt-discard"))
    await h.press(anna, anna.id, message_id, discard)
    labels = [t for t, _ in h.buttons(anna.id, message_id) if t != h.tr.t("ru", "btn-back")]
    assert len(labels) == 3
    assert all(label.startswith("🗑 ") and "‹h" in label for label in labels), labels
    assert "❓ " + h.tr.t("ru", "ask-discard-card") in h.tg.texts[(anna.id, message_id)]


# ====================================================================== what random play misses
#: two houses ready for their castles and a Купец for each: the build menu
#: asks which castle, then which side
CASTLES = {
    "players": [
        {
            "hand": ["merchant.red", "merchant.blue"],
            "houses": [
                {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]},
                {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]},
            ],
        },
        {
            "hand": ["ball", "marriage", "page.green"],
            "houses": [{"colour": "green", "cards": ["lord.green"]}],
        },
        {"hand": ["infirmary", "page.orange"], "houses": []},
    ],
    "deck": ["page.red"],
    "orders": ["marriage", "infirmary", "ball"],
    "current": 0,
    "actions_left": 3,
}
#: castles on two houses, and Пожар on top of the deck (drawing it is the
#: only action, so the engine takes it)
FIRE = {
    "players": [
        {
            "houses": [
                {"colour": "red", "cards": ["lord.red", "page.red"], "castle": "permanent"},
                {"colour": "blue", "cards": ["lord.blue", "page.blue"], "castle": "one_time"},
            ],
        },
        {"houses": [{"colour": "green", "cards": ["lord.green"]}]},
    ],
    "deck": ["fire", "page.orange"],
    "current": 0,
    "actions_left": 3,
}
#: two houses with a Блудница each, and Инквизиция on top of the deck (drawn
#: at once, as above)
INQUISITION = {
    "players": [
        {
            "houses": [
                {"colour": "red", "cards": ["lord.red", "harlot.red"]},
                {"colour": "blue", "cards": ["page.blue", "harlot.blue"]},
            ],
        },
        {"houses": [{"colour": "green", "cards": ["lord.green"]}]},
    ],
    "deck": ["inquisition", "page.orange"],
    "current": 0,
    "actions_left": 3,
}
#: name → (position, answers that lead to the decision, its kind, the levels it must show)
BUILT: dict[str, tuple[dict[str, object], list[list[str]], str, set[str]]] = {
    "build between two castles": (
        CASTLES,
        [],
        "action",
        {"action/0", "action/build/1", "action/build/2"},
    ),
    "Замок Власти: which order": (
        CASTLES,
        [["build", "merchant.red", "one_time"]],
        "power.order",
        {"power.order/0"},
    ),
    "Замок Интриг: whose hand": (
        CASTLES,
        [["build", "merchant.blue", "one_time"]],
        "intrigue.target",
        {"intrigue.target/0"},
    ),
    "Замок Интриг: which order": (
        CASTLES,
        [["build", "merchant.blue", "one_time"], ["1"]],
        "intrigue.take",
        {"intrigue.take/0"},
    ),
    "Пожар: which card burns": (FIRE, [], "fire.burn", {"fire.burn/0"}),
    "Инквизиция: which house goes first": (
        INQUISITION,
        [],
        "destroy.order",
        {"destroy.order/0"},
    ),
}
#: every level the built positions show, in each language (their tests check it)
BUILT_LEVELS = set().union(*(levels for *_, levels in BUILT.values()))


def engine_decision_kinds() -> set[str]:
    """Every kind of decision the engine can ask: the kind of every `Ask(...)`
    in its source (a kind that is not written out as a string fails here, so
    the list cannot silently miss one)."""
    kinds = set()
    for path in Path(engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Ask":
                kind = node.args[1] if len(node.args) > 1 else None
                assert isinstance(kind, ast.Constant) and isinstance(kind.value, str), (
                    f"{path.name}:{node.lineno}: a decision kind that is not a literal"
                )
                kinds.add(kind.value)
    return kinds


def every_level() -> set[str]:
    """Every menu level the engine's decisions can show: each kind's top level,
    and every level below the top that `ASK` gives a question."""
    return {level_of(_kind_only(k), ()) for k in engine_decision_kinds()} | set(ASK)


def _kind_only(kind: str) -> Decision:
    return Decision(id=0, seat=0, kind=kind, options=())


def test_the_engine_kinds_are_found() -> None:
    kinds = engine_decision_kinds()
    # a few of each family, so a broken search cannot pass with an empty list
    assert {"action", "house_end", "fire.burn", "power.order", "intrigue.take"} <= kinds
    assert len(kinds) >= 20


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("name", list(BUILT))
async def test_a_decision_random_play_misses_asks_at_every_level(name: str, lang: str) -> None:
    """A built position brings the decision; every level of its menu, opened
    by its buttons, asks its question; answering it shows the choice made."""
    position, answers, kind, levels = BUILT[name]
    state = build(position)
    for parts in answers:
        play(state, *parts)
    decision = pending(state)
    assert decision is not None and decision.kind == kind, decision
    h = Harness(MemoryStore())
    count = len(position["players"])  # type: ignore[arg-type]
    users = [person(301 + i, f"Игрок {i}", lang) for i in range(count)]
    await h.open_game(GROUP, users[0], users[1:])
    table = await h.table(GROUP)
    table.state = state
    journal.told_all(table)
    assert await h.store.save(table)
    user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
    await h.say(user.id, user, "/hand")
    message_id = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
    rendered: set[str] = set()
    problems: list[str] = []
    with errors_logged() as errors:
        await open_every_level(
            h, user, message_id, table.game_no, decision, lang, rendered, problems
        )
        await h.answer(user, GROUP, decision.options[-1])
    assert not errors, "\n".join(errors[:10])
    assert not problems, "\n".join(problems)
    assert levels <= rendered, levels - rendered
    check_answered(h, user.id, message_id, decision)
