"""🍗 Великий Пир (smuty.ru.txt; RULES.md §1 «game deck», §4.1, §6).

Round after round, from the initiator clockwise, each player takes the top
card of the game deck; a full hand (7) skips; the feast stops for everyone
when the top card is a смута (it stays face up on top), when the deck is empty
or when every hand is full. The initiator's turn then ends — unless they hold a
permanent Замок Власти.
"""

from typing import Any

import pytest

from engine.invariants import violations
from engine.view import view_for
from tests.engine.helpers import decision, hand, keys, kind, kinds, play, secret_takes, setup

SEVEN = ["page.red", "page.blue", "page.green", "page.orange", "knight.red", "knight.blue", "ball"]


def test_players_take_in_turn_from_the_initiator_clockwise_round_after_round() -> None:
    state = setup(
        players=[{}, {}, {}, {}],
        deck=[
            "feast",
            "lord.red",
            "lord.blue",
            "lord.green",
            "lord.orange",
            "knight.red",
            "knight.blue",
            "poison",
        ],
        current=2,
        orders=["marriage"],
    )
    events = play(state, "draw")
    # seat 2 (the initiator) first, then 3, 0, 1, then round two from 2 again
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [2, 3, 0, 1, 2, 3]
    assert hand(state, 2) == ["knight.red", "lord.red"]
    assert hand(state, 3) == ["knight.blue", "lord.blue"]
    assert hand(state, 0) == ["lord.green"]
    assert hand(state, 1) == ["lord.orange"]
    assert not violations(state)


def test_ruling_a_smuta_turned_up_stays_face_up_on_top_and_is_not_resolved() -> None:
    """Что происходит, если при наборе игрок открывает смуту?"""
    state = setup(
        players=[{}, {}, {}],
        deck=["feast", "page.red", "grail", "page.blue"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "draw")
    # seat 0 took the Паж; seat 1 turned up Святой Грааль: it is neither taken nor resolved
    assert hand(state, 0) == ["page.red"]
    assert hand(state, 1) == []
    assert kinds(state, state.deck) == ["grail", "page.blue"]
    assert state.deck_top_open
    assert kinds(state, state.smuta_discard) == ["feast"]
    assert state.orders and len(state.orders) == 3  # Грааль did not happen
    # everyone, spectators included, sees the смута lying face up
    for seat in (None, 0, 1, 2):
        assert view_for(state, seat).deck_top_smuta == state.deck[0]
    revealed = [e for e in events if e.key == "feast.smuta_revealed"]
    assert len(revealed) == 1 and revealed[0].params["smuta"] == "grail" and revealed[0].to is None
    # the initiator's turn is over; the смута waits for someone's next turn
    assert state.current == 1
    assert [e.params["smuta"] for e in events if e.key == "smuta.start"] == ["feast"]
    events = play(state, "draw")
    assert "grail" in [e.params.get("smuta") for e in events if e.key == "smuta.start"]
    assert not state.deck_top_open
    assert not violations(state)


def test_ruling_nobody_takes_after_the_smuta_is_turned_up() -> None:
    """Можно ли после открытия смуты продолжить набор, если другие игроки ещё не упёрлись в лимит руки?"""  # noqa: E501
    state = setup(
        players=[{}, {}, {}, {}],
        deck=["feast", "page.red", "poison", "page.blue", "page.green"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    # seat 1 met the смута: seats 1, 2, 3 have room but take nothing, and nothing
    # is drawn from under the смута
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [0]
    assert [hand(state, s) for s in range(4)] == [["page.red"], [], [], []]
    assert kinds(state, state.deck) == ["poison", "page.blue", "page.green"]


def test_ruling_nobody_discards_during_the_feast() -> None:
    """Можно ли во время Великого Пира сбрасывать карты с руки, чтобы освободить место?"""
    state = setup(
        players=[{"hand": ["page.red"]}, {"hand": SEVEN}, {}],
        deck=["feast", "lord.red", "lord.blue", "lord.green", "poison"],
        orders=["marriage"],
    )
    d_before = state.decision
    events = play(state, "draw")
    # the whole feast resolves without a single question to anybody
    assert state.decision == d_before + 1
    assert decision(state).seat == 1 and decision(state).kind == "action"
    assert not [k for k in keys(events) if k.startswith("discard")]
    assert state.graveyard == [] and state.orders_discard == []
    # the full hand stayed full and was skipped: seats 0 and 2 shared the cards
    assert len(state.players[1].hand) == 7
    assert hand(state, 0) == ["lord.green", "lord.red", "page.red"]
    assert hand(state, 2) == ["lord.blue"]


def test_ruling_the_initiators_turn_ends_even_after_one_action() -> None:
    """После завершения Великого Пира ход инициатора продолжается?"""
    state = setup(
        players=[{"hand": ["lord.red"]}, {"hand": ["page.blue"]}],
        deck=["feast", "page.red", "page.green", "poison"],
        orders=["marriage"],
    )
    assert state.actions_left == 3
    events = play(state, "draw")
    assert state.current == 1
    assert state.actions_left == 3 and state.actions_taken == 0
    assert "turn.restart" not in keys(events)
    assert [e.params["seat"] for e in events if e.key == "turn.start"] == [1]


def test_ruling_a_permanent_castle_of_power_gives_the_initiator_a_new_turn() -> None:
    """После завершения Великого Пира ход инициатора продолжается?

    — Исключение — Красный замок Власти (с постоянным свойством)."""
    state = setup(
        players=[
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "knight.red"],
                        "castle": "permanent",
                    }
                ]
            },
            {},
        ],
        deck=["feast", "page.blue", "page.green", "page.orange", "poison"],
        actions_left=1,
        actions_taken=2,
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert "turn.restart" in keys(events)
    assert state.current == 0
    assert state.actions_left == 3 and state.actions_taken == 0
    assert hand(state, 0) == ["page.blue", "page.orange"]


