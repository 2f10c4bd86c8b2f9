"""Every word the bot shows exists in both languages, formats cleanly and fits Telegram.

The keys are collected from the code itself, so a new event, decision, option,
command or bot text without its message fails here:

- bot code: string literals passed to ``t(…)`` / ``Reply(…)`` / ``Refusal(…)``,
  and every literal of a key family (``btn-…``, ``err-…``, …) however it travels;
- the engine: every ``emit("…")`` key → ``event-…``, every ``Ask(seat, "…")``
  kind → ``prompt-…``, every refusal reason → ``err-…``;
- the catalogue: card types, смуты, castles, colours, /card topics, commands.

Then every message is formatted with plausible values (each selector through
its variants), and a few computer games are rendered end to end in both
languages with the real `Renderer`.
"""

from __future__ import annotations

import ast
import html
import itertools
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import get_args

import pytest

from bot.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.service import lessons
from bot.store.models import Seat, Table
from bot.words.help import (
    HOUSE_TYPES,
    ORDER_TYPES,
    SMUTA_TYPES,
    TOPICS,
    card_text,
    find_card,
    rules_args,
    topic_name,
)
from bot.words.i18n import LANGS, Translator
from bot.words.render import EXTRA, LANDS_ON, SEAT_PARAMS, Renderer, event_key
from engine import GameSetup, apply, new_game, pending
from engine.ai import LEVELS
from engine.ai.easy import choose
from engine.ai.hint import REASONS as HINT_REASONS
from engine.cards import COLOURS
from engine.state import End, Side
from tests.bot.helpers.locales import (
    all_texts,
    formatted,
    messages,
    parsed,
    samples,
    translator,
)

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
ENGINE = ROOT / "engine"

#: the option words of the engine's decisions (engine/turn.py, characters.py, orders.py, smuty/)
OPTION_WORDS = (
    "draw",
    "order",
    "lay",
    "play",
    "discard",
    "build",
    "end",
    "skip",
    "pass",
    "done",
    *get_args(End),
    *get_args(Side),
    "here",
)
#: literals in bot code that name a message of one of these families
KEY_FAMILIES = (
    "about",
    "app",
    "ask",
    "back",
    "bot",
    "btn",
    "card",
    "castle",
    "cmd",
    "colour",
    "err",
    "event",
    "game",
    "hand",
    "help",
    "hint",
    "lang",
    "lobby",
    "log",
    "opt",
    "practice",
    "private",
    "prompt",
    "rematch",
    "result",
    "rows",
    "rules",
    "stop",
    "table",
    "why",
    # a chat's home (bot/service/profile.py, ratings.py, history.py, notify.py)
    "settings",
    "variant",
    "top",
    "stats",
    "history",
    "replay",
    "notify",
    "forgetme",
    # after a game: its picture, each player's review (bot/words/picture.py, review.py)
    "picture",
    "review",
)
#: prefixes the bot completes at run time; each is checked against its source below
DYNAMIC_PREFIXES = frozenset(
    {"about-", "card-", "castle-", "cmd-", "colour-", "err-", "event-", "opt-", "prompt-"}
    | {"table-castle-", "level-", "btn-add-", "hint-reason-", "did-", "you-", "smuta-does-"}
    | {"tutor-"}
)
ALLOWED_TAGS = frozenset({"b", "i", "u", "s", "a", "code", "pre"})
CALLBACK_ALERT_MAX = 200
MESSAGE_MAX = 4096
RULES_MAX = 4000
COMMAND_DESCRIPTION_MAX = 256
BUTTON_MAX = 40


def kebab(key: str) -> str:
    return key.replace(".", "-").replace("_", "-")


# ====================================================================== the FTL files


# ====================================================================== keys in bot code
def _py(root: Path) -> Iterator[tuple[Path, str, ast.Module]]:
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        yield path, text, ast.parse(text)


