"""Every press is answered first, through the real dispatcher on both stores.

For every kind of button the bot shows — each CallbackData class in bot/, each
lobby action, each /settings line, each level of a prompt's menu — a person
presses it where it really stands, and the first request the bot makes to
Telegram after the press is that press's answerCallbackQuery: the spinner on
the person's button stops before any message is sent or edited (only a
question the answer depends on may come first: getChatMember, whether the
presser of a /settings button is an admin). A new
CallbackData class, lobby button or setting without a case here fails
`test_every_kind_of_button_has_a_case`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import AnswerCallbackQuery, GetChatMember
from aiogram.types import User

import bot
from bot.handlers.presses import KINDS
from bot.service.profile import SETTINGS
from bot.service.reviews import GAME_CPU
from bot.store import Store
from bot.words.keyboards import (
    BackCb,
    DetailsCb,
    ForgetCb,
    GameCb,
    HintCb,
    LangCb,
    LeaveCb,
    LobbyCb,
    PrefsCb,
    PromptCb,
    RematchCb,
    SettingsCb,
    StopCb,
    menu_level,
)
from engine import pending
from tests.bot.harness import Harness, Witness, people
from tests.bot.helpers.finishing import play_to_the_end
from tests.bot.helpers.rematches import GROUP as REMATCH_GROUP
from tests.bot.helpers.rematches import finished_game

GROUP = -100_515


@dataclass
class Press:
    """A button `user` is about to press: in `chat`, under `message`."""

    user: User
    chat: int
    message: int
    data: str


Setup = Callable[[Harness], Awaitable[Press]]


# ====================================================================== lobby
async def _lobby(h: Harness, computers: int = 0) -> tuple[list[User], int, int]:
    """Анна opens a lobby in the group and Борис joins; `computers` are added."""
    anna, boris, vera = users = people("Анна", "Борис", "Вера")
    await h.say(vera.id, vera, "/start")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    for _ in range(computers):
        await h.press(anna, GROUP, lobby, LobbyCb(action="bot", game=game).pack())
    return users, lobby, game


def _lobby_case(action: str, who: int = 0, computers: int = 0) -> Setup:
    """`action` pressed on the group's lobby by Анна (0), Борис (1) or Вера (2)."""

    async def setup(h: Harness) -> Press:
        users, lobby, game = await _lobby(h, computers)
        return Press(users[who], GROUP, lobby, LobbyCb(action=action, game=game).pack())

    return setup


async def _practice_clock(h: Harness) -> Press:
    (anna,) = people("Анна")
    lobby, game = await h.open_practice(anna)
    return Press(anna, anna.id, lobby, LobbyCb(action="clock", game=game).pack())


def _lobby_actions_shown(h: Harness, chat_id: int, lobby: int) -> set[str]:
    return {LobbyCb.unpack(d).action for _, d in h.buttons(chat_id, lobby) if d.startswith("lb:")}


# ====================================================================== a prompt's menu
async def _prompt(h: Harness) -> tuple[User, int, list[PromptCb]]:
    """Анна and Борис play; the player asked first sees their prompt's top level."""
    anna, boris = people("Анна", "Борис")
    table = await h.open_game(GROUP, anna, [boris], seed=3)
    decision = pending(table.state)  # type: ignore[arg-type]
    assert decision is not None
    user = (anna, boris)[decision.seat]
    message = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
    return user, message, _prompt_buttons(h, user, message)


def _prompt_buttons(h: Harness, user: User, message: int) -> list[PromptCb]:
    return [PromptCb.unpack(d) for _, d in h.buttons(user.id, message) if d.startswith("p:")]


async def _options(h: Harness) -> list[tuple[str, ...]]:
    decision = await h.decision(GROUP)
    assert decision is not None
    return decision.options


def _opens_a_level(options: list[tuple[str, ...]], cb: PromptCb) -> bool:
    return bool(menu_level(options, cb.option, cb.depth)[1])


