"""Buttons and their callback data (64 bytes at most).

Every in-game button carries the chat and the game number, and a prompt button
also the decision id, so a button from an old game, an old decision or another
chat is recognised and refused. A decision's options are tuples of parts; the
prompt offers them as successive button sets, one part at a time, with a way
back: a button names an option (by index) and how many of its parts are chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aiogram.filters.callback_data import CallbackData

from bot.words.screen import Button, Keyboard, Row, rows

Option = tuple[str, ...]


class LobbyCb(CallbackData, prefix="lb"):
    # join, leave, bot_<level>, drop, go, cancel, lang, time, clock, hints;
    # levels, settings, main: the lobby's screens
    action: str
    game: int


class PromptCb(CallbackData, prefix="p"):
    chat: int
    game: int
    decision: int
    option: int  # index into the decision's options
    depth: int  # how many parts of that option are chosen


class HintCb(CallbackData, prefix="hn"):
    """«💡 Подсказка» under a prompt: what the normal level would choose, and why."""

    chat: int
    game: int
    decision: int


def hint_row(chat: int, game: int, decision: int, text: str) -> Row:
    return (Button(text, data=HintCb(chat=chat, game=game, decision=decision).pack()),)


class DetailsCb(CallbackData, prefix="dt"):
    """«Подробнее» under a practice game's prompt: the computers' turns it sums
    up in full (`full`), or a line each again; at the menu level it was on."""

    chat: int
    game: int
    decision: int
    option: int
    depth: int
    full: bool


def details_row(
    chat: int, game: int, decision: int, level: tuple[int, int], full: bool, text: str
) -> Row:
    option, depth = level
    data = DetailsCb(
        chat=chat, game=game, decision=decision, option=option, depth=depth, full=full
    ).pack()
    return (Button(text, data=data),)


class GameCb(CallbackData, prefix="gm"):
    """A game of /games or of /hand's question, in the private chat of `user`:
    its hand and prompt brought back (only for `user`, who sits there)."""

    chat: int
    game: int
    user: int


class StopCb(CallbackData, prefix="st"):
    game: int
    confirm: bool


class LeaveCb(CallbackData, prefix="lv"):
    """/leave's confirmation in a running game: only `user` may answer it."""

    game: int
    user: int
    confirm: bool


class RematchCb(CallbackData, prefix="rm"):
    """«Ещё партию» under a group game's result: `game` is the finished game's number."""

    game: int


class LangCb(CallbackData, prefix="lang"):
    lang: str


class SettingsCb(CallbackData, prefix="cf"):
    """A /settings button: what it changes (cycles to the next value)."""

    what: str


class PrefsCb(CallbackData, prefix="pf"):
    """A person's own setting, in their private chat: `what` is set `on` or
    off (set, not turned over: a second press changes nothing). `screen`:
    pressed on the /settings message, which then shows the change (else the
    button under a review)."""

    what: str
    on: bool
    screen: bool


class BackCb(CallbackData, prefix="bk"):
    """«🙋 Я вернулся» under /away's answer: `user` takes their seats back (/back)."""

    user: int


class ForgetCb(CallbackData, prefix="fg"):
    """/forgetme's confirmation in the private chat: forget, or keep everything."""

    confirm: bool


def yes_no_keyboard(yes: tuple[str, str], no: tuple[str, str]) -> Keyboard:
    """One row of two buttons: (text, callback data) for yes, then no."""
    return ((Button(yes[0], data=yes[1]), Button(no[0], data=no[1])),)


def rematch_keyboard(game: int, text: str) -> Keyboard:
    """«Ещё партию» under game `game`'s result."""
    return ((Button(text, data=RematchCb(game=game).pack()),),)


def menu_level(options: Sequence[Option], index: int, depth: int) -> tuple[int, list[int]]:
    """Open the menu at the prefix `options[index][:depth]`.

    Returns the depth actually shown (levels where every option agrees are
    passed through) and, for each distinct next part, the first option index
    that has it. An empty list means the prefix names exactly one option."""
    prefix = options[index][:depth]
    matching = [i for i, o in enumerate(options) if o[:depth] == prefix]
    while True:
        if len(matching) == 1:
            return depth, []
        firsts: dict[str, int] = {}
        for i in matching:
            firsts.setdefault(options[i][depth], i)
        if len(firsts) > 1:
            return depth, list(firsts.values())
        depth += 1


def prompt_keyboard(
    chat: int,
    game: int,
    decision: int,
    options: Sequence[Option],
    index: int,
    depth: int,
    label: Callable[[Option, int], str],
    back: str,
) -> Keyboard:
    """The buttons for one level of a decision's menu. `label(option, i)` names
    part `i` of `option` on its button (it may say more than the part alone:
    «🗑 🔴 Лорд» when the part is the card a discard gives up)."""
    shown, firsts = menu_level(options, index, depth)
    buttons = [
        Button(
            label(options[i], shown),
            data=PromptCb(
                chat=chat, game=game, decision=decision, option=i, depth=shown + 1
            ).pack(),
        )
        for i in firsts
    ]
    width = 1 if any(len(b.text) > 14 for b in buttons) else 3
    keys = rows(buttons, width)
    if shown > 0:
        up = _parent_depth(options, index, shown)
        data = PromptCb(chat=chat, game=game, decision=decision, option=index, depth=up).pack()
        keys = (*keys, (Button(back, data=data),))
    return keys


def _parent_depth(options: Sequence[Option], index: int, depth: int) -> int:
    """The depth of the menu level above the one shown at `depth`."""
    for up in range(depth - 1, -1, -1):
        shown, firsts = menu_level(options, index, up)
        if shown < depth and firsts:
            return up
    return 0
