"""People and a chat's settings: a person's preferences, the tables they sit
at, who is called to a chat's new lobbies, a chat's settings (the
compare-and-set of /settings), and forgetting a person (/forgetme)."""

from __future__ import annotations

from bot.ops import metrics
from bot.store import UserPrefs
from bot.store.models import ChatProfile
from bot.store.packing import without_user
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors
from bot.store.redis.updates import Updates


class People(Updates):
    """Persons and chats' settings. A person's preferences are read with the
    update's claim (`Updates._read`)."""

    async def user(self, user_id: int) -> UserPrefs:
        fields = ["lang", "started", "practices", "reviews", "offset", "quiet"]
        [(lang, started, practices, reviews, offset, quiet)] = await self._read(
            lambda p: p.hmget(self._user_key(user_id), fields)
        )
        return UserPrefs.model_validate(
            {
                "user_id": user_id,
                "lang": None if lang is None else as_str(lang),
                "started": started is not None and as_str(started) == "1",
                "practices": 0 if practices is None else int(as_str(practices)),
                # a review after each game unless turned off (absent: on)
                "reviews": reviews is None or as_str(reviews) == "1",
                "offset": None if offset is None else int(as_str(offset)),
                "quiet": "" if quiet is None else as_str(quiet),
            }
        )

    @claimed_first
    async def save_user(self, prefs: UserPrefs) -> None:
        args = [prefs.lang or "", "1" if prefs.started else "0", str(prefs.practices)]
        with store_errors():
            await self._save_user_script(
                keys=[self._user_key(prefs.user_id)],
                args=[
                    *args,
                    "1" if prefs.reviews else "0",
                    "" if prefs.offset is None else str(prefs.offset),
                    prefs.quiet,
                ],
            )

    @claimed_first
    async def user_tables(self, user_id: int) -> set[int]:
        with store_errors():
            members = await awaited(self._r.smembers(self._user_tables_key(user_id)))
        return {int(as_str(m)) for m in members}

    @claimed_first
    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        key = self._user_tables_key(user_id)
        with store_errors():
            if linked:
                await self._link_script(keys=[key], args=[str(chat_id), str(self.record_ttl)])
            else:
                await awaited(self._r.srem(key, str(chat_id)))

    # a chat's settings -------------------------------------------------

    @claimed_first
    async def profile(self, chat_id: int) -> ChatProfile | None:
        with store_errors():
            raw = await awaited(self._r.get(self._profile_key(chat_id)))
        return None if raw is None else ChatProfile.model_validate_json(raw)

    @claimed_first
    async def save_profile(self, profile: ChatProfile) -> bool:
        """The compare-and-set of /settings (the chat's slot), after the
        author's index of the chats whose settings they made (what /forgetme
        sweeps; the author's slot), a step of its own: a cut or a lost race
        leaves an index entry too many, which is harmless (/forgetme checks
        the author) — never a profile its author's index lacks. On one node
        both in one round trip (the index sent ahead)."""
        data = profile.model_copy(update={"version": profile.version + 1}).model_dump_json()
        keys, args = [self._profile_key(profile.chat_id)], [str(profile.version), data]
        before: list[tuple[str, ...]] = []
        if profile.owner_id is not None:
            owns = self._user_set_key(profile.owner_id, "owns")
            before.append(("SADD", owns, str(profile.chat_id)))
        with store_errors():
            [ok] = await self._run_saving(self._profile_script, keys, args, before)
        if int(ok) != 1:
            metrics.cas_conflict()
            return False
        profile.version += 1
        return True

    # who is called to a chat's new lobbies, and forgetting a person -----

    @claimed_first
    async def subscribers(self, chat_id: int) -> dict[int, str]:
        with store_errors():
            raw = await awaited(self._r.hgetall(self._subs_key(chat_id)))
        return {int(as_str(k)): as_str(v) for k, v in raw.items()}

    @claimed_first
    async def subscribe(self, chat_id: int, user_id: int, state: str | None) -> None:
        """The chat's subscribers and the person's index of them (what
        /forgetme sweeps), two steps of their own slots in one round trip:
        the index is written before a subscription and cleared after one, so
        whatever a cut between them leaves is an index entry too many —
        harmless (/forgetme deletes a field that is not there)."""
        mine = self._user_set_key(user_id, "subs")
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                if state is None:
                    pipe.hdel(self._subs_key(chat_id), str(user_id))
                    pipe.srem(mine, str(chat_id))
                else:
                    pipe.sadd(mine, str(chat_id))
                    pipe.hset(self._subs_key(chat_id), str(user_id), state)
                await pipe.execute()

    @claimed_first
    async def user_chats(self, user_id: int) -> set[int]:
        kinds = ("tables", "played", "stats", "subs", "owns")
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                for kind in kinds:
                    pipe.smembers(self._user_set_key(user_id, kind))
                found = await pipe.execute()
        return {int(as_str(chat)) for members in found for chat in members}

    @claimed_first
    async def forget_user(self, user_id: int) -> None:
        """Every trace of the person, a step a key (Redis Cluster: no step
        spans slots), each one that may be done twice: their traces in the
        chats first, then everyone's figures, and their own keys last — the
        sets that say where their traces are go only once the traces are gone,
        so /forgetme cut short and asked again finds the rest."""
        key = f"u{user_id}"
        chats = await self.user_chats(user_id)
        await self.delete(user_id)  # their practice game (its chat is theirs)
        with store_errors():
            subs = await awaited(self._r.smembers(self._user_set_key(user_id, "subs")))
            rated = await awaited(self._r.smembers(self._user_set_key(user_id, "stats")))
            played = await awaited(self._r.smembers(self._user_set_key(user_id, "played")))
            async with self._r.pipeline(transaction=False) as pipe:
                for chat in subs:
                    pipe.hdel(self._subs_key(int(as_str(chat))), str(user_id))
                pipe.hdel(self._stats_key(None), key)
                for chat in rated:
                    pipe.hdel(self._stats_key(int(as_str(chat))), key)
                for chat_id in chats:  # the «start the bot» notes about them
                    pipe.hdel(self._msgs_key(chat_id), f"unreachable:{user_id}")
                await pipe.execute()
            for chat_id in chats:  # the settings they made have no author now
                raw = await awaited(self._r.get(self._profile_key(chat_id)))
                if raw is not None:
                    profile = ChatProfile.model_validate_json(raw)
                    if profile.owner_id == user_id:
                        profile.owner_id = None
                        await awaited(
                            self._r.set(self._profile_key(chat_id), profile.model_dump_json())
                        )
            for chat in played:
                hk = self._history_key(int(as_str(chat)))
                raw = await awaited(self._r.hgetall(hk))
                changes = {}
                for field, value in raw.items():
                    if as_str(field).startswith("r:"):
                        scrubbed = without_user(as_str(value), user_id)
                        if scrubbed is not None:
                            changes[as_str(field)] = scrubbed
                if changes:
                    await awaited(self._r.hset(hk, mapping=changes))
            # their own keys (one slot: ``{<user id>}``), the index of their traces last
            await awaited(
                self._r.delete(
                    self._user_key(user_id),
                    *(
                        self._user_set_key(user_id, kind)
                        for kind in ("subs", "stats", "played", "tables", "owns")
                    ),
                )
            )