RED_POWER = {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}


@pytest.mark.parametrize(
    "players",
    [
        pytest.param(
            [{"houses": [{**RED_POWER, "castle": "one_time"}]}, {}],
            id="a_one_time_castle_of_power_does_not_give_a_new_turn",
        ),
        pytest.param(
            [{}, {"houses": [{**RED_POWER, "castle": "permanent"}]}, {}],
            id="a_castle_of_power_of_another_player_gives_the_initiator_nothing",
        ),
    ],
)
def test_only_ones_own_permanent_castle_of_power_restarts_the_turn(
    players: list[dict[str, Any]],
) -> None:
    state = setup(players=players, deck=["feast", "page.blue", "poison"], orders=["marriage"])
    play(state, "draw")
    assert state.current == 1 and state.actions_taken == 0


def test_example_five_cards_take_two_and_then_stop() -> None:
    """У игрока 5 карт на руке. Он берёт ещё одну (6), потом ещё одну (7) и больше не участвует."""
    five = SEVEN[:5]
    state = setup(
        players=[{"hand": five}, {}],
        deck=[
            "feast",
            "lord.red",
            "lord.blue",
            "lord.green",
            "lord.orange",
            "knight.green",
            "knight.orange",
            "poison",
        ],
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [0, 1, 0, 1, 1, 1]
    assert len(state.players[0].hand) == 7
    assert hand(state, 1) == ["knight.green", "knight.orange", "lord.blue", "lord.orange"]
    assert kinds(state, state.deck) == ["poison"]
    assert state.deck_top_open


def test_example_a_player_holding_seven_skips_from_the_start() -> None:
    """Если кто-то уже имеет 7 карт на руке — он пропускает набор сразу."""
    state = setup(
        players=[{}, {"hand": SEVEN}, {}],
        deck=["feast", "lord.red", "lord.blue", "lord.green", "poison"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert 1 not in [e.params["seat"] for e in events if e.key == "feast.took"]
    assert hand(state, 0) == ["lord.green", "lord.red"]
    assert hand(state, 2) == ["lord.blue"]


def test_the_feast_stops_when_every_hand_is_full() -> None:
    six = SEVEN[:6]
    state = setup(
        players=[
            {"hand": ["lord.red", "lord.blue", "lord.green", "lord.orange", "knight.green"]},
            {"hand": [*six[:4], "infirmary", "marriage"]},
        ],
        deck=[
            "feast",
            "page.red",
            "page.blue",
            "page.green",
            "page.orange",
            "knight.red",
            "knight.blue",
            "healer.red",
        ],
        orders=["marriage"],
    )
    play(state, "draw")
    # seat 0 takes 2 (5 -> 7), seat 1 takes 1 (6 -> 7); the rest stays, face down
    assert [len(p.hand) for p in state.players] == [7, 7]
    assert kinds(state, state.deck) == ["page.orange", "knight.red", "knight.blue", "healer.red"]
    assert not state.deck_top_open
    assert state.current == 1


def test_the_feast_stops_when_the_game_deck_runs_out() -> None:
    state = setup(
        players=[{}, {}, {}], deck=["feast", "page.red", "page.blue"], orders=["marriage"]
    )
    events = play(state, "draw")
    assert hand(state, 0) == ["page.red"]
    assert hand(state, 1) == ["page.blue"]
    assert hand(state, 2) == []
    assert state.deck == []
    assert "deck.empty" in keys(events) and "feast.deck_empty" in keys(events)
    # the deck ran out: the last round of turns has begun
    assert state.final_turns is not None
    assert state.current == 1


def test_a_feast_drawn_from_the_last_card_of_the_deck_takes_nothing() -> None:
    state = setup(players=[{}, {}], deck=["feast"], orders=["marriage"])
    events = play(state, "draw")
    assert state.players[0].hand == []
    assert "feast.took" not in keys(events)
    assert "feast.deck_empty" in keys(events)
    assert kinds(state, state.smuta_discard) == ["feast"]


def test_two_players() -> None:
    state = setup(
        players=[{}, {}],
        deck=["feast", "page.red", "page.blue", "page.green", "conspiracy"],
        current=1,
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [1, 0, 1]
    assert hand(state, 1) == ["page.green", "page.red"]
    assert hand(state, 0) == ["page.blue"]
    assert state.current == 0


def test_six_players_the_round_wraps_past_the_last_seat() -> None:
    cards = [
        "page.red",
        "page.blue",
        "page.green",
        "page.orange",
        "knight.red",
        "knight.blue",
        "knight.green",
    ]
    state = setup(
        players=[{}] * 6, deck=["feast", *cards, "pestilence"], current=4, orders=["marriage"]
    )
    events = play(state, "draw")
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [4, 5, 0, 1, 2, 3, 4]
    assert hand(state, 4) == ["knight.green", "page.red"]
    assert hand(state, 5) == ["page.blue"]
    assert hand(state, 3) == ["knight.blue"]
    assert state.current == 5
    assert state.deck_top_open and kind(state, state.deck[0]) == "pestilence"


def test_only_the_taker_sees_the_card_taken() -> None:
    state = setup(
        players=[{}, {}, {}], deck=["feast", "lord.red", "page.blue", "poison"], orders=["marriage"]
    )
    events = play(state, "draw")
    assert secret_takes(state, events, "feast.took") == [
        ((0,), "lord.red"),
        ((1,), "page.blue"),
    ]


def test_a_full_hand_may_draw_the_smuta_left_face_up() -> None:
    state = setup(
        players=[{}, {"hand": SEVEN[:6]}],
        deck=["feast", "page.red", "lord.red", "grail", "lord.blue"],
        orders=["marriage"],
    )
    play(state, "draw")
    assert len(state.players[1].hand) == 7 and state.deck_top_open
    # seat 1 holds 7 cards yet may draw: the top card is a face-up смута
    assert ("draw",) in decision(state).options
    events = play(state, "draw")
    assert ("grail", 1) in [
        (e.params["smuta"], e.params["initiator"]) for e in events if e.key == "smuta.start"
    ]
    assert len(state.players[1].hand) == 7


def test_a_full_hand_may_not_draw_a_face_down_card() -> None:
    state = setup(
        players=[
            {"hand": ["lord.red", "lord.blue", "lord.green", "lord.orange", "healer.red", "ball"]},
            {"hand": SEVEN[:6]},
        ],
        deck=["feast", "page.red", "page.orange", "knight.green", "knight.orange"],
        current=0,
        orders=["marriage"],
    )
    play(state, "draw")
    # both hands filled up (7), so the feast stopped with the deck face down
    assert [len(p.hand) for p in state.players] == [7, 7]
    assert kinds(state, state.deck) == ["knight.green", "knight.orange"]
    assert not state.deck_top_open
    assert ("draw",) not in decision(state).options
