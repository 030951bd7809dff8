"""The balance chart (playability.png) names the sides and labels its axes."""

from __future__ import annotations

from pipeline.play.verdict import Verdict
from pipeline.render.balance_chart import draw_chart, legend_names, write_chart


def _verdict(label: str, sides: tuple[str, str], wins: tuple[int, int], games: int = 100) -> Verdict:
    return Verdict("genpei", label.split()[0].lower(), label, sides, "greedy", True, 1, 30, 0.05, 1000, games=games, wins=wins,
                   cut_off=games - sum(wins), turns=10 * games, stop="precision")


def test_the_legend_names_the_sides_when_every_verdict_has_the_same():
    v = _verdict("GP20 Nishinomiya", ("Taira", "Rebels"), (65, 35))
    assert legend_names([v, v]) == ["Taira wins", "Rebels wins"]
    w = _verdict("GP19 Nuta's Stronghold", ("Taira", "Rebels (Nuta)"), (69, 31))
    assert legend_names([v, w]) == ["first side wins (its name under the bar)", "second side wins (its name under the bar)"]


def test_the_chart_draws_every_bar_and_repeats(tmp_path):
    v = _verdict("GP20 Nishinomiya", ("Taira", "Rebels"), (65, 30))
    v.win_band = [0.4, 0.6]
    img = draw_chart([v, v], "genpei: balance verdicts")
    # the first group's first bar (Taira, 65 %) is red from the axis up to 65 % of the 300 px plot
    left, top, plot_h, bar = 90, 60, 300, 34
    x = left + 16 + bar // 2 - 8
    assert img.getpixel((x, top + plot_h - 5))[:3] == (0xb3, 0x26, 0x1e)
    assert img.getpixel((x, top + plot_h - round(plot_h * 0.65) + 8))[:3] == (0xb3, 0x26, 0x1e)
    assert img.getpixel((x, top + plot_h - round(plot_h * 0.65) - 30))[:3] != (0xb3, 0x26, 0x1e)
    # the y axis label is drawn left of the ticks
    assert any(img.getpixel((xx, yy))[:3] == (0, 0, 0) for xx in range(12, 32) for yy in range(top, top + plot_h))
    path = write_chart([v], tmp_path / "chart.png")
    assert path.read_bytes() == write_chart([v], tmp_path / "again.png").read_bytes()
