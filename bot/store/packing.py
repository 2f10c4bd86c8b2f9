"""What a finished game keeps for good, packed small: its command log, each
command a short JSON array (``[seat, decision − the previous one, option,
computer]``: decisions mostly follow each other, so the difference is mostly
1), zlib-compressed — a 3-player game's 14 KB of JSON lines become ~0.9 KB;
its record without the fields that hold their defaults (the rules, most often).

A packed log is text (``z:`` and the compressed bytes in base85), so a Redis
client that decodes responses reads it too; a log kept before packing (plain
JSON lines) is still read as it is.

A running game's log is kept a line a command, appended by each save: a
tight array too (`log_line`: ``[seat, decision, option]``, ``computer``
fourth when set), ~20 B where the command's JSON object is ~55 — the log was
most of what a game waiting on its deadline keeps (issue 40: a game at own
pace waits for hours; `benchmarks.waiting`). A line saved before, the JSON
object, reads all the same (`command_of`); a bot from before reads no tight
line, so its processes are replaced together, not one by one beside it.

Both stores also read and rewrite the JSON they hold with the same two
functions: who sits in a chat's record (`seated_users`), and a finished
game's record with a person made nameless (`without_user`, for /forgetme).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Sequence
from typing import Any

from bot.store.models import GameRecord, Table
from engine import Command

_PACKED = "z:"
_TIGHT: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}


def log_line(command: Command) -> str:
    """A command as a running game's log keeps it: ``[seat, decision, option]``,
    with ``computer`` fourth when it is set (a seat handed over)."""
    row = [command.seat, command.decision, command.option]
    if command.computer is not None:
        row.append(command.computer)
    return json.dumps(row, **_TIGHT)


def command_of(line: str | bytes) -> Command:
    """A line of a running game's log: `log_line`'s array, or (saved before
    it) the command's JSON object."""
    if line[:1] not in ("[", b"["):
        return Command.model_validate_json(line)
    seat, decision, option, *computer = json.loads(line)
    return Command(
        seat=seat,
        decision=decision,
        option=None if option is None else tuple(option),
        computer=computer[0] if computer else None,
    )


def pack_log(lines: Sequence[str]) -> str:
    """A game's command log (its lines, oldest first: `log_line`'s, or JSON
    objects saved before) as the history keeps it."""
    rows = []
    last = 0
    for line in lines:
        command = command_of(line)
        step = None
        if command.decision is not None:
            step, last = command.decision - last, command.decision
        rows.append(json.dumps([command.seat, step, command.option, command.computer], **_TIGHT))
    raw = "\n".join(rows).encode()
    return _PACKED + base64.b85encode(zlib.compress(raw, 9)).decode("ascii")


def unpack_log(kept: str) -> list[Command]:
    """The commands of a log `pack_log` packed (or one kept before packing)."""
    if not kept.startswith(_PACKED):
        return [command_of(line) for line in kept.splitlines() if line]
    commands = []
    last = 0
    for row in zlib.decompress(base64.b85decode(kept[len(_PACKED) :])).decode().splitlines():
        seat, step, option, computer = json.loads(row)
        decision = None
        if step is not None:
            decision = last = last + step
        commands.append(
            Command(
                seat=seat,
                decision=decision,
                option=None if option is None else tuple(option),
                computer=computer,
            )
        )
    return commands


def record_json(record: GameRecord) -> str:
    """A history record as kept: what differs from the defaults (read back whole)."""
    return record.model_dump_json(exclude_defaults=True)


__all__ = ["command_of", "log_line", "pack_log", "record_json", "unpack_log"]


# ====================================================================== a stored record
# read or rewritten where it is kept: both stores use these on the JSON they hold


def seated_users(data: str | bytes | None) -> list[int]:
    """User ids of every seat in a stored chat record (JSON), empty when there is none."""
    if data is None:
        return []
    table = Table.from_json(data)
    return sorted({s.user_id for s in table.seats if s.user_id is not None})


def without_user(raw: str, user_id: int) -> str | None:
    """A finished game's record (JSON) with the user's seats made nameless
    (/forgetme), or None when the user sat in none of them."""
    record = GameRecord.model_validate_json(raw)
    hit = False
    for seat in record.seats:
        if seat.user_id == user_id:
            seat.user_id, seat.name, hit = None, "", True
    return record_json(record) if hit else None
