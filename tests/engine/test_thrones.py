"""🪑 Игра Престолов (smuty.ru.txt; RULES.md §6): from the initiator, clockwise,
each player shows their whole hand to the player on their left — to that player
only — who lays every Лорд from it into their own houses (a new house at either
end of their row if needed)."""

from __future__ import annotations

from engine import Event, GameState
from engine.cards import catalog_for
from engine.view import view_for
from tests.engine.helpers import decision, draw_smuta, hand, houses, play, smuta_over, strings

# Every position has an orders deck (a Лазарет): drawing is then not the only action,
# which a player would take on their own.


def looks(events: list[Event]) -> list[tuple[int, int]]:
    """(looker, owner) of every public «hand looked at», in order."""
    return [
        (e.params["seat"], e.params["target"])
        for e in events
        if e.key == "hand.looked" and e.params["reason"] == "thrones"
    ]


def shown(
    state: GameState, events: list[Event]
) -> list[tuple[tuple[int, ...] | None, int, list[str]]]:
    """(audience, owner, sorted kinds shown) of every hand shown, in order."""
    cat = catalog_for(state.rules)
    return [
        (e.to, e.params["target"], sorted(cat[c].type_key for c in e.params["cards"]))
        for e in events
        if e.key == "hand.shown"
    ]


# ------------------------------------------------------------------ the rulings
def test_without_lords_the_neighbour_only_looks() -> None:
    """Что происходит, если на руке соседа нет Лордов?
    — Вы просто смотрите его руку. Ничего не берёте и не выкладываете."""
    state, events = draw_smuta(
        "thrones",
        players=[
            {"hand": ["page.red", "ball"], "houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {"hand": ["knight.blue", "lady.blue"]},
        ],
        orders=["infirmary"],
    )
    assert shown(state, events) == [
        ((1,), 0, ["ball", "page.red"]),
        ((0,), 1, ["knight.blue", "lady.blue"]),
    ]
    assert hand(state, 0) == ["ball", "page.red"]
    assert hand(state, 1) == ["knight.blue", "lady.blue"]
    assert houses(state, 0) == [("red", ["knight.red"], None)]
    assert houses(state, 1) == []
    assert not [e for e in events if e.key == "placed"]
    smuta_over(state, "thrones", 1)


def test_hands_are_shown_from_the_initiator_clockwise() -> None:
    """В каком порядке игроки показывают руку?
    — Стартует инициатор смуты, затем по часовой стрелке все остальные."""
    state, events = draw_smuta(
        "thrones",
        players=[{"hand": ["page.red"]}, {"hand": ["page.blue"]}, {}, {"hand": ["page.green"]}],
        orders=["infirmary"],
        current=2,
    )
    # each owner shows to the player on their left: 2→3, 3→0, 0→1, 1→2
    assert looks(events) == [(3, 2), (0, 3), (1, 0), (2, 1)]
    assert [(to, owner) for to, owner, _ in shown(state, events)] == [
        ((3,), 2),
        ((0,), 3),
        ((1,), 0),
        ((2,), 1),
    ]
    smuta_over(state, "thrones", 3)


def test_lords_go_into_the_lookers_houses_of_their_colour() -> None:
    """Куда выкладываются Лорды? — Они выкладываются в дома того игрока, кто смотрел
    руку. В соответствующий по цвету дом или создают новый, если его нет."""
    state, _ = draw_smuta(
        "thrones",
        players=[
            {"hand": ["lord.red", "knight.blue", "lord.blue", "ball"]},
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
        ],
        orders=["infirmary"],
    )
    # the red Лорд joins seat 1's red house; the blue one needs a new house
    d = decision(state)
    assert d.seat == 1 and d.kind == "house_end"
    assert set(d.options) == {("left",), ("right",)}
    assert houses(state, 1) == [("red", ["page.red", "lord.red"], None)]
    play(state, "left")
    assert houses(state, 1) == [
        ("blue", ["lord.blue"], None),
        ("red", ["page.red", "lord.red"], None),
    ]
    # «Приказ остаётся на руке соседа», and so does the Рыцарь
    assert hand(state, 0) == ["ball", "knight.blue"]
    assert houses(state, 0) == []
    smuta_over(state, "thrones", 1)


def test_the_example_red_lord_and_blue_knight() -> None:
    """Пример: у соседа на руке есть Красный Лорд и Синий Рыцарь — Красный Лорд
    выкладывается в дом смотрящего игрока, приказ остаётся на руке соседа."""
    state, _ = draw_smuta(
        "thrones",
        players=[{"hand": ["lord.red", "knight.blue", "marriage"]}, {}],
        orders=["infirmary"],
    )
    assert houses(state, 1) == [("red", ["lord.red"], None)]
    assert hand(state, 0) == ["knight.blue", "marriage"]
    smuta_over(state, "thrones", 1)


# ------------------------------------------------------------------ the effect
def test_the_hand_is_shown_to_the_looker_only() -> None:
    """«показывают все карты на руке игроку слева»: the cards go in an event for
    the looker alone; no public event names a card that stays hidden."""
    state, events = draw_smuta(
        "thrones",
        players=[
            {"hand": ["page.red", "lord.green", "ball"]},
            {"hand": ["knight.blue", "marriage"]},
            {"hand": ["spy.orange"]},
        ],
        orders=["infirmary"],
    )
    hidden = {
        seat: {c for c in p.hand if catalog_for(state.rules)[c].type != "lord"}
        for seat, p in enumerate(state.players)
    }
    for e in events:
        mentioned = {c for v in e.params.values() for c in (v if isinstance(v, list) else [v])}
        for owner, secret in hidden.items():
            if mentioned & secret:
                assert e.to == ((owner + 1) % 3,), e
    assert shown(state, events) == [
        ((1,), 0, ["ball", "lord.green", "page.red"]),
        ((2,), 1, ["knight.blue", "marriage"]),
        ((0,), 2, ["spy.orange"]),
    ]
    # the Лорд is laid out in the open; the rest stays hidden from the third player
    assert houses(state, 1) == [("green", ["lord.green"], None)]
    third = set(strings(view_for(state, 2).model_dump(mode="json")))
    assert state.players[0].hand and not third & set(state.players[0].hand)


def test_every_lord_of_the_hand_is_laid_out() -> None:
    """«Все карты Лордов, найденные на руке соседа, немедленно выкладываются»."""
    state, _ = draw_smuta(
        "thrones",
        players=[
            {"hand": ["lord.red", "lord.red", "lord.orange", "page.orange"]},
            {
                "houses": [
                    {"colour": "red", "cards": ["page.red"]},
                    {"colour": "orange", "cards": ["page.orange"]},
                ]
            },
        ],
        orders=["infirmary"],
    )
    assert houses(state, 1) == [
        ("red", ["page.red", "lord.red", "lord.red"], None),
        ("orange", ["page.orange", "lord.orange"], None),
    ]
    assert hand(state, 0) == ["page.orange"]
    smuta_over(state, "thrones", 1)


def test_a_looker_with_a_full_hand_still_gets_the_lords() -> None:
    """The Лорды go into houses, not the hand: a looker holding 7 cards gets them too."""
    full = ["page.red", "page.red", "page.blue", "page.blue", "page.green", "page.green", "ball"]
    state, _ = draw_smuta(
        "thrones", players=[{"hand": ["lord.blue"]}, {"hand": full}], orders=["infirmary"]
    )
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    assert len(state.players[1].hand) == 7
    assert hand(state, 0) == []
    smuta_over(state, "thrones", 1)


def test_an_initiator_with_a_full_hand_draws_the_open_smuta() -> None:
    """A player holding 7 cards may draw a face-up смута; their Лорды go left."""
    full = ["lord.red", "page.red", "page.blue", "page.blue", "page.green", "page.green", "ball"]
    state, _ = draw_smuta(
        "thrones", players=[{"hand": full}, {}], orders=["infirmary"], deck_top_open=True
    )
    assert houses(state, 1) == [("red", ["lord.red"], None)]
    assert len(state.players[0].hand) == 6
    smuta_over(state, "thrones", 1)


def test_a_lord_joins_the_lookers_own_castle_house() -> None:
    """The looker lays the Лорд into their own row, castle house included (RULES.md §5)."""
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "one_time"}
    state, _ = draw_smuta(
        "thrones", players=[{"hand": ["lord.red"]}, {"houses": [castle]}], orders=["infirmary"]
    )
    assert houses(state, 1) == [
        ("red", ["lord.red", "page.red", "page.red", "lord.red"], "one_time")
    ]
    smuta_over(state, "thrones", 1)


