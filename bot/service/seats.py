"""Seats: leaving (the lobby, or a game: the computer takes the seat),
stopping a game, coming back, a group that becomes a supergroup, a player's
language. Built on the lobby, whose message a leaver's going updates."""

from __future__ import annotations

import html
import logging

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards import StopCb
from bot.models import Lang, Table
from bot.service.base import Actor, Conflict, Refusal, Reply
from bot.service.lobby import Lobby
from bot.service.telling import prompt_ids
from engine import Command, Event, pending, set_computer

log = logging.getLogger(__name__)


class Seats(Lobby):
    """Leaving (the lobby or a game), stopping, /back, chat migration, /lang."""

    async def leave(self, chat_id: int, actor: Actor) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status == "finished":
            return Reply("err-no-game")
        if table.seat_of(actor.user_id) is None:
            return Reply("err-not-seated", alert=True)
        if table.status == "lobby":

            def remove(t: Table) -> list[Command]:
                seat = t.seat_of(actor.user_id)
                if seat is None:
                    raise Refusal("err-not-seated")
                del t.seats[seat]
                return []

            try:
                table, _ids = await self._change(chat_id, remove)
            except Refusal as r:
                return Reply(r.key, alert=True)
            await self.store.link_user(actor.user_id, chat_id, linked=False)
            await self._show_lobby(table)
            return Reply("lobby-left")
        return await self._leave_game(chat_id, actor)

    async def _leave_game(self, chat_id: int, actor: Actor) -> Reply:
        events: list[Event] = []

        def leave(t: Table) -> list[Command]:
            seat = t.seat_of(actor.user_id)
            if seat is None or t.state is None:
                raise Refusal("err-not-seated")
            t.seats[seat].left = True
            events[:] = set_computer(t.state, seat, True)
            if t.humans:
                note = self.tr.t(t.lang, "log-left", player=html.escape(actor.name))
                self._settle(t, events, [note], handed=seat)
            return [Command(seat=seat, computer=True)]

        try:
            table, ids = await self._change(chat_id, leave)
        except Refusal as r:
            return Reply(r.key, alert=True)
        await self.store.link_user(actor.user_id, chat_id, linked=False)
        if not table.humans:
            await self._stop(table, self.tr.t(table.lang, "stop-everyone-left"))
            return Reply("game-left")
        await self._after(table, ids, events, answered=None)
        return Reply("game-left")

    async def ask_stop(self, chat_id: int, actor: Actor) -> Reply | InlineKeyboardMarkup:
        table = await self.store.load(chat_id)
        if table is None or table.status != "playing":
            return Reply("err-no-game")
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator")
        t = self.tr.t
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(
                        text=t(table.lang, "btn-stop-yes"),
                        callback_data=StopCb(game=table.game_no, confirm=True).pack(),
                    ),
                    InlineKeyboardButton(
                        text=t(table.lang, "btn-stop-no"),
                        callback_data=StopCb(game=table.game_no, confirm=False).pack(),
                    ),
                ]
            ]
        )

    async def stop(self, chat_id: int, actor: Actor, game_no: int) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status != "playing" or table.game_no != game_no:
            return Reply("err-old-game", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)
        await self._stop(table, self.tr.t(table.lang, "stop-done", player=html.escape(actor.name)))
        return Reply("stop-done-short")

    async def removed_from_group(self, chat_id: int) -> None:
        """The bot was removed from the group: its lobby or game ends (no
        scores), and everyone seated is told in private — the group itself
        can no longer be written to."""
        table = await self.store.load(chat_id)
        if table is None or table.status == "finished":
            return
        log.info("removed from %s: its game ends", chat_id)
        table = await self._stop(table, notice=None)
        for i, seat in enumerate(table.seats):
            if seat.user_id is not None and not seat.left:
                notice = self.tr.t(seat.lang, "stop-removed")
                await self._send_private(
                    table, i, self.render.header(seat.lang, table) + "\n" + notice
                )

    async def _stop(self, table: Table, notice: str | None) -> Table:
        """End the chat's lobby or game where it stands (no scores): prompts
        lose their buttons, the timer goes, and the group reads `notice`
        (None: the group cannot be written to)."""

        def close(t: Table) -> list[Command]:
            t.status = "finished"
            self._clear_timer(t)
            return []

        table, ids = await self._change(table.chat_id, close)
        for user_id in table.humans:
            await self.store.link_user(user_id, table.chat_id, linked=False)
        await self.store.set_messages(table.chat_id, await self._drop_prompts(table, ids))
        if notice is not None:
            await self._send_group(table, notice)
        return table

    async def back(self, actor: Actor) -> Reply:
        """/back: take your seat back from the computer in every game you are away from."""
        returned = False
        for chat_id in sorted(await self.store.user_tables(actor.user_id)):
            table = await self.store.load(chat_id)
            if table is None or table.status != "playing":
                continue
            seat = table.seat_of(actor.user_id)
            if seat is None or not table.seats[seat].away:
                continue
            events: list[Event] = []

            def come_back(
                t: Table, seat: int = seat, events: list[Event] = events
            ) -> list[Command]:
                if t.state is None:
                    raise Refusal("err-no-game")
                t.seats[seat].away = False
                t.seats[seat].strikes = 0
                events[:] = set_computer(t.state, seat, False)
                note = self.tr.t(t.lang, "log-back", player=html.escape(actor.name))
                self._settle(t, events, [note], handed=seat)
                return [Command(seat=seat, computer=False)]

            try:
                table, ids = await self._change(chat_id, come_back)
            except Refusal:
                continue
            await self._after(table, ids, events, answered=None)
            returned = True
        return Reply("back-done" if returned else "back-nothing")

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: its game follows it, and the pending
        prompt is sent again with buttons that name the new chat."""
        if not await self.store.migrate(old_chat_id, new_chat_id):
            return
        log.info("game moved from %s to %s", old_chat_id, new_chat_id)
        table = await self.store.load(new_chat_id)
        if table is None or table.status != "playing" or table.state is None:
            return
        decision = pending(table.state)
        if decision is not None and not table.state.players[decision.seat].computer:
            sent = await self._send_prompt(table, decision)
            if sent is not None:
                await self.store.set_messages(new_chat_id, prompt_ids(decision, sent))

    async def set_lang(self, actor: Actor, lang: Lang) -> Reply:
        """/lang: the user's private language, now and in the games they sit in."""
        prefs = await self.store.user(actor.user_id)
        prefs.lang = lang
        await self.store.save_user(prefs)

        def relang(t: Table) -> list[Command]:
            seat = t.seat_of(actor.user_id)
            if seat is not None:
                t.seats[seat].lang = lang
            return []

        for chat_id in await self.store.user_tables(actor.user_id):
            try:
                await self._change(chat_id, relang)
            except (Refusal, Conflict):
                log.info("could not set the language of %s in %s", actor.user_id, chat_id)
        return Reply("lang-set", lang=lang)
