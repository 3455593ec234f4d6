"""Server-side SVG charts: running totals of an evening and a bar chart for player history.

The charts are plain SVG strings built from presentation attributes (``stroke``,
``stroke-dasharray``, ``fill``), never ``style`` attributes, so they work inline in a page,
as a standalone ``image/svg+xml`` file, and on paper. Each player gets a distinct dash
pattern *and* marker shape as well as a colour, so a black-and-white print stays readable;
every line is labelled at its end with the name and the final total.

>>> svg = running_chart(["Anna", "Boris"], [{"Anna": 35, "Boris": -5}, {"Anna": 25, "Boris": 35}])
>>> svg.startswith("<svg") and svg.count('<path class="line"') == 2
True
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import shortened

__all__ = ["DASHES", "MARKERS", "ChartWords", "bar_chart", "running_chart"]

#: Colours picked to stay apart for colour-blind readers (they are not what tells lines apart in print).
COLOURS = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#000000",
    "#a36b00",
    "#56b4e9",
    "#882255",
    "#117733",
    "#332288",
    "#aa4499",
    "#777722",
)
#: One dash pattern per player (``""`` is a solid line); at least as many as any game has seats.
DASHES = ("", "9 4", "2 3", "12 3 2 3", "5 5", "16 4", "12 3 2 3 2 3", "1 4", "18 3 5 3", "7 2", "3 7", "14 2 2 2 2 2")
#: One marker per player: (shape, filled).
MARKERS = (
    ("circle", True),
    ("square", True),
    ("triangle", True),
    ("diamond", True),
    ("cross", False),
    ("circle", False),
    ("square", False),
    ("triangle", False),
    ("diamond", False),
    ("plus", False),
    ("down", True),
    ("down", False),
)

_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_INK = "#000000"
_GRID = "#d0d0d0"


def _esc(text: Any) -> str:
    """Text escaped for an XML attribute or element, without characters XML cannot hold."""
    return html.escape(_NOT_XML.sub("", str(text)), quote=True)


def _num(value: float) -> str:
    """A coordinate with at most one decimal."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _minus(value: object) -> str:
    """A number as printed on the chart: negative with a true minus sign, like the pages around it.

    >>> _minus(-65), _minus(20)
    ('−65', '20')
    """
    return str(value).replace("-", "\u2212")


