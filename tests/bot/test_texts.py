"""What a newcomer reads: the table on a phone, the words of the log and the
private lines, players' names, /card and /cards, and the rules as the bot
tells them — with the numbers of the game being played.

Pure rendering: positions come from `engine.scenario`, texts from the real
`Renderer` and `bot.words.help` over the real locales (the bot's own handlers for
/card, /cards and /rules are driven through the dispatcher at the end).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from functools import cache
from typing import Any

import pytest

import bot.words.help
from bot.store.models import Seat, Table
from bot.words.help import (
    CASTLES,
    HOUSE_TYPES,
    QUERY_MAX,
    SMUTA_TYPES,
    TOPICS,
    card_reply,
    card_text,
    cards_text,
    lookup,
    rules_text,
    topic_name,
)
from bot.words.i18n import LANGS, Translator
from bot.words.names import FSI, NAME_MAX, PDI, clean_name, shown_name
from bot.words.render import LINE_MAX, TABLE_MAX_LINES, Renderer, kill_causes
from bot.words.shape import plain, visible_len
from engine import DEFAULT_RULES, Event, GameState, Rules, pending
from engine.cards import catalog_for
from engine.scenario import build, play
from engine.state import Result
from tests.bot.harness import Harness, people
from tests.bot.helpers.texts import LONG_NAMES

TABLE_MAX_CHARS = 1200


@cache
def tr() -> Translator:
    return Translator()


def renderer() -> Renderer:
    return Renderer(tr())


def seated(names: list[str], lang: str = "ru") -> Table:
    return Table(
        chat_id=-100,
        game_no=1,
        title="Группа",
        creator_id=1,
        lang=lang,  # type: ignore[arg-type]
        seats=[Seat(user_id=i + 1, name=n) for i, n in enumerate(names)],
    )


def card_of(state: GameState, kind: str, nth: int = 0) -> str:
    """The instance id of the `nth` card of `kind` that is in play in `state`."""
    ids = [c for c in catalog_for(state.rules).by_type_key[kind] if c not in state.box]
    return ids[nth]


# ====================================================================== the table


def crowded_table() -> GameState:
    """Six players, every one with three or four houses, castles, every pile in use."""
    return build(
        {
            "players": [
                {
                    "hand": ["page.blue", "ball"],
                    "houses": [
                        {
                            "colour": "red",
                            "cards": ["lord.red", "knight.red", "page.red", "servant.red.blue"],
                            "castle": "permanent",
                        },
                        {"colour": "blue", "cards": ["lady.blue", "page.blue"]},
                        {"colour": "green", "cards": ["healer.green"]},
                        {"colour": "orange", "cards": ["lord.orange", "treasurer.orange"]},
                    ],
                },
                {
                    "hand": ["merchant.red"],
                    "houses": [
                        {
                            "colour": "blue",
                            "cards": ["lord.blue", "knight.blue", "alchemist.blue", "page.green"],
                            "castle": "one_time",
                        },
                        {"colour": "orange", "cards": ["page.orange", "spy.orange"]},
                        {"colour": "red", "cards": ["jester.red"]},
                    ],
                },
                {
                    "hand": ["page.orange", "marriage", "healer.blue"],
                    "houses": [
                        {
                            "colour": "green",
                            "cards": ["lord.green", "knight.green", "minstrel.green"],
                            "castle": "permanent",
                        },
                        {"colour": "red", "cards": ["lady.red", "mercenary.red"]},
                        {"colour": "blue", "cards": ["priest.blue"]},
                        {"colour": "orange", "cards": ["knight.orange"]},
                    ],
                },
                {
                    "houses": [
                        {"colour": "orange", "cards": ["lady.orange", "priest.orange"]},
                        {"colour": "green", "cards": ["lady.green", "servant.green.orange"]},
                        {"colour": "red", "cards": ["page.red", "healer.red"]},
                    ]
                },
                {
                    "hand": ["infirmary"],
                    "houses": [
                        {"colour": "red", "cards": ["lord.red", "alchemist.red"]},
                        {"colour": "green", "cards": ["jester.green", "mercenary.green"]},
                        {"colour": "blue", "cards": ["spy.blue", "servant.blue.green"]},
                        {"colour": "orange", "cards": ["minstrel.orange"]},
                    ],
                },
                {
                    "hand": ["lord.green"],
                    "houses": [
                        {"colour": "blue", "cards": ["lord.blue", "treasurer.blue"]},
                        {"colour": "orange", "cards": ["healer.orange", "alchemist.orange"]},
                        {"colour": "green", "cards": ["treasurer.green", "priest.green"]},
                    ],
                },
            ],
            "deck": ["conspiracy", "feast", "page.green"],
            "deck_top_open": True,
            "orders": ["ball", "marriage"],
            "graveyard": ["plague.red", "harlot.blue"],
            "orders_discard": ["infirmary", "ball"],
            "smuta_discard": ["poison", "drought"],
            "prophet_stack": ["grail", "prophet"],
            "current": 2,
            "actions_left": 2,
        }
    )


def long_log(table: Table, state: GameState) -> list[str]:
    """A turn's twelve latest lines, naming the long-named players."""
    r = renderer()
    knight = card_of(state, "knight.red")
    events = [
        Event(key="conspiracy.gave", params={"seat": i % 6, "card": knight, "target": (i + 1) % 6})
        for i in range(12)
    ]
    return r.public_lines(table, state, events)


