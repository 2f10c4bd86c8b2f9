"""The page as it is served: one HTML response with its style and script in it.

``static/`` keeps them apart (``index.html`` links ``app.css``,
``boot.js`` and ``app.js``); at start they are put into the page, so a phone
fetches one document and then only the game's state — and ``boot.js`` asks
for that state at once, with the initData Telegram puts in the page's address,
while Telegram's own script (deferred) is still on its way. The
Content-Security-Policy still allows no inline code but these
blocks, named by their SHA-256 hashes: no ``'unsafe-inline'``, no ``eval``,
scripts from Telegram (``telegram-web-app.js``) and nowhere else, and calls
to this server only.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
from dataclasses import dataclass
from importlib.resources import files

STYLE_LINK = '<link rel="stylesheet" href="app.css">'
#: the page's own scripts, each put where its tag is (boot.js first, in the
#: head; app.js at the end of the body, where a deferred script would run)
BOOT_TAG = '<script src="boot.js"></script>'
APP_TAG = '<script src="app.js" defer></script>'
#: what every response of the app carries
BASE_CSP = (
    "default-src 'none'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    # Telegram Web shows a Mini App in a frame; the phone apps in a web view
    "frame-ancestors https://web.telegram.org https://*.telegram.org",
)
API_CSP = "; ".join(BASE_CSP)


def static(name: str) -> str:
    return files("bot.webapp").joinpath("static", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


@dataclass(frozen=True)
class Page:
    html: bytes
    gzipped: bytes
    csp: str
    etag: str


def build_page() -> Page:
    """``index.html`` with ``app.css`` and ``app.js`` in it, and its CSP."""
    html, css = static("index.html"), static("app.css")
    boot, js = static("boot.js"), static("app.js")
    if any(tag not in html for tag in (STYLE_LINK, BOOT_TAG, APP_TAG)):
        raise ValueError("index.html no longer links app.css, boot.js, app.js as expected")
    if "</style" in css or "</script" in boot + js:
        raise ValueError("a style or script would end its own inline block")
    html = html.replace(STYLE_LINK, f"<style>{css}</style>")
    html = html.replace(BOOT_TAG, f"<script>{boot}</script>")
    html = html.replace(APP_TAG, "")
    html = html.replace("</body>", f"<script>{js}</script>\n</body>")
    csp = "; ".join(
        (
            BASE_CSP[0],
            f"script-src https://telegram.org {_hash(boot)} {_hash(js)}",
            f"style-src {_hash(css)}",
            *BASE_CSP[1:],
        )
    )
    body = html.encode()
    return Page(
        html=body,
        gzipped=gzip.compress(body, compresslevel=9, mtime=0),
        csp=csp,
        etag='"' + hashlib.sha256(body).hexdigest()[:16] + '"',
    )
