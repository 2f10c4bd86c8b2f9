"""A game as a picture: the table (each player's row of houses, their cards and
castles, the points) and each player's points turn by turn — the image the
result carries into the group, `/table фото`'s answer, and a review's chart.

Drawn with matplotlib's object-oriented API on its Agg canvas (no pyplot, no
display, no global figure: one figure per call), in matplotlib's own DejaVu
Sans, which ships inside the package and has Cyrillic: the picture looks the
same on any machine. A picture is drawn from plain data (`Picture`, `Chart`)
whose every word was taken from `locales/` before (`picture_of`), so drawing
needs no translator and runs in a worker thread (`bot.service.pictures`).
Telegram's colour emoji are not in the font: a text keeps only the characters
the font has (a house's colour is its colour *and* its name). A colour is
never the only sign: every house names its colour, every player's line has
its own marker and dash, and the legend names the player and the points.

The PNG is reduced to a 256-colour palette (Pillow, which matplotlib itself
depends on): flat colours and text lose nothing, and a 6-player picture stays
well under Telegram's and the issue's 200 KB.
"""

from __future__ import annotations

import html
import io
import re
import threading
from dataclasses import dataclass, field
from functools import cache

from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font
from matplotlib.patches import FancyBboxPatch
from matplotlib.ticker import MaxNLocator
from PIL import Image

from bot.store.models import Table
from bot.words.i18n import Translator
from bot.words.names import shown_name
from engine.cards import catalog_for
from engine.state import GameState
from engine.story import Story, table_points

WIDTH = 1200  # pixels; the height follows the players and their houses
DPI = 100
MAX_BYTES = 200_000  # the bound (Telegram's photo limit is far higher)

#: a house's colour on the picture: its border and its light fill
HOUSE_COLOURS = {
    "red": ("#c62828", "#fdecea"),
    "blue": ("#1565c0", "#e8f0fb"),
    "green": ("#2e7d32", "#e9f5ea"),
    "orange": ("#e65100", "#fff1e3"),
}
#: each player's line on the chart: a colour, a marker and a dash of its own
LINES = [
    ("#1f77b4", "o", "-"),
    ("#d62728", "s", "--"),
    ("#2ca02c", "^", "-."),
    ("#9467bd", "D", ":"),
    ("#8c564b", "v", "-"),
    ("#e377c2", "P", "--"),
]
#: a castle's side, as a house's heading names it
CASTLE_SIDES = {"permanent": "picture-castle-permanent", "one_time": "picture-castle-one-time"}
INK = "#212121"
GREY = "#616161"


@dataclass
class HouseBox:
    colour: str  # the engine's colour: red, blue, green, orange
    heading: str  # its colour's name, and the castle and its side when it has one
    cards: list[tuple[str, int]]  # each card's name and points, oldest first


@dataclass
class RowBox:
    name: str
    points: str  # «34 очка: карты 25 + замки 3 × 3»
    houses: list[HouseBox]
    winner: bool = False
    empty: str = ""  # what a row without houses says


@dataclass
class Chart:
    title: str
    axis: str  # the turns' axis
    names: list[str]
    turns: list[int]
    points: list[list[int]]  # seat → its points at each of `turns`
    marked: int | None = None  # the seat whose line is drawn thickest (a review's own)
    moments: list[int] = field(default_factory=list)  # turns a review points at


@dataclass
class Picture:
    title: str
    subtitle: str
    rows: list[RowBox]
    chart: Chart


# ---------------------------------------------------------------------- words → data
def _font_has() -> frozenset[int]:
    return _font_charmap()


@cache
def _font_charmap() -> frozenset[int]:

    path = font_manager.findfont("DejaVu Sans", fallback_to_default=True)
    return frozenset(FT2Font(path).get_charmap())


def plain(text: str) -> str:
    """`text` with only the characters the font draws (no colour emoji, no
    isolates, no HTML), spaces made single."""

    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    has = _font_has()
    kept = "".join(ch for ch in text if ord(ch) in has or ch == " ")
    return " ".join(kept.split())


