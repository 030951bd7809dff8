"""Battlefields, counters, designed cards and print sheets of the measured-table systems (OHW,
Sekigahara) and Ronin.

Golden images live in ``tests/render/golden/`` (``measured_*``, ``ronin_*``); after an intended
change, regenerate and look at them before committing::

    GUNBAI_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_measured_art.py -k golden
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from PIL import Image

from pipeline.measured import art
from pipeline.measured.art import (
    ArtError,
    CounterSpec,
    Scenery,
    Zone,
    battlefield_context,
    crossings,
    point_in_polygon,
)
from pipeline.measured.layout import clear_spot
from pipeline.render.drawing import _layout_text
from tests.golden_images import assert_golden

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"


# ---------------------------------------------------------------------------------------------
# geometry


@pytest.mark.parametrize("kind", ["hill", "woods", "village", "fields", "marsh", "lake"])
def test_an_area_feature_is_drawn_inside_its_rules_rectangle(kind):
    """What a player sees never claims ground the rules' rectangle does not give."""
    x, y, w, h = 10.0, 4.0, 12.0, 7.0
    ctx = art.feature_context(Scenery(kind, name="F", area=(x, y, w, h)))
    for px, py in ctx["outline"]:
        assert x - 1e-6 <= px <= x + w + 1e-6 and y - 1e-6 <= py <= y + h + 1e-6
    # and it covers most of it: the wobble takes at most ROUGHNESS of the smaller side inwards
    xs = [p[0] for p in ctx["outline"]]
    ys = [p[1] for p in ctx["outline"]]
    assert max(xs) - min(xs) > w * 0.85 and max(ys) - min(ys) > h * 0.85


def test_a_feature_is_drawn_the_same_every_time():
    f = Scenery("woods", name="Woods", area=(2, 14, 6, 6))
    assert art.feature_context(f) == art.feature_context(f)
    assert art.feature_context(f) != art.feature_context(Scenery("woods", name="Other woods", area=(2, 14, 6, 6)))


def test_trees_and_houses_stand_inside_their_feature():
    for kind, key in (("woods", "trees"), ("village", "houses"), ("town", "houses")):
        ctx = art.feature_context(Scenery(kind, name=kind, area=(0, 0, 10, 8)))
        assert ctx[key], kind
        for t in ctx[key]:
            assert point_in_polygon((t[0], t[1]), ctx["outline"]), kind


def test_hill_contours_nest():
    ctx = art.feature_context(Scenery("hill", name="H", area=(0, 0, 12, 8)))
    levels = ctx["levels"]
    assert len(levels) >= 3
    for outer, inner in zip(levels, levels[1:], strict=False):
        assert all(point_in_polygon((px, py), outer) for px, py in inner)


def test_a_road_crossing_a_stream_gets_a_bridge_where_they_cross():
    # a straight road along y = 5 and a straight stream along x = 3: they cross at (3, 5)
    assert crossings([(0, 5), (10, 5)], [(3, 0), (3, 10)]) == [((3.0, 5.0), 0.0)]
    road = Scenery("road", name="Road", path=((0, 5), (20, 5)))
    stream = Scenery("stream", name="Stream", path=((10, 0), (10, 12)))
    ctx = battlefield_context(20, 12, [road, stream])
    assert len(ctx["bridges"]) == 1
    b = ctx["bridges"][0]
    assert math.hypot(b["x"] - 10, b["y"] - 5) < 0.6  # the stream meanders a little


def test_an_area_road_follows_its_long_axis_and_keeps_the_rules_width():
    ctx = art.feature_context(Scenery("road", area=(17, 0, 2, 36)))
    assert ctx["path"] == [[18.0, 0.0], [18.0, 36.0]]
    assert ctx["width"] <= 2.0


def test_features_are_drawn_low_to_high():
    feats = [Scenery("village", area=(0, 0, 4, 4)), Scenery("woods", area=(5, 0, 4, 4)), Scenery("hill", area=(10, 0, 4, 4)), Scenery("fields", area=(15, 0, 4, 4))]
    kinds = [f["kind"] for f in battlefield_context(24, 8, feats)["features"]]
    assert kinds == ["fields", "hill", "woods", "village"]