def _nice_step(span: float, count: int = 6) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``count`` ticks.

    >>> _nice_step(130), _nice_step(7), _nice_step(0)
    (50, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return max(1, int(10 * power))  # pragma: no cover - the loop always returns


def _marker_path(shape: str, x: float, y: float, r: float = 4.0) -> str:
    """Path data of one marker centred on (x, y)."""
    if shape == "circle":
        return (
            f"M{_num(x - r)} {_num(y)}a{_num(r)} {_num(r)} 0 1 0 {_num(2 * r)} 0"
            f"a{_num(r)} {_num(r)} 0 1 0 {_num(-2 * r)} 0Z"
        )
    if shape == "square":
        s = r * 0.9
        return f"M{_num(x - s)} {_num(y - s)}h{_num(2 * s)}v{_num(2 * s)}h{_num(-2 * s)}Z"
    if shape == "triangle":
        return (
            f"M{_num(x)} {_num(y - r * 1.2)}L{_num(x + r * 1.15)} {_num(y + r * 0.85)}"
            f"L{_num(x - r * 1.15)} {_num(y + r * 0.85)}Z"
        )
    if shape == "down":
        return (
            f"M{_num(x)} {_num(y + r * 1.2)}L{_num(x + r * 1.15)} {_num(y - r * 0.85)}"
            f"L{_num(x - r * 1.15)} {_num(y - r * 0.85)}Z"
        )
    if shape == "diamond":
        d = r * 1.3
        return f"M{_num(x)} {_num(y - d)}L{_num(x + d)} {_num(y)}L{_num(x)} {_num(y + d)}L{_num(x - d)} {_num(y)}Z"
    if shape == "cross":
        return (
            f"M{_num(x - r)} {_num(y - r)}L{_num(x + r)} {_num(y + r)}"
            f"M{_num(x + r)} {_num(y - r)}L{_num(x - r)} {_num(y + r)}"
        )
    # plus
    d = r * 1.2
    return f"M{_num(x - d)} {_num(y)}H{_num(x + d)}M{_num(x)} {_num(y - d)}V{_num(y + d)}"


def _relative_path(points: Sequence[tuple[float, float]]) -> str:
    """Path data through ``points`` in whole pixels, each step relative to the one before (short digits).

    >>> _relative_path([(52, 222), (56.2, 218.4), (60.4, 230)])
    'M52 222l4-4 4 12'
    """
    xs, ys = [round(x) for x, _ in points], [round(y) for _, y in points]
    steps = "".join(
        f"{' ' if i > 1 and dx >= 0 else ''}{dx}{'' if dy < 0 else ' '}{dy}"
        for i, dx, dy in ((i, xs[i] - xs[i - 1], ys[i] - ys[i - 1]) for i in range(1, len(xs)))
    )
    return f"M{xs[0]} {ys[0]}" + (f"l{steps}" if steps else "")


def _marker_attrs(index: int) -> str:
    """Fill and stroke attributes of player ``index``'s markers."""
    shape, filled = MARKERS[index % len(MARKERS)]
    colour = COLOURS[index % len(COLOURS)]
    if shape in ("cross", "plus"):
        return f'fill="none" stroke="{colour}" stroke-width="2"'
    fill = colour if filled else "#ffffff"
    return f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'


def _spread(positions: list[float], gap: float, low: float, high: float) -> list[float]:
    """Move label positions (sorted ascending) apart by at least ``gap`` within [low, high].

    >>> _spread([10, 11, 12], 10, 0, 100)
    [10, 20, 30]
    >>> _spread([95, 96], 10, 0, 100)
    [90, 100]
    """
    if not positions:
        return []
    gap = min(gap, (high - low) / max(1, len(positions) - 1))
    out = list(positions)
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    out[-1] = min(out[-1], high)
    for i in range(len(out) - 2, -1, -1):
        out[i] = min(out[i], out[i + 1] - gap)
    out[0] = max(out[0], low)
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    return out


@dataclass(frozen=True)
class ChartWords:
    """The chart's words in the reader's language (the caller translates them)."""

    title: str = "Running totals"
    total: str = "Total"
    deal: str = "Deal"


@dataclass(frozen=True)
class _Frame:
    """Where the plot sits and how values map onto it."""

    n: int
    lo: int
    hi: int
    step: int
    left: float = 52.0
    top: float = 26.0
    plot_w: float = 420.0
    plot_h: float = 240.0
    ticks: int = 20  # about how many deal numbers the x axis shows
    names: int = 16  # how many letters of a name the end of its line shows

    @property
    def bottom(self) -> float:
        return self.top + self.plot_h

    def x(self, i: int) -> float:
        return self.left + self.plot_w * i / max(self.n, 1)

    def y(self, v: float) -> float:
        return self.top + (self.hi - v) / (self.hi - self.lo) * self.plot_h


def _frame(n: int, lo: int, hi: int, step: int, phone: bool) -> _Frame:
    """The plot; a phone's is narrower and shorter, so that shown across a phone (about 330 px of a Pixel 7's
    412) its 12-pixel text stays about 11 px, where the full chart's shrinks to 7."""
    if phone:
        return _Frame(n, lo, hi, step, plot_w=230.0, plot_h=190.0, ticks=10, names=10)
    return _Frame(n, lo, hi, step)


def running_chart_size(
    players: Sequence[str], running: Sequence[Mapping[str, int]], phone: bool = False
) -> tuple[float, float]:
    """The width and height ``running_chart`` draws (a page that shows it as an image reserves its place).

    >>> running_chart_size(["Anna"], [{"Anna": 35}]), running_chart_size(["Anna"], [{"Anna": 35}], phone=True)
    ((552.4, 308.0), (362.4, 258.0))
    """
    n = len(running)
    frame = _frame(n, 0, 1, 1, phone)
    label_chars = max(
        [len(shortened(p, frame.names)) + 1 + len(str(running[-1].get(p, 0) if n else 0)) for p in players] or [4]
    )
    return frame.left + frame.plot_w + 30.0 + label_chars * 7.2, frame.bottom + 42.0


def running_chart(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    *,
    deal_numbers: Sequence[int] | None = None,
    words: ChartWords = ChartWords(),
    phone: bool = False,
) -> str:
    """An SVG line chart of each player's running total after each deal (``Scoreboard.running``).

    ``deal_numbers`` labels the x axis (the number of the deal each entry of ``running``
    follows, when redeals are left out); by default 1, 2, 3, ... Every line starts at 0.
    ``phone``: the narrower plot a phone shows at a readable size (``_frame``).

    >>> svg = running_chart(['<b>&"'], [{'<b>&"': 5}])
    >>> "&lt;b&gt;&amp;&quot;" in svg and '<b>' not in svg
    True
    """
    players = list(players)
    n = len(running)
    numbers = list(deal_numbers) if deal_numbers is not None else list(range(1, n + 1))
    if len(numbers) != n:
        raise ValueError("deal_numbers must have one number per entry of running")
    values = [0] + [int(totals.get(name, 0)) for totals in running for name in players]
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 10, hi + 10
    step = _nice_step(hi - lo)
    frame = _frame(n, math.floor(lo / step) * step, math.ceil(hi / step) * step, step, phone)
    width, height = running_chart_size(players, running, phone)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart running-chart" role="img" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" height="{_num(height)}" '
        f'font-family="{_esc(_FONT)}" font-size="12">',
        f"<title>{_esc(words.title)}</title>",
        f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
    ]
    out += _axes(frame, numbers, words)
    ends = []
    for index, name in enumerate(players):
        points = [(frame.x(0), frame.y(0))] + [
            (frame.x(i + 1), frame.y(int(t.get(name, 0)))) for i, t in enumerate(running)
        ]
        out += _series(index, name, points, n)
        ends.append((points[-1][1], index, name, int(running[-1].get(name, 0)) if n else 0))
    out += _end_labels(frame, ends)
    out.append("</svg>")
    return "\n".join(out)


