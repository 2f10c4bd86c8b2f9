"""Ratings and statistics: every counted finished game, rated once.

The save that finishes a game puts it, in the same atomic step, into its
chat's history and onto the rating queue (`Store.save`, `record_of`). Rating
folds that queue in order: read the oldest game and its players' figures,
compute, and write the figures while popping the game — only if the game is
still the queue's head (`Store.commit_rating`: the first figures stored for
the head are the ones written, whoever computed them). So a game is counted
exactly once whichever process (or how many) rates it, and one saved but not
yet rated when a process dies is rated by the next one that drains the queue;
one whose commit was cut short is finished with its stored figures
(`Store.finish_rating`), never computed again from figures that may hold half
of it.

The skill rating is openskill's Plackett–Luce model (a Weng–Lin Bayesian
rating for free-for-all games of any size): each rated seat is a team of one,
ranked by score (castles break a tie, as the engine does). Computers are rated
as one pseudo-player per level (``c<level>``); when one level holds several
seats of a game, its best-placed seat's update is kept. A person's seat that
the computer played most of the game (away or left) is not rated.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from bot.ops import metrics
from bot.service.base import Actor, Reply
from bot.store import Store, StoreUnavailable
from bot.store.models import GameRecord, PlayerStats, SeatRecord
from bot.words.i18n import Translator
from bot.words.names import shown_name
from engine import Command, Refused, execute, new_game
from engine.core import Game

log = logging.getLogger(__name__)

TOP_LINES = 10
MODEL = PlackettLuce()


def player_key(seat: SeatRecord) -> str | None:
    """``u<id>`` for a person, ``c<level>`` for a computer; None for a seat
    whose person asked to be forgotten."""
    if seat.user_id is not None:
        return f"u{seat.user_id}"
    if seat.level is not None:
        return f"c{seat.level}"
    return None


def ranks_of(scores: Sequence[int], castles: Sequence[int]) -> list[int]:
    """1 for the best; equal scores and castles share a rank."""
    return [
        1 + sum(1 for j in range(len(scores)) if (scores[j], castles[j]) > (scores[i], castles[i]))
        for i in range(len(scores))
    ]


@dataclass
class Analysis:
    """What the command log tells of a game: who played most of each seat,
    and what each смута won or cost each seat."""

    computer_most: list[bool]
    smuta: list[dict[str, int]] = field(default_factory=list)


def analyse(record: GameRecord, commands: Sequence[Command]) -> Analysis:
    n = len(record.seats)
    computer = [i in record.setup.computer for i in range(n)]
    answered = [[0, 0] for _ in range(n)]  # [by the person, by the computer]
    for c in commands:
        if c.computer is not None:
            computer[c.seat] = c.computer
        elif 0 <= c.seat < n:
            answered[c.seat][1 if computer[c.seat] else 0] += 1
    most = [a[1] > a[0] for a in answered]
    return Analysis(computer_most=most, smuta=_smuta_effects(record, commands))


def _smuta_effects(record: GameRecord, commands: Sequence[Command]) -> list[dict[str, int]]:
    """Replays the game: each seat's points won (or lost) over each смута,
    from the command that drew it to the one that ended it. A log that does
    not replay (a position built by hand) tells nothing."""
    n = len(record.seats)
    effects: list[dict[str, int]] = [{} for _ in range(n)]
    try:
        state, _ = new_game(record.setup)
        game = Game(state)
        open_ = 0
        name = ""
        before: list[int] = []
        for c in commands:
            points = [game.points(i) for i in range(n)]
            events = execute(state, c)
            for e in events:
                if e.key == "smuta.start":
                    if open_ == 0:
                        name, before = str(e.params.get("smuta", "")), points
                    open_ += 1
                elif e.key == "smuta.end" and open_ > 0:
                    open_ -= 1
                    if open_ == 0 and name:
                        after = [game.points(i) for i in range(n)]
                        for i in range(n):
                            effects[i][name] = effects[i].get(name, 0) + after[i] - before[i]
    except (Refused, AssertionError, ValueError, IndexError, KeyError):
        log.info("the log of %s/%s does not replay", record.chat_id, record.game_no)
        return [{} for _ in range(n)]
    return effects


def _fresh(key: str, name: str) -> PlayerStats:
    r = MODEL.rating()
    return PlayerStats(key=key, name=name, mu=r.mu, sigma=r.sigma)


def rate(
    record: GameRecord, analysis: Analysis, known: dict[str, PlayerStats]
) -> list[PlayerStats]:
    """The new figures of the game's rated players, from their figures before
    it (`known`, by key; missing: a newcomer)."""
    seats = [
        i
        for i, s in enumerate(record.seats)
        if player_key(s) is not None and not (s.user_id is not None and analysis.computer_most[i])
    ]
    if len(seats) < 2:
        return []
    keys = [player_key(record.seats[i]) or "" for i in seats]
    before = {
        k: known.get(k) or _fresh(k, record.seats[i].name) for k, i in zip(keys, seats, strict=True)
    }
    teams = [[MODEL.rating(mu=before[k].mu, sigma=before[k].sigma, name=k)] for k in keys]
    ranks = ranks_of([record.scores[i] for i in seats], [record.castles[i] for i in seats])
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    out: dict[str, PlayerStats] = {}
    order = sorted(range(len(seats)), key=lambda j: (ranks[j], j))  # the best seat of a level first
    for j in order:
        key, seat = keys[j], seats[j]
        if key in out:
            continue
        new = before[key].model_copy(deep=True)
        new.mu, new.sigma = rated[j][0].mu, rated[j][0].sigma
        if record.seats[seat].name:
            new.name = record.seats[seat].name
        new.games += 1
        new.wins += 1 if seat in record.winners else 0
        new.points += record.scores[seat]
        new.best = max(new.best, record.scores[seat])
        if analysis.smuta:
            for smuta, delta in analysis.smuta[seat].items():
                new.smuta[smuta] = new.smuta.get(smuta, 0) + delta
        out[key] = new
    return list(out.values())


def shown(p: PlayerStats) -> float:
    """The figure a leaderboard sorts by: the rating less three uncertainties
    (openskill's ordinal), so a newcomer climbs as the bot grows sure of them."""
    return p.mu - 3 * p.sigma


class Ratings:
    def __init__(self, store: Store, tr: Translator) -> None:
        self.store = store
        self.tr = tr

    async def drain(self, limit: int = 10_000) -> int:
        """Rate every game waiting, oldest first; how many this call rated.

        A game whose rating fails (a record that cannot be read, a bug) is set
        aside — logged as an error and counted in
        ``smuta_ratings_set_aside_total`` — so every game queued behind it is
        still rated. The store being unreachable sets nothing aside: the
        queue waits for it."""
        done = 0
        for _ in range(limit):
            head = await self.store.rating_head()
            if head is None:
                break
            try:
                rated = await self.rate_one(head)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("the rating of %s failed: set aside", head)
                if await self.store.set_aside_rating(head):
                    metrics.rating_set_aside()
                continue
            if rated:
                done += 1
        return done

    async def rate_one(self, head: str) -> bool:
        if await self.store.finish_rating(head):  # a commit cut short: its figures stored
            return True
        chat, _, game = head.partition(":")
        got = await self.store.game_at(int(chat), int(game))
        if got is None:  # nothing left to rate it by: let it go
            return await self.store.commit_rating(head, int(chat), [], [], [])
        record, commands = got
        analysis = analyse(record, commands)
        keys = [k for s in record.seats if (k := player_key(s)) is not None]
        overall = rate(record, analysis, await self.store.stats(None, keys))
        local = rate(record, analysis, await self.store.stats(record.chat_id, keys))
        users = sorted({int(p.key[1:]) for p in local if p.key.startswith("u")})
        return await self.store.commit_rating(head, record.chat_id, overall, local, users)

    # ------------------------------------------------------------------ /top, /stats
    def name_of(self, lang: str, p: PlayerStats) -> str:
        if p.key.startswith("c"):
            return self.tr.t(lang, "stats-computer", level=self.tr.t(lang, f"level-{p.key[1:]}"))
        # cleaned, isolated and escaped like every name the bot shows
        return html.escape(shown_name(p.name, self.tr.t(lang, "history-forgotten")), quote=False)

    def line(self, lang: str, place: int, p: PlayerStats) -> str:
        return self.tr.t(
            lang,
            "top-line",
            place=place,
            player=self.name_of(lang, p),
            rating=round(p.mu, 1),
            spread=round(2 * p.sigma, 1),
            games=p.games,
            wins=p.wins,
        )

    async def top(self, chat_id: int, lang: str, actor: Actor) -> str:
        await self.drain()
        everyone = sorted(
            (await self.store.stats(chat_id)).values(), key=lambda p: (-shown(p), p.key)
        )
        if not everyone:
            return self.tr.t(lang, "top-empty")
        lines = [self.tr.t(lang, "top-title")]
        lines += [self.line(lang, i, p) for i, p in enumerate(everyone[:TOP_LINES], 1)]
        mine = next((i for i, p in enumerate(everyone) if p.key == f"u{actor.user_id}"), None)
        if mine is not None and mine >= TOP_LINES:
            lines += ["…", self.line(lang, mine + 1, everyone[mine])]
        lines.append(self.tr.t(lang, "top-hint"))
        return "\n".join(lines)

    async def my_stats(self, actor: Actor, lang: str) -> Reply | str:
        await self.drain()
        key = f"u{actor.user_id}"
        overall = (await self.store.stats(None, [key])).get(key)
        if overall is None:
            return Reply("stats-none")
        t = self.tr.t
        lines = [t(lang, "stats-title"), self._figures(lang, overall)]
        for chat_id in sorted(await self.store.stat_chats(actor.user_id)):
            here = (await self.store.stats(chat_id, [key])).get(key)
            if here is None:
                continue
            games = await self.store.history(chat_id, 1)
            title = html.escape(games[0].title) if games and games[0].title else str(chat_id)
            lines += ["", t(lang, "stats-chat", chat=title), self._figures(lang, here)]
        if overall.smuta:
            best = max(overall.smuta.items(), key=lambda kv: (kv[1], kv[0]))
            worst = min(overall.smuta.items(), key=lambda kv: (kv[1], kv[0]))
            lines.append("")
            if best[1] > 0:
                lines.append(
                    t(lang, "stats-smuta-best", smuta=t(lang, f"card-{best[0]}"), n=best[1])
                )
            if worst[1] < 0:
                lines.append(
                    t(lang, "stats-smuta-worst", smuta=t(lang, f"card-{worst[0]}"), n=-worst[1])
                )
        return "\n".join(lines)

    def _figures(self, lang: str, p: PlayerStats) -> str:
        return self.tr.t(
            lang,
            "stats-figures",
            rating=round(p.mu, 1),
            spread=round(2 * p.sigma, 1),
            games=p.games,
            wins=p.wins,
            points=p.points,
            best=p.best,
        )
