"""The game state: plain, serialisable data.

Cards are instance ids (see `engine.cards`). Every pile lists its **top card
first**. Effects in progress are a stack of small frames (`frames`, top last);
each frame is a resumable step of a rule, so a game can be saved between any
two answers and resumed exactly — the generator state (`rng`) included.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.cards import DEFAULT_RULES, Colour, Rules

Side = Literal["permanent", "one_time"]
_F = TypeVar("_F", bound=BaseModel)
End = Literal["left", "right"]
SmutaMode = Literal["drawn", "prophet", "jester"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Plain data, never validated on assignment: a field is set straight into the
    # instance dict (at C speed) instead of through pydantic's general path. The
    # set of fields given (model_fields_set) is then not kept up to date: nothing
    # here reads it. mypy --strict checks that only real fields are assigned.
    __setattr__ = object.__setattr__


class House(_Data):
    colour: Colour
    cards: list[str]  # oldest first, newest last (on top)
    castle: Side | None = None  # the castle of the house's colour, and its side up


class Player(_Data):
    hand: list[str] = Field(default_factory=list)
    houses: list[House] = Field(default_factory=list)  # left to right
    computer: bool = False


class Result(_Data):
    scores: list[int]
    castles: list[int]
    winners: list[int]
    aborted: bool = False


# --------------------------------------------------------------------------- frames
class TurnFrame(_Data):
    """The bottom of the stack: the current player's turn."""

    kind: Literal["turn"] = "turn"


class PlaceFrame(_Data):
    """Lay `card` into `seat`'s row; the row's owner picks a Слуга's side and the end."""

    kind: Literal["place"] = "place"
    card: str
    seat: int
    placer: int
    colour: Colour | None = None
    end: End | None = None
    trigger: bool = True


class TriggerFrame(_Data):
    """Fire `card`'s on-appearing property for `seat` if it is still in their houses."""

    kind: Literal["trigger"] = "trigger"
    card: str
    seat: int


class ResurrectFrame(_Data):
    """`seat` lays out the top card of the graveyard."""

    kind: Literal["resurrect"] = "resurrect"
    seat: int


class LadyFrame(_Data):
    kind: Literal["lady"] = "lady"
    seat: int
    card: str


class AlchemistFrame(_Data):
    kind: Literal["alchemist"] = "alchemist"
    seat: int


class PriestFrame(_Data):
    kind: Literal["priest"] = "priest"
    seat: int


class SpyFrame(_Data):
    kind: Literal["spy"] = "spy"
    seat: int
    may_draw: bool
    target: int | None = None


class MinstrelFrame(_Data):
    kind: Literal["minstrel"] = "minstrel"
    seat: int
    target: int | None = None


class JesterFrame(_Data):
    kind: Literal["jester"] = "jester"
    seat: int


class MercenaryFrame(_Data):
    kind: Literal["mercenary"] = "mercenary"
    seat: int


class BallFrame(_Data):
    kind: Literal["ball"] = "ball"
    seat: int
    left: int
    moved: list[str] = Field(default_factory=list)


class PowerFrame(_Data):
    """Замок Власти, one-time side: take any order from the orders deck."""

    kind: Literal["power"] = "power"
    seat: int


class IntrigueFrame(_Data):
    """Замок Интриг, one-time side: look at a hand and take an order from it."""

    kind: Literal["intrigue"] = "intrigue"
    seat: int
    target: int | None = None


class FlipFrame(_Data):
    """Реформация: `seat` flips these castles, one at a time, left to right."""

    kind: Literal["flip"] = "flip"
    seat: int
    colours: list[Colour]


class DestroyFrame(_Data):
    """`seat` sends these doomed houses to the graveyard in the order they choose."""

    kind: Literal["destroy"] = "destroy"
    seat: int
    colours: list[Colour]


class BurnFrame(_Data):
    """Пожар: `seat` sends a card of each house (or of one house) that lost its castle."""

    kind: Literal["burn"] = "burn"
    seat: int
    colours: list[Colour]


class SmutaEndFrame(_Data):
    """Below a смута's effect: when reached, the смута is over."""

    kind: Literal["smuta_end"] = "smuta_end"
    card: str
    initiator: int
    mode: SmutaMode


class RoundFrame(_Data):
    """A смута that goes round the table starting with `first`; `idx` turns taken."""

    kind: Literal["round"] = "round"
    smuta: str
    first: int
    idx: int = 0
    stage: int = 0
    cards: list[str] = Field(default_factory=list)
    seats: list[int] = Field(default_factory=list)


class ProphetFrame(_Data):
    kind: Literal["prophet"] = "prophet"
    seat: int