def _axes(frame: _Frame, numbers: Sequence[int], words: ChartWords) -> list[str]:
    """Grid, tick labels and axis titles; lines of one kind are one path and text takes the SVG default
    (black) fill: the chart is most of the session page's bytes."""
    left, plot_w, bottom = frame.left, frame.plot_w, frame.bottom
    grid, labels = [], []
    v = frame.lo
    while v <= frame.hi:
        y = frame.y(v)
        if v != 0:  # the zero line is drawn darker on top of the grid
            grid.append(f"M{_num(left)} {_num(y)}h{_num(plot_w)}")
        labels.append(f'<text x="{_num(left - 6)}" y="{_num(y + 4)}">{_minus(v)}</text>')
        v += frame.step
    out = ['<g class="y-axis" text-anchor="end">']
    if grid:
        out.append(f'<path d="{"".join(grid)}" stroke="{_GRID}" stroke-width="1"/>')
    out += labels + [
        "</g>",
        f'<text x="{_num(left - 6)}" y="{_num(frame.top - 10)}" text-anchor="end" '
        f'font-weight="bold">{_esc(words.total)}</text>',
    ]
    # x ticks: deal numbers, thinned to about 20 labels (10 on a phone's chart), and the last deal's; a label
    # too near the last one is left out (21 deals on a phone's chart wrote "2021")
    every = 1 if frame.n <= frame.ticks else _nice_step(frame.n, frame.ticks)
    shown = [i for i in range(0, frame.n + 1) if i % every == 0 or i == frame.n]
    text = {i: str(numbers[i - 1] if i else 0) for i in shown}
    if len(shown) > 2:  # two centred numbers need half of each one's width (7.2 px a digit) and a gap
        last, before = shown[-1], shown[-2]
        if frame.x(last) - frame.x(before) < 3.6 * (len(text[last]) + len(text[before])) + 4:
            shown.remove(before)
    ticks, labels = [f"M{_num(left)} {_num(frame.top)}V{_num(bottom)}H{_num(left + plot_w)}"], []
    for i in shown:
        ticks.append(f"M{_num(frame.x(i))} {_num(bottom)}v4")
        labels.append(f'<text x="{_num(frame.x(i))}" y="{_num(bottom + 17)}">{_esc(text[i])}</text>')
    out += [
        '<g class="x-axis" text-anchor="middle">',
        f'<path d="{"".join(ticks)}" fill="none" stroke="{_INK}" stroke-width="1"/>',
        *labels,
        "</g>",
        f'<text x="{_num(left + plot_w / 2)}" y="{_num(bottom + 35)}" text-anchor="middle" '
        f'font-weight="bold">{_esc(words.deal)}</text>',
        f'<line class="zero" x1="{_num(left)}" y1="{_num(frame.y(0))}" x2="{_num(left + plot_w)}" '
        f'y2="{_num(frame.y(0))}" stroke="{_INK}" stroke-width="1.5"/>',
    ]
    return out