async def _menu_step(h: Harness) -> Press:
    user, message, buttons = await _prompt(h)
    options = await _options(h)
    opening = [cb for cb in buttons if _opens_a_level(options, cb)]
    assert opening, "the prompt's top level opens no sub-menu"
    return Press(user, user.id, message, opening[0].pack())


async def _back(h: Harness) -> Press:
    step = await _menu_step(h)
    await h.press(step.user, step.chat, step.message, step.data)
    buttons = _prompt_buttons(h, step.user, step.message)
    deepest = max(cb.depth for cb in buttons)
    back = [cb for cb in buttons if cb.depth < deepest]
    assert back, "the sub-menu has no way back"
    return Press(step.user, step.chat, step.message, back[-1].pack())


async def _option(h: Harness) -> Press:
    user, message, buttons = await _prompt(h)
    options = await _options(h)
    for _ in range(8):
        final = [cb for cb in buttons if cb.depth > 0 and not _opens_a_level(options, cb)]
        if final:
            return Press(user, user.id, message, final[0].pack())
        forward = [cb for cb in buttons if _opens_a_level(options, cb)]
        await h.press(user, user.id, message, forward[0].pack())
        buttons = _prompt_buttons(h, user, message)
    raise AssertionError("the menu never offered a whole option")


async def _hint(h: Harness) -> Press:
    (anna,) = people("Анна")
    lobby, game = await h.open_practice(anna)
    await h.press(anna, anna.id, lobby, LobbyCb(action="bot_normal", game=game).pack())
    h.app.games.seeds.seed(11)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    for _ in range(20):
        decision = await h.decision(anna.id)
        assert decision is not None
        if decision.seat == 0:
            break
        assert await h.tick(5) >= 1
    message = (await h.store.messages(anna.id))["prompt:0"]
    hints = [d for _, d in h.buttons(anna.id, message) if d.startswith("hn:")]
    assert hints, "the practice prompt offers no hint"
    return Press(anna, anna.id, message, hints[0])


async def _details(h: Harness) -> Press:
    """«Подробнее» under a practice prompt that sums the computer's turn up."""
    (anna,) = people("Анна")
    await h.start_practice(anna, computers=1, seed=11)
    for _ in range(40):
        decision = await h.decision(anna.id)
        assert decision is not None
        if decision.seat != 0:
            assert await h.tick(5) >= 1
            continue
        message = (await h.store.messages(anna.id))["prompt:0"]
        details = [d for _, d in h.buttons(anna.id, message) if d.startswith("dt:")]
        if details:
            return Press(anna, anna.id, message, details[0])
        await h.answer(
            anna, anna.id, ("end",) if ("end",) in decision.options else decision.options[0]
        )
    raise AssertionError("no practice prompt offered «Подробнее»")


# ====================================================================== confirmations
def _stop(confirm: bool) -> Setup:
    async def setup(h: Harness) -> Press:
        anna, boris = people("Анна", "Борис")
        game = (await h.open_game(GROUP, anna, [boris], computers=1)).game_no
        await h.say(GROUP, anna, "/stop")
        question = h.last_with_button(GROUP, "st:")
        return Press(anna, GROUP, question, StopCb(game=game, confirm=confirm).pack())

    return setup


def _leave(confirm: bool) -> Setup:
    async def setup(h: Harness) -> Press:
        anna, boris, vera = people("Анна", "Борис", "Вера")
        game = (await h.open_game(GROUP, anna, [boris, vera])).game_no
        await h.say(GROUP, boris, "/leave")
        question = h.last_with_button(GROUP, "lv:")
        data = LeaveCb(game=game, user=boris.id, confirm=confirm).pack()
        assert data in {d for _, d in h.buttons(GROUP, question)}
        return Press(boris, GROUP, question, data)

    return setup


def _forget(confirm: bool) -> Setup:
    async def setup(h: Harness) -> Press:
        (vera,) = people("Вера")
        await h.say(vera.id, vera, "/start")
        await h.say(vera.id, vera, "/forgetme")
        question = h.last_with_button(vera.id, "fg:")
        return Press(vera, vera.id, question, ForgetCb(confirm=confirm).pack())

    return setup