Frame = Annotated[
    TurnFrame
    | PlaceFrame
    | TriggerFrame
    | ResurrectFrame
    | LadyFrame
    | AlchemistFrame
    | PriestFrame
    | SpyFrame
    | MinstrelFrame
    | JesterFrame
    | MercenaryFrame
    | BallFrame
    | PowerFrame
    | IntrigueFrame
    | FlipFrame
    | DestroyFrame
    | BurnFrame
    | SmutaEndFrame
    | RoundFrame
    | ProphetFrame,
    Field(discriminator="kind"),
]


class Mixed(_Data):
    """Cards in hands whose split into house cards and orders the other seats know only
    as a whole: a card taken at random (Наёмник, Предательство) or an order taken from a
    hand (Замок Интриг) is seen by the two players alone, so to everyone else it could
    be any card of the hand it came from. `engine.knowledge` keeps these groups; the
    number of orders in a group is known to all, which card is which is not.
    `seen`: card -> seats that know it is somewhere in this group (they saw it in the
    hand it was taken from) but not in which hand."""

    cards: list[str]
    seen: dict[str, list[int]] = Field(default_factory=dict)


class GameState(_Data):
    version: int = 0
    seed: int
    rng: int
    custom_rules: Rules | None = None  # None: the defaults of data/cards.toml
    players: list[Player]
    deck: list[str]  # game deck, top first
    deck_top_open: bool = False  # a смута turned up by Великий Пир lies face up on top
    orders: list[str]  # orders deck, top first
    graveyard: list[str] = Field(default_factory=list)
    orders_discard: list[str] = Field(default_factory=list)
    smuta_discard: list[str] = Field(default_factory=list)
    prophet_stack: list[str] = Field(default_factory=list)  # top first
    castles: list[Colour]  # the supply
    box: list[str] = Field(default_factory=list)  # out of play (positions built for tests)
    servant_up: dict[str, Colour] = Field(default_factory=dict)  # Слуги in houses
    current: int = 0
    turn: int = 0  # turns started so far
    actions_left: int = 0
    actions_taken: int = 0
    turn_end: Literal["end", "restart"] | None = None
    restart_turn: bool = False  # Предательство asked for the turn to start again
    smuta_depth: int = 0
    final_turns: int | None = None  # turns still to play after the deck ran out
    frames: list[Frame] = Field(default_factory=list)
    decision: int = 0  # id of the pending decision (grows by one per decision)
    # cards in a hand that seats other than its holder know are there (a look at the
    # hand, a card taken from them): card -> those seats. Computer players keep these
    # cards where they are when they re-deal what they cannot see (`engine.hidden`).
    known: dict[str, list[int]] = Field(default_factory=dict)
    # groups of cards in hands whose kinds the seats outside a secret take cannot tell
    # apart (see `Mixed`, `engine.knowledge`); empty in most games
    mixed: list[Mixed] = Field(default_factory=list)
    steps: int = 0
    result: Result | None = None

    @property
    def rules(self) -> Rules:
        return self.custom_rules or DEFAULT_RULES

    @property
    def over(self) -> bool:
        return self.result is not None

    def to_json(self) -> str:
        """The state as saved: without the fields that hold their defaults —
        but the frames whole (they are told apart by `kind`, which has one)."""
        data = self.model_dump_json(exclude_defaults=True, exclude={"frames"})
        frames = ",".join(f.model_dump_json(exclude_none=True) for f in self.frames)
        return f'{data[:-1]}{"," if len(data) > 2 else ""}"frames":[{frames}]}}'

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        return cls.model_validate_json(text)


# --------------------------------------------------------------------------- fast builders
_new = object.__new__
_set = object.__setattr__


def _built(cls: type[_F], fields: dict[str, object]) -> _F:
    frame = _new(cls)
    _set(frame, "__dict__", fields)
    _set(frame, "__pydantic_fields_set__", set(fields))
    _set(frame, "__pydantic_extra__", None)
    _set(frame, "__pydantic_private__", None)
    return frame


def place_frame(
    card: str,
    seat: int,
    placer: int,
    colour: Colour | None = None,
    end: End | None = None,
    trigger: bool = True,
) -> PlaceFrame:
    """A `PlaceFrame` built without validation (the engine is its only author): the
    frames a game builds most, on every card laid."""
    return _built(
        PlaceFrame,
        {
            "kind": "place",
            "card": card,
            "seat": seat,
            "placer": placer,
            "colour": colour,
            "end": end,
            "trigger": trigger,
        },
    )


def trigger_frame(card: str, seat: int) -> TriggerFrame:
    """A `TriggerFrame` built like `place_frame`."""
    return _built(TriggerFrame, {"kind": "trigger", "card": card, "seat": seat})
