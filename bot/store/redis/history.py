"""A chat's finished games: its history (written by the save that finishes a
game, `Games.save`), its counter of game numbers, the /replay numbers, and
what a finished game means outside its chat — published after its save, one
slot a step (`History._publish`; a cut leaves it to `publish_finished`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from bot.store import PUBLISH_AFTER, PUBLISH_BATCH, QUEUED_MARK
from bot.store.models import GameRecord
from bot.store.packing import unpack_log
from bot.store.redis.base import RedisBase
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors
from engine import Command

log = logging.getLogger(__name__)


class History(RedisBase):
    """Finished games and their numbers."""

    async def _publish(
        self,
        record: GameRecord,
        chat: int,
        fresh: bool,
        dropped: Sequence[int] = (),
        version: int | None = None,
    ) -> None:
        """What a finished game means outside its chat, after the save that put
        it into the history, in steps of one slot each: its /replay number
        (the counter, then the index and the history's ``n:<game>``), each
        player's ``played`` index, its place in the rating queue (once: a mark
        beside the queue), the numbers of the games the save dropped out of the
        history taken out of the index, and last its mark to be published.
        Each step may be run again — a cut before the mark goes leaves it to
        `publish_finished` — and gives the same: the number written first
        stays (one given meanwhile is taken back: /replay numbers are never
        given twice, a gap is harmless), the sets and the queue's mark are
        idempotent. `fresh`: the save has just put the game into the history,
        so it has no number yet (a read spared). `chat`: the chat whose history
        has the game now (a chat that moved since: its new id; the game keeps
        its name ``<chat>:<game>`` by the chat it was played in). `version`:
        the record's, told on its channel last (the save script does not tell
        a finishing save's; unknown to a publishing run again: read). Two round
        trips; three when the number is not yet known."""
        game = record.game_no
        ref = f"{record.chat_id}:{game}"
        history = self._history_key(chat)
        index = f"{self.prefix}:replay:index"
        number = (
            0 if fresh else int(as_str(await awaited(self._r.hget(history, f"n:{game}")) or "0"))
        )
        given = 0 if number else int(await awaited(self._r.incr(f"{self.prefix}:replay:seq")))
        if version is None:
            version = int(as_str(await awaited(self._r.hget(self._table_key(chat), "v")) or "0"))
        async with self._r.pipeline(transaction=False) as pipe:
            if given:
                pipe.hset(index, str(given), ref)
                await self._number_script(keys=[history], args=[str(game), str(given)], client=pipe)
            for user in sorted({s.user_id for s in record.seats if s.user_id is not None}):
                pipe.sadd(self._user_set_key(user, "played"), str(chat))
            if record.counted:
                marks = [self._queue_key, self._queued_key(ref)]
                await self._queue_script(keys=marks, args=[ref, str(QUEUED_MARK)], client=pipe)
            if dropped:
                pipe.hdel(index, *(str(n) for n in dropped))
            pipe.zrem(self._unpublished_key, ref)
            if version:  # (a cluster's pipeline has no publish)
                pipe.execute_command("PUBLISH", self._table_key(chat), str(version))
            got = await pipe.execute()
        if given and int(got[1]) != given:  # numbered meanwhile, or gone: ours goes back
            await awaited(self._r.hdel(index, str(given)))

    async def publish_finished(self, older_than: float = PUBLISH_AFTER) -> int:
        """Publish the finished games whose save was cut before its publishing
        (`_publish`): those marked more than `older_than` seconds ago, so a
        save's own publishing is not raced while it runs (a race would be
        harmless all the same), the oldest `PUBLISH_BATCH` at most: a backlog
        left by an outage goes a batch a look, never holding the ticker up long.
        How many were published."""
        key = self._unpublished_key
        now = time.time()
        done = 0
        with store_errors():
            found = await awaited(
                self._r.zrange(
                    key,
                    "-inf",
                    repr(now - older_than),
                    byscore=True,
                    offset=0,
                    num=PUBLISH_BATCH,
                    withscores=True,
                )
            )
            for member, marked in found:
                ref = as_str(member)
                played_in, _, game = ref.partition(":")
                chat = await self._where(int(played_in))
                raw = await awaited(self._r.hget(self._history_key(chat), f"r:{game}"))
                if raw is None or now - float(marked) > QUEUED_MARK / 2:
                    # the save lost its race (or the game has left the history
                    # since): nothing to publish. A mark nearly as old as the
                    # queue's could queue the game twice: given up, logged.
                    if raw is not None:
                        log.warning("a finished game left unpublished for days: %s", ref)
                    await awaited(self._r.zrem(key, ref))
                    continue
                await self._publish(GameRecord.model_validate_json(raw), chat, fresh=False)
                done += 1
        return done

    @claimed_first
    async def last_game_no(self, chat_id: int) -> int:
        key = self._history_key(chat_id)
        with store_errors():
            last = await self._last_game_script(keys=[key])
        return int(last)

    @claimed_first
    async def history(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        key = self._history_key(chat_id)
        with store_errors():
            fields = [as_str(f) for f in await awaited(self._r.hkeys(key))]
            games = sorted((int(f[2:]) for f in fields if f.startswith("r:")), reverse=True)
            games = games[:limit]
            if not games:
                return []
            names = [x for g in games for x in (f"r:{g}", f"n:{g}")]
            values = await awaited(self._r.hmget(key, names))
        out = []
        for i in range(0, len(values), 2):
            if values[i] is not None:
                record = GameRecord.model_validate_json(values[i])
                record.number = int(as_str(values[i + 1] or "0"))
                out.append(record)
        return out

    async def _where(self, chat_id: int) -> int:
        seen: set[int] = set()
        while chat_id not in seen:
            seen.add(chat_id)
            new = await awaited(self._r.hget(f"{self.prefix}:moved", str(chat_id)))
            if new is None:
                break
            chat_id = int(as_str(new))
        return chat_id

    @claimed_first
    async def game_at(self, chat_id: int, game_no: int) -> tuple[GameRecord, list[Command]] | None:
        with store_errors():
            chat = await self._where(chat_id)
            raw, log, number = await awaited(
                self._r.hmget(
                    self._history_key(chat), [f"r:{game_no}", f"l:{game_no}", f"n:{game_no}"]
                )
            )
        if raw is None:
            return None
        record = GameRecord.model_validate_json(raw)
        record.number = int(as_str(number or "0"))
        return record, unpack_log(as_str(log or ""))

    @claimed_first
    async def game_by_number(self, number: int) -> tuple[GameRecord, list[Command]] | None:
        with store_errors():
            ref = await awaited(self._r.hget(f"{self.prefix}:replay:index", str(number)))
        if ref is None:
            return None
        chat, game = as_str(ref).split(":")
        return await self.game_at(int(chat), int(game))
