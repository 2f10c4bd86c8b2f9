"""✨ Новая Эпоха (smuty.ru.txt; RULES.md §3.3, §6): from the initiator,
clockwise, round after round, each player lays out the top card of the
graveyard until it is empty. Properties fire at once; a card sent to the
graveyard meanwhile (Алхимик) is the next to come back; a resurrected Чумовой
or Блудница may go into any player's house but never an opponent's castle house
(the same holds for Лазарет and Замок Знаний)."""

from __future__ import annotations

from engine import Event, GameState
from engine.cards import catalog_for
from engine.scenario import play
from tests.engine.helpers import decision, draw_smuta, hand, houses, options, setup, smuta_over

# Every position has an orders deck (a Лазарет): drawing is then not the only action,
# which a player would take on their own.


def raised(state: GameState, events: list[Event]) -> list[tuple[int, str, int]]:
    """(resurrector, card kind, row it went to) of every resurrection, in order."""
    cat = catalog_for(state.rules)
    return [
        (e.params["seat"], cat[e.params["card"]].type_key, e.params["target"])
        for e in events
        if e.key == "resurrected"
    ]


def era_over(state: GameState, seat: int) -> None:
    """Новая Эпоха is over: the graveyard is empty, and the turn has passed to `seat`."""
    assert state.graveyard == []
    smuta_over(state, "new_era", seat)


# ------------------------------------------------------------------ the rulings
def test_the_whole_graveyard_is_laid_out_in_one_smuta() -> None:
    """Все карты из колоды сгинувших распределяются за одну смуту?
    — Да. Смуту «Новая Эпоха» играют полностью, пока не опустеет вся колода сгинувших."""
    state, events = draw_smuta(
        "new_era",
        players=[{}, {}],
        orders=["infirmary"],
        graveyard=["page.red", "page.blue", "knight.red", "knight.blue", "lord.red"],
    )
    assert raised(state, events) == [
        (0, "page.red", 0),
        (1, "page.blue", 1),
        (0, "knight.red", 0),
        (1, "knight.blue", 1),
        (0, "lord.red", 0),
    ]
    assert houses(state, 0) == [("red", ["page.red", "knight.red", "lord.red"], None)]
    assert houses(state, 1) == [("blue", ["page.blue", "knight.blue"], None)]
    era_over(state, 1)


def test_the_initiator_starts_then_clockwise() -> None:
    """Кто начинает? — Игрок, который вытянул смуту «Новая Эпоха». Далее строго по
    часовой стрелке."""
    state, events = draw_smuta(
        "new_era",
        players=[{}, {}, {}],
        orders=["infirmary"],
        graveyard=["page.red", "page.blue", "knight.green", "knight.red"],
        current=1,
    )
    assert raised(state, events) == [
        (1, "page.red", 1),
        (2, "page.blue", 2),
        (0, "knight.green", 0),
        (1, "knight.red", 1),
    ]
    assert houses(state, 1) == [("red", ["page.red", "knight.red"], None)]
    assert houses(state, 2) == [("blue", ["page.blue"], None)]
    assert houses(state, 0) == [("green", ["knight.green"], None)]
    era_over(state, 2)