T_CALL = re.compile(r"\bt\(\s*[^,()\"]+,\s*\"([^\"{}]+)\"\s*[,)]")
REPLY_CALL = re.compile(r"\b(?:Reply|Refusal)\(\s*\"([^\"{}]+)\"\s*[,)]")
FAMILY_KEY = re.compile(rf"^(?:{'|'.join(KEY_FAMILIES)})(?:-[a-z0-9]+)+$")


@dataclass
class BotKeys:
    used: set[str] = field(default_factory=set)
    #: key → variables offered at each `t(lang, "key", **vars)` call site
    offered: dict[str, list[set[str]]] = field(default_factory=dict)
    #: keys sent as a Reply (shown as text, maybe in a callback alert: no variables)
    replies: set[str] = field(default_factory=set)
    #: prefixes of keys built at run time (f"card-{…}", "opt-" + …)
    prefixes: set[str] = field(default_factory=set)


@cache
def bot_keys() -> BotKeys:
    keys = BotKeys()
    for _path, text, tree in _py(BOT):
        keys.used |= set(T_CALL.findall(text))
        found = set(REPLY_CALL.findall(text))
        keys.used |= found
        keys.replies |= found
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                first = node.args[1] if name == "t" and len(node.args) >= 2 else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    offered = {k.arg for k in node.keywords if k.arg is not None}
                    keys.offered.setdefault(first.value, []).append(offered)
                    keys.used.add(first.value)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if FAMILY_KEY.match(node.value):
                    keys.used.add(node.value)
                elif re.fullmatch(r"[a-z]+(?:-[a-z]+)*-", node.value):
                    keys.prefixes.add(node.value)
            if isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                if isinstance(head, ast.Constant) and str(head.value).endswith("-"):
                    keys.prefixes.add(str(head.value))
    return keys


# ====================================================================== keys in the engine
@dataclass
class EngineKeys:
    #: event key → the parameter names of each emit site
    events: dict[str, list[set[str]]] = field(default_factory=dict)
    #: decision kind → the parameter names of each Ask site
    asks: dict[str, list[set[str]]] = field(default_factory=dict)
    reasons: set[str] = field(default_factory=set)
    dynamic: list[str] = field(default_factory=list)  # emit/Ask sites without a literal key
    ask_calls: int = 0
    ask_texts: int = 0


