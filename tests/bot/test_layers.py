"""bot/ is grouped by layer, and an import never goes the wrong way.

From the bottom: `ops` (metrics, logs, health) knows nothing of the bot;
`store` keeps records; `words` turns records and engine views into what people
read and press; `telegram` carries requests to Telegram; `service` plays the
game through the store and the words — and sends nothing: what it decides is
plain data; `telling` carries that out, through Telegram; `handlers` turn
Telegram updates into service calls and hand what they return to the
telling. The wiring at the top (`bot.app`, `bot.run`, `bot.webhook`,
`bot.config`, `bot.__main__`) may use any of them.

The test reads every module's imports (top-level and inside functions alike)
with `ast`, so a wrong-way import fails here instead of growing a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"

#: each layer and the layers it may import (itself always)
MAY_IMPORT: dict[str, set[str]] = {
    "ops": set(),
    "store": {"ops"},
    "words": {"store", "ops"},
    "telegram": {"words", "ops"},  # words: the plain keyboards it turns into markup
    # the service sends nothing (what it decides is plain data): no telegram
    "service": {"words", "store", "ops"},
    # the sending side: the service's effects carried out, through Telegram
    "telling": {"service", "words", "telegram", "store", "ops"},
    "handlers": {"telling", "service", "words", "telegram", "store", "ops"},
    # the Mini App's HTTP calls in, beside the handlers' Telegram updates (of
    # the handlers, only the courier: see WEBAPP_FROM_HANDLERS)
    # and never the store: it reads through the service (`bot.service.viewing`)
    "webapp": {"handlers", "service", "words", "ops"},
    "top": {
        "handlers",
        "webapp",
        "telling",
        "service",
        "words",
        "telegram",
        "store",
        "ops",
        "top",
    },
}


def module_name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 3 or (len(parts) == 2 and (BOT / parts[1]).is_dir()):
        return parts[1]
    return "top"


def bot_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(BOT.rglob("*.py"))}


def imports_of(path: Path, module: str) -> set[str]:
    """The bot modules `path` imports (``from bot.x import y`` counts `bot.x.y`
    when that is a module, else `bot.x`)."""
    known = bot_modules()
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "bot")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "bot":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m != "bot"}


def test_every_bot_module_sits_in_a_known_layer() -> None:
    layers = {layer_of(m) for m in bot_modules() if m != "bot"}
    assert layers <= set(MAY_IMPORT), (
        f"modules outside the known layers: {layers - set(MAY_IMPORT)}"
    )
    for package in set(MAY_IMPORT) - {"top"}:
        assert (BOT / package / "__init__.py").exists(), f"bot/{package}/ is a package"


@pytest.mark.parametrize("module", sorted(m for m in bot_modules() if m != "bot"))
def test_imports_go_down_the_layers(module: str) -> None:
    path = bot_modules()[module]
    mine = layer_of(module)
    wrong = sorted(
        target
        for target in imports_of(path, module)
        if layer_of(target) != mine and layer_of(target) not in MAY_IMPORT[mine]
    )
    assert not wrong, f"{module} ({mine}) imports {wrong}, a layer it may not use"


def test_no_two_bot_modules_import_each_other_in_a_cycle() -> None:
    modules = bot_modules()
    graph = {m: imports_of(p, m) & set(modules) for m, p in modules.items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if n.startswith(m + "."):  # a package importing its own modules
                continue
            if state.get(n) == 1:
                cycle = [*path[path.index(n) :], n]
                pytest.fail("import cycle: " + " → ".join(cycle))
            if n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_check_catches_a_wrong_way_import(tmp_path: Path) -> None:
    """The layer map itself: a store module importing the service is refused,
    a service module importing the store is not."""
    assert layer_of("bot.store.redis") == "store"
    assert layer_of("bot.service.games") == "service"
    assert layer_of("bot.app") == "top"
    assert "service" not in MAY_IMPORT["store"]
    assert "store" in MAY_IMPORT["service"]
    bad = tmp_path / "bad.py"
    bad.write_text("from bot.service.games import Games\n", encoding="utf-8")
    assert imports_of(bad, "bot.store.bad") == {"bot.service.games"}


#: the handlers that may use the store itself: the update-claim middleware
STORE_IN_HANDLERS = {"bot.handlers.once"}


def store_reads(source: str) -> list[str]:
    """Where `source` reaches through a `.store` to use it (``games.store.load``,
    ``self.store.user``): each as ``line: expression``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "store"
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


