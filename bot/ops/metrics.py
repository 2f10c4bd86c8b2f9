"""Prometheus metrics: every metric object of the bot, in one registry (`REGISTRY`).

Served at ``/metrics`` on the health port (`bot.ops.health`), documented with a
sample scrape config in ``deploy/README.md``. Labels stay few and impersonal:
kinds, outcomes, Telegram method names, a game's status — never a chat, user
or game id.

Call the small helpers below rather than the objects, so the label values
stay within their known sets. aiogram is imported only where a Telegram call
is counted: the picture worker (a process of its own) imports this module to
count its drawings, and loading aiogram would be seconds of its start.

==========================================  =============================================
metric                                      recorded by
==========================================  =============================================
``smuta_update_seconds{kind}``              `bot.handlers.observe.UpdateObserver` (every update)
``smuta_updates_total{kind,outcome}``       `bot.handlers.observe.UpdateObserver`
``smuta_updates_in_flight``                 `bot.handlers.observe.UpdateObserver`
``smuta_telegram_errors_total{method,kind}``  `TelegramErrors`, a bot-session middleware
``smuta_cas_conflicts_total``               the stores, when a compare-and-set save loses
``smuta_redis_wait_timeouts_total``         `wait_timed_out` — the Redis store, when a save's
                                            WAIT for its replicas timed out
``smuta_redis_saves_withdrawn_total``       `save_withdrawn` — the Redis store, when the
                                            sentinels did not vouch for a save's primary
``smuta_games{status}``                     `bot.ops.health` from the store, when scraped
``smuta_ready``                             `bot.ops.health`, at each readiness check
``smuta_pace_wait_seconds{chat}``           `pace_waited` — called by the outbound pace
``smuta_timer_lateness_seconds``            `timer_fired` — called by the timers
``smuta_computer_moves_total{why}``         `computer_moved` — called by the play service
``smuta_outbox_dropped_total{why}``         `outbox_dropped` — called by the groups' outboxes
``smuta_updates_redelivered_total``         `update_redelivered` — `bot.handlers.once`
``smuta_updates_taken_over_total``          `update_taken_over` — `bot.handlers.once`
``smuta_ratings_set_aside_total``           `rating_set_aside` — the ratings service
``smuta_updates_shed_total{why}``           `update_shed` — `bot.handlers.admission` and
                                            `bot.handlers.ordering`, past capacity
==========================================  =============================================
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
    from aiogram.methods import Response, TelegramMethod
    from aiogram.methods.base import TelegramType

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes…
PlatformCollector(registry=REGISTRY)  # python_info
GCCollector(registry=REGISTRY)  # python_gc_*

# an update can wait for its chat's pace (a group gets ~20 messages a minute)
_SLOW = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

UPDATE_SECONDS = Histogram(
    "smuta_update_seconds",
    "Time to handle one Telegram update, by update kind (message, callback_query, …)",
    ["kind"],
    buckets=_SLOW,
    registry=REGISTRY,
)
UPDATES = Counter(
    "smuta_updates",
    "Updates handled, by kind and outcome (handled, unhandled: no handler wanted it, error)",
    ["kind", "outcome"],
    registry=REGISTRY,
)
UPDATES_IN_FLIGHT = Gauge(
    "smuta_updates_in_flight",
    "Updates being handled right now",
    registry=REGISTRY,
)
TELEGRAM_ERRORS = Counter(
    "smuta_telegram_errors",
    "Errors Telegram answered (or the network gave) per request attempt, by Bot API "
    "method and kind: retry_after (429), server (5xx), network, forbidden (403), "
    "not_modified, bad_request (other 400), not_found, migrated, other",
    ["method", "kind"],
    registry=REGISTRY,
)
PACE_WAIT_SECONDS = Histogram(
    "smuta_pace_wait_seconds",
    "Time a request waited for its slot in the outbound pace, by chat type (group, private)",
    ["chat"],
    buckets=(0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0),
    registry=REGISTRY,
)
CAS_CONFLICTS = Counter(
    "smuta_cas_conflicts",
    "Compare-and-set saves that lost the race (another update or process saved first)",
    registry=REGISTRY,
)
WAIT_TIMEOUTS = Counter(
    "smuta_redis_wait_timeouts",
    "Saves whose WAIT for their replicas fell short (REDIS_WAIT_MS): the sentinels asked",
    registry=REGISTRY,
)
SAVES_WITHDRAWN = Counter(
    "smuta_redis_saves_withdrawn",
    "Saves on a primary the sentinels did not vouch for: answered as not saved",
    registry=REGISTRY,
)
TIMER_LATENESS_SECONDS = Histogram(
    "smuta_timer_lateness_seconds",
    "How long after its due time a timer (reminder, deadline, computer move) fired",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
    registry=REGISTRY,
)
REVIEW_SECONDS = Histogram(
    "smuta_review_seconds",
    "Time to make one person's review of their game and its chart, off the event loop, "
    "waiting for the after-game worker included",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
    registry=REGISTRY,
)
REVIEWS_SKIPPED = Counter(
    "smuta_reviews_skipped_total",
    "Reviews skipped: a game's, when too many games waited for theirs; the rest of a "
    "game's, when its CPU budget was spent",
    registry=REGISTRY,
)
PICTURE_SECONDS = Histogram(
    "smuta_picture_seconds",
    "Time to draw a game's picture (the result's, /table photo's), off the event loop, "
    "waiting for the drawing thread included",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
    registry=REGISTRY,
)
COMPUTER_MOVES = Counter(
    "smuta_computer_moves",
    "Decisions the computer answered: for a computer seat, or for a person whose time ran out",
    ["why"],
    registry=REGISTRY,
)
OUTBOX_DROPPED = Counter(
    "smuta_outbox_dropped",
    "Replies to a group's commands its outbox dropped before sending: same (an identical "
    "reply waits), newer (the same person's newer reply took its place), full (the oldest "
    "of more than the outbox keeps)",
    ["why"],
    registry=REGISTRY,
)
GAMES = Gauge(
    "smuta_games",
    "Games in the store by status (lobby, playing); the same figure on every replica",
    ["status"],
    registry=REGISTRY,
)
READY = Gauge(
    "smuta_ready",
    "1 when the last readiness check passed (the store answers, the timers tick), else 0",
    registry=REGISTRY,
)

UPDATES_REDELIVERED = Counter(
    "smuta_updates_redelivered",
    "Updates Telegram delivered again after they were handled (ignored)",
    registry=REGISTRY,
)
UPDATES_SHED = Counter(
    "smuta_updates_shed",
    "Presses answered «overloaded, press again» instead of handled: queue (the wait for a "
    "turn would have been too long), late (it was), chat (too many of the chat's updates "
    "already waiting)",
    ["why"],
    registry=REGISTRY,
)
UPDATES_TAKEN_OVER = Counter(
    "smuta_updates_taken_over",
    "Updates handled after the lease of a handling that never finished ran out "
    "(its process was killed): Telegram's redelivery, handled once",
    registry=REGISTRY,
)
RATINGS_SET_ASIDE = Counter(
    "smuta_ratings_set_aside",
    "Finished games whose rating failed: set aside so the others are rated (an error)",
    registry=REGISTRY,
)

UPDATE_KINDS = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "message_reaction",
        "message_reaction_count",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
GAME_STATUSES = ("lobby", "playing")
Outcome = Literal["handled", "unhandled", "error"]
Why = Literal["computer", "timeout"]


# ====================================================================== helpers
@functools.cache
def _child(metric: Any, *labels: str) -> Any:
    """A labelled metric's child, found once: `labels()` validates and locks
    on every call, and the update path counts a few a press. (Bounded: every
    label here comes from a fixed set.)"""
    return metric.labels(*labels)


def update_handled(kind: str, seconds: float, outcome: Outcome) -> None:
    kind = kind if kind in UPDATE_KINDS else "other"
    _child(UPDATE_SECONDS, kind).observe(seconds)
    _child(UPDATES, kind, outcome).inc()


def error_kind(error: BaseException) -> str:
    """The `kind` label of a failed Telegram request."""
    from aiogram.exceptions import (
        TelegramBadRequest,
        TelegramConflictError,
        TelegramEntityTooLarge,
        TelegramForbiddenError,
        TelegramMigrateToChat,
        TelegramNetworkError,
        TelegramNotFound,
        TelegramRetryAfter,
        TelegramServerError,
        TelegramUnauthorizedError,
    )

    if isinstance(error, TelegramRetryAfter):
        return "retry_after"
    if isinstance(error, TelegramServerError):
        return "server"
    if isinstance(error, TelegramNetworkError | TimeoutError | OSError):
        return "network"
    if isinstance(error, TelegramForbiddenError):
        return "forbidden"
    if isinstance(error, TelegramMigrateToChat):
        return "migrated"
    if isinstance(error, TelegramBadRequest):
        return "not_modified" if "not modified" in error.message else "bad_request"
    if isinstance(error, TelegramNotFound):
        return "not_found"
    if isinstance(error, TelegramEntityTooLarge):
        return "too_large"
    if isinstance(error, TelegramConflictError):
        return "conflict"
    if isinstance(error, TelegramUnauthorizedError):
        return "unauthorized"
    return "other"


def telegram_error(method: str | TelegramMethod[Any], error: BaseException) -> None:
    """Count one failed Telegram request (one attempt: a retried request that
    fails twice counts twice)."""
    name = method if isinstance(method, str) else method.__api_method__
    TELEGRAM_ERRORS.labels(name, error_kind(error)).inc()


def pace_waited(seconds: float, chat_id: int) -> None:
    """A request waited `seconds` (0 when it went at once) for its slot in the
    outbound pace."""
    _child(PACE_WAIT_SECONDS, "group" if chat_id < 0 else "private").observe(max(0.0, seconds))


def cas_conflict() -> None:
    CAS_CONFLICTS.inc()


def wait_timed_out() -> None:
    """A save was made but fewer replicas than REDIS_WAIT_REPLICAS confirmed
    it within REDIS_WAIT_MS: the sentinels are asked about its primary (told
    only if they vouch for it, `save_withdrawn` if not)."""
    WAIT_TIMEOUTS.inc()


def save_withdrawn() -> None:
    """A save landed on a primary the sentinels did not vouch for (being failed
    over): the person was told it was not saved."""
    SAVES_WITHDRAWN.inc()


def timer_fired(lateness: float) -> None:
    """A timer fired `lateness` seconds after the moment it was due."""
    TIMER_LATENESS_SECONDS.observe(max(0.0, lateness))


def review_made(seconds: float) -> None:
    REVIEW_SECONDS.observe(seconds)


def review_skipped() -> None:
    REVIEWS_SKIPPED.inc()


def picture_drawn(seconds: float) -> None:
    PICTURE_SECONDS.observe(seconds)


def computer_moved(why: Why) -> None:
    """The computer answered a decision: ``computer`` for a computer seat (one
    added in the lobby, or a person's seat handed over), ``timeout`` for a
    person whose time ran out."""
    COMPUTER_MOVES.labels(why).inc()


DropWhy = Literal["same", "newer", "full"]


def outbox_dropped(why: DropWhy) -> None:
    """A group's outbox dropped a command's reply before sending it."""
    OUTBOX_DROPPED.labels(why).inc()


def update_redelivered() -> None:
    UPDATES_REDELIVERED.inc()


ShedWhy = Literal["queue", "late", "chat"]


def update_shed(why: ShedWhy) -> None:
    """A press was answered «overloaded» instead of handled."""
    UPDATES_SHED.labels(why).inc()


def update_taken_over() -> None:
    UPDATES_TAKEN_OVER.inc()


def rating_set_aside() -> None:
    RATINGS_SET_ASIDE.inc()


def set_games(counts: Mapping[str, int]) -> None:
    for status in GAME_STATUSES:
        GAMES.labels(status).set(counts.get(status, 0))


def set_ready(ready: bool) -> None:
    READY.set(1 if ready else 0)


# ====================================================================== Telegram calls
class TelegramErrors:
    """Counts every error a Bot API request meets. Registered last on the bot's
    session (innermost), so it sees each attempt, retried ones included: an
    aiogram request middleware (a callable of its signature)."""

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        from aiogram.exceptions import TelegramAPIError

        try:
            return await make_request(bot, method)
        except (TelegramAPIError, TimeoutError, OSError) as e:
            telegram_error(method, e)
            raise


def count_telegram_errors(bot: Bot) -> None:
    """Register `TelegramErrors` on the bot's session once (a session that
    serves several apps, as in tests, counts each error once)."""
    if not any(isinstance(m, TelegramErrors) for m in bot.session.middleware):
        bot.session.middleware(TelegramErrors())


def sample(name: str, labels: Mapping[str, str] | None = None) -> float:
    """The current value of one sample (0 when it has none yet): for tests and
    the load script."""
    value = REGISTRY.get_sample_value(name, dict(labels or {}))
    return 0.0 if value is None else value