def test_compass_and_scale_bar_go_where_they_cover_nothing():
    hill = Scenery("hill", area=(24, 0, 12, 10))  # the north-east corner is taken
    ctx = battlefield_context(36, 36, [hill])
    c = ctx["compass"]
    assert not (24 - 2 < c["x"] < 36 + 2 and c["y"] < 10 + 2)
    spot = clear_spot(36, 36, (4, 4), [(24, 0, 36, 10)])
    assert spot[0] + 4 <= 24 or spot[1] >= 10


def test_bad_features_are_refused_with_their_name():
    with pytest.raises(ArtError, match="volcano"):
        Scenery("volcano", area=(0, 0, 1, 1))
    with pytest.raises(ArtError, match="Mt Fuji: give exactly one of area or path"):
        Scenery("hill", name="Mt Fuji", area=(0, 0, 1, 1), path=((0, 0), (1, 1)))
    with pytest.raises(ArtError, match="troop symbol 'cannon'"):
        CounterSpec(4, 2, "Guns", "#000000", "#ffffff", "cannon")
    with pytest.raises(ArtError, match="mon design"):
        CounterSpec(4, 2, "X", "#000000", "#ffffff", "sword", mon={"design": "dragon"})


# ---------------------------------------------------------------------------------------------
# counters: the name fits, whole


def _name_lines(spec: CounterSpec, ppi: float) -> tuple[list[str], int, float]:
    d = art.renderer().drawing("measured/unit_counter.yaml.j2", spec.context())
    text = next(s for s in d.shapes if s.name == "text" and s.params["text"] == spec.name)
    k = ppi / art.COUNTER_UNITS_PER_INCH
    lines, size = _layout_text(text.params, k)
    return lines, size, text.params["max_width"] * k


@pytest.mark.parametrize("name,stands", [("Kobayakawa Hideaki", 4), ("Shimazu Yoshihiro", 2), ("Todo Takatora and Kyogoku Takatomo", 3), ("Ii Naomasa (Red Devils)", 2)])
def test_a_contingent_name_is_drawn_whole_and_inside_its_counter(name, stands):
    from pipeline.render.fonts import font

    spec = CounterSpec(1.5 * stands, 1.0, name, "#6b6b6b", "#ffffff", "sword", stands=stands, leader="leader")
    lines, size, max_w = _name_lines(spec, 32)
    assert " ".join(lines).split() == name.split()  # every word, none cut
    assert all(font(size, True).getlength(line) <= max_w + 0.5 for line in lines)
    assert len(lines) <= 3 and size >= 8  # readable at 100 %: at least 8 px


def test_kobayakawa_fits_on_one_line_of_his_four_stands():
    lines, size, _ = _name_lines(CounterSpec(6.0, 1.0, "Kobayakawa Hideaki", "#6b6b6b", "#ffffff", "sword", stands=4, leader="leader"), 32)
    assert lines == ["Kobayakawa Hideaki"] and size >= 10


def test_counter_image_is_its_base_to_scale():
    img = art.counter_job(CounterSpec(4, 2, "Foot Samurai", "#b3261e", "#ffffff", "sword"), 32).render(art.renderer())
    assert img.size == (128, 64)


# ---------------------------------------------------------------------------------------------
# the systems' data


@pytest.fixture(scope="module")
def seki():
    from pipeline.systems.sekigahara.load import load

    return load(DATA / "sekigahara")


@pytest.fixture(scope="module")
def ohw():
    from pipeline.systems.ohw.load import load

    return load(DATA / "ohw")


def test_sekigahara_field_has_its_landmarks_each_cited(seki):
    sc = seki.scenarios[0].model
    names = {tp.name.split(" ")[0] if tp.name else tp.terrain for tp in sc.terrain}
    for landmark in ("Mt", "Nakasendo", "Hokkoku", "Iseji", "Fujikogawa", "Kurojigawa", "Sekigahara", "Momokubari-yama", "Okayama", "Kita-Tenmanyama", "Minami-Tenmanyama"):
        assert landmark in names, landmark
    hills = {tp.name for tp in sc.terrain if tp.terrain == "hill"}
    assert {"Mt Sasao 笹尾山", "Mt Matsuo 松尾山", "Mt Nangu 南宮山"} <= hills
    docs = {d.id for d in seki.sources.documents}
    for tp in sc.terrain:
        assert tp.source is not None and tp.source.doc in docs, tp.name


