"""Why a usual action is missing (engine.explain): the reasons agree with the
legal actions, and their numbers come from the game's Rules."""

from __future__ import annotations

from engine import pending
from engine.explain import Missing, missing_actions
from engine.scenario import build


def _position(
    hand: list[str], houses: list[dict[str, object]], **more: object
) -> dict[str, object]:
    return {
        "players": [{"hand": hand, "houses": houses}, {"houses": []}],
        "deck": ["page.red"],
        "orders": ["marriage"],
        "current": 0,
        "actions_left": 3,
        **more,
    }


def test_a_full_hand_tells_the_games_limit_and_no_draw_is_offered() -> None:
    state = build(_position(["page.red", "page.blue", "page.green"], [], rules={"hand_limit": 3}))
    decision = pending(state)
    assert decision is not None
    assert ("draw",) not in decision.options and ("order",) not in decision.options
    assert Missing("hand_full", {"limit": 3, "smuta_open": False}) in missing_actions(state, 0)


def test_a_ready_house_without_its_merchant_names_its_colour() -> None:
    state = build(
        _position(
            ["page.orange"], [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}]
        )
    )
    assert [m for m in missing_actions(state, 0) if m.reason.startswith("castle")] == [
        Missing("castle_no_merchant", {"colour": "red"})
    ]


def test_a_merchant_whose_house_is_not_ready_says_what_it_lacks() -> None:
    state = build(
        _position(
            ["merchant.blue", "merchant.green"],
            [
                {"colour": "blue", "cards": ["page.blue", "knight.blue"]},
            ],
            rules={"castle_min_cards": 2},
        )
    )
    decision = pending(state)
    assert decision is not None and not any(o[0] == "build" for o in decision.options)
    found = {
        m.params["colour"]: m.params
        for m in missing_actions(state, 0)
        if m.reason == "castle_house"
    }
    assert found["blue"]["lord"] == "no" and found["blue"]["cards"] == 2
    assert found["green"]["house"] == "none"


def test_nothing_is_missing_when_everything_is_possible() -> None:
    state = build(_position(["page.red"], []))
    assert missing_actions(state, 0) == []
