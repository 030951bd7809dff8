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


def _spot(spots, pieces, lines=()):
    from pipeline.measured.art import place_labels

    return place_labels([spots], pieces, lines)[0]


def test_a_label_takes_the_first_spot_no_piece_covers():
    """Three spots one above the other; a piece across the first two: the third. Every spot
    covered: the least covered. A spot a piece leaves free but the board's scale bar crosses
    gives way to one neither covers."""
    spots = [(0, 0, 4, 1), (0, 2, 4, 3), (0, 4, 4, 5)]
    assert _spot(spots, [(1, 0.5, 2, 2.5)]) == 2
    assert _spot(spots, [(0, 0, 4, 5), (0, 0, 1, 1)]) == 1  # 4 + 1 square inches, 4, 4: the first least
    assert _spot(spots, [], lines=[(3, 0, 4, 3)]) == 2
    assert _spot(spots, [(0, 0, 4, 5)], lines=[(0, 0, 4, 1)]) == 1  # covered alike: the one no line crosses


def _label_boxes(data, g):
    """Each zone's chosen label box, in table inches, by zone index."""
    jobs = art.zone_jobs(data)
    pieces, board = art.setup_boxes(data, g)
    out = {}
    for i, side in enumerate(g.sides):
        spot = jobs[art.zone_image_name(g.id, i)].context["zone"]["spot"]
        box = next(b for b, s in art.zone_label_spots(side.zone, f"{side.role} deployment") if s == spot)
        ox, oy = art.zone_origin(side.zone)
        out[i] = (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)
    return out, pieces, board


def test_no_zone_label_lies_under_a_piece_of_its_setup(data):
    """In every game's VASSAL setup no model base, marker or terrain piece at its start lies
    over a deployment zone's label, nor does the board's compass or scale bar lie under it."""
    for lg in data.games:
        g = lg.value
        labels, pieces, board = _label_boxes(data, g)
        models = sum(1 for p in pieces if p[2] - p[0] < 1.0)
        assert models >= 2 * 4, g.id  # every model's base is among the pieces
        for i, box in labels.items():
            assert all(_overlap(box, p) == 0 for p in pieces), (g.id, i, box)
            assert all(_overlap(box, b) == 0 for b in board), (g.id, i, box)


def test_skirmish_player_a_label_fits_between_the_models_and_the_compass(data):
    """Skirmish, Player A's zone (0, 0)-(24, 2): the models stand in a row at y = 1, x = 9,
    10.5 ... 15 (bases 55 px at 56 px per inch: 0.49 inch round, the last reaching 15.49); the
    bare table's scale bar covers (0.8, 0.8)-(7.6, 2.5) and its compass (18.8, 0.8)-(23.2, 5.2).
    "Player A deployment" on one line is over 6 inches at 0.6 and 5 at 0.48: no gap holds it
    (0-0.8, 7.6-8.51, 15.49-18.8 under y 0.8). On two lines at 0.6 "deployment" is 3.4
    inches with its outline, wider than the 3.31 between the models and the compass; at 0.48
    (0.8 of 0.6) it fits there: the first spot on the 0.25-inch grid from x = 0.3 right of
    15.49 is 15.55, the letters 0.06 inside it; two lines of 0.48 and the outline are 1.08
    deep, centred in the 2-inch zone from y = 0.46."""
    g = next(lg.value for lg in data.games if lg.value.id == "skirmish")
    spot = art.zone_jobs(data)[art.zone_image_name(g.id, 0)].context["zone"]["spot"]
    assert spot == {"x": 15.61, "y": 0.52, "size": 0.48, "max_width": 23.4, "text": "Player A\ndeployment"}