def test_a_card_the_alchemist_kills_is_the_next_to_come_back() -> None:
    """Если в ходе смуты воскрес Алхимик и благодаря своему свойству отправил карту
    на столе в колоду сгинувших, она попадёт наверх или под низ?
    — Всегда наверх. Если Алхимик воскрес и кого-то «убил», следующая карта для
    воскрешения будет именно эта."""
    state, _ = draw_smuta(
        "new_era",
        players=[
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "green", "cards": ["knight.green", "page.green"]}]},
        ],
        orders=["infirmary"],
        graveyard=["alchemist.red", "page.blue"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "alchemist.kill"
    # any card on the table, but not from the house the Алхимик now stands in
    assert options(state) == {("1", "knight.green"), ("1", "page.green"), ("skip",)}
    events = play(state, "1", "knight.green")
    # the Рыцарь comes back first, then the Паж that lay under the Алхимик
    assert raised(state, events) == [(1, "knight.green", 1), (0, "page.blue", 0)]
    assert houses(state, 1) == [("green", ["page.green", "knight.green"], None)]
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    play(state, "right")
    assert houses(state, 0) == [
        ("red", ["page.red", "alchemist.red"], None),
        ("blue", ["page.blue"], None),
    ]
    era_over(state, 1)


def test_an_alchemist_killing_refills_an_emptied_graveyard() -> None:
    """Если Алхимик воскрес и кого-то «убил», следующая карта для воскрешения будет
    именно эта — even when he was the last card: the era goes on."""
    state, _ = draw_smuta(
        "new_era",
        players=[
            {},
            {"houses": [{"colour": "green", "cards": ["knight.green", "page.green"]}]},
        ],
        orders=["infirmary"],
        graveyard=["alchemist.red"],
    )
    events = play(state, "1", "page.green")
    assert raised(state, events) == [(1, "page.green", 1)]
    assert houses(state, 1) == [("green", ["knight.green", "page.green"], None)]
    assert houses(state, 0) == [("red", ["alchemist.red"], None)]
    era_over(state, 1)


def test_the_alchemist_cannot_kill_in_a_castle_house_or_beside_an_alchemist() -> None:
    """The Алхимик's victim comes from any house but a castle house or a house
    with an Алхимик (RULES.md §1)."""
    castle = {
        "colour": "blue",
        "cards": ["lord.blue", "page.blue", "page.blue"],
        "castle": "one_time",
    }
    state, _ = draw_smuta(
        "new_era",
        players=[
            {"houses": [castle]},
            {
                "houses": [
                    {"colour": "green", "cards": ["alchemist.green", "page.green"]},
                    {"colour": "orange", "cards": ["page.orange"]},
                ]
            },
        ],
        orders=["infirmary"],
        graveyard=["alchemist.red"],
    )
    play(state, "left")  # the Алхимик's new red house
    assert decision(state).seat == 0 and decision(state).kind == "alchemist.kill"
    assert options(state) == {("1", "page.orange"), ("skip",)}
    play(state, "skip")
    assert state.graveyard == []
    era_over(state, 1)


def test_a_plague_carrier_may_be_planted_in_an_opponents_house() -> None:
    """Можно ли в рамках смуты «Новая Эпоха» подкладывать воскрешаемых Чумовых и
    Блудниц в дома соперников или обязательно в свой? — Можно. … вы выбираете дом
    любого игрока."""
    state, _ = draw_smuta(
        "new_era",
        players=[
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {},
        ],
        orders=["infirmary"],
        graveyard=["plague.blue", "page.green"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "plant_row"
    assert set(d.options) == {("0",), ("1",), ("2",)}
    events = play(state, "1")
    assert raised(state, events) == [(0, "plague.blue", 1), (1, "page.green", 1)]
    # seat 1 then raises the green Паж for itself and picks that house's end
    assert decision(state).seat == 1 and decision(state).kind == "house_end"
    play(state, "left")
    assert houses(state, 1) == [
        ("green", ["page.green"], None),
        ("blue", ["page.blue", "plague.blue"], None),
    ]
    assert houses(state, 0) == [("red", ["page.red"], None)]
    era_over(state, 1)


def test_a_harlot_never_goes_into_an_opponents_castle_house() -> None:
    """Можно ли … подкладывать воскрешаемых Чумовых и Блудниц в дома соперников?
    — Можно. Нельзя только класть их в чужой замок."""
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "one_time"}
    state, _ = draw_smuta(
        "new_era",
        players=[
            {},
            {"houses": [castle]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
        ],
        orders=["infirmary"],
        graveyard=["harlot.red"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "plant_row"
    assert set(d.options) == {("0",), ("2",)}
    play(state, "2")
    # the owner of the row chooses the end of the new house
    d = decision(state)
    assert d.seat == 2 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 2) == [("red", ["harlot.red"], None), ("blue", ["page.blue"], None)]
    assert houses(state, 1) == [("red", ["lord.red", "page.red", "page.red"], "one_time")]
    era_over(state, 1)


def test_a_harlot_goes_to_the_resurrector_when_the_only_opponent_has_that_castle() -> None:
    """Нельзя только класть их в чужой замок: with the one opponent's red house
    castled, the red Блудница can only come to the resurrector (no question asked)."""
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "permanent"}
    state, events = draw_smuta(
        "new_era",
        players=[{}, {"houses": [castle]}],
        orders=["infirmary"],
        graveyard=["harlot.red"],
    )
    assert raised(state, events) == [(0, "harlot.red", 0)]
    assert houses(state, 0) == [("red", ["harlot.red"], None)]
    era_over(state, 1)


def test_a_plague_carrier_may_go_into_ones_own_castle_house() -> None:
    """Нельзя только класть их в чужой замок: one's own castle house is allowed."""
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "one_time"}
    state, _ = draw_smuta(
        "new_era",
        players=[{"houses": [castle]}, {}],
        orders=["infirmary"],
        graveyard=["plague.red"],
    )
    assert set(decision(state).options) == {("0",), ("1",)}
    play(state, "0")
    assert houses(state, 0) == [
        ("red", ["lord.red", "page.red", "page.red", "plague.red"], "one_time")
    ]
    era_over(state, 1)


def test_infirmary_plants_a_harlot_in_an_opponents_house() -> None:
    """Можно ли … подкладывать воскрешаемых Чумовых и Блудниц в дома соперников?
    — Можно. При воскрешении … через Лазарет … вы выбираете дом любого игрока.
    Нельзя только класть их в чужой замок."""
    castle = {
        "colour": "green",
        "cards": ["lord.green", "page.green", "page.green"],
        "castle": "one_time",
    }
    state = setup(
        players=[{"hand": ["infirmary", "page.red"]}, {"houses": [castle]}, {}],
        graveyard=["harlot.green"],
        deck=["healer.orange"],
    )
    play(state, "play", "infirmary")
    d = decision(state)
    assert d.seat == 0 and d.kind == "plant_row"
    assert set(d.options) == {("0",), ("2",)}
    play(state, "2")
    assert houses(state, 2) == [("green", ["harlot.green"], None)]
    assert state.current == 0 and state.actions_left == 2  # an order: the turn goes on


def test_the_castle_of_knowledge_plants_a_plague_carrier_in_an_opponents_house() -> None:
    """Можно ли … подкладывать воскрешаемых Чумовых и Блудниц в дома соперников?
    — Можно. При воскрешении … через … Зелёный замок Знаний вы выбираете дом любого игрока."""
    state = setup(
        players=[
            {
                "hand": ["merchant.green"],
                "houses": [
                    {"colour": "green", "cards": ["lord.green", "page.green", "page.green"]}
                ],
            },
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
        ],
        graveyard=["plague.orange"],
        deck=["healer.orange"],
    )
    play(state, "build", "merchant.green", "one_time")
    d = decision(state)
    assert d.seat == 0 and d.kind == "plant_row"
    assert set(d.options) == {("0",), ("1",)}
    play(state, "1")
    assert houses(state, 1) == [("orange", ["page.orange", "plague.orange"], None)]
    assert houses(state, 0)[0][2] == "one_time"


# ------------------------------------------------------------------ the effect
def test_an_empty_graveyard_does_nothing_and_the_turn_ends() -> None:
    """A смута with no effect still ends the turn (RULES.md §6)."""
    state, events = draw_smuta(
        "new_era", players=[{"hand": ["lord.red"]}, {}], orders=["infirmary"]
    )
    assert raised(state, events) == []
    assert hand(state, 0) == ["lord.red"]
    assert houses(state, 0) == [] and houses(state, 1) == []
    era_over(state, 1)


def test_a_spy_raised_looks_and_discards_an_order_without_drawing() -> None:
    """Пример: игрок вытягивает из колоды сгинувших Лазутчицу → она тут же даёт
    возможность посмотреть руку соперника и сбросить оттуда приказ."""
    state, _ = draw_smuta(
        "new_era",
        players=[{"hand": ["page.red"]}, {"hand": ["ball", "lord.blue"]}, {"hand": ["marriage"]}],
        orders=["infirmary"],
        graveyard=["spy.green", "page.orange"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "spy.target"
    events = play(state, "1")
    shown = [e for e in events if e.key == "hand.shown"]
    assert len(shown) == 1 and shown[0].to == (0,) and shown[0].params["target"] == 1
    assert options(state) == {("ball",), ("skip",)}
    events = play(state, "ball")
    assert hand(state, 1) == ["lord.blue"]
    assert hand(state, 0) == ["page.red"]  # no order drawn during a смута
    assert len(state.orders) == 1
    # the order went to the orders discard, not the graveyard: the era goes on as before
    assert [catalog_for(state.rules)[c].type for c in state.orders_discard] == ["ball"]
    assert raised(state, events) == [(1, "page.orange", 1)]
    assert houses(state, 0) == [("green", ["spy.green"], None)]
    era_over(state, 1)


def test_a_treasurer_raised_draws_an_order_unless_the_hand_is_full() -> None:
    """«Эффекты при появлении в доме срабатывают сразу»: a Казначей draws — but not
    for a player holding 7 cards."""
    full = ["page.red", "page.red", "page.blue", "page.blue", "page.green", "page.green", "ball"]
    state, _ = draw_smuta(
        "new_era",
        players=[{"hand": full}, {}],
        deck_top_open=True,
        graveyard=["treasurer.orange", "treasurer.red"],
        orders=["infirmary", "marriage"],
    )
    assert houses(state, 0) == [("orange", ["treasurer.orange"], None)]
    assert houses(state, 1) == [("red", ["treasurer.red"], None)]
    assert len(state.players[0].hand) == 7
    assert hand(state, 1) == ["infirmary"]
    assert len(state.orders) == 1
    era_over(state, 1)


def test_a_priest_raised_kills_a_harlot_who_comes_back_next() -> None:
    """A card sent to the graveyard during Новая Эпоха is the next to come back
    (RULES.md §6): the Блудница the Священник sends comes back to the next player."""
    state, _ = draw_smuta(
        "new_era",
        players=[
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "red", "cards": ["page.red", "harlot.red"]}]},
        ],
        orders=["infirmary"],
        graveyard=["priest.blue"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "priest.kill"
    assert options(state) == {("1", "harlot.red"), ("skip",)}
    play(state, "1", "harlot.red")
    # seat 1 raises her and may plant her in seat 0's row
    d = decision(state)
    assert d.seat == 1 and d.kind == "plant_row"
    play(state, "0")
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    play(state, "left")
    assert houses(state, 0) == [
        ("red", ["harlot.red"], None),
        ("blue", ["page.blue", "priest.blue"], None),
    ]
    assert houses(state, 1) == [("red", ["page.red"], None)]
    era_over(state, 1)


def test_the_resurrector_chooses_a_servants_side_and_the_end() -> None:
    """«Каждая карта … размещается по стандартным правилам: в дом нужного цвета (или
    создаётся новый дом слева/справа)»: a Слуга's side is the resurrector's choice."""
    state, _ = draw_smuta(
        "new_era",
        players=[{"houses": [{"colour": "red", "cards": ["page.red"]}]}, {}],
        orders=["infirmary"],
        graveyard=["servant.blue.green"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "servant_side"
    assert set(d.options) == {("blue",), ("green",)}
    play(state, "green")
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    play(state, "left")
    assert houses(state, 0) == [
        ("green", ["servant.blue.green"], None),
        ("red", ["page.red"], None),
    ]
    servant = state.players[0].houses[0].cards[0]
    assert state.servant_up[servant] == "green"
    era_over(state, 1)


def test_six_players_wrap_round_the_table() -> None:
    """Six players, seat 4 draws, eight cards: 4, 5, 0, 1, 2, 3, 4, 5."""
    graveyard = [
        "page.red",
        "page.blue",
        "page.green",
        "page.orange",
        "knight.red",
        "knight.blue",
        "page.red",
        "page.blue",
    ]
    state, events = draw_smuta(
        "new_era", players=[{}] * 6, orders=["infirmary"], graveyard=graveyard, current=4
    )
    assert [seat for seat, _, _ in raised(state, events)] == [4, 5, 0, 1, 2, 3, 4, 5]
    assert houses(state, 4) == [("red", ["page.red", "page.red"], None)]
    assert houses(state, 5) == [("blue", ["page.blue", "page.blue"], None)]
    assert houses(state, 3) == [("blue", ["knight.blue"], None)]
    era_over(state, 5)


def test_a_jester_raised_by_the_initiator_replays_nothing() -> None:
    """Шут replays a смута only in his owner's turn and never during a смута
    (RULES.md §1): raised in the initiator's own turn, he still does nothing."""
    state, events = draw_smuta(
        "new_era",
        players=[{"houses": [{"colour": "red", "cards": ["page.red"]}]}, {}],
        orders=["infirmary"],
        graveyard=["jester.red"],
        smuta_discard=["feast"],
    )
    assert raised(state, events) == [(0, "jester.red", 0)]
    assert not [e for e in events if e.key == "jester.replays"]
    assert houses(state, 0) == [("red", ["page.red", "jester.red"], None)]
    assert [catalog_for(state.rules)[c].type for c in state.smuta_discard] == ["new_era", "feast"]
    assert state.current == 1
