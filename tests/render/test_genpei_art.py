"""Genpei art: names, sizes, board geometry, palisade sides, new data without code changes."""

from __future__ import annotations

import math

import pytest
from genpei_fixtures import SRC, make_data, unit

from pipeline.render import png_bytes
from pipeline.systems.genpei import art
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.model import BoardGeometry


def test_image_names():
    assert art.unit_image_name("sohei_warriors", "red") == "unit_sohei_warriors_red.png"
    assert art.leader_image_name("commander", "White") == "leader_commander_white.png"
    assert art.terrain_image_name("palisade", ("E", "NE")) == "terrain_palisade_ne_e.png"
    assert art.terrain_image_name("ocean") == "terrain_ocean.png"
    assert art.marker_image_name("wind_tide") == "marker_wind_tide.png"
    assert art.board_image_name("standard") == "board_standard.png"
    assert art.card_image_name("unit", "sohei_warriors") == "card_unit_sohei_warriors.png"
    with pytest.raises(ValueError):
        art.terrain_image_name("palisade", ("N",))


def test_same_context_gives_identical_png(data):
    u = data.units["sohei_warriors"]
    a = png_bytes(art.render_unit(u, data.system.armies["red"], 56))
    b = png_bytes(art.render_unit(u, data.system.armies["red"], 56))
    assert a == b
    assert a != png_bytes(art.render_unit(u, data.system.armies["white"], 56))


def _close(p, q, tol=30):
    return all(abs(p[i] - q[i]) <= tol for i in range(3))


def test_board_size_and_centres_inside_hexes():
    data = make_data()
    # section lines off the hex centres, so every centre can be checked
    data.board = BoardGeometry(id="b", name="b", columns=13, rows=9, short_rows="even", section_lines=(4.25, 8.75), sources=[SRC])
    layout = HexLayout(data.board, hex_width=84, margin=24)
    img = art.render_board(data, layout).convert("RGB")
    assert img.size == layout.size
    fills = [(0xE9, 0xE6, 0xC6), (0xE4, 0xE2, 0xBF)]
    for hex_ in data.board.all_hexes():
        px = img.getpixel(layout.centre(hex_))
        assert any(_close(px, f, 6) for f in fills), (hex_, px)
    # a hex outline is drawn on every corner-to-corner edge: the midpoint of a hexside is dark
    (x0, y0), (x1, y1) = layout.hexside((5, 5), "E")
    assert sum(img.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2)))) < 500
    # section lines are dotted at margin + line × hex_width
    x = round(layout.margin + 4.25 * layout.hex_width)
    column = [img.getpixel((x, y)) for y in range(layout.margin, layout.size[1] - layout.margin)]
    reds = [p for p in column if p[0] > p[1] + 50]
    assert 0 < len(reds) < len(column) * 0.8  # some dots, with gaps


def _tile_point(layout: HexLayout, direction: str, tile_size, inset: float):
    ref = layout.board.all_hexes()[0]
    cx, cy = layout.centre(ref)
    (ax, ay), (bx, by) = layout.hexside(ref, direction)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    mx, my = mx + (cx - mx) * inset, my + (cy - my) * inset
    return mx - cx + tile_size[0] / 2, my - cy + tile_size[1] / 2


def _changed_near(a, b, pt, r=4):
    x0, y0 = round(pt[0]), round(pt[1])
    n = 0
    for x in range(x0 - r, x0 + r + 1):
        for y in range(y0 - r, y0 + r + 1):
            p, q = a.getpixel((x, y)), b.getpixel((x, y))
            n += sum(abs(p[i] - q[i]) for i in range(3)) > 60
    return n


def test_palisade_fence_on_exactly_its_sides(data, layout):
    pal = data.terrain["palisade"]
    plain = art.render_terrain(pal, layout, ())
    fenced = art.render_terrain(pal, layout, ("NE", "E"))
    assert fenced.size == (layout.hex_width, math.ceil(layout.hex_height))
    for d in ("NE", "E"):
        assert _changed_near(fenced, plain, _tile_point(layout, d, fenced.size, 0.12)) > 10, d
    for d in ("SE", "SW", "W", "NW"):
        assert _changed_near(fenced, plain, _tile_point(layout, d, fenced.size, 0.12)) == 0, d
    assert art.render_terrain(pal, layout, ("E", "NE")).tobytes() == fenced.tobytes()