@pytest.mark.parametrize("lang", LANGS)
def test_six_players_with_32_character_names_fit_a_phone(lang: str) -> None:
    """Six players with 32-character names, 21 houses, castles, every pile, a
    full log: at most 20 lines and 1,200 characters, none over 60 (as Telegram
    shows them: tags left out); each player named once, their houses left →
    right on the next line (each house's cards while there is room, else how
    many); the piles as a count and their top card; the latest log line last."""
    assert all(len(n) == NAME_MAX for n in LONG_NAMES)
    state = crowded_table()
    table = seated(LONG_NAMES, lang)
    log = long_log(table, state)
    assert len(log) == 12
    text = renderer().table(table, state, log)
    lines = text.split("\n")
    shown = plain(text)
    assert len(lines) <= TABLE_MAX_LINES == 20, text
    assert len(shown) <= TABLE_MAX_CHARS, len(shown)
    widest = max(lines, key=visible_len)
    assert visible_len(widest) <= LINE_MAX == 60, widest
    # the latest log line ends the table (wrapped to fit)
    assert " ".join(plain(text).split()).endswith(" ".join(plain(log[-1]).split()))

    status = text.split("\n\n")[0].split("\n")
    colour = {"red": "🔴", "blue": "🔵", "green": "🟢", "orange": "🟠"}
    for seat, player in enumerate(state.players):
        name = renderer().name(lang, table, seat)
        at = [i for i, line in enumerate(status) if name in line]
        assert len(at) == 1, f"{name} named {len(at)} times"
        row = next(line for line in status[at[0] + 1 :] if line.startswith("  "))
        houses = row.strip().split(" · ")
        assert [h[0] for h in houses] == [colour[h.colour] for h in player.houses], row
        for house, h in zip(houses, player.houses, strict=True):
            cards = house.split(" ", 1)[1]
            count = tr().t(lang, "table-house-count", n=len(h.cards))
            assert cards == count or len(cards.split(", ")) == len(h.cards), house
    # the current player is marked, with their actions
    current = renderer().name(lang, table, state.current)
    assert next(line for line in status if current in line).startswith("▶️ ")
    # piles: a count and the top card, never the whole pile (the orders'
    # discard, which never comes back into play, only its count)
    piles = "\n".join(line for line in status if "✋" not in line and not line.startswith(" "))
    r = renderer()
    assert r.card(lang, state, state.graveyard[0]) in piles
    assert r.card(lang, state, state.orders_discard[0]) not in piles
    assert r.card(lang, state, state.smuta_discard[0]) in piles
    assert r.card(lang, state, state.smuta_discard[1]) not in piles
    assert "🏰♾️" in text and "🏰⚡" in text
    # the signs are explained once, in /rules, not on every table
    assert "⬅️" not in text and "<i>" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_full_table_shows_every_house_and_its_end(lang: str) -> None:
    """`/table full`: each row left → right, one line a house with all its
    cards, its end marked."""
    state = crowded_table()
    table = seated(LONG_NAMES, lang)
    text = renderer().full_table(table, state)
    lines = text.split("\n")
    for seat, player in enumerate(state.players):
        name = renderer().name(lang, table, seat)
        at = next(i for i, line in enumerate(lines) if name in line and "✋" in line)
        rows = lines[at + 1 : at + 1 + len(player.houses)]
        ends = [line.split()[0] for line in rows]
        assert ends[0] == "⬅️" and ends[-1] == "➡️", rows
        assert all(e == "▫️" for e in ends[1:-1]), rows
        colours = [line.split()[1][0] for line in rows]
        assert colours == [
            {"red": "🔴", "blue": "🔵", "green": "🟢", "orange": "🟠"}[h.colour]
            for h in player.houses
        ]
        for row, h in zip(rows, player.houses, strict=True):
            assert len(row.split(" ", 4)[4].split(", ")) == len(h.cards), row
    r = renderer()
    assert r.cards(lang, state, state.prophet_stack) in text


