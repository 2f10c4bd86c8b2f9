"""Who calls the app's API: the Web App's ``initData``, checked.

Every call carries the ``initData`` Telegram gave the page (header
``Authorization: tma <initData>``). aiogram's `safe_parse_webapp_init_data`
checks its signature (an HMAC keyed by the bot's token: only Telegram can make
one); then its ``auth_date`` may be no older than ``WEBAPP_AUTH_MAX_AGE``
seconds (nor more than a minute in the future), so a copied ``initData`` stops
working. Nothing of the data is logged.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.utils.web_app import safe_parse_webapp_init_data

SCHEME = "tma "
#: clocks differ a little: an auth_date this far ahead of ours is still taken
CLOCK_SKEW = 60.0


class Denied(Exception):
    """The call is not from a Telegram user we can trust (why: in the message,
    never the data)."""


@dataclass(frozen=True)
class Caller:
    user_id: int
    name: str
    lang_code: str | None


def caller_of(token: str, header: str | None, now: float, max_age: float) -> Caller:
    """The user an ``Authorization`` header's ``initData`` vouches for; `Denied`
    when it is missing, forged or tampered with, too old, or names no user."""
    if not header or not header.startswith(SCHEME):
        raise Denied("no initData")
    try:
        data = safe_parse_webapp_init_data(token, header[len(SCHEME) :])
    except (ValueError, TypeError):  # a bad signature, or data that is no initData
        raise Denied("initData not signed by Telegram") from None
    age = now - data.auth_date.timestamp()
    if age > max_age or age < -CLOCK_SKEW:
        raise Denied("initData expired")
    user = data.user
    if user is None:
        raise Denied("initData names no user")
    name = " ".join(x for x in (user.first_name, user.last_name) if x)
    return Caller(user_id=user.id, name=name, lang_code=user.language_code)