def seat_name(tr: Translator, lang: str, table: Table, seat: int) -> str:
    """A seat's name as the picture shows it (a computer's in the reader's language)."""
    s = table.seats[seat]
    if s.forgotten:
        return plain(tr.t(lang, "history-forgotten"))
    if s.user_id is None and s.level is not None:
        number = 1 + sum(1 for x in table.seats[:seat] if x.user_id is None)
        level = tr.t(lang, f"level-{s.level}")
        return plain(tr.t(lang, "bot-name", n=number, level=level))
    fallback = tr.t(lang, "player-fallback", n=seat + 1)
    return plain(shown_name(s.name, fallback)) or plain(fallback)


def chart_of(
    tr: Translator, lang: str, table: Table, story: Story, marked: int | None = None
) -> Chart:
    return Chart(
        title=plain(tr.t(lang, "picture-chart")),
        axis=plain(tr.t(lang, "picture-turns")),
        names=[seat_name(tr, lang, table, s) for s in range(len(story.points))],
        turns=story.turns,
        points=story.points,
        marked=marked,
    )


def picture_of(tr: Translator, lang: str, table: Table, state: GameState, story: Story) -> Picture:
    """The picture of `state` (a finished game's or a running one's) in `lang`."""
    cat = catalog_for(state.rules)
    each = state.rules.castle_points
    result = state.result
    rows = []
    for seat, player in enumerate(state.players):
        houses = []
        for h in player.houses:
            heading = plain(tr.t(lang, f"colour-{h.colour}"))
            if h.castle is not None:
                side = plain(tr.t(lang, CASTLE_SIDES[h.castle]))
                heading = f"{heading} · {side}"
            houses.append(
                HouseBox(
                    colour=h.colour,
                    heading=heading,
                    cards=[
                        (plain(tr.t(lang, f"card-{cat[c].type}")), cat[c].points) for c in h.cards
                    ],
                )
            )
        points = table_points(state, seat)
        castles = sum(h.castle is not None for h in player.houses)
        rows.append(
            RowBox(
                name=seat_name(tr, lang, table, seat),
                points=plain(
                    tr.t(
                        lang,
                        "picture-points",
                        points=points,
                        cards=points - castles * each,
                        castles=castles,
                        each=each,
                        hand=len(player.hand),
                        over=int(result is not None),
                    )
                ),
                houses=houses,
                winner=result is not None and not result.aborted and seat in result.winners,
                empty=plain(tr.t(lang, "picture-no-houses")),
            )
        )
    if result is not None:
        subtitle = tr.t(lang, "picture-final", turns=state.turn)
    else:
        subtitle = tr.t(
            lang, "picture-running", turn=state.turn, deck=len(state.deck), orders=len(state.orders)
        )
    return Picture(
        title=plain(
            tr.t(lang, "picture-title-chat", chat=table.title)
            if table.title
            else tr.t(lang, "picture-title")
        ),
        subtitle=plain(subtitle),
        rows=rows,
        chart=chart_of(tr, lang, table, story),
    )


# ---------------------------------------------------------------------- data → PNG
#: matplotlib's text layout keeps caches that are not made for threads: one
#: drawing at a time in a process
_DRAWING = threading.Lock()

TITLE_H = 70  # the title and subtitle
ROW_HEAD = 36  # a row's name and points
HOUSE_HEAD = 28  # a house's colour and castle
CARD_H = 22  # a card's line
ROW_GAP = 18
CHART_H = 420
MARGIN = 20


def _png(fig: Figure) -> bytes:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = Image.frombuffer(
        "RGBA",
        canvas.get_width_height(),
        canvas.buffer_rgba(),  # type: ignore[no-untyped-call]
    )
    small = rgba.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue()


