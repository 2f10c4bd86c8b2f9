"""The courier: what a service command decided, carried out after the person's answer.

A command returns a `Reply` with its `effects` (`bot.service.outcome`, plain
data). Whoever answered the person — a press's callback answer, a command's
reply, the Mini App's HTTP response — then hands the effects here, in order.
Private screens go to Telegram at once; what the group reads goes through its
outbox (inside `Teller.tell` and `Seats.tell_end`), so nothing waits for a
group's pace.
"""

from __future__ import annotations

from bot.service.games import Games
from bot.service.outcome import ClearButtons, Edit, Effect, Invite, Tell, TellEnd


async def carry_out(games: Games, effects: tuple[Effect, ...]) -> None:
    for effect in effects:
        match effect:
            case Edit():
                await games.messenger.edit(
                    effect.chat_id, effect.message_id, effect.text, effect.keys
                )
            case Tell():
                await games.teller.tell(
                    effect.table,
                    effect.ids,
                    effect.events,
                    effect.answered,
                    new_game_started=effect.new_game_started,
                )
            case TellEnd():
                await games.seats.tell_end(effect)
            case Invite():
                await games.rematch.invite(effect)
            case ClearButtons():
                games.outboxes.drop_buttons(effect.chat_id, effect.message_id)
