"""/forgetme: nothing the bot keeps names the person any more.

The store forgets what is keyed by them (`Store.forget_user`: preferences —
language, «started» — subscriptions, figures, their chats' sets, their
practice game, the profile they made, the «start the bot» notes about them,
their seats in the chats' histories). Here, first, the records of the chats
they sit in — a lobby, a game under way, a finished game still kept — lose
them: a lobby seat goes; a seat in a running game is handed to the computer
(the normal level) and shown as «игрок» from then on, its id and name gone,
so the game's end writes neither back (nor a rating: the seat is nobody's).
The record keeps no rendered line (`bot.store.models`): every line that
named them is drawn from their seat when told, and says «игрок» from now on —
and nobody else's name changes.
"""

from __future__ import annotations

from bot.service.base import Actor, Defaults, Moved, Records, Refusal, Reply, noted
from bot.service.bookkeeping import book_move
from bot.service.lobby import lobby_shown
from bot.service.outcome import Effect
from bot.service.telling import Teller
from bot.store import Store
from bot.store.models import Table
from engine import Command, Event, set_computer


class Forgetting:
    def __init__(
        self,
        records: Records,
        teller: Teller,
        defaults: Defaults,
    ) -> None:
        self.records = records
        self.store: Store = records.store
        self.teller = teller
        self.defaults = defaults

    async def forget(self, actor: Actor) -> Reply:
        """/forgetme's «yes»: the person forgotten everywhere; what the chats
        they sat in are told of it comes before the answer."""
        user_id = actor.user_id
        told: list[Effect] = []
        for chat_id in sorted(await self.store.user_chats(user_id)):
            if chat_id != user_id:  # their practice game goes with the rest
                told += await self.forget_seat(chat_id, user_id)
        await self.store.forget_user(user_id)
        return Reply("forgetme-done", before=tuple(told))

    async def forget_seat(self, chat_id: int, user_id: int) -> tuple[Effect, ...]:
        """The chat's record without the person; what the chat is told of it
        (its lobby shown, the computer taking their seat in a game)."""
        dropped: set[str] = set()  # the chat's message ids the seat had

        def forget(t: Table) -> Moved:
            seat = t.seat_of_person(user_id)
            named = seat is not None or user_id in t.invited or t.creator_id == user_id
            if not named:
                raise Refusal("err-not-seated")
            t.invited = [u for u in t.invited if u != user_id]
            if t.creator_id == user_id:
                t.creator_id = 0  # nobody: admins may still manage the game
            commands: list[Command] = []
            events: list[Event] = []
            if seat is None:
                return Moved(commands, events)
            s = t.seats[seat]
            if t.status == "lobby":
                del t.seats[seat]
            else:
                # the record names a person only in their seat: blanking it
                # forgets them (every line is drawn from it when told)
                dropped.update({f"prompt:{seat}", f"shown:{seat}"})
                s.user_id, s.name, s.forgotten = None, "", True
                s.asked = s.opened_at = s.closed = None
                if t.status == "playing" and t.state is not None and not s.left:
                    s.left, s.away = True, False
                    events = set_computer(t.state, seat, True)
                    now = self.records.clock.now()
                    book_move(t, noted(events), now, self.defaults, handed=seat)
                    commands.append(Command(seat=seat, computer=True))
            return Moved(commands, events)

        try:
            table, ids, events, _ = await self.records.change(chat_id, forget)
        except Refusal:
            return ()
        await self.store.set_messages(
            chat_id, {key: None for key in (*dropped, f"unreachable:{user_id}") if key}
        )
        if table.status == "lobby":
            return (lobby_shown(chat_id),)
        if table.status == "playing" and events:
            return (self.teller.lay_out(table, ids),)
        return ()
