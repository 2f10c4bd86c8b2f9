"""The engine's API (engine/api.py, view.py, policy.py, scenario.py; RULES.md §2, §8).

Refused answers change nothing; a saved game resumes identically; a command log
replays the same game; the seed decides the deal; a seat's view never shows
another player's hand (nor a face-down deck); the computer always answers
legally; the scenario CLI prints events, the pending decision and the views.
"""

import json
from pathlib import Path

import pytest

from engine import (
    Command,
    Decision,
    Event,
    GameSetup,
    GameState,
    Refused,
    apply,
    execute,
    new_game,
    pending,
    replay,
    set_computer,
    stop,
    view_for,
)
from engine.ai.easy import choose
from engine.cards import DEFAULT_RULES, catalog_for
from engine.invariants import violations
from engine.scenario import main as scenario_main
from tests.engine.helpers import decision, hand, houses, kind, kinds, play, setup, strings

#: decisions in which a player legitimately sees the hand of `params["target"]`
LOOKING_AT_A_HAND = {"spy.discard", "minstrel.lay", "intrigue.take"}


def refused(state: GameState, seat: int, decision_id: int, option: tuple[str, ...]) -> str:
    before = state.to_json()
    with pytest.raises(Refused) as info:
        apply(state, seat, decision_id, option)
    assert state.to_json() == before, "a refused answer changed the state"
    return info.value.reason


def computer_step(state: GameState) -> tuple[Decision, list[Event]]:
    d = pending(state)
    assert d is not None
    return d, apply(state, d.seat, d.id, choose(state.seed, d))


# ====================================================================== refusals
def test_a_stale_decision_id_is_refused_and_changes_nothing() -> None:
    state = setup(
        players=[{"hand": ["page.red", "page.blue"]}, {"hand": ["lord.red"]}], deck=["knight.red"]
    )
    old = decision(state)
    play(state, "lay", "page.red")
    new = decision(state)
    assert new.id != old.id and new.seat == old.seat
    # an option that is legal now, sent with the old id
    assert refused(state, 0, old.id, new.options[0]) == "stale_decision"
    assert refused(state, 0, new.id + 1, new.options[0]) == "stale_decision"


def test_an_answer_from_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {"hand": ["lord.red"]}, {}], deck=["knight.red"])
    d = decision(state)
    for seat in (1, 2):
        assert refused(state, seat, d.id, d.options[0]) == "not_your_decision"


def test_an_illegal_option_is_refused_and_changes_nothing() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {"hand": ["lord.red"]}], deck=["knight.red"])
    d = decision(state)
    lord = state.players[1].hand[0]
    page = state.players[0].hand[0]
    for option in (
        ("end",),  # no action taken yet
        ("lay", lord, "0", "red", "-"),  # another player's card
        ("lay", page, "0", "blue", "-"),  # the wrong colour
        ("lay", page, "1", "red", "-"),  # a Паж cannot be planted
        ("play", page),
        ("lay", page),  # a partial option
        (),
    ):
        assert option not in d.options
        assert refused(state, 0, d.id, option) == "illegal_option"


def test_answers_after_the_game_is_over_are_refused() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {}], deck=[], final_turns=0)
    d = decision(state)
    play(state, "discard", "page.red")
    assert state.result is not None and pending(state) is None
    assert refused(state, 0, d.id, d.options[0]) == "game_over"
    assert refused(state, 0, state.decision, ("end",)) == "game_over"


def test_a_refused_answer_does_not_consume_the_decision() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {"hand": ["lord.red"]}], deck=["knight.red"])
    d = decision(state)
    refused(state, 1, d.id, d.options[0])
    events = apply(state, d.seat, d.id, d.options[0])
    assert events and state.version == 1


# ====================================================================== saving
def test_a_saved_game_resumes_identically() -> None:
    for players, seed in ((2, 11), (4, 12), (6, 13)):
        state, _ = new_game(GameSetup(players=players, seed=seed))
        for _ in range(40):
            computer_step(state)
        copy = GameState.from_json(state.to_json())
        assert copy == state and copy is not state
        steps = 0
        while (d := pending(state)) is not None:
            assert pending(copy) == d
            option = choose(state.seed, d)
            events = apply(state, d.seat, d.id, option)
            assert apply(copy, d.seat, d.id, option) == events
            assert copy.to_json() == state.to_json()
            steps += 1
        assert pending(copy) is None and copy.result == state.result
        assert steps > 10


