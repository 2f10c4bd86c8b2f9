"""🤢 Отрава (smuty.ru.txt; RULES.md §6): one round from the initiator, clockwise.
Each player may discard one card from their hand (a house card or an order); for
it they send one card from any house — theirs or an opponent's — to the
graveyard. Castle houses and houses with an Алхимик cannot be targeted, by
anyone. The discard happens first; a permanent Замок Интриг / Замок Знаний of
another player captures the discard. The смута ends the initiator's turn."""

from __future__ import annotations

from typing import Any

from engine.scenario import play
from engine.state import GameState
from tests.engine.helpers import (
    asked,
    decision,
    draw_smuta,
    hand,
    houses,
    kind,
    kinds,
    setup,
    smuta_over,
)


def targets(state: GameState) -> set[tuple[int, str]]:
    """The poison targets offered: (seat, card kind)."""
    d = decision(state)
    assert d.kind == "poison.target"
    return {(int(o[0]), kind(state, o[1])) for o in d.options}


# ------------------------------------------------------------------ rulings
def test_ruling_an_order_may_be_discarded_for_poison() -> None:
    """Можно ли сбросить приказ с руки, чтобы активировать Отраву?

    Да: any card of the hand will do — the order goes to the orders discard
    and buys a kill."""
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["ball", "page.orange"]},
            {
                "hand": ["page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}],
            },
        ],
    )
    assert asked(state) == (0, "poison.discard")
    assert {kind(state, o[0]) for o in decision(state).options if o != ("pass",)} == {
        "ball",
        "page.orange",
    }
    play(state, "ball")
    assert kinds(state, state.orders_discard) == ["ball"]
    assert hand(state, 0) == ["page.orange"]
    assert asked(state) == (0, "poison.target")
    play(state, "1", "lord.red")
    assert houses(state, 1) == [("red", ["page.red"], None)]
    assert kinds(state, state.graveyard) == ["lord.red"]


def test_ruling_a_card_in_a_castle_house_cannot_be_poisoned() -> None:
    """Могу ли я отправить в колоду сгинувших карту, которая находится в замке?

    Нет: no card of a castle house is ever offered as a target."""
    state, _ = draw_smuta(
        "poison",
        players=[
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
            {
                "hand": ["page.blue"],
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": "one_time",
                    },
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
        ],
    )
    play(state, "page.orange")
    # the only legal target is taken at once: nobody is asked a question with one answer
    assert houses(state, 1) == [("green", ["lord.green", "page.green", "knight.green"], "one_time")]
    assert houses(state, 0) == [("red", ["lord.red", "page.red", "knight.red"], "one_time")]
    assert kinds(state, state.graveyard) == ["lord.blue", "page.orange"]
    # seat 1 has a card, but no target is left anywhere: they are not asked
    assert hand(state, 1) == ["page.blue"]
    smuta_over(state, "poison", 1)


def test_ruling_you_may_poison_a_card_of_your_own() -> None:
    """Что происходит, если я сбрасываю карту с руки, но хочу убрать карту дома у себя?

    Можно: the target may be your own card as well as an opponent's."""
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "red", "cards": ["lord.red", "plague.red"]}],
            },
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
    )
    play(state, "page.orange")
    assert targets(state) == {(0, "lord.red"), (0, "plague.red"), (1, "lord.blue")}
    play(state, "0", "plague.red")
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    assert kinds(state, state.graveyard) == ["plague.red", "page.orange"]


def intrigue_position(owner_hand: list[str]) -> dict[str, Any]:
    return {
        "players": [
            {"hand": ["merchant.green", "page.orange"]},
            {
                "hand": owner_hand,
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "permanent",
                    },
                    {"colour": "red", "cards": ["lord.red"]},
                ],
            },
        ],
    }


def test_ruling_castle_of_intrigue_takes_an_order_discarded_for_poison() -> None:
    """У меня построен Синий замок Интриг с постоянным свойством. Соперник сбрасывает
    «Зелёного купца», чтобы воспользоваться Отравой. Этот приказ идёт мне в руку?

    Да, если вам хватает лимита."""
    state, _ = draw_smuta("poison", **intrigue_position(["page.green"]))
    events = play(state, "merchant.green")
    assert hand(state, 1) == ["merchant.green", "page.green"]
    assert hand(state, 0) == ["page.orange"]
    assert state.orders_discard == []
    captured = [e for e in events if e.key == "discard.captured"]
    assert len(captured) == 1 and captured[0].params["owner"] == 1
    # the discard still bought a kill (the only target: seat 1's red Лорд)
    assert houses(state, 1)[1:] == []
    assert kinds(state, state.graveyard) == ["lord.red"]


def test_castle_of_intrigue_with_a_full_hand_lets_the_order_go_to_the_discard() -> None:
    """… «если вам хватает лимита»: with 7 cards the owner gets nothing."""
    full = ["page.green", "page.green", "lord.green", "lord.green", "knight.green"]
    full += ["healer.green", "jester.green"]
    state, _ = draw_smuta("poison", **intrigue_position(full))
    play(state, "merchant.green")
    assert len(state.players[1].hand) == 7
    assert "merchant.green" not in hand(state, 1)
    assert kinds(state, state.orders_discard) == ["merchant.green"]


