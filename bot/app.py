"""Wiring: settings → bot, store, services, dispatcher; and the commands menu."""

from __future__ import annotations

import dataclasses
import gc
import logging
import time
from dataclasses import dataclass

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.config import Settings
from bot.handlers.admission import Admission
from bot.handlers.courier import Courier
from bot.handlers.dispatcher import build_dispatcher
from bot.handlers.observe import UpdateObserver
from bot.ops import metrics
from bot.service.games import Clock, Defaults, Games
from bot.service.reviews import GAME_CPU
from bot.service.thinking import Thinker
from bot.store import Store
from bot.store.delivery import lease_for
from bot.store.feed import Feed, feed_for
from bot.store.memory import MemoryStore
from bot.telegram.call_policy import CallPolicy, install
from bot.telegram.markup import menu_button_of
from bot.telegram.membership import Membership
from bot.telegram.messenger import Messenger
from bot.telegram.pace import Pace
from bot.telling import Telling
from bot.telling.timers import Ticker
from bot.webapp.server import WebApp
from bot.words.app import AppLinks
from bot.words.i18n import LANGS, Translator

log = logging.getLogger(__name__)

GROUP_COMMANDS = (
    "newgame",
    "join",
    "leave",
    "go",
    "stop",
    "table",
    "back",
    "settings",
    "top",
    "history",
    "notify",
    "rules",
    "help",
    "card",
    "cards",
)
PRIVATE_COMMANDS = (
    "start",
    "hand",
    "games",
    "learn",
    "practice",
    "back",
    "away",
    "lang",
    "settings",
    "stats",
    "replay",
    "forgetme",
    "rules",
    "help",
    "card",
    "cards",
)


#: a private chat's menu names these with a text of its own (/settings there is the person's own)
PRIVATE_DESCRIPTIONS = {"settings": "cmd-my-settings"}


class SystemClock:
    def now(self) -> float:
        return time.time()


def make_bot(settings: Settings) -> Bot:
    session = None
    if settings.bot_api_url:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True),
    )


def make_store(settings: Settings) -> Store:
    store: Store
    if settings.redis_sentinels:
        from bot.store.redis import RedisStore

        store = RedisStore.from_sentinels(
            settings.redis_sentinels,
            settings.redis_sentinel_master,
            settings.redis_url,
            wait_replicas=settings.wait_replicas,
            wait_ms=settings.redis_wait_ms,
        )
    elif settings.redis_url and settings.redis_cluster:
        from bot.store.redis import RedisStore

        store = RedisStore.from_cluster(
            settings.redis_url,
            wait_replicas=settings.wait_replicas,
            wait_ms=settings.redis_wait_ms,
        )
    elif settings.redis_url:
        from bot.store.redis import RedisStore

        store = RedisStore.from_url(
            settings.redis_url,
            wait_replicas=settings.wait_replicas,
            wait_ms=settings.redis_wait_ms,
        )
    else:
        log.warning("REDIS_URL is not set: games live in this process only")
        store = MemoryStore()
    store.lobby_ttl = round(settings.lobby_ttl_hours * 3600)
    store.finished_ttl = round(settings.finished_ttl_hours * 3600)
    store.playing_ttl = round(settings.playing_ttl_hours * 3600)
    return store


@dataclass
class App:
    bot: Bot
    store: Store
    games: Games
    telling: Telling  # what the service decided, carried out: the outboxes, the carrier
    dispatcher: Dispatcher
    ticker: Ticker
    observer: UpdateObserver
    admission: Admission  # how many updates are handled at once; what is shed
    policy: CallPolicy
    webapp: WebApp | None = None  # the Mini App (WEBAPP_URL)
    feed: Feed | None = None  # the process's one subscriber to saves (outboxes, Mini App)

    async def close_feed(self) -> None:
        if self.feed is not None:
            await self.feed.close()