def test_two_players_show_each_other_and_lords_are_not_shown_back() -> None:
    """Two players: the initiator shows to the other, then the other to the
    initiator; Лорды already laid out are no longer in a hand to be shown."""
    state, events = draw_smuta(
        "thrones",
        players=[{"hand": ["lord.red", "page.red"]}, {"hand": ["lord.blue"]}],
        orders=["infirmary"],
    )
    assert looks(events) == [(1, 0), (0, 1)]
    assert shown(state, events)[1] == ((0,), 1, ["lord.blue"])
    assert houses(state, 0) == [("blue", ["lord.blue"], None)]
    assert houses(state, 1) == [("red", ["lord.red"], None)]
    assert hand(state, 0) == ["page.red"]
    assert hand(state, 1) == []
    smuta_over(state, "thrones", 1)


def test_six_players_the_last_shows_to_the_first() -> None:
    """Six players, seat 5 draws: 5 shows to 0 first, and 4 shows to 5 last."""
    state, events = draw_smuta(
        "thrones",
        players=[
            {},
            {"hand": ["lord.blue"]},
            {},
            {},
            {"hand": ["lord.green"]},
            {"hand": ["lord.red"]},
        ],
        orders=["infirmary"],
        current=5,
    )
    assert looks(events) == [(0, 5), (1, 0), (2, 1), (3, 2), (4, 3), (5, 4)]
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 2) == [("blue", ["lord.blue"], None)]
    assert houses(state, 5) == [("green", ["lord.green"], None)]
    assert all(hand(state, seat) == [] for seat in range(6))
    smuta_over(state, "thrones", 0)


def test_empty_hands_and_the_turn_still_ends() -> None:
    """A смута with no effect still ends the turn (RULES.md §6); empty hands are
    still shown (nothing to see)."""
    state, events = draw_smuta("thrones", players=[{}, {}, {}], orders=["infirmary"])
    assert looks(events) == [(1, 0), (2, 1), (0, 2)]
    assert all(cards == [] for _, _, cards in shown(state, events))
    smuta_over(state, "thrones", 1)