def knowledge_position(owner_hand: list[str], side: str = "permanent") -> dict[str, Any]:
    return {
        "players": [
            {"hand": ["page.green", "page.orange"]},
            {
                "hand": owner_hand,
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": side,
                    },
                    {"colour": "red", "cards": ["lord.red"]},
                ],
            },
        ],
    }


def test_ruling_castle_of_knowledge_takes_a_house_card_discarded_for_poison() -> None:
    """У меня построен Зелёный замок Знаний с постоянным свойством. Соперник сбрасывает
    «Зелёного Пажа», чтобы воспользоваться Отравой. Этот Паж идёт мне в руку?

    Да, если вам хватает лимита."""
    state, _ = draw_smuta("poison", **knowledge_position(["ball"]))
    play(state, "page.green")
    assert hand(state, 1) == ["ball", "page.green"]
    assert hand(state, 0) == ["page.orange"]
    # the graveyard holds only the poisoned card, not the discarded Паж
    assert kinds(state, state.graveyard) == ["lord.red"]


def test_castle_of_knowledge_with_a_full_hand_lets_the_card_go_to_the_graveyard() -> None:
    full = ["ball", "ball", "marriage", "marriage", "infirmary", "infirmary", "ball"]
    state, _ = draw_smuta("poison", **knowledge_position(full))
    play(state, "page.green")
    assert len(state.players[1].hand) == 7
    assert "page.green" not in hand(state, 1)
    # the discard went first, then the poisoned card on top of it
    assert kinds(state, state.graveyard) == ["lord.red", "page.green"]


def test_a_one_time_castle_side_captures_nothing() -> None:
    state, _ = draw_smuta("poison", **knowledge_position(["ball"], side="one_time"))
    play(state, "page.green")
    assert hand(state, 1) == ["ball"]
    assert kinds(state, state.graveyard) == ["lord.red", "page.green"]


def test_a_castle_owner_does_not_capture_their_own_discard() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.green", "ball"],
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": "permanent",
                    },
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "permanent",
                    },
                ],
            },
            {
                "hand": ["page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}],
            },
        ],
    )
    play(state, "page.green")
    assert hand(state, 0) == ["ball"]
    assert kinds(state, state.graveyard) == ["page.green"]
    play(state, "1", "page.red")
    assert kinds(state, state.graveyard) == ["page.red", "page.green"]


def test_ruling_an_alchemist_protects_his_house_from_everyone() -> None:
    """Алхимик запрещает травить только соперникам карты в моём доме с ним, или мне тоже?

    Всем: neither the owner nor an opponent may target any card of his house."""
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "alchemist.red"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
            {
                "hand": ["page.green"],
                "houses": [
                    # an Алхимик married in from another colour protects this house too
                    {"colour": "green", "cards": ["lord.green", "alchemist.orange"]},
                    {"colour": "orange", "cards": ["page.orange", "knight.orange"]},
                ],
            },
        ],
    )
    play(state, "page.orange")
    assert targets(state) == {(0, "lord.blue"), (1, "page.orange"), (1, "knight.orange")}
    play(state, "1", "page.orange")
    assert asked(state) == (1, "poison.discard")
    play(state, "page.green")
    assert targets(state) == {(0, "lord.blue"), (1, "knight.orange")}
    play(state, "0", "lord.blue")
    assert houses(state, 0) == [("red", ["lord.red", "alchemist.red"], None)]
    assert houses(state, 1) == [
        ("green", ["lord.green", "alchemist.orange"], None),
        ("orange", ["knight.orange"], None),
    ]


# ------------------------------------------------------------------ the effect
def test_one_round_from_the_initiator_clockwise_then_the_turn_ends() -> None:
    """Three players, seat 1 draws: 1, 2, 0 each get one go — and only one,
    though everyone still has cards and targets."""
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.red", "page.red"],
                "houses": [{"colour": "red", "cards": ["lord.red"]}],
            },
            {
                "hand": ["page.blue", "page.blue"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "knight.blue"]}],
            },
            {
                "hand": ["page.green", "page.green"],
                "houses": [{"colour": "green", "cards": ["lord.green", "knight.green"]}],
            },
        ],
        current=1,
    )
    assert asked(state) == (1, "poison.discard")
    play(state, "page.blue")
    play(state, "2", "knight.green")
    assert asked(state) == (2, "poison.discard")
    play(state, "page.green")
    play(state, "1", "knight.blue")
    assert asked(state) == (0, "poison.discard")
    play(state, "page.red")
    play(state, "2", "lord.green")
    assert houses(state, 2) == []
    assert kinds(state, state.graveyard) == [
        "lord.green", "page.red",
        "knight.blue", "page.green",
        "knight.green", "page.blue",
    ]  # fmt: skip
    smuta_over(state, "poison", 2)


