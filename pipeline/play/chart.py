"""A chart of balance verdicts (PNG, drawn with Pillow; no plotting library needed).

One group of bars per verdict (scenario × policy): the win rate of each side (in the order of
the scenario's sides) with its 95% interval as a whisker, the share of games cut off by the turn
cap in grey, the scenario's band behind the first side's bar, and under it the scenario, the
policy, the games, the precision reached and Balance.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pipeline.output import write_bytes_atomic
from pipeline.render.png import png_bytes

SIDE_COLOURS = ["#b3261e", "#e8b923", "#1f4e9c", "#2e6b34"]
CUT_COLOUR = "#9e9e9e"


def draw_chart(verdicts: Sequence, title: str = "Balance verdicts") -> Image.Image:
    """The balance verdicts (:class:`pipeline.play.verdict.Verdict`) as an image: per scenario
    a group of bars, each side's win rate with its 95% interval as a whisker, the share of games
    cut off in grey, the scenario's ``playability.win_rate`` band (when its verdict has one) as a
    shaded strip behind the first side's bar, and under the group the scenario, the policy, the
    games and the Balance."""
    font = ImageFont.load_default()
    bar, gap, group_gap = 30, 6, 70
    n_bars = max((len(v.side_names) + 1 for v in verdicts), default=3)
    group_w = n_bars * (bar + gap)
    left, right, top, bottom = 60, 30, 50, 150
    plot_h = 300
    width = max(780, left + right + max(1, len(verdicts)) * (group_w + group_gap))
    height = top + plot_h + bottom
    img = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(img)
    d.text((left, 15), title, fill="black", font=font)
    y0 = top + plot_h
    for k in range(0, 11, 2):
        y = y0 - plot_h * k / 10
        d.line([(left - 5, y), (width - right, y)], fill="#dddddd")
        d.text((10, y - 6), f"{k * 10}%", fill="black", font=font)
    d.line([(left - 5, y0 - plot_h / 2), (width - right, y0 - plot_h / 2)], fill="#9e9e9e")  # the even line
    d.line([(left, top), (left, y0), (width - right, y0)], fill="black")
    for gi, v in enumerate(verdicts):
        x = left + 14 + gi * (group_w + group_gap)
        band = v.win_band
        if band is not None:  # a strip left of the first side's bar; its edges drawn over the bar below
            d.rectangle([x - 9, y0 - plot_h * band[1], x - 3, y0 - plot_h * band[0]], fill="#9fd09f", outline="#3f8f3f")
        g = v.games or 1
        values = [(v.rate(i), v.interval(i), SIDE_COLOURS[i % len(SIDE_COLOURS)]) for i in range(len(v.side_names))]
        values.append((v.cut_off / g, None, CUT_COLOUR))
        for bi, (val, ci, colour) in enumerate(values):
            bx = x + bi * (bar + gap)
            d.rectangle([bx, y0 - plot_h * val, bx + bar, y0], fill=colour, outline="black")
            if ci is not None:
                cx = bx + bar // 2
                lo, hi = y0 - plot_h * ci[0], y0 - plot_h * ci[1]
                d.line([(cx, lo), (cx, hi)], fill="black", width=2)
                d.line([(cx - 6, lo), (cx + 6, lo)], fill="black", width=2)
                d.line([(cx - 6, hi), (cx + 6, hi)], fill="black", width=2)
            d.text((bx + 2, y0 - plot_h * max(val, ci[1] if ci else val) - 14), f"{val * 100:.0f}", fill="black", font=font)
        if band is not None:
            for edge in band:
                d.line([(x - 9, y0 - plot_h * edge), (x + bar + 3, y0 - plot_h * edge)], fill="#3f8f3f", width=2)
        import textwrap

        rows = textwrap.wrap(v.label.split(" ", 1)[-1], 28)[:3]
        rows += [f"{v.policy}{'' if v.proven else ' (not proven)'}", f"{v.games} games, ±{v.reached * 100:.1f} pts",
                 f"Balance {v.balance:.2f}", ("flag" if v.findings else "pass" if v.band.startswith("playability: pass") else ""),
                 (v.caveat or "").split(",")[0]]
        for li, line in enumerate(r for r in rows if r):
            d.text((x, y0 + 8 + 14 * li), line, fill="#b3261e" if line == "flag" else "black", font=font)
    ly = height - 26
    lx = left
    names = verdicts[0].side_names if verdicts else []
    for i, _ in enumerate(names):
        d.rectangle([lx, ly, lx + 12, ly + 12], fill=SIDE_COLOURS[i % len(SIDE_COLOURS)], outline="black")
        d.text((lx + 16, ly), f"side {i + 1} wins (95% interval)", fill="black", font=font)
        lx += 170
    d.rectangle([lx, ly, lx + 12, ly + 12], fill=CUT_COLOUR, outline="black")
    d.text((lx + 16, ly), "cut off by the turn cap", fill="black", font=font)
    lx += 170
    d.rectangle([lx, ly, lx + 12, ly + 12], fill="#9fd09f", outline="#3f8f3f")
    d.text((lx + 16, ly), "side 1's band (playability.win_rate)", fill="black", font=font)
    return img


def write_chart(verdicts: Sequence, path: Path, title: str = "Balance verdicts") -> Path:
    """Draw :func:`draw_chart` and write it to ``path`` (deterministic PNG, atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_bytes_atomic(path, png_bytes(draw_chart(verdicts, title)))