def _literals(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


@cache
def engine_keys() -> EngineKeys:
    keys = EngineKeys()
    for path, text, tree in _py(ENGINE):
        keys.ask_texts += len(re.findall(r"\bAsk\(", text))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(func, ast.Attribute) and func.attr == "emit" and node.args:
                names = _literals(node.args[0])
                if names is None:
                    keys.dynamic.append(where)
                    continue
                params = {k.arg for k in node.keywords if k.arg and k.arg != "audience"}
                for name in names:
                    keys.events.setdefault(name, []).append(params)
            elif isinstance(func, ast.Name) and func.id == "Ask":
                keys.ask_calls += 1
                kind = node.args[1] if len(node.args) >= 2 else None
                names = _literals(kind) if kind is not None else None
                if names is None:
                    keys.dynamic.append(where)
                    continue
                given = node.args[3] if len(node.args) >= 4 else None
                given = given or next((k.value for k in node.keywords if k.arg == "params"), None)
                asked: set[str] = set()
                if isinstance(given, ast.Dict):
                    asked = {str(k.value) for k in given.keys if isinstance(k, ast.Constant)}
                for name in names:
                    keys.asks.setdefault(name, []).append(asked)
            elif isinstance(func, ast.Name) and func.id == "Refused" and node.args:
                reason = _literals(node.args[0])
                if reason is not None:
                    keys.reasons |= set(reason)
    return keys


#: variables `Renderer.event` adds to some events beyond their parameters (its `EXTRA`,
#: the cause of a kill, what a смута does)
DERIVED = {"card.killed": {"cause"}, "drought.flipped": {"from"}, "smuta.start": {"does"}}
#: the numbers of the game's `Rules` that /card and /rules texts get (`bot.words.help.rules_args`)
RULES_VARIABLES = frozenset(rules_args())


def render_variables(params: Iterable[str]) -> set[str]:
    """The Fluent variables `Renderer.event_args` makes of an event's or decision's params:
    besides them, every event gets ``$me`` (which of its seats the reader is) and ``$own``."""
    out: set[str] = {"me", "own"}
    for key in params:
        if key in SEAT_PARAMS:
            out.add(SEAT_PARAMS[key])
        elif key == "card":
            out |= {"card", "card_acc", "card_dat"}
        elif key == "cards":
            out |= {"cards", "n"}
        elif key == "seats":
            out.add("players")
        elif key in ("scores", "castles", "winners"):
            continue
        else:
            out.add(key)
    return out


# ====================================================================== what must exist
def event_messages() -> dict[str, set[str]]:
    """event-<key> → the variables every emit site of the key can fill."""
    assert set(EXTRA) <= set(DERIVED), "a variable Renderer.event adds is not known here"
    return {
        event_key(k): set.intersection(*(render_variables(p) for p in sites))
        | DERIVED.get(k, set())
        for k, sites in engine_keys().events.items()
    }


def prompt_messages() -> dict[str, set[str]]:
    return {
        "prompt-" + kebab(kind): set.intersection(*(render_variables(p) for p in sites))
        for kind, sites in engine_keys().asks.items()
    }


def told_messages() -> dict[str, set[str]]:
    """What a person is told in private beyond the events' own messages: what
    was taken from them or landed on them (``you-<event>``, with the event's
    variables), how an answer is named in their story (``did-<decision>``,
    with the decision's),
    and what a смута does (``smuta-does-<смута>``, with the game's numbers)."""
    events = event_messages()
    told = {"you-" + kebab(key): events[event_key(key)] for key in LANDS_ON}
    asks = prompt_messages()
    told |= {"did-" + kebab(kind): asks["prompt-" + kebab(kind)] for kind in engine_keys().asks}
    del told["did-action"]  # a turn's action names itself
    told |= {"smuta-does-" + kebab(smuta): set(RULES_VARIABLES) for smuta in SMUTA_TYPES}
    return told


def catalogue_messages() -> set[str]:
    """Messages without variables that the bot builds from names and ids."""
    names = {f"card-{t}" for t in (*HOUSE_TYPES, *ORDER_TYPES, *SMUTA_TYPES)}
    names |= {f"about-{t}" for t in TOPICS}
    names |= {f"castle-{c}" for c in COLOURS} | {f"colour-{c}" for c in COLOURS}
    names |= {"opt-" + kebab(w) for w in OPTION_WORDS}
    names |= {"cmd-" + c for c in (*GROUP_COMMANDS, *PRIVATE_COMMANDS)}
    names |= {"err-" + kebab(r) for r in engine_keys().reasons}
    names |= {"table-castle-" + kebab(s) for s in get_args(Side)}
    names |= {f"level-{level}" for level in LEVELS} | {f"btn-add-{level}" for level in LEVELS}
    names |= {"hint-reason-" + kebab(r) for r in HINT_REASONS}
    names |= {"tutor-" + s for s in (*lessons.STEPS, lessons.SMUTA, lessons.OWN)}
    names |= {"tutor-" + lessons.smuta_step(s) for s in lessons.SMUTY}
    return names


def required() -> set[str]:
    return (
        {k.split(".")[0] for k in bot_keys().used}
        | set(event_messages())
        | set(prompt_messages())
        | set(told_messages())
        | catalogue_messages()
    )


# ====================================================================== sample values


TAG = re.compile(r"<(/?)([a-z]+)(?:\s+href=\"[^\"<>]*\")?\s*>")
ENTITY = re.compile(r"&(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


def html_problem(text: str) -> str | None:
    """Why Telegram's HTML parser would refuse `text`, or None."""
    stack: list[str] = []
    for match in TAG.finditer(text):
        closing, tag = match.groups()
        if tag not in ALLOWED_TAGS:
            return f"tag <{tag}> is not allowed"
        if not closing:
            stack.append(tag)
        elif not stack or stack.pop() != tag:
            return f"</{tag}> closes nothing"
    if stack:
        return f"<{stack[-1]}> is not closed"
    rest = ENTITY.sub("", TAG.sub("", text))
    for ch in "<>&":
        if ch in rest:
            return f"a bare {ch!r} (write {html.escape(ch)})"
    return None


# ====================================================================== the tests
@pytest.mark.parametrize("lang", LANGS)
def test_files_parse_without_junk_or_duplicates(lang: str) -> None:
    _, errors, twice = parsed(lang)
    assert not errors, "\n".join(errors)
    assert not twice, f"defined twice: {twice}"


def test_both_languages_define_the_same_messages_and_attributes() -> None:
    ru, en = messages("ru"), messages("en")
    assert sorted(set(ru) - set(en)) == [], "only in ru"
    assert sorted(set(en) - set(ru)) == [], "only in en"
    differ = [k for k in ru if ru[k].attributes != en[k].attributes]
    assert not differ, f"attributes differ: {differ}"


def test_collectors_find_what_they_should() -> None:
    """The scans are not silently empty, and every emit / Ask has a literal key."""
    engine = engine_keys()
    assert not engine.dynamic, f"emit/Ask without a literal key: {engine.dynamic}"
    assert engine.ask_calls == engine.ask_texts, "an Ask( call was not parsed"
    assert "action" in engine.asks and "house_end" in engine.asks
    assert {"deck.drew_smuta", "deck.drew.private", "seat.computer", "seat.human"} <= set(
        engine.events
    )
    regex_events: set[str] = set()
    regex_asks: set[str] = set()
    for _path, text, _tree in _py(ENGINE):
        regex_events |= set(re.findall(r"emit\(\n?\s*\"([^\"]+)\"", text))
        regex_asks |= set(re.findall(r"\bAsk\(\s*[^,()]+,\s*\"([^\"]+)\"", text))
    assert regex_events <= set(engine.events)
    assert regex_asks <= set(engine.asks)  # the AST also sees Ask(round_seat(g, f), "…")
    assert {"game_over", "no_decision", "stale_decision", "not_your_decision"} <= engine.reasons
    bot = bot_keys()
    assert {"welcome", "rules-text", "lobby-joined", "btn-join", "table-title"} <= bot.used
    unknown = bot.prefixes - DYNAMIC_PREFIXES
    assert not unknown, f"bot code builds keys from new prefixes {unknown}: cover them here"


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_bot_and_engine_use_exists(lang: str) -> None:
    defined = messages(lang)
    missing = sorted(required() - set(defined))
    assert not missing, f"{lang}: missing {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_cards_have_their_cases(lang: str) -> None:
    defined = messages(lang)
    lacking = [
        t
        for t in (*HOUSE_TYPES, *ORDER_TYPES)
        if not {"acc", "dat"} <= defined[f"card-{t}"].attributes
    ]
    assert not lacking, f"{lang}: card-<type> without .acc/.dat: {lacking}"
    for t in (*HOUSE_TYPES, *ORDER_TYPES, *SMUTA_TYPES):
        for case in ("", ".acc", ".dat"):
            if case and case[1:] not in defined[f"card-{t}"].attributes:
                continue
            text, errors = formatted(lang, f"card-{t}{case}", {})
            assert text.strip() and not errors


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_used(lang: str) -> None:
    """No stale or misspelt message lingers (a typo would also leave one missing)."""
    extra = sorted(set(messages(lang)) - required())
    assert not extra, f"{lang}: messages nobody uses: {extra}"


@pytest.mark.parametrize("lang", LANGS)
def test_messages_use_only_the_variables_they_get(lang: str) -> None:
    defined = messages(lang)
    offered: dict[str, set[str]] = {}

    def offer(key: str, variables: set[str]) -> None:
        """A key used in several places may use only what every place gives."""
        offered[key] = offered[key] & variables if key in offered else set(variables)

    for key, variables in (
        *event_messages().items(),
        *prompt_messages().items(),
        *told_messages().items(),
    ):
        offer(key, variables)
    hint_reasons = {"hint-reason-" + kebab(r): set(p) for r, p in HINT_REASONS.items()}
    for key in catalogue_messages():
        # /card texts get the game's numbers, a house card its points (bot.words.help.card_text)
        if key.startswith("about-"):
            offer(key, set(RULES_VARIABLES) | {"points"})
        elif key.startswith("tutor-"):  # a step names its card (Prompts.tutor_lines)
            offer(key, set(RULES_VARIABLES) | {"card", "card_acc"})
        else:
            # a hint's reason gets the parameters engine.ai.hint gives it
            offer(key, hint_reasons.get(key, set()))
    bot = bot_keys()
    for key in bot.replies:
        offer(key, set())  # say() and answer_callback() format a Reply's key bare
    for key, sites in bot.offered.items():
        for variables in sites:
            if key in ("rules-text", "rules-cards", "rules-short", "about-smuta-turn"):
                # they get **rules_args(rules) too
                variables = variables | RULES_VARIABLES
            offer(key, variables)
    # games.py `_stop(table, key, by=…)` formats its key with player=
    for key in ("stop-done", "stop-everyone-left"):
        offer(key, {"player"})
    wrong = {
        key: sorted(defined[key].variables - given)
        for key, given in offered.items()
        if key in defined and defined[key].variables - given
    }
    assert not wrong, f"{lang}: variables nobody passes: {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_formats_without_errors(lang: str) -> None:
    problems = []
    for name, entry in sorted(messages(lang).items()):
        for key in (name, *(f"{name}.{a}" for a in sorted(entry.attributes))):
            for args in samples(entry):
                text, errors = formatted(lang, key, args)
                if errors:
                    problems.append(f"{key} {args}: {errors}")
                elif not text.strip():
                    problems.append(f"{key} {args}: empty")
                elif "{" in text or "}" in text:
                    problems.append(f"{key} {args}: unresolved {text!r}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("lang", LANGS)
def test_html_is_well_formed_and_fits_a_message(lang: str) -> None:
    problems = []
    for key, text in all_texts(lang):
        why = html_problem(text)
        if why:
            problems.append(f"{key}: {why}: {text[:80]!r}")
        if len(text) >= MESSAGE_MAX:
            problems.append(f"{key}: {len(text)} characters")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("lang", LANGS)
def test_lengths(lang: str) -> None:
    defined = messages(lang)
    rules, _ = formatted(lang, "rules-text", {**rules_args(), "points": "Лорд, Миледи — 3"})
    assert len(rules) < RULES_MAX, f"rules-text has {len(rules)} characters"
    alerts = {k for k in defined if k.startswith("err-")} | bot_keys().replies
    names = {k for k in catalogue_messages() if k.startswith(("card-", "castle-", "colour-"))}
    for key, text in all_texts(lang):
        name = key.split(".")[0]
        if name in alerts:
            assert len(text) < CALLBACK_ALERT_MAX, f"{key}: {len(text)} characters: {text}"
        if name.startswith("cmd-"):
            assert 3 <= len(text) <= COMMAND_DESCRIPTION_MAX, f"{key}: {text!r}"
            assert "<" not in text and ">" not in text, f"{key} is plain text: {text!r}"
        if name in names or name.startswith(("btn-", "opt-")) or name == "bot-name":
            assert len(text) <= BUTTON_MAX, f"{key} is long for a button: {text!r}"
            assert "<" not in text and "&" not in text, f"{key} is plain text: {text!r}"


def test_card_search_finds_every_topic_by_its_own_name() -> None:
    tr = translator()
    for topic in TOPICS:
        for lang in LANGS:
            name = topic_name(tr, lang, topic)
            assert find_card(tr, name) == topic, f"/card {name} ({lang})"
            assert card_text(tr, lang, topic).count("<b>") >= 1


# ====================================================================== whole games
class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


def _table(players: int, lang: str) -> Table:
    names = ["Аня", "Bob <the builder>", "Ваня & Co", "Dana", "Эрик", "Фёкла"]
    return Table(
        chat_id=-100,
        game_no=1,
        title="Группа <тест> & co",
        creator_id=1,
        lang=lang,
        seats=[Seat(user_id=i + 1, name=names[i]) for i in range(players)],
    )


def _check(text: str, where: str, problems: list[str]) -> None:
    why = html_problem(text)
    if why:
        problems.append(f"{where}: {why}: {text[:100]!r}")
    if re.search(r"(?:^|\s)(?:event|prompt|opt|card|table|colour|castle)-[a-z-]+", text):
        problems.append(f"{where}: a bare key in {text[:100]!r}")


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 5), (4, 7), (5, 3), (6, 2)])
def test_computer_games_render_cleanly_in_both_languages(players: int, seed: int) -> None:
    """Every event, prompt, option, table and result of real games, in ru and en."""
    renderer = Renderer(translator())
    errors = _Errors()
    i18n_log = logging.getLogger("bot.words.i18n")
    i18n_log.addHandler(errors)
    problems: list[str] = []
    seen_events: set[str] = set()
    try:
        state, events = new_game(GameSetup(players=players, seed=seed))
        tables = {lang: _table(players, lang) for lang in LANGS}
        for step in itertools.count():
            for lang, table in tables.items():
                for line in renderer.public_lines(table, state, events):
                    _check(line, f"{lang} public", problems)
                for seat in range(players):
                    for line in renderer.private_lines(lang, table, state, events, seat):
                        _check(line, f"{lang} private", problems)
                seen_events |= {e.key for e in events}
                if step % 25 == 0:
                    _check(renderer.table(table, state, ["…"]), f"{lang} table", problems)
            decision = pending(state)
            if decision is None:
                break
            for lang, table in tables.items():
                _check(renderer.prompt(lang, table, state, decision), decision.kind, problems)
                for part in {p for option in decision.options for p in option}:
                    label = renderer.option_part(lang, table, state, part)
                    if not label.strip() or label.startswith(("opt-", "colour-", "card-")):
                        problems.append(f"{lang} option {part!r} → {label!r}")
            events = apply(state, decision.seat, decision.id, choose(state.seed, decision))
        for lang, table in tables.items():
            _check(renderer.result(table, state), f"{lang} result", problems)
            _check(renderer.header(lang, table), f"{lang} header", problems)
            for seat in range(players):
                _check(renderer.hand(lang, table, state, seat), f"{lang} hand", problems)
    finally:
        i18n_log.removeHandler(errors)
    assert not errors.records, "\n".join(errors.records[:20])
    assert not problems, "\n".join(problems[:20])
    assert {"turn.start", "smuta.start"} <= seen_events


def test_kept_texts_follow_their_arguments() -> None:
    """Formatted texts are kept for reuse: the same key with other arguments
    (a number that picks another plural form, another language) is its own text,
    and an argument that cannot be kept (a list, which Fluent cannot show
    either) still gives the rest of the line instead of an exception."""
    tr = Translator()
    one = tr.t("ru", "hand-title", n=1)
    assert one != tr.t("ru", "hand-title", n=5)
    assert tr.t("en", "hand-title", n=5) != tr.t("ru", "hand-title", n=5)
    # kept, and as formatted afresh
    assert tr.t("ru", "hand-title", n=1) == one == tr._uncached("ru", "hand-title", (("n", 1),))
    listed = tr.t("en", "table-castles", castles=["🔴", "🔵"])
    assert listed.startswith("🏰 castles in supply")
