"""The tables a person sits at, all at once: groups' lobbies and games, their
practice game, the tutor — each in its own record, each prompt and button
naming its own chat (`PromptCb.chat`), so one private chat holds them all.

Up to `MAX_TABLES` at once: past that, taking another seat is refused with
an answer that names the limit (and changes nothing). The count is read
before the seat is taken, not inside its compare-and-set save: two joins in
two chats at the same instant may both pass — one table over, never a wrong
game moved."""

from __future__ import annotations

from bot.service.base import Reply
from bot.store import Store
from bot.store.models import Lang, Table
from bot.words.i18n import Translator

#: the tables a person may sit at at once (lobbies and running games alike)
MAX_TABLES = 10


async def seated_at(store: Store, user_id: int) -> list[tuple[Table, dict[str, int]]]:
    """The lobbies and running games where `user_id` has a seat (not left to
    the computer), by chat, each with its message ids."""
    found = []
    for chat_id in sorted(await store.user_tables(user_id)):
        table, ids = await store.load_with_messages(chat_id)
        if (
            table is not None
            and table.status in ("lobby", "playing")
            and table.seat_of(user_id) is not None
        ):
            found.append((table, ids))
    return found


async def too_many(
    store: Store, tr: Translator, lang: Lang, user_id: int, joining: int
) -> Reply | None:
    """Why `user_id` may not take a seat in chat `joining` (a table there does
    not count: it is the one they take or keep): they sit at `MAX_TABLES`
    others. None: nothing stops it."""
    others = [t for t, _ in await seated_at(store, user_id) if t.chat_id != joining]
    if len(others) < MAX_TABLES:
        return None
    text = tr.t(lang, "err-too-many-tables", limit=MAX_TABLES)
    return Reply("ok", alert=True, text=text, lang=lang)
