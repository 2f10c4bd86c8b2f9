"""One way to tell: a service command sends nothing itself.

Every command of the game service returns its effects as plain data
(`bot.service.outcome`); only the sending side carries them out — the
`Carrier` (`bot.service.carrying`), for the courier (presses, commands, the
Mini App) and the ticker (timers), the teller it hands a told change to, and
each chat's outbox. So a new feature has one way to go: return an effect.

The test reads every module of `bot/service` with `ast` and fails on a
command module that imports the sending side (Telegram's messenger, the
outboxes, the carrier, the ticker), names the messenger, the outboxes or the
carrier at all, or touches one of the teller's sending methods — any
coroutine of `Teller`: the teller's own screens (`lay_out`, `prompt`, …) are
plain functions a command may use.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.service.telling import Teller

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"

#: the sending side, and the wiring that builds it (`Games`)
SENDING = {"carrying", "telling", "outbox", "timers", "games"}
#: modules a command module may not import: what sends, and whatever carries
SENDERS = {
    "bot.telegram.messenger",
    "bot.service.outbox",
    "bot.service.carrying",
    "bot.service.timers",
}
#: names that are the sending side itself: a command module holds none of them
HOLDERS = {"messenger", "outboxes", "carrier", "ticker"}
#: the teller's sending: its coroutines (deliver, catch_up, finish, …)
TELLER_SENDS = {
    name for name, member in inspect.getmembers(Teller) if inspect.iscoroutinefunction(member)
}


def command_modules() -> list[str]:
    return sorted(p.stem for p in SERVICE.glob("*.py") if p.stem not in SENDING)


def names_in(node: ast.expr) -> list[str]:
    """The names along an attribute chain: ``self.teller.deliver`` →
    [self, teller, deliver]."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return names[::-1]


def sends_in(source: str) -> list[str]:
    """Where `source` (a module's text) sends, or holds what sends: one line each."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            )
            found += [f"{where}: imports {m}" for m in modules if m in SENDERS]
        elif isinstance(node, ast.Attribute):
            chain = names_in(node)
            if chain and chain[-1] in HOLDERS:
                found.append(f"{where}: {'.'.join(chain)}")
            elif "teller" in chain[:-1] and chain[-1] in TELLER_SENDS:
                found.append(f"{where}: {'.'.join(chain)} (the teller's sending)")
        elif isinstance(node, ast.Name | ast.arg):
            name = node.id if isinstance(node, ast.Name) else node.arg
            if name in HOLDERS:
                found.append(f"{where}: {name}")
    return sorted(set(found))


def test_the_sending_side_is_what_the_service_has() -> None:
    """The exceptions are modules that exist (a renamed one is not silently
    walked as a command module), and the teller's sending is known."""
    assert {p.stem for p in SERVICE.glob("*.py")} >= SENDING
    assert {"deliver", "catch_up", "finish", "send_prompt", "drop_prompts"} <= TELLER_SENDS
    assert not {"lay_out", "prompt", "hand_text"} & TELLER_SENDS


@pytest.mark.parametrize("module", command_modules())
def test_a_service_command_sends_nothing_itself(module: str) -> None:
    source = (SERVICE / f"{module}.py").read_text(encoding="utf-8")
    assert sends_in(source) == [], (
        f"bot/service/{module}.py sends by itself: return an effect "
        "(bot.service.outcome) for the courier or the ticker to carry out"
    )


@pytest.mark.parametrize(
    "line",
    [
        "self.outboxes.show(chat_id, LOBBY)",
        "self.outboxes.fix(chat_id, LOBBY, text, or_post=True)",
        "await self.messenger.send(user_id, text, markup)",
        "await self.messenger.send_file(user_id, name, data, caption)",
        "await self.teller.deliver(tell)",
        "await self.teller.catch_up(table, ids, decision)",
        "await self.teller.finish(table)",
        "send = self.teller.send_prompt",
        "await self.games.carrier.carry_out(effects)",
        "from bot.telegram.messenger import Messenger",
        "from bot.service.outbox import Outboxes",
        "def __init__(self, outboxes: Outboxes) -> None: ...",
    ],
)
def test_the_check_catches_a_command_that_sends(line: str) -> None:
    assert sends_in(line) != []


def test_the_check_lets_a_command_lay_out_its_screens() -> None:
    source = "\n".join(
        [
            "from bot.service.telling import Teller",
            "told = self.teller.lay_out(table, ids, answered)",
            "screen = self.teller.prompt(table, decision, ids)",
            "text = self.teller.hand_text(table, seat)",
            "return Reply('ok', effects=(told,))",
        ]
    )
    assert sends_in(source) == []