# ====================================================================== the rest
async def _rematch(h: Harness) -> Press:
    """«Ещё партию» under a result: its press invites the other people in private."""
    users, result = await finished_game(h)
    data = [d for _, d in h.buttons(REMATCH_GROUP, result) if d.startswith("rm:")]
    assert data
    return Press(users[1], REMATCH_GROUP, result, data[0])


def _settings(what: str) -> Setup:
    async def setup(h: Harness) -> Press:
        (anna,) = people("Анна")
        h.tg.admins.add((GROUP, anna.id))
        await h.say(anna.id, anna, "/start")
        await h.say(GROUP, anna, "/settings")
        message = h.last_with_button(GROUP, "cf:")
        assert SettingsCb(what=what).pack() in {d for _, d in h.buttons(GROUP, message)}
        return Press(anna, GROUP, message, SettingsCb(what=what).pack())

    return setup


def _own_settings(on: bool) -> Setup:
    """A person's own /settings in private: reviews off (on: off, then back on)."""

    async def setup(h: Harness) -> Press:
        (anna,) = people("Анна")
        await h.say(anna.id, anna, "/start")
        await h.say(anna.id, anna, "/settings")
        message = h.last_with_button(anna.id, "pf:")
        if on:
            await h.press(
                anna, anna.id, message, PrefsCb(what="reviews", on=False, screen=True).pack()
            )
        data = PrefsCb(what="reviews", on=on, screen=True).pack()
        assert data in {d for _, d in h.buttons(anna.id, message)}
        return Press(anna, anna.id, message, data)

    return setup


async def _review_off(h: Harness) -> Press:
    """«🔕 Не присылать разборы» under the review that comes after a game."""
    h.review_cpu = GAME_CPU
    h.restart()
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris], computers=1, seed=5)
    await play_to_the_end(h, GROUP, Witness())
    review = h.last_with_button(anna.id, "pf:")
    data = PrefsCb(what="reviews", on=False, screen=False).pack()
    assert data in {d for _, d in h.buttons(anna.id, review)}
    return Press(anna, anna.id, review, data)


async def _lang(h: Harness) -> Press:
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    await h.say(anna.id, anna, "/lang")
    message = h.last_with_button(anna.id, "lang:")
    return Press(anna, anna.id, message, LangCb(lang="en").pack())


async def _games(h: Harness) -> Press:
    """A game's button under /games: its prompt or hand brought back."""
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    await h.say(anna.id, anna, "/games")
    message = h.last_with_button(anna.id, "gm:")
    data = [d for _, d in h.buttons(anna.id, message) if d.startswith("gm:")]
    assert GameCb.unpack(data[0]).chat == GROUP
    return Press(anna, anna.id, message, data[0])


async def _im_back(h: Harness) -> Press:
    """«🙋 Я вернулся» under /away's answer: the seats taken back."""
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    await h.say(anna.id, anna, "/away")
    message = h.last_with_button(anna.id, "bk:")
    return Press(anna, anna.id, message, BackCb(user=anna.id).pack())


async def _unknown(h: Harness) -> Press:
    """A button the bot no longer knows (a message from an older version)."""
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    return Press(anna, GROUP, 7, "zz:old")


LOBBY_ACTIONS: dict[str, Setup] = {
    "join": _lobby_case("join", who=2),
    "leave": _lobby_case("leave", who=1),
    "bot": _lobby_case("bot"),
    "bot_easy": _lobby_case("bot_easy"),
    "bot_normal": _lobby_case("bot_normal"),
    "bot_strong": _lobby_case("bot_strong"),
    "drop": _lobby_case("drop", computers=1),
    "go": _lobby_case("go"),
    "cancel": _lobby_case("cancel"),
    "lang": _lobby_case("lang"),
    "time": _lobby_case("time"),
    "pace": _lobby_case("pace"),
    "clock": _practice_clock,
    "levels": _lobby_case("levels"),
    "settings": _lobby_case("settings"),
    "main": _lobby_case("main"),
    "hints": _lobby_case("hints"),
}

