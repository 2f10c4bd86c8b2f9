"""`python -m bot`: check the settings, then run the bot (`bot.run`).

A setting that cannot work ends the process at once with exit code 2 and one
line per problem, naming the variable but never its value — before the
seconds it takes to load aiogram.
"""

from __future__ import annotations

import asyncio
import sys

from pydantic import ValidationError

from bot.config import Settings, describe


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as e:
        print(f"smuta: the settings are not valid:\n{describe(e)}", file=sys.stderr)
        return 2
    from bot.run import run

    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