def test_a_game_saved_in_the_middle_of_a_smuta_resumes_identically() -> None:
    state = setup(
        players=[
            {"hand": ["page.red"]},
            {"hand": ["ball", "lord.green"]},
            {"hand": ["marriage"]},
        ],
        deck=["new_era", "page.orange", "lord.red"],
        graveyard=["spy.blue", "mercenary.green", "harlot.red", "alchemist.orange"],
        orders=["infirmary", "ball"],
    )
    play(state, "draw")
    # Новая Эпоха: seat 0 laid the Лазутчица and is asked whose hand to look at
    assert decision(state).kind == "spy.target" and state.smuta_depth == 1
    text = state.to_json()
    for target in ("1", "2"):
        # the game as saved and restored, and the same game never saved
        restored, kept = GameState.from_json(text), state.model_copy(deep=True)
        for s in (restored, kept):
            play(s, target)
            while pending(s) is not None and s.smuta_depth > 0:
                d = decision(s)
                apply(s, d.seat, d.id, choose(s.seed, d))
        assert restored.to_json() == kept.to_json()
        assert restored.smuta_depth == 0 and kinds(restored, restored.smuta_discard) == ["new_era"]


def test_the_json_text_round_trips() -> None:
    state, _ = new_game(GameSetup(players=5, seed=99))
    for _ in range(60):
        computer_step(state)
        text = state.to_json()
        assert GameState.from_json(text).to_json() == text


# ====================================================================== replay and seeds
def test_replay_rebuilds_the_same_game_from_its_commands() -> None:
    setup_ = GameSetup(players=4, seed=2024)
    state, _ = new_game(setup_)
    log: list[Command] = []
    step = 0
    while (d := pending(state)) is not None:
        if step == 25:
            cmd = Command(seat=2, computer=True)
            execute(state, cmd)
            log.append(cmd)
        if step == 60:
            cmd = Command(seat=2, computer=False)
            execute(state, cmd)
            log.append(cmd)
        cmd = Command(seat=d.seat, decision=d.id, option=choose(state.seed, d))
        execute(state, cmd)
        log.append(cmd)
        step += 1
        if step == 90:
            middle = replay(setup_, log)
            assert middle == state
    again = replay(setup_, log)
    assert again == state
    # a log kept as JSON (as a store would keep it) replays the same
    stored = [Command.model_validate_json(c.model_dump_json()) for c in log]
    assert replay(GameSetup.model_validate_json(setup_.model_dump_json()), stored) == state
    assert again.to_json() == state.to_json()
    assert again.result is not None


def test_the_same_seed_plays_the_same_game() -> None:
    a, events_a = new_game(GameSetup(players=3, seed=5))
    b, events_b = new_game(GameSetup(players=3, seed=5))
    assert a == b and events_a == events_b
    while pending(a) is not None:
        da, ea = computer_step(a)
        db, eb = computer_step(b)
        assert da == db and ea == eb
    assert a.to_json() == b.to_json()


def test_a_different_seed_deals_differently() -> None:
    deals = set()
    for seed in range(5):
        state, _ = new_game(GameSetup(players=4, seed=seed))
        deals.add((tuple(tuple(p.hand) for p in state.players), tuple(state.deck)))
    assert len(deals) == 5


def test_the_deal() -> None:
    """RULES.md §2: five house cards and one order each; the rest of the house cards
    and the 15 смуты make the game deck; the castles are in the supply."""
    for players in (2, 6):
        state, events = new_game(GameSetup(players=players, seed=players))
        cat = catalog_for(state.rules)
        start = [e for e in events if e.key == "game.start"]
        assert len(start) == 1 and start[0].params["players"] == players
        assert state.current == start[0].params["first"]
        for p in state.players:
            assert sorted(cat[c].kind for c in p.hand) == ["house"] * 5 + ["order"]
            assert p.houses == []
        assert (
            sorted(cat[c].kind for c in state.deck)
            == ["house"] * (70 - 5 * players) + ["smuta"] * 15
        )
        assert len(state.orders) == len(cat.order_ids) - players
        assert sorted(state.castles) == ["blue", "green", "orange", "red"]
        assert state.graveyard == state.smuta_discard == state.orders_discard == []
        assert not violations(state)


