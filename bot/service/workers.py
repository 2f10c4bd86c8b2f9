"""The bot's worker processes (computers' searches, pictures), which end
with the bot.

A `ProcessPoolExecutor` worker waits on its call queue, and under `spawn`
it holds a write end of that queue itself, so it never sees the bot's end
close: a bot killed with SIGKILL (or out of memory) left its workers running
for good, holding the bot's stdout and stderr open — whoever waited for the
bot's output to end (a supervisor, a test) waited forever. Each worker here
checks once a second that the process that started it is still its parent,
and exits when it is not.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor

ORPHAN_CHECK_SECONDS = 1.0


def _exit_when_orphaned(parent: int) -> None:
    def watch() -> None:
        while not stopped.wait(ORPHAN_CHECK_SECONDS):
            if os.getppid() != parent:
                os._exit(0)

    stopped = threading.Event()
    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """`workers` processes started clean (spawn: no copy of the bot's sockets
    and threads, as fork would give them), each ending when the bot ends."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_when_orphaned,
        initargs=(os.getpid(),),
    )
