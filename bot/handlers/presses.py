"""A press's callback data, unpacked once for the whole update.

Every button's data names its kind by a prefix (``p:`` a prompt's option,
``lb:`` a lobby's button, …: the `CallbackData` classes in `KINDS`). The
update's first middleware (`bot.handlers.observe`, which also logs the game a
prompt's button belongs to) unpacks it once into the handler data under
`PRESS`; the routers' filters (`Pressed`) then only look at its kind and
fields — aiogram's own ``Cb.filter()`` would unpack it again in every
handler it is tried on. Data no kind reads (an old bot's, a forged one) is
None there: no filter takes it, and the catch-all answers it as a bad button.
"""

from __future__ import annotations

from typing import Any, Literal

from aiogram.filters import Filter
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery
from magic_filter import MagicFilter

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
)

#: every kind of button the bot puts under a message, by its data's prefix
KINDS: dict[str, type[CallbackData]] = {
    kind.__prefix__: kind
    for kind in (
        PromptCb,
        HintCb,
        DetailsCb,
        LobbyCb,
        StopCb,
        LeaveCb,
        RematchCb,
        LangCb,
        ForgetCb,
        SettingsCb,
        PrefsCb,
        GameCb,
        BackCb,
    )
}

#: the handler data's key of the press's unpacked callback data
PRESS = "press"


def unpack(data: str | None) -> CallbackData | None:
    """The button's data as its kind reads it; None when no kind reads it."""
    if not data:
        return None
    kind = KINDS.get(data.partition(":")[0])
    if kind is None:
        return None
    try:
        return kind.unpack(data)
    except (TypeError, ValueError):  # garbled, or forged
        return None


class Pressed(Filter):
    """A press of a `kind` button (whose fields pass `rule`, when given): the
    handler gets it as ``callback_data``, as with aiogram's ``Cb.filter()``."""

    __slots__ = ("kind", "rule")

    def __init__(self, kind: type[CallbackData], rule: MagicFilter | None = None) -> None:
        self.kind = kind
        self.rule = rule

    async def __call__(self, query: CallbackQuery, **data: Any) -> Literal[False] | dict[str, Any]:
        press = data[PRESS] if PRESS in data else unpack(query.data)
        if not isinstance(press, self.kind):
            return False
        if self.rule is not None and not self.rule.resolve(press):
            return False
        return {"callback_data": press}