def test_the_first_player_is_chosen_at_random() -> None:
    firsts = {new_game(GameSetup(players=4, seed=seed))[0].current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


# ====================================================================== views
def check_view(state: GameState, seat: int | None) -> None:
    """No card of another player's hand, of the game deck (but a face-up смута on top)
    or of the orders deck appears in what `seat` sees, except a hand the seat is
    looking at (and the orders deck) in the seat's own decision, and the cards
    of other hands the seat knows (`known`)."""
    view = view_for(state, seat).model_dump(mode="json")
    others = {c for s, p in enumerate(state.players) if s != seat for c in p.hand}
    face_down = set(state.deck[1:] if state.deck_top_open else state.deck) | set(state.orders)
    assert view["hand"] == (None if seat is None else state.players[seat].hand)
    d = view.pop("decision")
    # the cards of another hand the seat knows are there (`GameState.known`:
    # it looked at the hand, or gave or lost the card) it is shown, on that
    # player's row; no other
    knows = {c for c in others if seat is not None and seat in state.known.get(c, ())}
    for p in view["players"]:
        assert set(p["known"]) <= knows & set(state.players[p["seat"]].hand)
    seen = set(strings(view))
    assert not (seen & others) - knows, f"seat {seat} sees another's hand: {seen & others}"
    assert not seen & face_down, f"seat {seat} sees a face-down card: {seen & face_down}"
    if d is None:
        return
    assert seat is not None and d["seat"] == seat
    in_decision = set(strings(d))
    allowed: set[str] = set()
    if d["kind"] in LOOKING_AT_A_HAND:
        allowed = set(state.players[d["params"]["target"]].hand)
    assert not (in_decision & others) - allowed, (d["kind"], in_decision & others)
    deck_allowed = set(state.orders) if d["kind"] == "power.order" else set()
    assert not (in_decision & face_down) - deck_allowed, d["kind"]


def check_events(state: GameState, events: list[Event]) -> None:
    """An event naming a card now in someone's hand is addressed to that player (and
    whoever legitimately saw it) — never public, but for a discard captured face up."""
    holder = {c: s for s, p in enumerate(state.players) for c in p.hand}
    for e in events:
        named = [c for c in strings(e.params) if c in holder]
        if not named:
            continue
        if e.to is None:
            assert e.key == "discard.captured", (e.key, e.params)
        else:
            assert e.key.endswith(".private") or e.key == "hand.shown", e.key


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_view_ever_shows_another_players_hand(players: int) -> None:
    for seed in range(4):
        state, events = new_game(GameSetup(players=players, seed=1000 * players + seed))
        check_events(state, events)
        while True:
            for seat in [*range(players), None]:
                check_view(state, seat)
            if pending(state) is None:
                break
            _, events = computer_step(state)
            check_events(state, events)


def test_the_view_shows_own_hand_public_zones_and_own_decision_only() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.red", "ball"],
                "houses": [{"colour": "red", "cards": ["lord.red", "servant.red.blue@red"]}],
            },
            {"hand": ["lord.blue", "lord.green", "page.green"]},
        ],
        deck=["feast", "knight.red", "knight.blue"],
        deck_top_open=True,
        orders=["marriage", "infirmary"],
        graveyard=["page.orange"],
        orders_discard=["merchant.red"],
        smuta_discard=["grail"],
        prophet_stack=["prophet"],
    )
    mine = view_for(state, 0)
    theirs = view_for(state, 1)
    spectator = view_for(state, None)
    assert mine.hand == state.players[0].hand and theirs.hand == state.players[1].hand
    assert spectator.hand is None and spectator.decision is None
    assert mine.decision == pending(state) and theirs.decision is None
    assert mine.waiting_for == theirs.waiting_for == spectator.waiting_for == 0
    assert [p.hand_size for p in theirs.players] == [2, 3]
    assert mine.players[0].points == 4 and mine.players[1].points == 0
    servant = state.players[0].houses[0].cards[1]
    assert mine.players[0].houses[0].servant_sides == {servant: "red"}
    assert kind(state, mine.deck_top_smuta or "") == "feast"
    assert mine.deck_size == 3 and mine.orders_size == 2
    assert kinds(state, mine.graveyard) == ["page.orange"]
    assert kinds(state, mine.smuta_discard) == ["grail"]
    assert kinds(state, mine.prophet_stack) == ["prophet"]
    assert kinds(state, mine.orders_discard) == ["merchant.red"]
    assert sorted(mine.castle_supply) == ["blue", "green", "orange", "red"]
    # once the смута on top is drawn, nothing of the deck is visible
    play(state, "draw")
    assert view_for(state, 1).deck_top_smuta is None