@pytest.mark.parametrize(
    "module",
    sorted(
        m
        for m in bot_modules()
        if layer_of(m) == "handlers" and m != "bot.handlers" and m not in STORE_IN_HANDLERS
    ),
)
def test_handlers_read_the_store_only_through_the_service(module: str) -> None:
    """A handler asks the service (`Games` and its parts), which owns the
    records; only the update-claim middleware (once) uses the store itself."""
    reads = store_reads(bot_modules()[module].read_text(encoding="utf-8"))
    assert not reads, f"{module} uses the store directly: {reads}"


@pytest.mark.parametrize("module", sorted(m for m in bot_modules() if layer_of(m) == "webapp"))
def test_the_mini_app_reads_the_store_only_through_the_service(module: str) -> None:
    """The app's answers and reads are the service's calls, as a button's are."""
    reads = store_reads(bot_modules()[module].read_text(encoding="utf-8"))
    assert not reads, f"{module} uses the store directly: {reads}"


def test_the_check_catches_a_handler_reading_the_store() -> None:
    source = "async def h(games):\n    return await games.store.load(1)\n"
    assert store_reads(source) == ["2: games.store.load"]
    assert store_reads("async def h(games):\n    return await games.lobby.load(1)\n") == []


# ---------------------------------------------------------------------- the tests' own
TESTS = BOT.parent / "tests"


def imported_test_modules(source: str, package: str) -> set[str]:
    """The test modules (``test_*``) `source` imports — ``from tests.x.test_y
    import z``, ``import tests.x.test_y``, ``from tests.x import test_y``,
    ``from .test_y import z`` (relative to `package`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "tests" and name.split(".")[-1].startswith("test_"):
                found.add(name)
    return found


def test_no_test_module_imports_another() -> None:
    """What tests share lives in helper modules (tests/bot/harness.py,
    tests/bot/helpers/, tests/engine/helpers.py …): a test module importing
    another runs that module's import-time work, ties the two together and
    collects its fixtures twice."""
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        package = ".".join(path.relative_to(BOT.parent).with_suffix("").parts[:-1])
        found = imported_test_modules(path.read_text(encoding="utf-8"), package)
        if found:
            offenders[str(path.relative_to(BOT.parent))] = sorted(found)
    assert not offenders, f"test modules imported by others: {offenders}"


def test_the_check_catches_a_test_module_imported() -> None:
    for source in (
        "from tests.bot.test_home import finish_quickly\n",
        "from tests.bot import test_faults\n",
        "import tests.engine.test_ai\n",
        "from .test_rematch import GROUP\n",
    ):
        assert imported_test_modules(source, "tests.bot"), source
    assert not imported_test_modules("from tests.bot.helpers.finishing import x\n", "tests.bot")
    assert not imported_test_modules("from tests.bot.harness import until\n", "tests.bot")


# ---------------------------------------------------------------------- Telegram stays out
def third_party_imports(source: str) -> set[str]:
    """The top-level packages `source` imports, outside bot/ and the standard library's own."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    "module", sorted(m for m in bot_modules() if layer_of(m) in {"service", "words"})
)
def test_the_service_and_its_words_build_no_telegram_types(module: str) -> None:
    """The service decides in plain data (`bot.words.screen`'s keyboards,
    `bot.service.outcome`'s effects); only the Telegram side and the handlers
    speak aiogram. (words/keyboards.py, the callback protocol, packs and
    parses it with aiogram's `CallbackData`: the one module of words that may.)"""
    if module == "bot.words.keyboards":
        return
    source = bot_modules()[module].read_text(encoding="utf-8")
    assert "aiogram" not in third_party_imports(source), f"{module} imports aiogram"


#: the one handlers module the Mini App uses: the courier its answers go through
WEBAPP_FROM_HANDLERS = {"bot.handlers.courier"}


@pytest.mark.parametrize("module", sorted(m for m in bot_modules() if layer_of(m) == "webapp"))
def test_the_mini_app_uses_of_the_handlers_only_the_courier(module: str) -> None:
    path = bot_modules()[module]
    used = {m for m in imports_of(path, module) if layer_of(m) == "handlers"}
    assert used <= WEBAPP_FROM_HANDLERS, f"{module} imports {used - WEBAPP_FROM_HANDLERS}"


def test_the_check_catches_aiogram_in_the_service() -> None:
    assert "aiogram" in third_party_imports("from aiogram.types import InlineKeyboardMarkup\n")
    assert "aiogram" in third_party_imports("def f():\n    import aiogram.types\n")
    assert "aiogram" not in third_party_imports("from bot.words.screen import Button\n")
