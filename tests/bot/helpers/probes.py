"""A probe run in a process of its own (logging and Sentry as configured at start)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the repository


#: the start of a probe: a process with Sentry set up as the bot sets it up,
#: whose events are kept in `events` instead of being sent
SENTRY_KEEPING_EVENTS = textwrap.dedent(
    """
    import json, logging, sys
    import sentry_sdk
    from bot.ops import logs

    events = []

    class Keep(sentry_sdk.Transport):
        def capture_envelope(self, envelope):
            event = envelope.get_event()
            if event is not None:
                events.append(event)

    assert logs.init_sentry("https://public@sentry.example.invalid/1", transport=Keep())
    logs.setup("INFO", "json")
    """
)


def run_probe(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`script` in a Python process of its own (Sentry hooks into logging for
    good), with no SENTRY_* setting of this machine's; fails unless it ends well."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY")}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done