def build_app(
    bot: Bot,
    store: Store,
    defaults: Defaults,
    clock: Clock | None = None,
    tr: Translator | None = None,
    pace: Pace | None = None,
    thinker: Thinker | None = None,
    app_links: AppLinks | None = None,
    webapp_auth_max_age: float = 24 * 3600,
    update_lease: float = lease_for(8.0),
    review_cpu: float = GAME_CPU,
) -> App:
    """Everything one bot process runs; with `app_links`, the Mini App too.
    `update_lease`: how long an update being handled is held (`bot.store.delivery`).
    `review_cpu`: the CPU seconds a game's reviews may take (0: no reviews)."""
    tr = tr or Translator()
    pace = pace or Pace()
    # every request, the routers' replies too, goes through one policy
    policy = install(bot.session, CallPolicy(pace))

    async def username() -> str:
        me = await bot.me()
        return me.username or ""

    # getChatMember's answers (who is a member, who an admin), kept a while
    membership = Membership(bot, clock=(clock or SystemClock()).now)
    # one subscriber to the store's saves, for the outboxes and the Mini App alike
    feed: Feed | None
    try:
        feed = feed_for(store)
    except TypeError:  # a store whose saves cannot be heard of (a wrapper): none
        feed = None
    if app_links is not None:
        # the app's links learn the bot's username on first use (the group's link names it)
        app_links = dataclasses.replace(app_links, learn=username)
    games = Games(
        store=store,
        tr=tr,
        clock=clock or SystemClock(),
        bot_username=username,
        is_admin=membership.is_admin,
        is_member=membership.is_member,
        defaults=defaults,
        thinker=thinker,
        app=app_links,
        feed=feed,
        review_cpu=review_cpu,
    )
    # the sending side: what the service decides, carried out (it sends nothing itself)
    telling = Telling(games, Messenger(bot), pace, feed)
    courier = Courier.of(telling, tr)  # the dispatcher's and the Mini App's alike
    webapp = None
    if app_links is not None:
        webapp = WebApp(
            games,
            tr,
            bot.token,
            membership.is_member,  # fails closed: one Telegram cannot vouch for sees nothing
            webapp_auth_max_age,
            feed=feed,
            clock=(clock or SystemClock()).now,
            courier=courier,
        )
    # every update: its log context, its metrics, and the count a shutdown drains
    observer = UpdateObserver()
    admission = Admission(tr)
    dispatcher = build_dispatcher(games, tr, courier, observer, admission, update_lease)
    # every Bot API request: errors by kind (innermost, so each attempt counts)
    metrics.count_telegram_errors(bot)
    ticker = Ticker(games, telling.carrier)
    return App(
        bot, store, games, telling, dispatcher, ticker, observer, admission, policy, webapp, feed
    )


def freeze_startup_objects() -> None:
    """Exempt everything built at start-up (aiogram's hundreds of models, the
    texts, the card tables: some 200,000 objects) from the garbage collector's
    full passes: each of those would otherwise walk them all and stall every
    chat for 100 ms or more. What a game creates later is still collected."""
    gc.collect()
    gc.freeze()


async def register_commands(bot: Bot, tr: Translator) -> None:
    """The commands menu for groups and private chats, in each language. Optional:
    a server that refuses it (a self-hosted one, say) is logged, not fatal."""
    for scope, names, own in (
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS, {}),
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS, PRIVATE_DESCRIPTIONS),
    ):
        for lang in (None, *LANGS):
            commands = [
                BotCommand(command=n, description=tr.t(lang or "ru", own.get(n, f"cmd-{n}")))
                for n in names
            ]
            try:
                await bot.set_my_commands(commands, scope=scope, language_code=lang)
            except Exception as e:  # any refusal of an optional call
                log.warning("could not set the commands menu (%s): %s", lang, e)


async def register_menu_button(bot: Bot, app_links: AppLinks, tr: Translator, lang: str) -> None:
    """The Mini App as every private chat's menu button (until /start sets the
    person's own, in their language). Optional, like the commands menu."""
    try:
        await bot.set_chat_menu_button(menu_button=menu_button_of(app_links.menu_button(tr, lang)))
    except Exception as e:  # any refusal of an optional call
        log.warning("could not set the menu button: %s", e)
