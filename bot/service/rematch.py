"""«Ещё партию»: the button under a game's result opens a new lobby in the
group, with the same computers seated and the same people invited.

Whoever of the finished game presses it first opens the lobby and takes a
seat; every other person of that game is told in private, with a button that
seats them (the deep link /start join_<chat>_<game>). A later press by one of
them finds that lobby and joins it, so there is only ever one. The press is
answered first; the lobby's message and the invitations follow (effects the
courier carries out). A press by
someone who did not play, or once the chat has moved on (a newer game, a
lobby /newgame opened, or the finished record expired), gets a short alert
and changes nothing.
"""

from __future__ import annotations

from bot.service.base import Actor, Conflict, Links, Reply, until_saved
from bot.service.lobby import Lobby
from bot.service.outcome import Invite, ToPerson
from bot.store import Store
from bot.words.i18n import Translator
from bot.words.render import Renderer
from bot.words.screen import Button, keyboard
from engine.ai import Level


class Rematch:
    """A new lobby for the people of a finished game."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        render: Renderer,
        tr: Translator,
        links: Links,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.render = render
        self.tr = tr
        self.links = links

    async def start(self, chat_id: int, title: str, actor: Actor, game_no: int) -> Reply:
        """The «Ещё партию» button of game `game_no` in `chat_id`, pressed by `actor`."""

        async def attempt() -> Reply | None:
            table = await self.store.load(chat_id)
            if table is None or table.game_no > game_no + 1 or table.game_no < game_no:
                return Reply("rematch-gone", alert=True)
            if table.game_no == game_no + 1:
                # the rematch is open already (pressed twice, or by two at once)
                if table.status != "lobby":
                    return Reply("rematch-gone", alert=True)
                if not table.invited:  # a lobby /newgame opened: not this button's
                    return Reply("err-old-button", alert=True)
                if actor.user_id not in table.invited:
                    return Reply("rematch-not-yours", alert=True)
                return await self.lobby.join(chat_id, actor)
            if table.status != "finished" or table.practice:
                return Reply("err-old-button", alert=True)
            if actor.user_id not in table.people:
                return Reply("rematch-not-yours", alert=True)
            refused = await self.lobby.table_limit(actor, chat_id)
            if refused is not None:
                return refused
            computers: list[Level] = [s.computer_level() for s in table.seats if s.user_id is None]
            opened = await self.lobby.open_table(
                chat_id, title or table.title, actor, table, computers, table.people
            )
            if opened is None:
                return None  # another press (or /newgame) saved first: look again
            # the press is answered first; the lobby and the invitations follow
            invite = Invite(table, opened, actor.user_id, actor.name)
            return Reply("rematch-opened", effects=(*self.lobby.opened(opened), invite))

        try:
            return await until_saved(attempt, chat_id)
        except Conflict:  # a press that keeps losing the race to other presses
            return Reply("err-busy", alert=True)

    async def invitations(self, invite: Invite) -> tuple[ToPerson, ...]:
        """Every other person of the finished game, in private: a button that
        seats them at the rematch's lobby (one not delivered is let go: the
        lobby in the group invites everyone all the same)."""
        old, new = invite.finished, invite.opened
        link = await self.links.deep_link(f"join_{new.chat_id}_{new.game_no}")
        chat = self.render.person(new.lang, new.title or str(new.chat_id))
        host_seat = old.seat_of_person(invite.host_id)
        invited = []
        for seat in old.seats:
            if seat.user_id is None or seat.user_id == invite.host_id:
                continue
            lang = seat.lang
            who = (
                self.render.name(lang, old, host_seat)
                if host_seat is not None
                else self.render.person(lang, invite.host_name)
            )
            text = self.tr.t(lang, "rematch-invite", player=who, chat=chat)
            markup = keyboard([Button(self.tr.t(lang, "btn-join"), url=link)])
            invited.append(ToPerson(seat.user_id, text, markup))
        return tuple(invited)
