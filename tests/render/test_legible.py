"""Every text of a VASSAL image of Ronin, OHW and Sekigahara can be read: at the image's own size
no text may be drawn (at the smallest size its template lets it shrink to) below
:data:`~pipeline.render.drawing.LEGIBLE_PX`, and none overflows its place. The same pieces in
print (a Ronin base 25 mm, a Sekigahara base to scale) are far larger, so the pixel floor on
the VASSAL image is the one that binds; the print floor is checked on the printed size too."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pipeline.render.drawing import LEGIBLE_PT, LEGIBLE_PX, overflows, parse_drawing, smallest_texts
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
        small += [(name, where, text, round(px, 1)) for where, text, px in smallest_texts(d, px_per_unit, LEGIBLE_PX)]
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
        assert smallest_texts(d, scale, LEGIBLE_PT) == [], name


def test_a_text_below_the_floor_is_found():
    # worked by hand: size 9 on a 100-unit counter drawn 55 px wide is 4.95 px; a boxed text
    # counts at its min_size (12 -> 6.6 px), a text at 13 passes (7.15 px)
    d = parse_drawing({"canvas": {"width": 100, "height": 100}, "shapes": [
        {"text": {"x": 50, "y": 50, "text": "CP4 F4", "size": 9}},
        {"text": {"x": 50, "y": 50, "text": "Samurai", "size": 17, "max_width": 60, "min_size": 12}},
        {"text": {"x": 50, "y": 50, "text": "ok", "size": 13}},
    ]})
    found = [(w, t, round(s, 2)) for w, t, s in smallest_texts(d, 0.55, LEGIBLE_PX)]
    assert found == [("shapes[0]", "CP4 F4", 4.95), ("shapes[1]", "Samurai", 6.6)]


def test_a_minus_sign_is_no_line_break():
    from pipeline.render.drawing import wrap_text

    # the grievous wound's effects break between effects, never after a minus sign; a hyphen
    # inside a word is still a break point
    assert "-" not in [line[-1:] for line in wrap_text("-2I -1F -1CP -1S", 40, True, 180)]
    assert wrap_text("Ashigaru-gashira", 40, True, 250) == ["Ashigaru-", "gashira"]
