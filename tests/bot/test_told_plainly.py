"""What a newcomer reads, in plain words, through the real dispatcher in both
languages (issue 24, "What was seen" 3–7): the group's table names its piles
in words; everyone learns who moves first and that the bot will write on
their turn; a castle note comes only when the castle is one move away, names
all that is missing, and never speaks of a castle that stands; a choice the
timer made says so first; the group learns an order did nothing, and why."""

from __future__ import annotations

import pytest
from aiogram.methods import EditMessageText, SendMessage

from bot.store.memory import MemoryStore
from bot.words.shape import plain
from engine import pending
from engine.cards import catalog_for
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, group_texts

GROUP = -100424
LANGS = ["ru", "en"]


def texts_to(h: Harness, user_id: int, since: int = 0) -> list[str]:
    """Every text sent to or edited in `user_id`'s chat since request `since`."""
    return [
        r.text
        for r in h.tg.requests[since:]
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == user_id
    ]


# ====================================================================== who moves first
@pytest.mark.parametrize("lang", LANGS)
async def test_everyone_not_first_is_told_who_starts_and_that_the_bot_will_write(
    lang: str,
) -> None:
    h = Harness(MemoryStore())
    anna, boris, vera = (person(240 + i, n, lang) for i, n in enumerate(["Анна", "Борис", "Вера"]))
    since = len(h.tg.requests)
    table = await h.open_game(GROUP, anna, [boris, vera], seed=7, lang=lang)
    assert table.state is not None
    first = table.state.current
    name = h.app.games.render.name(lang, table, first)
    told = h.tr.t(lang, "game-first-turn", player=name)
    for seat, user in enumerate((anna, boris, vera)):
        texts = texts_to(h, user.id, since)
        hand = next(t for t in texts if h.tr.t(lang, "hand-title", n=6) in t)
        if seat == first:
            assert told not in hand, "the first player is asked at once, not told to wait"
            assert pending(table.state).seat == seat  # type: ignore[union-attr]
        else:
            assert told in hand, hand
            assert hand.index(told) < hand.index(h.tr.t(lang, "hand-title", n=6))
    # the words say it plainly
    assert ("Первым ходит" if lang == "ru" else "moves first") in told
    assert ("бот напишет" if lang == "ru" else "bot will write") in told