def test_the_spy_sees_the_hand_only_in_her_own_decision_and_event() -> None:
    state = setup(
        players=[{"hand": ["spy.red"]}, {"hand": ["ball", "lord.blue"]}, {"hand": ["page.green"]}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "spy.red")
    events = play(state, "1")
    target_hand = set(state.players[1].hand)
    own = view_for(state, 0).decision
    assert own is not None and own.kind == "spy.discard"
    assert set(strings(own.model_dump(mode="json"))) & target_hand
    for seat in (2, None):
        assert not set(strings(view_for(state, seat).model_dump(mode="json"))) & target_hand
    for seat in (1, 2, None):
        assert not [
            e for e in events if e.visible_to(seat) and set(strings(e.params)) & target_hand
        ]
    assert [e for e in events if e.visible_to(0) and set(strings(e.params)) & target_hand]


def test_cards_changing_hands_are_named_only_to_the_two_players() -> None:
    # Замок Интриг, one-time side: which order was taken is private, like Наёмник's card
    state = setup(
        players=[
            {
                "hand": ["merchant.blue", "page.green"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}],
            },
            {"hand": ["ball", "marriage", "lord.red"]},
            {"hand": ["page.red"]},
        ],
        deck=["page.orange"],
    )
    play(state, "build", "merchant.blue", "one_time")
    play(state, "1")
    events = play(state, "marriage")
    taken = state.players[0].hand[-1]
    assert kind(state, taken) == "marriage"
    named = [e for e in events if taken in set(strings(e.params))]
    assert named and all(e.to is not None and sorted(e.to) == [0, 1] for e in named)
    assert [e.to for e in events if e.key == "intrigue.took"] == [None]
    check_events(state, events)
    for seat in (2, None):
        assert taken not in set(strings(view_for(state, seat).model_dump(mode="json")))

    # Наёмник
    state = setup(
        players=[{"hand": ["mercenary.red"]}, {"hand": ["ball"]}, {}],
        deck=["page.orange"],
    )
    events = play(state, "lay", "mercenary.red")
    check_events(state, events)
    assert not [
        e for e in events if e.visible_to(2) and state.players[0].hand[0] in set(strings(e.params))
    ]


# ====================================================================== the computer
def test_set_computer_hands_a_seat_over_and_back() -> None:
    state, _ = new_game(GameSetup(players=3, seed=1, computer=(2,)))
    assert [p.computer for p in state.players] == [False, False, True]
    version = state.version
    events = set_computer(state, 0)
    assert [e.key for e in events] == ["seat.computer"] and events[0].params["seat"] == 0
    assert state.players[0].computer and state.version == version + 1
    assert view_for(state, 1).players[0].computer
    # nothing else changed: the same decision is pending
    assert pending(state) is not None
    # handing it over again changes nothing
    before = state.to_json()
    assert set_computer(state, 0) == [] and state.to_json() == before
    events = set_computer(state, 0, False)
    assert [e.key for e in events] == ["seat.human"] and not state.players[0].computer
    before = state.to_json()
    for seat in (-1, 3):
        with pytest.raises(Refused) as info:
            set_computer(state, seat)
        assert info.value.reason == "no_such_seat"
    assert state.to_json() == before


def test_a_stopped_game_ends_with_the_score_as_it_stands() -> None:
    """Stopping mid-game: each player's points as their houses hold them now
    (the count of §7: cards plus castles), nothing left to decide, no answer taken."""
    state, _ = new_game(GameSetup(players=3, seed=5))
    for _ in range(40):
        computer_step(state)
    standing = [p.points for p in view_for(state, None).players]
    decision_before = pending(state)
    assert decision_before is not None
    events = stop(state)
    result = state.result
    assert result is not None and result.aborted
    assert result.scores == standing
    assert [e.key for e in events] == ["game.over"] and events[0].params["aborted"]
    assert pending(state) is None
    assert refused(state, decision_before.seat, decision_before.id, decision_before.options[0]) == (
        "game_over"
    )
    # stopping again changes nothing
    before = state.to_json()
    assert stop(state) == [] and state.to_json() == before


def test_a_seat_handed_to_the_computer_keeps_its_cards_and_plays_on() -> None:
    state, _ = new_game(GameSetup(players=4, seed=77))
    for _ in range(30):
        computer_step(state)
    leaving = 1
    hand_before = list(state.players[leaving].hand)
    houses_before = state.players[leaving].model_dump()["houses"]
    set_computer(state, leaving)
    assert state.players[leaving].hand == hand_before
    assert state.players[leaving].model_dump()["houses"] == houses_before
    while pending(state) is not None:
        computer_step(state)
    assert state.result is not None and not state.result.aborted
    assert len(state.result.scores) == 4


