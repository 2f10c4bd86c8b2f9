"""`python -m bot.ops.probe [healthz|readyz]`: ask this container's bot for its
health — the Docker ``HEALTHCHECK`` and the compose healthcheck.

Exit 0 when ``/healthz`` (default) or ``/readyz`` answers 200 on
``HEALTH_HOST:HEALTH_PORT`` (a wildcard host is asked on 127.0.0.1), else 1
with the reason on stderr. Standard library only: it starts in a blink and
loads none of the bot.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

WILDCARDS = ("", "0.0.0.0", "::", "[::]")


def url(check: str, environ: dict[str, str] | os._Environ[str] = os.environ) -> str:
    host = environ.get("HEALTH_HOST", "127.0.0.1").strip()
    if host in WILDCARDS:
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    port = environ.get("HEALTH_PORT", "8081").strip() or "8081"
    return f"http://{host}:{port}/{check}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = args[0] if args else "healthz"
    if check not in ("healthz", "readyz"):
        print("usage: python -m bot.ops.probe [healthz|readyz]", file=sys.stderr)
        return 2
    target = url(check)
    try:
        with urllib.request.urlopen(target, timeout=4) as response:
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as e:
        print(f"{target}: {e.code} {e.read().decode(errors='replace')}", file=sys.stderr)
    except (urllib.error.URLError, OSError) as e:
        print(f"{target}: {e}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