def test_a_single_house_is_both_ends_and_the_chooser_is_marked() -> None:
    state = build(
        {
            "players": [
                {"hand": ["harlot.blue"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            ],
            "deck": ["page.orange"],
        }
    )
    play(state, "lay", "harlot.blue", "1")  # into the opponent's row: they choose the end
    decision = pending(state)
    assert decision is not None and decision.seat == 1
    table = seated(["Аня", "Борис"])
    assert any(
        line.startswith("  ↔️ 🔴") for line in renderer().full_table(table, state).split("\n")
    )
    for lines in (
        renderer().table(table, state, []).split("\n"),
        renderer().full_table(table, state).split("\n"),
    ):
        anna = next(line for line in lines if "Аня" in line and "✋" in line)
        boris = next(line for line in lines if "Борис" in line and "✋" in line)
        assert anna.startswith("▶️ ") and "💭" not in anna
        assert "💭" in boris and not boris.startswith("▶️")


def test_distinct_things_have_distinct_emoji() -> None:
    """No two смуты share an emoji, and none is the table's sign for something else."""
    for lang in LANGS:
        signs = [topic_name(tr(), lang, s).split()[0] for s in SMUTA_TYPES]
        assert len(set(signs)) == len(signs), signs
        table_signs = {"🎴", "📜", "⚰️", "🗑", "🌀", "✋", "⭐", "▶️", "💭", "🏰", "⚡", "♾️"}
        assert not table_signs & set(signs) - {"🔮"}, signs
        assert "🃏" not in tr().t(lang, "hand-title", n=3)
        rules = rules_text(tr(), lang)
        for sign in ("🎴", "📜", "⚰️", "🗑", "🌀", "✋", "⭐", "▶️", "💭", "⬅️", "➡️", "↔️", "▫️"):
            assert sign in rules, f"/rules does not explain {sign}"


# ====================================================================== words
def mercenary_position() -> GameState:
    state = build(
        {
            "players": [
                {"hand": ["mercenary.red", "page.red"]},
                {"hand": ["knight.blue"]},
            ],
            "deck": ["page.orange"],
        }
    )
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_private_lines_say_you_to_their_reader(lang: str) -> None:
    """The taker and the one robbed each read «вы» — never their own name."""
    state = mercenary_position()
    table = seated(["Аня", "Борис"], lang)
    events = play(state, "lay", "mercenary.red")  # the only opponent: no question
    private = [e for e in events if e.key == "mercenary.took.private"]
    assert private, [e.key for e in events]
    r = renderer()
    you = {"ru": ("вы вытягиваете", "у вас"), "en": ("you take", "from your hand")}[lang]
    taker = r.private_lines(lang, table, state, private, 0)[0]
    robbed = r.private_lines(lang, table, state, private, 1)[0]
    assert you[0] in taker and "Аня" not in taker and "Борис" in taker
    assert you[1] in robbed and "Борис" not in robbed and "Аня" in robbed
    assert "Рыцар" in robbed or "Knight" in robbed


@pytest.mark.parametrize("lang", LANGS)
def test_betrayal_and_intrigue_say_you_too(lang: str) -> None:
    state = build(
        {
            "players": [
                {"hand": ["page.red", "knight.red"]},
                {"hand": []},
            ],
            "deck": ["betrayal", "lord.orange"],
        }
    )
    table = seated(["Аня", "Борис"], lang)
    events = play(state, "draw")
    private = [e for e in events if e.key == "betrayal.took.private"]
    assert private
    r = renderer()
    robbed = r.private_lines(lang, table, state, private, 0)[0]
    taker = r.private_lines(lang, table, state, private, 1)[0]
    assert ("у вас" if lang == "ru" else "your hand") in robbed and "Аня" not in robbed
    assert ("вы забираете" if lang == "ru" else "you take") in taker and "Борис" not in taker
    # the intrigue text is built the same way
    for me, who in (("player", "Аня"), ("source", "Борис")):
        line = tr().t(
            lang,
            "event-intrigue-took-private",
            me=me,
            player="Аня",
            source="Борис",
            card="X",
            card_acc="X",
        )
        assert who not in line


@pytest.mark.parametrize("lang", LANGS)
def test_lay_names_the_row_only_when_it_is_someone_elses(lang: str) -> None:
    state = build(
        {
            "players": [
                {
                    "hand": ["page.red", "harlot.blue"],
                    "houses": [{"colour": "red", "cards": ["lord.red"]}],
                },
                {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            ],
            "deck": ["page.orange"],
        }
    )
    table = seated(["Аня", "Борис"], lang)
    r = renderer()
    own = [
        line
        for line in r.public_lines(table, state, play(state, "lay", "page.red"))
        if "🏠" in line
    ]
    assert own and "→" not in own[0] and own[0].count("Аня") == 1 and "Борис" not in own[0]
    planted = r.public_lines(table, state, play(state, "lay", "harlot.blue", "1"))
    line = next(x for x in planted if "🏠" in x)
    assert "Борис" in line and "→" not in line


def poison_kill() -> tuple[GameState, list[Event]]:
    state = build(
        {
            "players": [
                {"hand": ["page.red"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {"hand": [], "houses": [{"colour": "blue", "cards": ["page.blue", "knight.blue"]}]},
            ],
            "deck": ["poison", "lord.orange"],
        }
    )
    play(state, "draw")
    play(state, "page.red")
    return state, play(state, "1", "knight.blue")


@pytest.mark.parametrize("lang", LANGS)
def test_a_killed_card_says_what_killed_it(lang: str) -> None:
    table = seated(["Аня", "Борис"], lang)
    r = renderer()
    state, events = poison_kill()
    (line,) = [
        x for x in r.public_lines(table, state, events) if "knight" in x.lower() or "Рыцар" in x
    ]
    assert line.startswith("🤢 "), line

    state = build(
        {
            "players": [
                {"hand": ["alchemist.red"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
                {"houses": [{"colour": "blue", "cards": ["lord.blue", "harlot.blue"]}]},
            ],
            "deck": ["page.orange"],
        }
    )
    play(state, "lay", "alchemist.red")
    (line,) = r.public_lines(table, state, play(state, "1", "lord.blue"))
    assert line.startswith("⚗️ ") and "Борис" in line, line

    state = build(
        {
            "players": [
                {"hand": ["priest.red"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
                {"houses": [{"colour": "blue", "cards": ["lord.blue", "harlot.blue"]}]},
            ],
            "deck": ["page.orange"],
        }
    )
    play(state, "lay", "priest.red")
    (line,) = r.public_lines(table, state, play(state, "1", "harlot.blue"))
    assert line.startswith("✝️ "), line

    state = build(
        {
            "players": [
                {
                    "hand": ["page.orange"],
                    "houses": [
                        {
                            "colour": "red",
                            "cards": ["lord.red", "page.red", "knight.red"],
                            "castle": "one_time",
                        }
                    ],
                },
                {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            ],
            "deck": ["fire", "lord.orange"],
        }
    )
    play(state, "draw")
    lines = r.public_lines(table, state, play(state, "page.red"))
    (line,) = [x for x in lines if x.startswith(("🔥", "☠️"))]
    assert line.startswith("🔥 ") and ("своего дома" in line or "own house" in line), line


def test_a_kill_is_read_in_its_own_smuta_not_one_begun_after_it() -> None:
    """A batch can hold an Алхимик's kill, the turn's end and the next player's
    forced draw of Отрава, still running when the batch ends: the kill is the
    Алхимик's. With no смута begun after it, a running Отрава is its cause."""
    state = build(
        {
            "players": [
                {"hand": ["page.red"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {"hand": [], "houses": [{"colour": "blue", "cards": ["page.blue", "knight.blue"]}]},
            ],
            "deck": ["poison", "lord.orange"],
        }
    )
    play(state, "draw")  # Отрава runs, waiting for the first discard
    knight = card_of(state, "knight.blue")
    kill = Event(key="card.killed", params={"seat": 1, "card": knight, "by": 0})
    begun = Event(key="smuta.start", params={"smuta": "poison", "initiator": 0, "mode": "drawn"})
    assert kill_causes(state, [kill]) == {0: "poison"}
    assert kill_causes(state, [kill, begun]) == {0: "alchemist"}


@pytest.mark.parametrize("lang", LANGS)
def test_drought_says_from_which_side_to_which(lang: str) -> None:
    state = build(
        {
            "players": [
                {
                    "hand": ["page.orange"],
                    "houses": [{"colour": "blue", "cards": ["lord.blue", "servant.blue.green"]}],
                },
                {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            ],
            "deck": ["drought", "lord.orange"],
        }
    )
    table = seated(["Аня", "Борис"], lang)
    events = play(state, "draw")
    events += play(state, "left")  # the new green house goes to the left
    lines = [x for x in renderer().public_lines(table, state, events) if x.startswith("🌞")]
    assert lines
    word = {"ru": ("с 🔵 на 🟢", "в дом 🟢"), "en": ("from 🔵 to 🟢", "🟢 house")}[lang]
    assert word[0] in lines[0] and word[1] in lines[0], lines[0]


def test_words_that_read_wrong_are_gone() -> None:
    ru = tr()
    revealed = ru.t("ru", "event-feast-smuta-revealed", smuta="🤢 Отрава")
    assert revealed.lower().count("сверху колоды") <= 1
    assert "снова жмите" not in ru.t("ru", "lobby-start-bot-first")
    assert "again" not in ru.t("en", "lobby-start-bot-first")
    from tests.bot.helpers.locales import all_texts

    quoted = sorted({key for key, text in all_texts("en") if "«" in text or "»" in text})
    assert not quoted, f"«» in English: {quoted}"
    explained = {key for key, text in all_texts("en") if "plural" in text and "smuty" in text}
    assert explained == {"rules-text"}


# ====================================================================== names
def test_names_are_cut_isolated_and_never_invisible() -> None:
    assert clean_name("x" * 40) == "x" * (NAME_MAX - 1) + "…"
    assert len(clean_name("Анна-Мария <Королева> & Ко Смуты и ещё")) == NAME_MAX
    assert clean_name("Ana\u202eevil\u202c") == "Anaevil"
    assert clean_name("\u3164") == clean_name(" \u200b\u2800 ") == ""
    assert clean_name("  Борис   Годунов ") == "Борис Годунов"
    assert clean_name("👨\u200d👩\u200d👧 семья") == "👨\u200d👩\u200d👧 семья"
    assert shown_name("مرحبا", "Игрок 1") == FSI + "مرحبا" + PDI
    assert shown_name("\u200f\u200e", "Игрок 2") == FSI + "Игрок 2" + PDI


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_shows_names_isolated_and_cut(lang: str) -> None:
    names = ["مرحبا بكم", "Ana\u202eevil", "Z" * 40, "\u3164", "<b>&", "\u200b"]
    state = crowded_table()
    table = seated(names, lang)
    r = renderer()
    text = r.table(table, state, long_log(table, state))
    fallback = {"ru": "Игрок {}", "en": "Player {}"}[lang]
    assert FSI + "مرحبا بكم" + PDI in text
    assert "\u202e" not in text and FSI + "Anaevil" + PDI in text
    assert FSI + "Z" * (NAME_MAX - 1) + "…" + PDI in text and "Z" * NAME_MAX not in text
    assert FSI + fallback.format(4) + PDI in text and FSI + fallback.format(6) + PDI in text
    assert FSI + "&lt;b&gt;&amp;" + PDI in text
    # every name opens and closes its isolation: nothing can leak into the rest of the line
    for line in text.split("\n"):
        assert line.count(FSI) == line.count(PDI), line
    # buttons too (plain text)
    assert r.option_part(lang, table, state, "3") == FSI + fallback.format(4) + PDI
    assert r.option_part(lang, table, state, "4") == FSI + "<b>&" + PDI
    # the notice for an unreachable player mentions them, so Telegram notifies them
    mention = r.mention(table, 0)
    assert mention.startswith('<a href="tg://user?id=1">') and "مرحبا بكم" in mention
    notice = tr().t(lang, "err-unreachable", player=mention, link="https://t.me/x?start=play")
    assert 'href="tg://user?id=1"' in notice


# ====================================================================== /card and /cards
@pytest.mark.parametrize(
    ("query", "topic"),
    [
        ("ЛОРД", "lord"),
        ("лорт", "lord"),
        ("лорда", "lord"),
        ("красный лорд", "lord"),
        ("Зелёный купец", "merchant"),
        ("зеленый купец", "merchant"),
        ("наемник", "mercenary"),
        ("миледм", "lady"),
        ("инквизицыя", "inquisition"),
        ("Слуга красно-зелёный", "servant"),
        ("plague", "plague"),
        ("Great Feast", "feast"),
        ("lucky campain", "campaign"),
        ("красный замок", "castle-red"),
        ("замок власти", "castle-red"),
        ("castle of trade", "castle-orange"),
        ("🍗 пир", "feast"),
    ],
)
def test_card_lookup_forgives(query: str, topic: str) -> None:
    assert lookup(tr(), query).topic == topic


def test_card_lookup_offers_the_closest_names_or_the_castles() -> None:
    castles = lookup(tr(), "замок")
    assert castles.castles and castles.topic is None
    assert lookup(tr(), "Castles").castles
    text = card_reply(tr(), "ru", "замок")
    for topic in CASTLES:
        assert topic_name(tr(), "ru", topic) in text
    assert text.count("♾️") == 4 and text.count("⚡") == 4
    unsure = lookup(tr(), "за")
    assert unsure.topic is None and {"conspiracy", "drought"} <= set(unsure.suggestions)
    reply = card_reply(tr(), "ru", "чумной")
    assert "Чумовой" in reply and "/cards" in reply
    nothing = card_reply(tr(), "en", "<xyz>")
    assert "&lt;xyz&gt;" in nothing and "/cards" in nothing and "Did you mean" not in nothing


def test_a_card_query_is_cut_to_its_bound_before_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4,000-character /card query: matching sees at most QUERY_MAX
    characters of it (a word cut short dropped), and the answer is as clear
    as for a short one."""
    longest = max(len(topic_name(tr(), lang, t)) for t in TOPICS for lang in LANGS)
    assert longest + 20 <= QUERY_MAX  # room to spare
    seen: list[str] = []
    extract = bot.words.help.process.extract

    def spy(query: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(query)
        return extract(query, *args, **kwargs)

    monkeypatch.setattr(bot.words.help.process, "extract", spy)
    junk = "абв где " * 500  # 4,000 characters that name nothing
    reply = card_reply(tr(), "ru", junk)
    assert seen and all(len(q) <= QUERY_MAX for q in seen), [len(q) for q in seen]
    assert seen[-1] == " ".join(["абв", "где"] * 8), "not cut at a word's end"
    assert reply == card_reply(tr(), "ru", "абв где " * 8)  # the same clear answer
    assert "/cards" in reply and "абв где абв" in reply and len(reply) < 300
    # a long query that begins with a name finds it
    assert lookup(tr(), "Лорд " + "ж" * 4000).topic == "lord"
    assert card_reply(tr(), "ru", "🍗" * 4000) == card_reply(tr(), "ru", "")  # nothing to match


@pytest.mark.parametrize("lang", LANGS)
def test_cards_lists_every_card_by_family(lang: str) -> None:
    text = cards_text(tr(), lang)
    for topic in TOPICS:
        assert topic_name(tr(), lang, topic) in text, topic
    assert text.index(topic_name(tr(), lang, "lord")) < text.index(topic_name(tr(), lang, "ball"))
    assert text.index(topic_name(tr(), lang, "feast")) < text.index(topic_name(tr(), lang, "fire"))


async def test_the_bot_answers_card_cards_and_rules_with_the_games_rules(store: object) -> None:
    h = Harness(store)  # type: ignore[arg-type]
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/cards")
    await h.say(anna.id, anna, "/card красный замок")
    await h.say(anna.id, anna, "/card замок")
    await h.say(anna.id, anna, "/card лазутчеца")
    await h.say(anna.id, anna, "/rules")
    texts = [r.text or "" for r in h.tg.sent(anna.id)]
    assert "Миледи" in texts[0] and "Пожар" in texts[0]
    assert "Замок Власти" in texts[1] and "Замок Интриг" not in texts[1]
    assert all(name in texts[2] for name in ("Власти", "Интриг", "Знаний", "Торговли"))
    assert "Лазутчица" in texts[3]
    assert "7 карт" in texts[4] and "🎴" in texts[4]
    # in a group whose game has other rules, /rules and /card tell that game's
    group = -1001
    state = build({"players": [{}, {}], "deck": ["page.red"], "rules": {"hand_limit": 12}})
    table = seated(["Анна", "Борис"])
    table.chat_id, table.status, table.state = group, "playing", state
    assert await h.store.save(table)
    await h.say(group, anna, "/rules")
    await h.say(group, anna, "/card пир")
    rules, feast = (r.text or "" for r in h.tg.sent(group)[-2:])
    assert "12 карт" in rules and "7 карт" not in rules
    assert "по 12 карт" in feast


# ====================================================================== the rules texts
#: numbers no default rule has, so each is found where the texts tell it
CUSTOM = Rules(
    hand_limit=12,
    actions_per_turn=6,
    trade_castle_actions=8,
    deal_house_cards=9,
    deal_orders=10,
    castle_points=11,
    castle_min_cards=13,
    fire_each_house=False,
    house_points={t: 14 + i for i, t in enumerate(DEFAULT_RULES.house_points)},
    servant_points=19,
)
#: the rule fields each /card topic tells (besides a house card's own points)
TOLD: dict[str, set[str]] = {
    "treasurer": {"hand_limit"},
    "mercenary": {"hand_limit"},
    "feast": {"hand_limit"},
    "grail": {"hand_limit"},
    "betrayal": {"hand_limit", "actions_per_turn", "trade_castle_actions"},
    "castle-orange": {
        "actions_per_turn",
        "trade_castle_actions",
        "castle_min_cards",
        "castle_points",
    },
    **{c: {"castle_min_cards", "castle_points"} for c in CASTLES if c != "castle-orange"},
}
RULES_TOLD = {
    "hand_limit",
    "actions_per_turn",
    "deal_house_cards",
    "deal_orders",
    "castle_points",
    "castle_min_cards",
}
#: how the default numbers read, so none is left in a text of other rules
DEFAULT_PHRASES = {
    "ru": ("7 карт", "3 действ", "4 действ", "3 карт", "3 очк", "5 карт", "1 приказ", "по 3 "),
    "en": ("7 cards", "3 actions", "4 actions", "3 cards", "3 points", "5 house", "1 order"),
}


def still_says(lang: str, text: str) -> list[str]:
    """The default numbers' phrases in `text` (a number standing alone: «3 очка», not «23 очка»)."""
    return [p for p in DEFAULT_PHRASES[lang] if re.search(rf"(?<!\d){re.escape(p)}", text)]


def numbers(text: str) -> Counter[int]:
    return Counter(int(n) for n in re.findall(r"\d+", text))


@pytest.mark.parametrize("lang", LANGS)
def test_card_and_rules_texts_tell_the_games_rules(lang: str) -> None:
    """Every /card text and /rules, rendered with rules whose numbers are all
    changed, shows the changed numbers where it tells them and none of the
    default ones."""
    for topic in TOPICS:
        text = card_text(tr(), lang, topic, CUSTOM)
        wanted = {getattr(CUSTOM, f) for f in TOLD.get(topic, set())}
        if topic in HOUSE_TYPES:
            points = CUSTOM.servant_points if topic == "servant" else CUSTOM.house_points[topic]
            wanted.add(points)
        found = numbers(text)
        missing = [n for n in wanted if n not in found]
        assert not missing, f"/card {topic} ({lang}) does not tell {missing}: {text}"
        left = still_says(lang, text)
        assert not left, f"/card {topic} ({lang}) still says {left}: {text}"
        assert card_text(tr(), lang, topic) != text or not wanted
    fire = card_text(tr(), lang, "fire", CUSTOM)
    assert ("одного дома" if lang == "ru" else "of one house") in fire
    rules = rules_text(tr(), lang, CUSTOM)
    found = numbers(rules)
    missing = [f for f in RULES_TOLD if getattr(CUSTOM, f) not in found]
    assert not missing, f"/rules ({lang}) does not tell {missing}"
    assert {14, 15, 16} <= set(found), "/rules does not tell the cards' points"
    left = still_says(lang, rules)
    assert not left, f"/rules ({lang}) still says {left}"


@pytest.mark.parametrize("rules", [DEFAULT_RULES, CUSTOM])
def test_every_help_text_formats_cleanly(rules: Rules, caplog: pytest.LogCaptureFixture) -> None:
    """No variable missing in any /card, /cards or /rules text (Fluent would log
    an error and show the variable's name)."""
    texts = []
    with caplog.at_level(logging.ERROR, logger="bot.words.i18n"):
        for lang in LANGS:
            texts += [card_text(tr(), lang, topic, rules) for topic in TOPICS]
            texts += [card_reply(tr(), lang, q, rules) for q in ("замок", "castle", "", "xyz")]
            texts += [cards_text(tr(), lang, rules), rules_text(tr(), lang, rules)]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    for text in texts:
        assert not re.search(r"\b(?:trade_actions|castle_\w+|deal_\w+|fire_each)\b", text), text


@pytest.mark.parametrize("lang", LANGS)
def test_each_smuta_says_what_becomes_of_the_initiators_turn(lang: str) -> None:
    ends = {"ru": "ход инициатора", "en": "initiator's turn"}[lang]
    power = {"ru": "Замк", "en": "Castle of Power"}[lang]
    for smuta in SMUTA_TYPES:
        text = card_text(tr(), lang, smuta)
        assert ends in text.lower() or ends.capitalize() in text, smuta
        assert power in text or smuta == "betrayal", smuta


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_define_initiator_and_the_ends_of_a_row(lang: str) -> None:
    rules = rules_text(tr(), lang)
    if lang == "ru":
        assert "<b>инициатор</b>" in rules and "единственный дом — и левый, и правый" in rules
        assert "кроме владельца" in rules and "по одному каждого цвета" in rules
    else:
        assert "<b>initiator</b>" in rules and "a single house is both" in rules
        assert "but its owner" in rules and "one of each colour" in rules


# ====================================================================== the end
@pytest.mark.parametrize("lang", LANGS)
def test_the_result_breaks_each_score_down(lang: str) -> None:
    state = crowded_table()
    state.result = Result(scores=[15, 15, 9, 4, 0, 2], castles=[2, 1, 0, 0, 0, 0], winners=[0])
    text = renderer().result(seated(LONG_NAMES, lang), state)
    lines = text.split("\n")
    first = next(x for x in lines if "Александра" in x)
    second = next(x for x in lines if "Maximilian" in x)
    assert ("9 + 🏰 2 × 3" in first) and ("12 + 🏰 1 × 3" in second)
    assert lines.index(first) < lines.index(second)
    assert any(x.startswith("<i>") for x in lines), "the tie-break is told"
