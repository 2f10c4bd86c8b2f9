"""The courier: what a service command decided, carried out after the person's answer.

A command returns a `Reply` with its `effects` (`bot.service.outcome`, plain
data). Whoever answered the person — a press's callback answer, a command's
reply, the Mini App's HTTP response — then hands the effects here, in order.
A told change (`Tell`) is screens already laid out by the command; they go
through `Teller.deliver`, the one place a told change is sent whoever made
it (a press, the Mini App, a timer): private screens to Telegram at once,
what the group reads through its outbox, so nothing waits for a group's pace.
"""

from __future__ import annotations

from bot.service.games import Games
from bot.service.outcome import ClearButtons, Edit, Effect, Invite, Tell


async def carry_out(games: Games, effects: tuple[Effect, ...]) -> None:
    for effect in effects:
        match effect:
            case Edit():
                await games.messenger.edit(
                    effect.chat_id, effect.message_id, effect.text, effect.keys
                )
            case Tell():
                await games.teller.deliver(effect)
            case Invite():
                await games.rematch.invite(effect)
            case ClearButtons():
                games.outboxes.drop_buttons(effect.chat_id, effect.message_id)