def test_sekigahara_hills_hold_the_armies_that_held_them(seki):
    """Ishida on Mt Sasao, Ukita on Minami-Tenmanyama, Kobayakawa on Mt Matsuo, Ieyasu on
    Momokubari-yama (rules_facts §4, m_network_ukita, gifu_sekigahara, iwate_pu_sekigahara)."""
    sc = seki.scenarios[0].model
    hills = {tp.name.split(" ")[0] + (" " + tp.name.split(" ")[1] if tp.name.startswith("Mt") else ""): tp.area.rect() for tp in sc.terrain if tp.terrain == "hill"}
    units = {u.id: u for u in sc.units}
    for unit, hill in (("ishida", "Mt Sasao"), ("ukita", "Minami-Tenmanyama"), ("kobayakawa", "Mt Matsuo"), ("ieyasu", "Momokubari-yama"), ("konishi", "Kita-Tenmanyama")):
        u = units[unit]
        assert hills[hill].contains_point((u.x, u.y)), (unit, hill)


def test_sekigahara_mon_are_cited_and_drawn(seki):
    from pipeline.systems.sekigahara import art as sart

    sc = seki.scenarios[0].model
    with_mon = {u.id: u.mon for u in sc.units if u.mon}
    assert with_mon["shimazu"].design == "maru_ni_juji" and with_mon["ieyasu"].design == "mitsuba_aoi"
    assert with_mon["ishida"].text == "大一大万大吉"
    spec = sart.counter_spec(seki, sc, next(u for u in sc.units if u.id == "shimazu"))
    assert spec.mon == {"design": "maru_ni_juji", "text": None} and spec.leader == "leader" and spec.symbol == "sword"


def test_treachery_card_reads_the_chosen_reading(seki):
    """The text's reading (erratum treachery_table_columns): turn 2 East on 6; turn 3 East 5-6,
    West 1; turn 4+ East 4-6, West 1-2 (seed 003, Treachery Die Roll)."""
    from pipeline.systems.sekigahara import art as sart

    card = sart.treachery_card(seki)
    dice = card.blocks[0].context()
    rows = {r["label"]: [c["text"] for c in r["cells"]] for r in dice["rows"]}
    assert rows["Turn 2"] == ["—", "—", "—", "—", "—", "East"]
    assert rows["Turn 3"] == ["West", "—", "—", "—", "East", "East"]
    assert rows["Turn 4+"] == ["West", "West", "—", "East", "East", "East"]
    bars = card.blocks[1].context()["rows"]
    # by the end of turn 2: East 1/6 (17 %), undecided 5/6; by turn 3: East 1/6 + 5/6·2/6 = 4/9 (44 %), West 5/6·1/6 = 5/36 (14 %)
    assert [p["text"] for p in bars[1]["parts"]] == ["17%", "83%", "0%"]
    assert [p["text"] for p in bars[2]["parts"]] == ["44%", "42%", "14%"]


def test_ohw_terrain_without_a_drawing_is_refused(ohw):
    from pipeline.systems.ohw import art as oart

    data = ohw
    t = data.terrain["woods"].model_copy(update={"id": "jungle", "draw": None})
    data.terrain["jungle"] = t
    try:
        with pytest.raises(ArtError, match="terrain 'jungle': no drawing for it"):
            oart.scenery_kind(data, "jungle")
    finally:
        del data.terrain["jungle"]


def test_every_card_lays_out_and_renders(seki, ohw):
    from pipeline.systems.ohw import art as oart
    from pipeline.systems.sekigahara import art as sart

    r = art.renderer()
    for cards in (sart.card_specs(seki), oart.card_specs(ohw)):
        for name, card in cards.items():
            d = r.drawing("common/card.yaml.j2", card.job().context)
            assert d.width == 600, name


def test_a_card_too_full_is_refused():
    from pipeline.render.cards import Card, Table

    with pytest.raises(ValueError, match="the blocks need"):
        Card("Too much", [Table("", [("a", 1.0)], [["x"]] * 40)]).layout()


