"""/stop, through the real dispatcher: a stopped game shows the score it stood
at — in the group and to each player in private, in their language — every
prompt says the game is over, and a lobby (a group's or a practice table's)
closes at once without pointing anywhere it cannot go."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.words.keyboards import LobbyCb, StopCb
from engine import pending
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, group_texts

GROUP = -100717
# Анна's red house is worth 4, Борис's blue 3, the computer's green 1; Анна is to move
MIDGAME = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}]},
        {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        {"houses": [{"colour": "green", "cards": ["page.green"]}], "computer": True},
    ],
    "deck": ["page.green", "page.red", "page.blue"],
    "current": 0,
    "actions_left": 3,
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_stopped_game_shows_its_score_to_the_group_and_to_each_player(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    game = (await h.open_game(GROUP, anna, [boris], computers=1, lang=lang)).game_no
    await h.set_position(GROUP, MIDGAME, anna)  # Анна's prompt for this position
    prompt = (await store.messages(GROUP))["prompt:0"]
    assert h.buttons(anna.id, prompt)

    await h.say(GROUP, anna, "/stop")
    confirm = h.last_with_button(GROUP, "st:")
    since = len(h.tg.requests)
    await h.press(anna, GROUP, confirm, StopCb(game=game, confirm=True).pack())

    t = h.tr.t
    stopped = await h.table(GROUP)
    assert stopped.status == "finished"
    assert stopped.state is not None and stopped.state.result is not None
    assert stopped.state.result.aborted and stopped.state.result.scores == [4, 3, 1]
    assert await store.history(GROUP) == [], "a stopped game is not kept as played"

    def standings(text: str) -> None:
        assert t(lang, "result-stopped") in text, text
        lines = text.split("\n")
        at = lines.index(t(lang, "result-stopped"))
        ranked = lines[at + 1 : at + 4]
        assert [("Анна" in ranked[0]), ("Борис" in ranked[1])] == [True, True], ranked
        assert "<b>4</b>" in ranked[0] and "<b>3</b>" in ranked[1] and "<b>1</b>" in ranked[2]
        assert t(lang, "result-winners", players="Анна", n=1).split(":")[0] not in text

    group = [x for x in group_texts(h.tg, GROUP, since) if t(lang, "result-stopped") in x]
    assert len(group) == 1, "the group reads the score once"
    assert group[0].startswith(t(lang, "stop-done", player="\u2068Анна\u2069"))
    standings(group[0])
    for user in (anna, boris):
        told = [r.text for r in h.tg.sent(user.id) if h.tg.requests.index(r) >= since]
        assert len(told) == 1, f"{user.first_name} is told once in private"
        assert t(lang, "stop-done", player="\u2068Анна\u2069") in told[0]
        standings(told[0])
    # Анна's prompt says the game is over, and has no buttons left
    assert not h.buttons(anna.id, prompt)
    assert t(lang, "stop-prompt") in h.tg.texts[(anna.id, prompt)]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_stop_closes_a_practice_table_not_yet_started(store: Store, lang: str) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert table.practice and table.status == "lobby"
    lobby = (await store.messages(anna.id))["lobby"]
    since = len(h.tg.requests)
    await h.say(anna.id, anna, "/stop")
    assert (await h.table(anna.id)).status == "finished"
    assert h.tg.texts[(anna.id, lobby)] == h.tr.t(lang, "practice-cancelled")
    assert not h.buttons(anna.id, lobby)
    said = [r.text for r in h.tg.requests[since:] if hasattr(r, "text") and r.text]
    assert all("/newgame" not in text for text in said), said
    # /practice opens a new one
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    assert (await h.table(anna.id)).status == "lobby"


async def test_a_stopped_practice_game_tells_its_player_once_in_its_own_chat(
    store: Store,
) -> None:
    h = Harness(store)
    anna = person(100, "Анна")
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    game = (await h.table(anna.id)).game_no
    lobby = (await store.messages(anna.id))["lobby"]
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    while (decision := await h.decision(anna.id)) is not None and decision.seat != 0:
        await h.tick(1.5)  # the computer moves first
    await h.say(anna.id, anna, "/stop")
    confirm = h.last_with_button(anna.id, "st:")
    since = len(h.tg.requests)
    await h.press(anna, anna.id, confirm, StopCb(game=game, confirm=True).pack())
    told = [
        r.text
        for r in h.tg.sent(anna.id)
        if h.tg.requests.index(r) >= since and h.tr.t("ru", "result-stopped") in r.text
    ]
    assert len(told) == 1
    table = await h.table(anna.id)
    assert table.status == "finished" and table.state is not None
    assert pending(table.state) is None


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_stop_asks_what_fits_the_game_ratings_only_where_they_count(
    store: Store, lang: str
) -> None:
    """Issue 42 item 7: /stop's question speaks of ratings only in a group's
    game; a practice game is never rated, and the tutor says /learn takes it
    again (from the start: it does not resume)."""
    h = Harness(store)
    anna = person(100, "Анна", lang=lang)
    boris = person(101, "Борис", lang=lang)
    t = h.tr.t

    def asked(chat: int) -> str:
        return h.tg.sent(chat)[-1].text

    await h.open_game(GROUP, anna, [boris], lang=lang)
    await h.say(GROUP, anna, "/stop")
    assert asked(GROUP) == t(lang, "stop-confirm")
    await h.say(anna.id, anna, "/learn")
    assert (await h.table(anna.id)).tutor is not None
    await h.say(anna.id, anna, "/stop")
    assert asked(anna.id) == t(lang, "stop-confirm-tutor")
    assert "/learn" in asked(anna.id) and t(lang, "stop-confirm") != asked(anna.id)
    game = (await h.table(anna.id)).game_no
    confirm = h.last_with_button(anna.id, "st:")
    await h.press(anna, anna.id, confirm, StopCb(game=game, confirm=True).pack())
    await h.say(anna.id, anna, "/practice")
    game = (await h.table(anna.id)).game_no
    lobby = (await store.messages(anna.id))["lobby"]
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    await h.say(anna.id, anna, "/stop")
    assert asked(anna.id) == t(lang, "stop-confirm-practice")
