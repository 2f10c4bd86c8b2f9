"""How much a game says, and how much of it rings (issue 16).

    python -m benchmarks.chat_volume --players 3 --seeds 3 5 8 [--lang ru]

Seeded games with every seat a person, played to the end through the real
dispatcher (the bot's whole stack on the fake Telegram of the tests: every
request it makes is recorded), each person pressing their prompts' buttons
level by level as a person would, with the random policy's choice. From the
recording, per game:

- `private_per_own_turn`: new private messages a person got from the game's
  start on (its hand, prompts, notices; not the /start greeting), divided by
  their own turns (a turn started anew counts), averaged over the people;
  and `private_per_own_turn_each`, per person;
- `private_edits_per_own_turn`: the same for edits of private messages;
- `private_ringing`: new private messages from the lobby on that make
  a sound (not sent with `disable_notification`), per person, averaged; and
  `private_ringing_each`, per person; `private_silent`: the others;
- `group_new`: new messages in the group, lobby to result; `group_ringing`:
  those sent without `disable_notification` (they make a sound);
- `group_identical_edits`: edits of a group message to the text and buttons
  it already shows (Telegram refuses them: «message is not modified»);
- `turns`, `decisions`.

Prints one JSON line a game, then one with the means. The numbers do not
depend on the machine: compare two versions of the bot by running this in
each checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

from aiogram.methods import EditMessageReplyMarkup, EditMessageText, SendMessage

from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.words.keyboards import LobbyCb
from engine import Decision, pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100313
NAMES = {"ru": ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор"], "en": list("ABCDEF")}


#: called after each answer: (harness, the request it began at, the decision
#: answered, the record before, the record after)
Step = Callable[[Harness, int, Decision, Table, Table], Awaitable[None]]


@dataclass
class Volume:
    players: int
    seed: int
    turns: int
    decisions: int
    private_per_own_turn: float
    private_per_own_turn_each: list[float]
    private_edits_per_own_turn: float
    private_ringing: float
    private_ringing_each: list[int]
    private_silent: float
    group_new: int
    group_ringing: int
    group_identical_edits: int


async def play_game(
    players: int,
    seed: int,
    lang: str = "ru",
    names: list[str] | None = None,
    step: Step | None = None,
    most: int | None = None,
) -> tuple[Harness, Volume]:
    """A whole seeded game of `players` people (or its first `most`
    decisions); the harness (with its recording) and the figures. `step`
    looks at each answer's requests."""
    h = Harness(MemoryStore(clock=lambda: 0.0))
    shown = names or NAMES[lang]
    users = [person(300 + i, shown[i], lang) for i in range(players)]
    for user in users:
        await h.say(user.id, user, "/start")
    begin = len(h.tg.requests)
    lobby, game = await h.open_lobby(GROUP, users[0], users[1:])
    if lang != h.defaults.lang:  # the group's language, switched by its button
        await h.press(users[0], GROUP, lobby, LobbyCb(action="lang", game=game).pack())
    h.app.games.seeds = random.Random(seed)
    await h.press(users[0], GROUP, lobby, LobbyCb(action="go", game=game).pack())
    started = len(h.tg.requests)
    by_id = {u.id: u for u in users}
    own_turns: Counter[int] = Counter()
    last_turn = None
    decisions = 0
    while True:
        table = await h.table(GROUP)
        state = table.state
        assert state is not None
        if table.status != "playing" or decisions == most:
            break
        if state.turn != last_turn:
            last_turn = state.turn
            own_turns[state.current] += 1
        decision = pending(state)
        assert decision is not None
        user_id = table.seats[decision.seat].user_id
        assert user_id is not None
        since = len(h.tg.requests)
        await h.answer(by_id[user_id], GROUP, choose(state.seed + decisions, decision))
        decisions += 1
        if step is not None:
            await step(h, since, decision, table, await h.table(GROUP))
    after_start = h.tg.requests[started:]
    each = []
    edits = []
    ringing = []
    silent = []
    for seat, user in enumerate(users):
        sends = [r for r in after_start if isinstance(r, SendMessage) and r.chat_id == user.id]
        heard = [  # from the lobby on: the start's hand too
            r for r in h.tg.requests[begin:] if isinstance(r, SendMessage) and r.chat_id == user.id
        ]
        ringing.append(sum(1 for r in heard if r.disable_notification is not True))
        silent.append(len(heard) - ringing[-1])
        changed = [
            r for r in after_start if isinstance(r, EditMessageText) and r.chat_id == user.id
        ]
        each.append(len(sends) / max(1, own_turns[seat]))
        edits.append(len(changed) / max(1, own_turns[seat]))
    group = [r for r in h.tg.requests[begin:] if isinstance(r, SendMessage) and r.chat_id == GROUP]
    assert state is not None
    return h, Volume(
        players=players,
        seed=seed,
        turns=state.turn,
        decisions=decisions,
        private_per_own_turn=round(statistics.mean(each), 2),
        private_per_own_turn_each=[round(x, 2) for x in each],
        private_edits_per_own_turn=round(statistics.mean(edits), 2),
        private_ringing=round(statistics.mean(ringing), 2),
        private_ringing_each=ringing,
        private_silent=round(statistics.mean(silent), 2),
        group_new=len(group),
        group_ringing=sum(1 for r in group if not r.disable_notification),
        group_identical_edits=identical_edits(h.tg.requests[begin:], h.tg.message_id_of, GROUP),
    )


def identical_edits(requests: list[Any], message_id_of: dict[int, int], chat_id: int) -> int:
    """Edits of `chat_id`'s messages to the text and buttons they already showed."""
    shown: dict[int, tuple[str | None, Any]] = {}
    same = 0
    for r in requests:
        if getattr(r, "chat_id", None) != chat_id:
            continue
        if isinstance(r, SendMessage) and id(r) in message_id_of:
            shown[message_id_of[id(r)]] = (r.text, r.reply_markup)
        elif isinstance(r, EditMessageText) and r.message_id is not None:
            now = (r.text, r.reply_markup)
            same += shown.get(r.message_id) == now
            shown[r.message_id] = now
        elif isinstance(r, EditMessageReplyMarkup) and r.message_id in shown:
            shown[r.message_id] = (shown[r.message_id][0], r.reply_markup)
    return same


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 5, 8])
    parser.add_argument("--lang", choices=("ru", "en"), default="ru")
    args = parser.parse_args()
    volumes = []
    for seed in args.seeds:
        _, volume = await play_game(args.players, seed, args.lang)
        volumes.append(volume)
        print(json.dumps(asdict(volume)), flush=True)
    print(
        json.dumps(
            {
                "players": args.players,
                "games": len(volumes),
                "private_per_own_turn": round(
                    statistics.mean(v.private_per_own_turn for v in volumes), 2
                ),
                "private_edits_per_own_turn": round(
                    statistics.mean(v.private_edits_per_own_turn for v in volumes), 2
                ),
                "private_ringing": round(statistics.mean(v.private_ringing for v in volumes), 2),
                "private_silent": round(statistics.mean(v.private_silent for v in volumes), 2),
                "group_new": statistics.mean(v.group_new for v in volumes),
                "group_ringing": statistics.mean(v.group_ringing for v in volumes),
                "group_identical_edits": statistics.mean(v.group_identical_edits for v in volumes),
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