# ---------------------------------------------------------------------------------------------
# golden images


def _golden() -> dict[str, Image.Image]:
    r = art.renderer()
    feats = [Scenery("fields", area=(1, 6, 6, 4)), Scenery("hill", name="Hill", area=(1, 0.5, 8, 5)), Scenery("woods", name="Woods", area=(12, 1, 5, 4)),
             Scenery("village", name="Village", area=(12, 7, 6, 4.5)), Scenery("road", name="Road", path=((0, 11), (9, 10), (18, 11))),
             Scenery("stream", name="Stream", path=((10, 0), (10.5, 6), (9.5, 12))), Scenery("marsh", area=(5, 10.5, 4, 1.5))]
    table = battlefield_context(18, 12, feats, [Zone((0, 0, 18, 2.5), "#8f2f2f", "Red: deploy")], seed="golden")
    from pipeline.render.cards import Card, Dice, Steps

    card = Card("Golden", [Steps("Steps", ["One", "Two"]), Dice("Dice", [("Turn 2", [("—", "#8a8a8a")] * 5 + [("East", "#2f4f8f")])], legend=[("East", "#2f4f8f")])])
    return {
        "measured_table.png": art.table_job(table, 16).render(r),
        "measured_counter_kobayakawa.png": art.counter_job(CounterSpec(6, 1, "Kobayakawa Hideaki", "#6b6b6b", "#ffffff", "sword", stands=4, leader="leader", mon={"design": "mitsudomoe"}), 32).render(r),
        "measured_counter_ohw_general.png": art.counter_job(CounterSpec(4, 2, "Foot Samurai", "#b3261e", "#ffffff", "sword", sub='徒侍 · move 9" · General', leader="commander"), 32).render(r),
        "measured_card.png": card.job(0.5).render(r),
    }


def test_golden_images():
    images = _golden()
    assert_golden(images)


# ---------------------------------------------------------------------------------------------
# print sheets (low resolution to stay fast)


def test_ohw_print_files(tmp_path, ohw):
    from pipeline.measured.art import render_cache
    from pipeline.measured.printing import counter_sheet
    from pipeline.render.sheets import PrintOptions
    from pipeline.systems.ohw import printing

    ps = printing.print_set(ohw)
    # as many of each counter as any one scenario fields: OHW4 and OHW11 field 3 blue Ashigaru,
    # OHW4 2 blue Mounted Samurai, every scenario one Red General
    assert ps.counters["unit_ashigaru_blue.png"][1] == 3
    assert ps.counters["unit_mounted_samurai_blue.png"][1] == 2
    assert ps.counters["unit_foot_samurai_general_red.png"][1] == 1
    opts = PrintOptions(dpi=30)
    items, _jobs = counter_sheet(ps, opts)
    foot = next(it for it in items if it.name == "unit_foot_samurai_red.png")
    assert (foot.w, foot.h) == pytest.approx((4 * 25.4, 2 * 25.4))  # the base to scale
    files = printing.print_files(ohw, render_cache(tmp_path / "cache"), opts)
    assert sorted(files) == ["cards.pdf", "counters_a4.pdf", "counters_letter.pdf", "scenario_ohw04_take_the_high_ground.pdf", "scenario_ohw11_surprise_attack.pdf", "scenario_ohw30_last_stand.pdf"]
    assert all(b.startswith(b"%PDF") for b in files.values())
    again = printing.print_files(ohw, render_cache(tmp_path / "cache"), opts)
    assert again == files  # the same input gives the same bytes


def test_sekigahara_scenario_sheet_places_every_contingent(tmp_path, seki):
    from pipeline.measured.art import render_cache
    from pipeline.measured.printing import scenario_png
    from pipeline.systems.sekigahara import printing

    ps = printing.print_set(seki)
    assert len(ps.counters) == len(seki.scenarios[0].model.units)
    sheet = ps.scenarios[0]
    assert len(sheet.units) == len(seki.scenarios[0].model.units)
    assert "gunbai's own condition" in sheet.victory
    png = scenario_png(sheet, 1.0, render_cache(tmp_path / "c"))
    img = Image.open(io.BytesIO(png))
    assert img.size == (297, 210)