# ====================================================================== a timed-out choice
@pytest.mark.parametrize("lang", LANGS)
async def test_a_timed_out_choice_is_marked_as_the_bots_first(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, boris = person(250, "Анна", lang), person(251, "Борис", lang)
    table = await h.open_game(GROUP, anna, [boris], seed=3, lang=lang)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user = (anna, boris)[decision.seat]
    prompt = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
    assert table.deadline is not None
    assert await h.tick(table.deadline - h.clock.now() + 1) >= 1
    log = await h.store.log(GROUP)
    chosen = next(c for c in log if c.decision == decision.id)
    text = h.tg.texts[(user.id, prompt)]
    lines = plain(text).split("\n")
    head = plain(h.tr.t(lang, "prompt-timed-out", choice=""))
    timed = [i for i, line in enumerate(lines) if line.startswith(head)]
    assert len(timed) == 1, text
    # the bot's choice, named on that same line, and never as the player's own «✔️»
    label = h.app.games.prompts.choice(lang, table, table.state, decision, chosen.option)
    first_part = label.split(" → ")[0]
    assert first_part in lines[timed[0]], (first_part, lines[timed[0]])
    assert not any(line.startswith("✔️") and first_part in line for line in lines), text
    # the group is told too
    name = h.app.games.render.name(lang, table, decision.seat)
    assert any(h.tr.t(lang, "log-timeout", player=name) in t for t in group_texts(h.tg, GROUP))


# ====================================================================== an order that did nothing
IDLE_ORDERS = {
    "players": [
        {
            "hand": ["marriage", "infirmary", "ball", "page.blue"],
            "houses": [{"colour": "red", "cards": ["lord.red"]}],
        },
        {
            "houses": [
                {"colour": "green", "cards": ["page.green", "knight.green"]},
                {"colour": "orange", "cards": ["lady.orange"]},
            ]
        },
    ],
    "deck": ["page.red", "page.orange"],
    "current": 0,
    "actions_left": 3,
}


def order_named(h: Harness, lang: str, kind: str) -> str:
    return h.tr.t(lang, f"card-{kind}")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_group_learns_an_order_did_nothing_and_why(lang: str) -> None:
    """Анна plays a Брачный союз with one house and a Лазарет on an empty
    graveyard, then a Бал in which she takes nobody though Борис has a man:
    after each «📣 … играет приказ …» the group reads that it did nothing,
    and why."""
    h = Harness(MemoryStore())
    anna, boris = person(260, "Анна", lang), person(261, "Борис", lang)
    await h.open_game(GROUP, anna, [boris], lang=lang)
    table = await h.set_position(GROUP, IDLE_ORDERS, anna)
    t = h.tr.t
    anna_name = h.app.games.render.name(lang, table, 0)

    async def play(kind: str) -> str:
        """Анна plays her `kind` order; the group's text after it."""
        since = len(h.tg.requests)
        state = (await h.table(GROUP)).state
        assert state is not None
        cards = catalog_for(state.rules)
        card = next(c for c in state.players[0].hand if cards[c].type == kind)
        await h.answer(anna, GROUP, ("play", card))
        return "\n".join(group_texts(h.tg, GROUP, since))

    shown = await play("marriage")
    played = t(lang, "event-order-played", player=anna_name, order=order_named(h, lang, "marriage"))
    idle = t(
        lang,
        "event-order-idle",
        order=order_named(h, lang, "marriage"),
        reason="marriage_houses",
        player=anna_name,
    )
    assert played in shown and idle in shown, shown
    assert shown.index(played) < shown.index(idle)
    assert ("домов меньше двух" if lang == "ru" else "fewer than two houses") in plain(idle)

    shown = await play("infirmary")
    idle = t(
        lang, "event-order-idle", order=order_named(h, lang, "infirmary"), reason="infirmary_empty"
    )
    assert idle in shown, shown

    shown = await play("ball")
    decision = await h.decision(GROUP)
    assert decision is not None and decision.kind == "ball.take"
    ball = t(lang, "event-order-played", player=anna_name, order=order_named(h, lang, "ball"))
    after_ball = shown.split(ball)[-1]  # the table shows the whole turn's log
    assert "↪️" not in after_ball, "a Бал with a man to take has not done nothing yet"
    since = len(h.tg.requests)
    await h.answer(anna, GROUP, ("done",))
    shown = "\n".join(group_texts(h.tg, GROUP, since))
    idle = t(
        lang,
        "event-order-idle",
        order=order_named(h, lang, "ball"),
        reason="ball_declined",
        player=anna_name,
    )
    assert idle in shown, shown
    # and indeed nothing moved: Борис keeps his man
    after = (await h.table(GROUP)).state
    assert after is not None
    assert [h.cards for h in after.players[1].houses] == [
        h.cards
        for h in table.state.players[1].houses  # type: ignore[union-attr]
    ]


# ====================================================================== castle notes
CASTLES = {
    "players": [
        {
            "hand": ["merchant.red", "merchant.blue", "merchant.green", "merchant.orange"],
            "houses": [
                # one Лорд away (he is the third card too): told, both things named
                {"colour": "red", "cards": ["page.red", "knight.red"]},
                # its castle stands: never «пока не построить»
                {
                    "colour": "blue",
                    "cards": ["lord.blue", "page.blue", "knight.blue"],
                    "castle": "permanent",
                },
                # two cards short: not nearly
                {"colour": "green", "cards": ["lord.green"]},
            ],
            # no orange house: not nearly, though its Купец is in hand
        },
        {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
    ],
    "deck": ["page.red", "page.orange"],
    "orders": ["marriage"],
    "current": 0,
    "actions_left": 3,
}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_castle_note_only_when_nearly_built_naming_all_it_lacks(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, boris = person(270, "Анна", lang), person(271, "Борис", lang)
    await h.open_game(GROUP, anna, [boris], lang=lang)
    await h.set_position(GROUP, CASTLES, anna)
    text = h.tg.texts[(anna.id, (await h.store.messages(GROUP))["prompt:0"])]
    notes = [line for line in text.split("\n") if line.startswith("ℹ️")]
    t = h.tr.t
    needs = t(lang, "why-castle-and").join(
        [
            t(lang, "why-castle-lord", colour="🔴"),
            t(lang, "why-castle-cards", colour="🔴", cards=3, has=2),
        ]
    )
    red = "ℹ️ " + t(lang, "why-castle", castle=t(lang, "castle-red"), needs=needs)
    assert notes == [red], notes
    for colour in ("blue", "green", "orange"):
        assert t(lang, f"castle-{colour}") not in "\n".join(notes)


# ====================================================================== the table in words
CROWDED = {
    "players": [
        {
            "hand": ["page.blue"],
            "houses": [
                {
                    "colour": "red",
                    "cards": ["lord.red", "knight.red", "page.red", "servant.red.blue"],
                    "castle": "permanent",
                },
                {"colour": "blue", "cards": ["lady.blue", "page.blue", "alchemist.blue"]},
                {"colour": "green", "cards": ["healer.green", "minstrel.green"]},
                {"colour": "orange", "cards": ["lord.orange", "treasurer.orange"]},
            ],
        },
        {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        {"houses": []},
    ],
    "deck": ["conspiracy", "feast", "page.green"],
    "orders": ["ball", "marriage"],
    "graveyard": ["plague.red", "harlot.blue"],
    "orders_discard": ["infirmary", "ball"],
    "smuta_discard": ["poison", "drought"],
    "current": 0,
    "actions_left": 2,
}


@pytest.mark.parametrize("lang", LANGS)
async def test_the_groups_table_names_its_piles_and_houses_in_words(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, boris, vera = (person(280 + i, n, lang) for i, n in enumerate(["Анна", "Борис", "Вера"]))
    await h.open_game(GROUP, anna, [boris, vera], lang=lang)
    table = await h.set_position(GROUP, CROWDED)
    since = len(h.tg.requests)
    await h.say(GROUP, anna, "/table")
    text = [r.text for r in h.tg.sent(GROUP) if h.tg.requests.index(r) >= since][-1]
    state = table.state
    assert state is not None
    t = h.tr.t
    render = h.app.games.render

    def top(pile: list[str]) -> str:
        return render.card(lang, state, pile[0])

    words = [
        t(lang, "table-deck", n=3),
        t(lang, "table-orders-short", n=2, discarded=2),
        t(lang, "table-graveyard-short", n=2, top=top(state.graveyard)),
        t(lang, "table-smuta-discard-short", n=2, top=top(state.smuta_discard)),
        t(lang, "table-castles-short", n=3, castles="🔵🟢🟠"),
    ]
    for said in words:
        assert said in text, (said, text)
    graveyard = plain(words[2])
    assert ("сгинувшие 2 (сверху" if lang == "ru" else "graveyard 2 (on top") in graveyard
    # a house too long for its line reads as a number of cards, not «×4»
    assert "×" not in text
    row = next(line for line in text.split("\n") if line.startswith("  🔴"))
    assert t(lang, "table-house-count", n=4) in row, row
    assert ("4 карты" if lang == "ru" else "4 cards") in row
    lines = text.split("\n")
    assert len(lines) <= 20 and all(len(plain(line)) <= 60 for line in lines), text