def test_the_discard_goes_first_and_the_poisoned_card_lands_on_top() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.orange"]},
            {
                "hand": ["page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}],
            },
        ],
        graveyard=["knight.green"],
    )
    events = play(state, "page.orange")
    assert [e.key for e in events] == ["discard"]
    assert events[0].to is None  # a discard is face up
    assert kinds(state, state.graveyard) == ["page.orange", "knight.green"]
    events = play(state, "1", "page.red")
    killed = [e for e in events if e.key == "card.killed"]
    assert len(killed) == 1 and killed[0].to is None and killed[0].params["by"] == 0
    assert kinds(state, state.graveyard) == ["page.red", "page.orange", "knight.green"]


def test_a_player_may_pass_and_then_loses_nothing() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
    )
    assert ("pass",) in decision(state).options
    play(state, "pass")
    assert hand(state, 0) == ["page.orange"]
    assert asked(state) == (1, "poison.discard")
    play(state, "pass")
    assert state.graveyard == []
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    smuta_over(state, "poison", 1)


def test_a_player_with_an_empty_hand_is_skipped() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
            {"hand": [], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
            {"hand": ["page.green"], "houses": [{"colour": "green", "cards": ["lord.green"]}]},
        ],
    )
    play(state, "pass")
    assert asked(state) == (2, "poison.discard")


def test_with_no_target_anywhere_nobody_is_asked_and_the_turn_ends() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.orange", "ball"],
                "houses": [{"colour": "red", "cards": ["lord.red", "alchemist.red"]}],
            },
            {
                "hand": ["page.blue", "ball"],
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "one_time",
                    }
                ],
            },
        ],
    )
    assert hand(state, 0) == ["ball", "page.orange"]
    assert state.graveyard == [] and state.orders_discard == []
    smuta_over(state, "poison", 1)


def test_with_no_houses_on_the_table_the_smuta_still_ends_the_turn() -> None:
    state = setup(
        players=[{"hand": ["lord.red", "page.red"]}, {"hand": ["page.blue"]}],
        deck=["poison", "lord.orange"],
    )
    play(state, "draw")
    assert hand(state, 0) == ["lord.red", "page.red"]
    smuta_over(state, "poison", 1)


def test_poisoning_the_last_card_of_a_house_removes_the_house() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.orange"]},
            {
                "hand": ["page.red"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "green", "cards": ["lord.green"]},
                ],
            },
        ],
    )
    play(state, "page.orange")
    play(state, "1", "page.blue")
    assert [h[0] for h in houses(state, 1)] == ["red", "green"]


def test_any_card_of_a_house_may_be_poisoned_not_just_the_newest() -> None:
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.orange"]},
            {
                "hand": ["page.red"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}],
            },
        ],
    )
    play(state, "page.orange")
    assert targets(state) == {(1, "lord.red"), (1, "page.red"), (1, "knight.red")}
    play(state, "1", "lord.red")
    assert houses(state, 1) == [("red", ["page.red", "knight.red"], None)]


def test_a_full_hand_may_discard_as_usual() -> None:
    full = ["page.orange", "page.orange", "lord.green", "lord.green", "knight.green", "ball"]
    full += ["marriage"]
    state, _ = draw_smuta(
        "poison",
        players=[
            {"hand": ["page.blue"]},
            {"hand": full, "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}]},
        ],
    )
    play(state, "pass")
    assert len(state.players[1].hand) == 7
    assert asked(state) == (1, "poison.discard")
    play(state, "marriage")
    play(state, "1", "page.red")
    assert len(state.players[1].hand) == 6
    assert kinds(state, state.graveyard) == ["page.red"]
    assert kinds(state, state.orders_discard) == ["marriage"]


def test_six_players_go_in_order_from_the_initiator() -> None:
    colours = ["red", "blue", "green", "orange", "red", "blue"]
    players: list[dict[str, Any]] = [
        {"hand": [f"page.{c}"], "houses": [{"colour": c, "cards": [f"lord.{c}"]}]} for c in colours
    ]
    state, _ = draw_smuta("poison", players=players, current=4, orders=["marriage"])
    seen = []
    for _ in range(6):
        seat, what = asked(state)
        assert what == "poison.discard"
        seen.append(seat)
        play(state, "pass")
    assert seen == [4, 5, 0, 1, 2, 3]
    smuta_over(state, "poison", 5)


def test_a_permanent_castle_of_power_gives_the_initiator_a_new_turn() -> None:
    """Отрава is no disaster: the castle stays and the initiator plays again."""
    state, _ = draw_smuta(
        "poison",
        players=[
            {
                "hand": ["page.orange", "page.blue"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "knight.red"],
                        "castle": "permanent",
                    }
                ],
            },
            {
                "hand": ["page.green"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue"]}],
            },
        ],
    )
    play(state, "page.orange")
    play(state, "1", "lord.blue")
    play(state, "pass")
    assert houses(state, 1) == [("blue", ["page.blue"], None)]
    assert houses(state, 0)[0][2] == "permanent"
    assert kinds(state, state.smuta_discard) == ["poison"]
    assert state.current == 0 and state.actions_left == 3
    assert asked(state) == (0, "action")
