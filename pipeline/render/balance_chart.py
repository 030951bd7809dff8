"""The picture of a system's balance verdicts, ``OUT/<system>/playability.png`` (Pillow).

One group of bars per verdict (scenario × policy): each side's win rate, bar by bar in the order
of the scenario's sides, with its 95 % interval as a whisker; the share of games cut off by the
turn cap in grey; the scenario's ``playability.win_rate`` band as a green strip left of the
first side's bar. The sides are named where a reader looks for them: each bar carries its side's
name under it, and the legend names the sides when every verdict has the same ones (else it says
"first side", "second side": the names differ from scenario to scenario). The y axis is labelled
(wins, % of games played), so is the x axis (scenario and the policy both sides played). Text is
the project's Noto Sans CJK JP at 13 px and more (a Japanese side name shows as written).

    >>> from types import SimpleNamespace as V
    >>> v = V(label="GP20 Nishinomiya", side_names=("Taira", "Rebels"), policy="greedy", proven=True, games=100,
    ...       wins=(65, 35), cut_off=0, win_band=None, findings=[], band="", caveat=None, reached=0.09, balance=0.7,
    ...       rate=lambda i: (0.65, 0.35)[i], interval=lambda i: ((0.55, 0.74), (0.26, 0.45))[i])
    >>> legend_names([v, v])
    ['Taira wins', 'Rebels wins']
    >>> legend_names([v, V(**{**vars(v), "side_names": ("Taira", "Hiei Monks")})])
    ['first side wins (its name under the bar)', 'second side wins (its name under the bar)']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from pipeline.output import write_bytes_atomic
from pipeline.render.fonts import font
from pipeline.render.png import png_bytes

#: Bar colours of the sides, in side order, and of the games cut off.
SIDE_COLOURS = ("#b3261e", "#e8b923", "#1f4e9c", "#2e6b34")
CUT_COLOUR = "#9e9e9e"
BAND_FILL, BAND_EDGE = "#9fd09f", "#3f8f3f"
#: Text sizes in pixels: labels and the title.
TEXT_PX, TITLE_PX = 13, 16
_ORDINALS = ("first", "second", "third", "fourth")


def legend_names(verdicts: Sequence[Any]) -> list[str]:
    """The legend's entry of each side: its name when every verdict has the same sides, else
    its place (``first side wins``), the names then being under the bars."""
    names = {tuple(v.side_names) for v in verdicts}
    n = max((len(v.side_names) for v in verdicts), default=0)
    if len(names) == 1:
        return [f"{s} wins" for s in next(iter(names))]
    return [f"{_ORDINALS[i] if i < len(_ORDINALS) else f'side {i + 1}'} side wins (its name under the bar)" for i in range(n)]


def draw_chart(verdicts: Sequence[Any], title: str = "Balance verdicts") -> Image.Image:
    """The verdicts (:class:`pipeline.play.verdict.Verdict`) as an RGB image (see the module
    doc); its width grows with the number of verdicts (at least 900 px), its height is 622 px."""
    small, bold, big = font(TEXT_PX), font(TEXT_PX, bold=True), font(TITLE_PX, bold=True)
    bar, gap, group_gap = 34, 6, 60
    n_bars = max((len(v.side_names) + 1 for v in verdicts), default=3)
    group_w = n_bars * (bar + gap)
    left, right, top, plot_h = 90, 30, 60, 300
    under = 262  # side names, the group's lines, the x axis label, the legend
    width = max(900, left + right + max(1, len(verdicts)) * (group_w + group_gap))
    height = top + plot_h + under
    img = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(img)
    d.text((left, 18), title, fill="black", font=big)
    y0 = top + plot_h
    for k in range(0, 11, 2):
        y = y0 - plot_h * k / 10
        d.line([(left - 5, y), (width - right, y)], fill="#dddddd")
        d.text((left - 10, y), f"{k * 10}%", fill="black", font=small, anchor="rm")
    d.line([(left - 5, y0 - plot_h / 2), (width - right, y0 - plot_h / 2)], fill=CUT_COLOUR)  # the even line
    d.line([(left, top), (left, y0), (width - right, y0)], fill="black")
    axis = Image.new("RGBA", (plot_h, 20), (255, 255, 255, 0))  # the y axis label, turned
    ImageDraw.Draw(axis).text((plot_h / 2, 10), "wins (% of games played)", fill="black", font=bold, anchor="mm")
    axis = axis.rotate(90, expand=True)
    img.paste(axis, (12, top), axis)
    for gi, v in enumerate(verdicts):
        x = left + 16 + gi * (group_w + group_gap)
        band = v.win_band
        if band is not None:
            d.rectangle([x - 10, y0 - plot_h * band[1], x - 4, y0 - plot_h * band[0]], fill=BAND_FILL, outline=BAND_EDGE)
        g = v.games or 1
        bars = [(v.rate(i), v.interval(i), SIDE_COLOURS[i % len(SIDE_COLOURS)], name) for i, name in enumerate(v.side_names)]
        bars.append((v.cut_off / g, None, CUT_COLOUR, "cut off"))
        for bi, (val, ci, colour, name) in enumerate(bars):
            bx = x + bi * (bar + gap)
            d.rectangle([bx, y0 - plot_h * val, bx + bar, y0], fill=colour, outline="black")
            if ci is not None:
                cx, lo, hi = bx + bar // 2, y0 - plot_h * ci[0], y0 - plot_h * ci[1]
                d.line([(cx, lo), (cx, hi)], fill="black", width=2)
                for yy in (lo, hi):
                    d.line([(cx - 6, yy), (cx + 6, yy)], fill="black", width=2)
            d.text((bx + bar / 2, y0 - plot_h * max(val, ci[1] if ci else val) - 4), f"{val * 100:.0f}", fill="black", font=small, anchor="mb")
            label = Image.new("RGBA", (104, 18), (255, 255, 255, 0))  # the bar's side, turned to read upwards
            ImageDraw.Draw(label).text((102, 9), name if len(name) <= 13 else name[:12] + "…", fill="black", font=small, anchor="rm")
            label = label.rotate(90, expand=True)
            img.paste(label, (bx + bar // 2 - 9, y0 + 4), label)
        if band is not None:
            for edge in band:
                d.line([(x - 10, y0 - plot_h * edge), (x + bar + 3, y0 - plot_h * edge)], fill=BAND_EDGE, width=2)
        import textwrap

        rows = textwrap.wrap(v.label.split(" ", 1)[0], 24)[:1]
        rows += [f"{v.policy}{'' if v.proven else ' (not proven)'}", f"{v.games} games, ±{v.reached * 100:.1f}",
                 f"Balance {v.balance:.2f}", ("flag" if v.findings else "pass" if v.band.startswith("playability: pass") else "")]
        for li, line in enumerate(r for r in rows if r):
            d.text((x, y0 + 112 + 16 * li), line, fill="#b3261e" if line == "flag" else "black", font=bold if li == 0 else small)
    d.text(((left + width - right) / 2, y0 + 208), "scenario and the policy both sides played", fill="black", font=bold, anchor="mm")
    lx, ly = left, y0 + 228
    entries = [(SIDE_COLOURS[i % len(SIDE_COLOURS)], "black", f"{n} (95% interval)") for i, n in enumerate(legend_names(verdicts))]
    entries += [(CUT_COLOUR, "black", "cut off by the turn cap"), (BAND_FILL, BAND_EDGE, "first side's band (playability.win_rate)")]
    for fill, edge, text in entries:
        w = 18 + round(d.textlength(text, font=small)) + 28
        if lx + w > width - right and lx > left:  # the legend goes on over as many lines as it needs
            lx, ly = left, ly + 18
        d.rectangle([lx, ly, lx + 12, ly + 12], fill=fill, outline=edge)
        d.text((lx + 18, ly + 6), text, fill="black", font=small, anchor="lm")
        lx += w
    return img


def write_chart(verdicts: Sequence[Any], path: Path, title: str = "Balance verdicts") -> Path:
    """Draw :func:`draw_chart` and write it to ``path`` (deterministic PNG, atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_bytes_atomic(path, png_bytes(draw_chart(verdicts, title)))