def test_terrain_tile_is_the_hex_with_transparent_corners(data, layout):
    img = art.render_terrain(data.terrain["ocean"], layout)
    w, h = layout.hex_width, math.ceil(layout.hex_height)
    assert img.size == (w, h)
    for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert img.getpixel(corner)[3] == 0
    assert img.getpixel((w // 2, h // 3))[3] == 255


def test_render_counters_names_and_sizes(data, layout):
    out = art.render_counters(data, layout, ["red", "white"], [("NE", "E"), ("W",)])
    hw = layout.hex_width
    assert out["unit_sohei_warriors_red.png"].size == (round(hw * 0.66),) * 2
    assert out["leader_commander_white.png"].size == (round(hw * 0.45),) * 2
    assert out["marker_honour_fortune.png"].size == (round(hw * 0.5),) * 2
    assert {"terrain_palisade.png", "terrain_palisade_ne_e.png", "terrain_palisade_w.png", "terrain_ocean.png"} <= set(out)
    assert "terrain_ocean_ne_e.png" not in out  # only hexside terrain gets side variants
    assert len([n for n in out if n.startswith("unit_")]) == 2 * len(data.units)
    assert all(n == n.lower() and " " not in n and n.endswith(".png") for n in out)
    # the round leader is transparent in its corners
    assert out["leader_commander_white.png"].getpixel((0, 0))[3] == 0
    with pytest.raises(ValueError, match="army"):
        art.render_counters(data, layout, ["purple"], [])


def test_print_size(data, layout):
    big = art.render_counters(data, layout, ["red"], [], dpi=300)
    scale = art.print_scale(layout, 300)
    assert big["unit_sohei_warriors_red.png"].size == (round(layout.hex_width * 0.66 * scale),) * 2
    assert big["terrain_ocean.png"].size == (round(layout.hex_width * scale), round(math.ceil(layout.hex_height) * scale))


def test_new_unit_type_gets_a_counter_without_code_change(data, layout):
    new = unit("yamabushi", 'Yamabushi "Mountain" Monks: test', "square", name_ja="山伏", abbreviation="YAMA", mounted=True,
               ranged=True, figures=2, rules=("A rule: with a colon and \"quotes\".",))
    data.units[new.id] = new
    out = art.render_counters(data, layout, ["yellow"], [])
    img = out["unit_yamabushi_yellow.png"]
    assert img.size == (round(layout.hex_width * 0.66),) * 2
    assert len({img.convert("RGB").tobytes()[i : i + 3] for i in range(0, img.width * img.height * 3, 3)}) > 20
    cards = art.render_cards(data)
    assert cards["card_unit_yamabushi.png"].size == art.UNIT_CARD_SIZE


def test_cards(data):
    cards = art.render_cards(data)
    # the terrain chart whole (print) and in its halves: the base game's (the core module) and
    # the pack's (the extension)
    assert set(cards) == {art.card_image_name("unit", u) for u in data.units} | {
        "card_terrain_effects.png", "card_terrain_base.png", "card_terrain_genpei.png", "card_naval_summary.png"}
    assert cards["card_unit_sohei_warriors.png"].size == (600, 840)
    assert cards["card_terrain_effects.png"].width == art.TERRAIN_CHART_WIDTH
    rows = {n: len(art.terrain_chart_context([t for t in data.terrain.values() if t.base is b])["rows"])
            for n, b in (("base", True), ("genpei", False))}
    assert rows["base"] + rows["genpei"] == len(data.terrain) and min(rows.values()) > 0
    assert cards["card_terrain_base.png"].height < cards["card_terrain_effects.png"].height
    assert art.core_card_names(data)[-1] == "card_terrain_base.png"
    assert art.pack_card_names(data) == ["card_unit_sohei_archers.png", "card_unit_sohei_warriors.png", "card_terrain_genpei.png",
                                         "card_naval_summary.png"]
    ctx = art.unit_card_context(data.units["ashigaru_spearmen"])
    assert ctx["footnote"] == "? = not in the public sources"
    assert any(r["value"] == "?" for r in ctx["stats"])
    assert art.unit_card_context(data.units["sohei_warriors"])["footnote"] is None
    naval = art.naval_card_context(data)
    titles = [s["title"] for s in naval["sections"]]
    assert titles == ["Ocean", "Markers", "Leaders"]
    assert all("naval" in n.lower() or "sea" in n.lower() for s in naval["sections"] for n in s["notes"])