def _series(index: int, name: str, points: list[tuple[float, float]], n: int) -> list[str]:
    """One player's line, then its markers (thinned on long evenings)."""
    colour, dash = COLOURS[index % len(COLOURS)], DASHES[index % len(DASHES)]
    shape = MARKERS[index % len(MARKERS)][0]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    out = [
        '<g class="series">',
        f'<path class="line" d="{_relative_path(points)}" fill="none" stroke="{colour}" stroke-width="2.2" '
        f'stroke-linejoin="round"{dash_attr}><title>{_esc(name)}</title></path>',
    ]
    mark_every = 1 if n <= 40 else math.ceil(n / 40)
    marks = "".join(
        _marker_path(shape, round(x), round(y))
        for i, (x, y) in enumerate(points)
        if i and (i % mark_every == 0 or i == n)
    )
    if marks:
        out.append(f'<path d="{marks}" {_marker_attrs(index)}/>')
    out.append("</g>")
    return out


def _end_labels(frame: _Frame, ends: list[tuple[float, int, str, int]]) -> list[str]:
    """Marker, name and total at the end of every line, pushed apart so they never overlap."""
    ends.sort()
    label_ys = _spread([y for y, *_ in ends], 15.0, frame.top, frame.bottom)
    x_end = frame.x(frame.n)
    out = ['<g class="labels">']
    for (y_end, index, name, total), y in zip(ends, label_ys, strict=True):
        colour, shape = COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)][0]
        out += [
            f'<g class="label"><title>{_esc(name)}</title>',
            f'<line x1="{_num(x_end + 3)}" y1="{_num(y_end)}" x2="{_num(x_end + 10)}" y2="{_num(y)}" '
            f'stroke="{colour}" stroke-width="1"/>',
            f'<path d="{_marker_path(shape, x_end + 17, y)}" {_marker_attrs(index)}/>',
            f'<text x="{_num(x_end + 26)}" y="{_num(y + 4)}">{_esc(shortened(name, frame.names))} '
            f'<tspan font-weight="bold">{_minus(total)}</tspan></text></g>',
        ]
    out.append("</g>")
    return out


def bar_chart(
    items: Sequence[tuple[str, float]], *, title: str, format_value: Callable[[float], str] = lambda v: f"{v:g}"
) -> str:
    """An SVG chart of horizontal bars, one per (label, value), drawn from a zero line.

    Positive bars are solid, negative bars hollow, so the sign reads in black and white.

    >>> svg = bar_chart([("Anna", 12.5), ("Boris", -3)], title="Average")
    >>> svg.count("<rect") - 1
    2
    """
    items = list(items)
    values = [float(v) for _, v in items] + [0.0]
    lo, hi = min(values), max(values)
    if lo == hi:
        hi = lo + 1
    name_w = 14.0 + max([len(shortened(label, 20)) for label, _ in items] or [4]) * 7.2
    value_w = 8.0 + max([len(format_value(v)) for _, v in items] or [1]) * 7.2
    row, top = 24.0, 12.0
    plot_w = 240.0
    width = name_w + plot_w + 2 * value_w
    height = top * 2 + row * max(len(items), 1)
    scale = plot_w / (hi - lo)
    zero_x = name_w + value_w + (0 - lo) * scale

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart bar-chart" role="img" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" height="{_num(height)}" '
        f'font-family="{_esc(_FONT)}" font-size="12">',
        f"<title>{_esc(title)}</title>",
        f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
    ]
    for i, (label, value) in enumerate(items):
        y = top + i * row
        x0, x1 = sorted((zero_x, zero_x + float(value) * scale))
        filled = value >= 0
        out.append(f'<g class="bar"><title>{_esc(label)}: {_esc(_minus(format_value(value)))}</title>')
        out.append(
            f'<text x="{_num(name_w - 8)}" y="{_num(y + row / 2 + 4)}" text-anchor="end" '
            f'fill="{_INK}">{_esc(shortened(label, 20))}</text>'
        )
        out.append(
            f'<rect x="{_num(x0)}" y="{_num(y + 4)}" width="{_num(max(x1 - x0, 1))}" height="{_num(row - 8)}" '
            f'fill="{"#4d4d4d" if filled else "#ffffff"}" stroke="{_INK}" stroke-width="1"/>'
        )
        anchor, tx = ("start", x1 + 5) if filled else ("end", x0 - 5)
        out.append(
            f'<text x="{_num(tx)}" y="{_num(y + row / 2 + 4)}" text-anchor="{anchor}" '
            f'fill="{_INK}">{_esc(_minus(format_value(value)))}</text></g>'
        )
    out.append(
        f'<line class="zero" x1="{_num(zero_x)}" y1="{_num(top - 4)}" x2="{_num(zero_x)}" '
        f'y2="{_num(height - top + 4)}" stroke="{_INK}" stroke-width="1.5"/>'
    )
    out.append("</svg>")
    return "\n".join(out)
