"""One way to tell: the service sends nothing.

Every command of the game service (`bot/service`) returns its effects as
plain data (`bot.service.outcome`); only the sending side (`bot/telling`)
carries them out — its `Carrier`, for the courier (presses, commands, the
Mini App) and the ticker (timers), the `Sender` a told change goes through,
each chat's outbox. So a new feature has one way to go: return an effect.

The test reads every module of `bot/service` with `ast` — none is an
exception — and fails on one that imports Telegram's side or the sending
side, names the messenger, the outboxes, the sender, the carrier or the
ticker at all, or touches one of the sender's sending methods (any of its
coroutines) through the teller. The service's `Teller` only lays screens
out: it has no coroutine.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.service.telling import Teller
from bot.telling.sender import Sender

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"

#: what sends: Telegram's requests, and the sending side
SENDING_PACKAGES = ("bot.telegram", "bot.telling")
#: names that are the sending side itself: a service module holds none of them
HOLDERS = {"messenger", "outboxes", "sender", "carrier", "ticker", "telling"}


def coroutines_of(cls: type) -> set[str]:
    return {name for name, member in inspect.getmembers(cls) if inspect.iscoroutinefunction(member)}


#: the sending a told change goes through (deliver, catch_up, finish, …)
SENDS = coroutines_of(Sender)


def service_modules() -> list[str]:
    return sorted(p.stem for p in SERVICE.glob("*.py"))


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
                else [node.module or ""]
            )
            found += [
                f"{where}: imports {m}"
                for m in modules
                if any(m == p or m.startswith(p + ".") for p in SENDING_PACKAGES)
            ]
        elif isinstance(node, ast.Attribute):
            chain = names_in(node)
            if chain and chain[-1] in HOLDERS:
                found.append(f"{where}: {'.'.join(chain)}")
            elif {"teller", "sender"} & set(chain[:-1]) and chain[-1] in SENDS:
                found.append(f"{where}: {'.'.join(chain)} (the sender's sending)")
        elif isinstance(node, ast.Name | ast.arg):
            name = node.id if isinstance(node, ast.Name) else node.arg
            if name in HOLDERS:
                found.append(f"{where}: {name}")
    return sorted(set(found))


def test_what_sends_is_known() -> None:
    """The sender's sending is what this test looks for; the service's teller
    has none of it."""
    assert {"deliver", "catch_up", "finish", "send_prompt", "drop_prompts"} <= SENDS
    assert coroutines_of(Teller) == set(), "the service's Teller sends"
    assert {"lay_out", "prompt", "hand_text"} <= set(dir(Teller))


@pytest.mark.parametrize("module", service_modules())
def test_a_service_module_sends_nothing_itself(module: str) -> None:
    source = (SERVICE / f"{module}.py").read_text(encoding="utf-8")
    assert sends_in(source) == [], (
        f"bot/service/{module}.py sends by itself: return an effect "
        "(bot.service.outcome) for the courier or the ticker to carry out"
    )


@pytest.mark.parametrize(
    "line",
    [
        "self.outboxes.show(chat_id, LOBBY)",
        "self.teller.outboxes.fix(chat_id, LOBBY, text, or_post=True)",
        "await self.messenger.send(user_id, text, markup)",
        "await self.games.messenger.send_file(user_id, name, data, caption)",
        "await self.teller.deliver(tell)",
        "await self.teller.catch_up(table, ids, decision)",
        "await self.sender.finish(table)",
        "send = self.teller.send_prompt",
        "await self.carrier.carry_out(effects)",
        "from bot.telegram.messenger import Messenger",
        "from bot.telling.outbox import Outboxes",
        "from bot.telling import Telling",
        "import bot.telegram.messenger",
        "def __init__(self, outboxes: object) -> None: ...",
    ],
)
def test_the_check_catches_a_service_module_that_sends(line: str) -> None:
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