def test_the_computer_always_chooses_a_legal_option_deterministically() -> None:
    for players in (2, 4, 6):
        state, _ = new_game(GameSetup(players=players, seed=500 + players))
        kinds_seen = set()
        while (d := pending(state)) is not None:
            option = choose(state.seed, d)
            assert option in d.options
            assert choose(state.seed, d) == option
            kinds_seen.add(d.kind)
            apply(state, d.seat, d.id, option)
        assert "action" in kinds_seen


def test_the_computer_can_pick_every_option() -> None:
    d = Decision(id=3, seat=1, kind="x", options=(("a",), ("b", "1"), ("b", "2"), ("c",)))
    picks = {choose(seed, d) for seed in range(200)}
    assert picks == set(d.options)


# ====================================================================== the scenario CLI
def test_the_scenario_cli_prints_events_the_pending_decision_and_views(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = {
        "position": {
            "players": [
                {"hand": ["lady.red", "page.blue"]},
                {
                    "hand": ["ball"],
                    "houses": [{"colour": "red", "cards": ["knight.red", "lord.red"]}],
                },
            ],
            "deck": ["page.green"],
            "orders": ["marriage"],
        },
        "answers": [["lay", "lady.red"], ["1", "knight.red"], ["nonsense"]],
    }
    path = tmp_path / "bug.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    assert scenario_main([str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    answers = out["answers"]
    assert [a["answer"] for a in answers] == scenario["answers"]
    assert [e["key"] for e in answers[0]["events"]] == ["lay", "placed"]
    assert "lady.took" in [e["key"] for e in answers[1]["events"]]
    assert answers[2] == {"answer": ["nonsense"], "refused": "illegal_option"}
    assert out["pending"]["seat"] == 0 and out["pending"]["kind"] == "action"
    assert len(out["views"]) == 2
    mine, theirs = out["views"]
    cards = catalog_for(DEFAULT_RULES)
    assert len(mine["hand"]) == 1
    assert [cards[c].type_key for c in theirs["hand"]] == ["ball"]
    assert [h["colour"] for h in mine["players"][0]["houses"]] == ["red"]
    assert len(mine["players"][0]["houses"][0]["cards"]) == 2
    assert mine["players"][1]["houses"][0]["cards"] == theirs["players"][1]["houses"][0]["cards"]
    assert mine["decision"]["kind"] == "action" and theirs["decision"] is None
    # the other seat's hand is not in seat 0's view
    assert not set(strings(mine)) & set(theirs["hand"])

    assert scenario_main([str(path), "--seat", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [v["seat"] for v in out["views"]] == [1]


def test_the_scenario_cli_reads_toml_and_lets_the_computer_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bug.toml"
    path.write_text(
        'answers = [["computer"]]\n'
        "[position]\n"
        'deck = ["page.green"]\n'
        "current = 1\n"
        "[[position.players]]\n"
        'hand = ["page.red"]\n'
        "[[position.players]]\n"
        'hand = ["lord.blue"]\n',
        encoding="utf-8",
    )
    assert scenario_main([str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    (answer,) = out["answers"]
    assert "refused" not in answer and answer["events"], "the computer's answer was taken"
    # seat 1 has used one of its actions and goes on
    assert out["pending"]["seat"] == 1 and out["pending"]["params"]["actions_taken"] == 1


def test_positions_build_the_table_they_describe() -> None:
    state = setup(
        players=[
            {
                "hand": ["lord.red", "ball"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["page.red", "servant.red.green@green"],
                        "castle": "permanent",
                    }
                ],
            },
            {"hand": [], "houses": []},
        ],
        deck=["feast", "page.blue"],
        orders=["marriage"],
        smuta_discard=["poison"],
        current=1,
        actions_left=2,
        rules={"hand_limit": 5},
    )
    assert houses(state, 0) == [("red", ["page.red", "servant.red.green"], "permanent")]
    assert kind(state, state.players[0].houses[0].cards[1]) == "servant.red.green@green"
    assert hand(state, 0) == ["ball", "lord.red"]
    assert state.current == 1 and state.actions_left == 2
    assert state.rules.hand_limit == 5
    assert "red" not in state.castles
    assert kinds(state, state.deck) == ["feast", "page.blue"]
    assert kinds(state, state.smuta_discard) == ["poison"]
