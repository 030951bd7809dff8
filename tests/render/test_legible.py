"""Every text of a VASSAL image of Ronin, OHW and Sekigahara can be read: at the image's own size
no text may be drawn (at the smallest size its template lets it shrink to) below
:data:`~pipeline.render.legible.LEGIBLE_PX`, and none overflows its place. The same pieces in
print (a Ronin base 25 mm, a Sekigahara base to scale) are far larger, so the pixel floor on
the VASSAL image is the one that binds; the print floor is checked on the printed size too."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pipeline.render.drawing import overflows, parse_drawing
from pipeline.render.legible import LEGIBLE_PT, LEGIBLE_PX, floor_problems
from pipeline.render.templates import TemplateRenderer

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
RENDERER = TemplateRenderer(ROOT / "templates")


def _jobs(system: str):
    load = importlib.import_module(f"pipeline.systems.{system}.load").load
    art = importlib.import_module(f"pipeline.systems.{system}.art")
    data = load(DATA / system)
    jobs = art.counter_jobs(data) if system == "ronin" else art.image_jobs(data)
    return data, {n: j for n, j in jobs.items() if n.startswith(("model_", "marker_", "unit_"))}


@pytest.mark.parametrize("system", ["ronin", "ohw", "sekigahara"])
def test_every_counter_text_is_legible_at_its_vassal_size(system):
    _data, jobs = _jobs(system)
    assert jobs
    small, over = [], []
    for name, job in jobs.items():
        d = RENDERER.drawing(job.template, job.context)
        px_per_unit = job.size[0] / d.width
        small += [(name, s.where, s.text, round(s.smallest, 1)) for s in floor_problems(d, px_per_unit, LEGIBLE_PX)]
        over += [(name, o.text, o.need) for o in overflows(d)]
    assert small == [], f"texts below {LEGIBLE_PX} px: {small[:8]}"
    assert over == []


def test_ronin_counters_in_print_keep_the_print_floor():
    # a Ronin base prints 25 mm wide: 100 units = 25 mm = 70.9 pt
    data, jobs = _jobs("ronin")
    pt_per_unit = data.system.vassal.base_mm / 25.4 * 72 / 100
    for name, job in jobs.items():
        d = RENDERER.drawing(job.template, job.context)
        scale = pt_per_unit * (0.8 if name.startswith("marker_") else 1.0)
        assert floor_problems(d, scale, LEGIBLE_PT) == [], name


def test_a_text_below_the_floor_is_found():
    # worked by hand: size 9 on a 100-unit counter drawn 55 px wide is 4.95 px; a boxed text
    # counts at its min_size (12 -> 6.6 px), a text at 13 passes (7.15 px)
    d = parse_drawing({"canvas": {"width": 100, "height": 100}, "shapes": [
        {"text": {"x": 50, "y": 50, "text": "CP4 F4", "size": 9}},
        {"text": {"x": 50, "y": 50, "text": "Samurai", "size": 17, "max_width": 60, "min_size": 12}},
        {"text": {"x": 50, "y": 50, "text": "ok", "size": 13}},
    ]})
    found = [(s.where, s.text, round(s.smallest, 2)) for s in floor_problems(d, 0.55, LEGIBLE_PX)]
    assert found == [("shapes[0]", "CP4 F4", 4.95), ("shapes[1]", "Samurai", 6.6)]


def test_a_minus_sign_is_no_line_break():
    from pipeline.render.drawing import wrap_text

    # the grievous wound's effects break between effects, never after a minus sign; a hyphen
    # inside a word is still a break point
    assert "-" not in [line[-1:] for line in wrap_text("-2I -1F -1CP -1S", 40, True, 180)]
    assert wrap_text("Ashigaru-gashira", 40, True, 250) == ["Ashigaru-", "gashira"]


def test_a_short_paragraphs_block_grows_to_its_max_scale():
    from pipeline.render.drawing import _layout_paragraphs

    d = parse_drawing({"canvas": {"width": 100, "height": 100}, "shapes": [
        {"paragraphs": {"x": 0, "y": 0, "w": 100, "h": 100, "items": [{"text": "Victory", "size": 4}], "max_scale": 1.5}},
        {"paragraphs": {"x": 0, "y": 0, "w": 100, "h": 100, "items": [{"text": "Victory", "size": 4}]}},
    ]})
    assert _layout_paragraphs(d.shapes[0].params, 8.0)[2] == 1.5  # one line of 4 units fits at 6
    assert _layout_paragraphs(d.shapes[1].params, 8.0)[2] == 1.0  # the default never grows


def _zone_label(zones, labels=()):
    from pipeline.measured.art import Zone, battlefield_context

    ctx = battlefield_context(36, 36, [], [Zone(*z[1:]) for z in zones])
    ctx["labels"] = list(labels)
    d = RENDERER.drawing("measured/table.yaml.j2", ctx)
    return {s.params["text"]: s.params for s in d.shapes if s.name == "text" and "clan" in s.params["text"]}


def test_a_deployment_zones_label_stands_outside_it_towards_the_centre():
    # a northern zone (y 0-5) has its label below it, a southern one (y 30-36) above it: where
    # none of the pieces set up in the zone stands
    out = _zone_label([("north", (12, 0, 12, 5), "#b3261e", "Red clan: north", "deploy"),
                       ("south", (0, 30, 36, 6), "#1f4e8c", "Blue clan: south", "deploy")])
    north, south = out["Red clan: north"], out["Blue clan: south"]
    assert north["anchor"] == "lt" and north["y"] > 5
    assert south["anchor"] == "lb" and south["y"] < 30


def test_a_zone_label_stays_inside_when_another_zone_or_label_holds_the_outside_spot():
    # the spot below the northern zone lies in the other zone: the label stays at its foot
    out = _zone_label([("north", (0, 0, 12, 10), "#b3261e", "Red clan: west line", "deploy"),
                       ("other", (0, 10, 12, 8), "#6b6b6b", "Grey clan: reserve", "deploy")])
    label = out["Red clan: west line"]
    assert label["anchor"] == "lb" and label["y"] < 10
