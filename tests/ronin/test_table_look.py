"""What a Ronin player sees on the table (issue 32, items 11 and 17): the game sheets' compass
rose and scale bar lie where no piece of the game does, the Duel's duelling area is drawn, and
in VASSAL every deployment zone's label stands where no piece of its setup lies."""

from __future__ import annotations

import pytest

from pipeline.measured.layout import decoration_boxes, scale_bar_inches
from pipeline.systems.ronin import art, printing


def _overlap(a, b) -> float:
    ix, iy = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return ix * iy if ix > 0 and iy > 0 else 0.0


def _decorations(table: dict) -> list[tuple[float, float, float, float]]:
    """The compass rose's box (4.4 inches square round its centre) and the scale bar's (its
    length + 0.8 by 1.7 inches from 0.4 left of and 1.05 above its left end), as
    pipeline.measured.layout.decoration_boxes measures them."""
    c, b = table["compass"], table["scale_bar"]
    return [(c["x"] - 2.2, c["y"] - 2.2, c["x"] + 2.2, c["y"] + 2.2),
            (b["x"] - 0.4, b["y"] - 1.05, b["x"] + b["inches"] + 0.4, b["y"] + 0.65)]


def test_every_game_sheets_compass_and_scale_bar_lie_off_every_piece(data):
    for lg in data.games:
        sheet = printing.game_sheet(data, lg)
        pieces = [printing.piece_box(u) for u in sheet.units]
        assert len(pieces) >= len(lg.value.terrain) + 2
        for box in _decorations(sheet.table):
            assert all(_overlap(box, p) == 0 for p in pieces), (lg.value.id, box)


def test_the_duel_sheets_scale_bar_is_not_under_a_wood(data):
    """Duel (games/duel.yaml): pine woods of radius 2.5 round (3, 12) and (21, 12), boxes
    (0.5, 9.5)-(5.5, 14.5) and (18.5, 9.5)-(23.5, 14.5). The bare 24-inch table's 6-inch bar
    stands in the north-west corner, (0.8, 0.8)-(7.6, 2.5); on the sheet it keeps off the woods
    and the zones, and lies in a corner of the table."""
    assert decoration_boxes(24, 24)[1] == pytest.approx((0.8, 0.8, 7.6, 2.5))
    lg = next(lg for lg in data.games if lg.value.id == "duel")
    table = printing.game_sheet(data, lg).table
    bar = _decorations(table)[1]
    assert table["scale_bar"]["inches"] == scale_bar_inches(24) == 6
    for wood in ((0.5, 9.5, 5.5, 14.5), (18.5, 9.5, 23.5, 14.5)):
        assert _overlap(bar, wood) == 0
    assert bar[1] == pytest.approx(0.8) or bar[3] == pytest.approx(23.2)


def test_the_duel_sheet_draws_the_12_inch_duelling_circle(data):
    """Seed 001, Duel (p.61): "a 12" circular area in the middle of the table must be left clear
    of all terrain" and the duellist stands "on the edge of the duelling area": on the 24-inch
    table a circle 12 inches across, radius 6, round the centre (12, 12), as the scenario's
    near_duellist rule gives it (area_in 6). The sheet draws the table one unit to the inch, the
    ring 0.06 inside its box for its stroke: radius 5.94 at centre (12, 12)."""
    lg = next(lg for lg in data.games if lg.value.id == "duel")
    assert art.duelling_area(data, lg.value) == (12.0, 12.0, 6.0)
    table = printing.game_sheet(data, lg).table
    duel = [z for z in table["zones"] if z["shape"] == "circle" and z["colour"] == art.DUEL_COLOUR]
    assert len(duel) == 1 and (duel[0]["x"], duel[0]["y"], duel[0]["w"], duel[0]["h"]) == (6.0, 6.0, 12.0, 12.0)
    assert duel[0]["label"] == 'Duelling area (12" across)'
    drawing = art.renderer().drawing("measured/table.yaml.j2", table)
    rings = [s.params for s in drawing.shapes if s.name == "circle" and s.params["outline"] is not None
             and s.params["dash"] is not None and abs(s.params["r"] - 5.94) < 1e-6]
    assert [(r["cx"], r["cy"]) for r in rings] == [(12, 12)]
    # a game whose scenario has no duelling area draws none
    skirmish = next(lg for lg in data.games if lg.value.id == "skirmish")
    assert art.duelling_area(data, skirmish.value) is None