#: every case: its name, the CallbackData class it presses (None: no class), its setup
CASES: list[tuple[str, type[CallbackData] | None, Setup]] = [
    *((f"lobby-{action}", LobbyCb, setup) for action, setup in LOBBY_ACTIONS.items()),
    ("prompt-menu-step", PromptCb, _menu_step),
    ("prompt-back", PromptCb, _back),
    ("prompt-option", PromptCb, _option),
    ("hint", HintCb, _hint),
    ("details", DetailsCb, _details),
    ("stop-yes", StopCb, _stop(True)),
    ("stop-no", StopCb, _stop(False)),
    ("leave-yes", LeaveCb, _leave(True)),
    ("leave-no", LeaveCb, _leave(False)),
    ("forgetme-yes", ForgetCb, _forget(True)),
    ("forgetme-no", ForgetCb, _forget(False)),
    ("rematch", RematchCb, _rematch),
    *((f"settings-{what}", SettingsCb, _settings(what)) for what in SETTINGS),
    ("lang", LangCb, _lang),
    ("own-settings-off", PrefsCb, _own_settings(False)),
    ("own-settings-on", PrefsCb, _own_settings(True)),
    ("review-off", PrefsCb, _review_off),
    ("games", GameCb, _games),
    ("im-back", BackCb, _im_back),
    ("unknown", None, _unknown),
]


def _callback_classes() -> set[type[CallbackData]]:
    """Every CallbackData class defined in bot/ (all its modules imported)."""
    for module in pkgutil.walk_packages(bot.__path__, "bot."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: set[type[CallbackData]] = set()
    todo = list(CallbackData.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.split(".")[0] == "bot":
            found.add(cls)
    return found


async def test_every_kind_of_button_has_a_case(store: Store) -> None:
    classes = _callback_classes()
    assert {LobbyCb, PromptCb, SettingsCb, RematchCb} <= classes  # the walk finds them
    assert classes == {cls for _, cls, _ in CASES if cls is not None}
    # and the one unpacking every press reads each of them (else its presses
    # would reach no handler but the catch-all's «bad button»)
    assert set(KINDS.values()) == classes
    # every button a lobby shows — a group's (with a computer seated) and a practice one
    h = Harness(store)
    users, lobby, game = await _lobby(h, computers=1)
    shown = _lobby_actions_shown(h, GROUP, lobby)
    for screen in ("levels", "settings"):  # its second screens
        await h.press(users[0], GROUP, lobby, LobbyCb(action=screen, game=game).pack())
        shown |= _lobby_actions_shown(h, GROUP, lobby)
    await h.say(GROUP, users[0], "/leave")
    await _practice_clock(h)
    shown |= _lobby_actions_shown(h, 100, (await h.store.messages(100))["lobby"])
    assert shown <= set(LOBBY_ACTIONS)


@pytest.mark.parametrize(
    ("setup", "kind"), [(s, c) for _, c, s in CASES], ids=[n for n, _, _ in CASES]
)
async def test_a_press_is_answered_before_anything_else(
    store: Store, setup: Setup, kind: type[CallbackData] | None
) -> None:
    h = Harness(store)
    press = await setup(h)
    if kind is not None:
        kind.unpack(press.data)  # the case presses the kind it names
    update = h.updates.press(press.user, press.chat, press.message, press.data)
    assert update.callback_query is not None
    query = update.callback_query.id
    before = len(h.tg.requests)
    await h.feed(update)
    made = h.tg.requests[before:]
    while made and isinstance(made[0], GetChatMember):
        made = made[1:]  # a question to Telegram the answer depends on (is the presser an admin)
    names = [type(r).__name__ for r in made[:6]]
    assert made and isinstance(made[0], AnswerCallbackQuery), names
    assert made[0].callback_query_id == query
    answers = [r for r in made if isinstance(r, AnswerCallbackQuery)]
    assert [a.callback_query_id for a in answers] == [query], "one answer, to this press"