def _chart(fig: Figure, rect: tuple[float, float, float, float], chart: Chart) -> None:
    ax = fig.add_axes(rect)
    ax.set_title(chart.title, loc="left", fontsize=15, color=INK, pad=10)
    for seat, series in enumerate(chart.points):
        colour, marker, dash = LINES[seat % len(LINES)]
        mine = chart.marked == seat
        every = max(1, len(chart.turns) // 12)
        ax.plot(
            chart.turns,
            series,
            color=colour,
            linestyle=dash,
            linewidth=3.2 if mine else 1.8,
            marker=marker,
            markevery=every,
            markersize=7 if mine else 5,
            label=f"{chart.names[seat]} — {series[-1] if series else 0}",
            zorder=3 if mine else 2,
        )
    for turn in chart.moments:
        ax.axvline(turn, color=GREY, linewidth=1, linestyle=":", zorder=1)
    ax.set_xlabel(chart.axis, fontsize=12, color=GREY)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(labelsize=11, colors=GREY)
    ax.grid(True, color="#e0e0e0", linewidth=0.8)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_xlim(left=0, right=max(1, chart.turns[-1] if chart.turns else 1))
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize=12, frameon=True, framealpha=0.9, edgecolor="none")


def draw(picture: Picture) -> bytes:
    """The picture as a PNG."""

    heights = []
    for row in picture.rows:
        tallest = max((len(h.cards) for h in row.houses), default=0)
        houses_h = HOUSE_HEAD + CARD_H * max(1, tallest) + 10 if row.houses else CARD_H + 6
        heights.append(ROW_HEAD + houses_h)
    table_h = TITLE_H + sum(heights) + ROW_GAP * len(heights)
    height = table_h + CHART_H + MARGIN
    with _DRAWING:
        fig = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI, facecolor="white")
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, WIDTH)
        ax.set_ylim(height, 0)  # pixels from the top
        ax.axis("off")
        ax.text(MARGIN, 14, picture.title, fontsize=20, weight="bold", color=INK, va="top")
        ax.text(MARGIN, 46, picture.subtitle, fontsize=13, color=GREY, va="top")
        y = TITLE_H
        box_w = (WIDTH - 2 * MARGIN - 3 * 10) / 4
        for row, row_h in zip(picture.rows, heights, strict=True):
            name = ("★ " if row.winner else "") + row.name
            ax.text(MARGIN, y + 6, name, fontsize=15, weight="bold", color=INK, va="top")
            ax.text(WIDTH - MARGIN, y + 8, row.points, fontsize=13, color=INK, va="top", ha="right")
            top = y + ROW_HEAD
            if not row.houses:
                ax.text(MARGIN, top, row.empty, fontsize=12, color=GREY, va="top", style="italic")
            for i, house in enumerate(row.houses[:4]):
                x = MARGIN + i * (box_w + 10)
                edge, fill = HOUSE_COLOURS.get(house.colour, (GREY, "#f5f5f5"))
                box_h = row_h - ROW_HEAD - 6
                ax.add_patch(
                    FancyBboxPatch(
                        (x, top),
                        box_w,
                        box_h,
                        boxstyle="round,pad=0,rounding_size=6",
                        linewidth=2.2,
                        edgecolor=edge,
                        facecolor=fill,
                    )
                )
                ax.text(
                    x + 10, top + 6, house.heading, fontsize=12, weight="bold", color=edge, va="top"
                )
                for k, (card, points) in enumerate(house.cards):
                    cy = top + HOUSE_HEAD + k * CARD_H
                    ax.text(x + 12, cy, card, fontsize=12, color=INK, va="top")
                    ax.text(
                        x + box_w - 10,
                        cy,
                        str(points),
                        fontsize=12,
                        color=GREY,
                        va="top",
                        ha="right",
                    )
            y += row_h + ROW_GAP
        chart_top = table_h
        rect = (
            70 / WIDTH,
            (MARGIN + 50) / height,
            (WIDTH - 90) / WIDTH,
            (CHART_H - 100) / height,
        )
        assert chart_top + CHART_H <= height
        _chart(fig, rect, picture.chart)
        return _png(fig)


def draw_chart(chart: Chart) -> bytes:
    """Only the chart (a review's): each player's points turn by turn."""

    with _DRAWING:
        fig = Figure(figsize=(WIDTH / DPI, 520 / DPI), dpi=DPI, facecolor="white")
        _chart(fig, (70 / WIDTH, 60 / 520, (WIDTH - 90) / WIDTH, 400 / 520), chart)
        return _png(fig)
