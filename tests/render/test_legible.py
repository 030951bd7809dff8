"""One legibility floor for every system (:mod:`pipeline.render.legible`): 8 px (font size) in any
image VASSAL shows at 100 %, 7 pt in print. Measured from the drawings of the shipped data of
Ronin, OHW and Sekigahara: every counter, marker and terrain piece at its VASSAL size and (the
counters and markers) at its printed size, every card at its VASSAL size and printed
(:data:`pipeline.measured.printing.CARD_MM`, Ronin's 90 mm), every scenario sheet's text at its
chart-window size and on the A4 page: no text may be drawn below the floor at the smallest
size its template lets it shrink to, and none overflows its place. Data that could only fit
smaller is refused with its file, line and value (the bad-input tests at the end); the Genpei
art is held to the same floor in test_legible_genpei.py."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.render.drawing import overflows, parse_drawing
from pipeline.render.legible import MIN_PRINT_PT, MIN_SCREEN_PX, PT_PER_MM, floor_problems
from pipeline.render.templates import TemplateRenderer

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
RENDERER = TemplateRenderer(ROOT / "templates")
MEASURED = ["ronin", "ohw", "sekigahara"]


def test_one_floor_for_every_system():
    import pipeline.render.legible as legible

    # the rule: a minimum pixel height for VASSAL images and a minimum point size for print
    assert (legible.MIN_SCREEN_PX, legible.MIN_PRINT_PT) == (8.0, 7.0)
    assert legible.FLOORS == {"screen": (8.0, "px"), "print": (7.0, "pt")}
    assert not hasattr(legible, "LEGIBLE_PX") and not hasattr(legible, "LEGIBLE_PT")
    # worked by hand: a 600-unit card printed 90 mm wide has 90 × 72 / 25.4 / 600 = 0.4252 pt a
    # unit, so 7 pt is 16.463 units (rounded up to 16.47); shown at a pixel a unit, 8 px is 8
    assert legible.min_units(per_screen_px=1.0, per_print_pt=90 * PT_PER_MM / 600) == 16.47
    assert legible.min_units(per_screen_px=0.55) == 14.55  # a 55 px counter of 100 units: 8 / 0.55


@pytest.mark.parametrize(("what", "per_px", "per_pt", "units"), [
    # worked by hand (1 pt = 25.4 / 72 mm; 8 px / px-per-unit and 7 pt / pt-per-unit, the larger,
    # rounded up to a hundredth):
    # a Ronin model counter: 100 units shown 55 px (56 px an inch × 25 mm) and printed 25 mm =
    # 70.87 pt: 8 / 0.55 = 14.545 and 7 / 0.7087 = 9.88, so the screen binds: 14.55
    ("ronin model counter", 0.55, 25 * 72 / 25.4 / 100, 14.55),
    # a Ronin marker, 0.8 of a base: 44 px and 20 mm = 56.69 pt for 100 units: 8 / 0.44 = 18.182
    # (the template sets 18.2)
    ("ronin marker", 0.44, 20 * 72 / 25.4 / 100, 18.19),
    # a measured counter, 10 units an inch: 32 px an inch in VASSAL (3.2 px a unit) and 72 pt an
    # inch in print (7.2 pt a unit): 8 / 3.2 = 2.5 and 7 / 7.2 = 0.97
    ("measured counter", 3.2, 7.2, 2.5),
    # the turn marker: 40 units shown 40 px and printed 16 mm = 45.35 pt: 8 / 1 = 8 and 7 / 1.134 = 6.17
    ("turn marker", 1.0, 16 * 72 / 25.4 / 40, 8.0),
    # a 600-unit card shown a pixel a unit and printed 90 mm = 255.1 pt: 7 / 0.4252 = 16.463
    ("card 90 mm", 1.0, 90 * 72 / 25.4 / 600, 16.47),
    # the same card printed 63 mm = 178.6 pt: 7 / 0.2976 = 23.52 (more than the 17-unit body text)
    ("card 63 mm", 1.0, 63 * 72 / 25.4 / 600, 23.52),
    # Ronin's card: 600 units shown 900 px (1.5 px a unit: 5.33) and printed 90 mm: 16.47
    ("ronin card", 1.5, 90 * 72 / 25.4 / 600, 16.47),
    # a scenario sheet, drawn in mm: 5 px a mm in the chart window (8 / 5 = 1.6) and 2.835 pt a
    # mm on the page (7 / 2.835 = 2.469)
    ("scenario sheet", 5.0, 72 / 25.4, 2.47),
])
def test_the_floor_in_each_drawings_units(what, per_px, per_pt, units):
    from pipeline.render.legible import min_units

    assert min_units(per_screen_px=per_px, per_print_pt=per_pt) == units, what


def test_the_drawings_are_shown_and_printed_at_the_scales_worked_above():
    # the scales the table above assumes are those of the shipped data and the print modules
    from pipeline.measured.art import COUNTER_UNITS_PER_INCH
    from pipeline.measured.printing import CARD_MM, MARKER_MM, SHEET_PNG_PX_PER_MM
    from pipeline.systems.ronin import art as ronin_art
    from pipeline.systems.ronin.printing import CARD_MM as RONIN_CARD_MM

    ronin = _data("ronin").system.vassal
    assert (ronin.px_per_inch, ronin.base_mm, round(ronin.base_mm / 25.4 * ronin.px_per_inch)) == (56, 25, 55)
    assert [_data(s).system.vassal.px_per_inch for s in ("ohw", "sekigahara")] == [32, 32] and COUNTER_UNITS_PER_INCH == 10
    assert MARKER_MM == 16.0 and SHEET_PNG_PX_PER_MM == 5.0
    assert CARD_MM[0] == 90.0 and RONIN_CARD_MM[0] == 90.0
    assert (ronin_art.CARD_LAYOUT[0], ronin_art.CARD_SIZE[0]) == (600, 900)


_loaded: dict[str, object] = {}


def _data(system: str):
    if system not in _loaded:
        _loaded[system] = importlib.import_module(f"pipeline.systems.{system}.load").load(DATA / system)
    return _loaded[system]


def _small(d, per_unit: float, floor: float, template: str) -> list:
    return [(s.where, s.text, round(s.smallest, 2)) for s in floor_problems(d, per_unit, floor, template)]


def _jobs(system: str):
    art = importlib.import_module(f"pipeline.systems.{system}.art")
    data = _data(system)
    jobs = art.counter_jobs(data) if system == "ronin" else art.image_jobs(data)
    if system == "ronin":
        jobs.update(art.terrain_jobs(data))
    return data, {n: j for n, j in jobs.items() if n.startswith(("model_", "marker_", "unit_", "turn_", "terrain_", "game_terrain_"))}


@pytest.mark.parametrize("system", MEASURED)
def test_every_counter_text_is_legible_at_its_vassal_size(system):
    _data, jobs = _jobs(system)
    assert jobs
    small, over = [], []
    for name, job in jobs.items():
        d = RENDERER.drawing(job.template, job.context)
        px_per_unit = job.size[0] / d.width
        small += [(name, *s) for s in _small(d, px_per_unit, MIN_SCREEN_PX, job.template)]
        over += [(name, o.text, o.need) for o in overflows(d)]
    assert small == [], f"texts below {MIN_SCREEN_PX} px: {small[:8]}"
    assert over == []


def test_ronin_counters_in_print_keep_the_print_floor():
    # a Ronin base prints 25 mm wide: 100 units = 25 mm = 70.9 pt; a marker 0.8 of it
    data, jobs = _jobs("ronin")
    pt_per_unit = data.system.vassal.base_mm * PT_PER_MM / 100
    for name, job in jobs.items():
        if name.startswith(("terrain_", "game_terrain_")):
            continue  # the terrain pieces are VASSAL's only
        d = RENDERER.drawing(job.template, job.context)
        scale = pt_per_unit * (0.8 if name.startswith("marker_") else 1.0)
        assert _small(d, scale, MIN_PRINT_PT, job.template) == [], name


@pytest.mark.parametrize("system", ["ohw", "sekigahara"])
def test_measured_counters_in_print_keep_the_print_floor(system):
    # the counter sheets print every base to scale: 10 units an inch, 72 pt an inch; the turn
    # marker 16 mm for its 40 units
    from pipeline.measured.printing import MARKER_MM

    pr = importlib.import_module(f"pipeline.systems.{system}.printing")
    ps = pr.print_set(_data(system))
    for name, (c, _n) in ps.counters.items():
        job = c.job(72)
        d = RENDERER.drawing(job.template, job.context)
        assert _small(d, 7.2, MIN_PRINT_PT, job.template) == [], name
    d = RENDERER.drawing("measured/marker.yaml.j2", {"text": "Turn", "fill": "#333333"})
    assert _small(d, MARKER_MM * PT_PER_MM / 40, MIN_PRINT_PT, "measured/marker.yaml.j2") == []


def _cards(system: str):
    """Every card of ``system`` (continuations too) with its VASSAL pixels and printed points per unit."""
    art = importlib.import_module(f"pipeline.systems.{system}.art")
    data = _data(system)
    if system == "ronin":
        from pipeline.render.cards import paged
        from pipeline.systems.ronin.printing import CARD_MM
        from pipeline.systems.ronin.roster import check_roster

        cards = dict(art.reference_cards(data))
        for rid, lr in data.rosters.items():
            cards.update(paged({f"roster_{rid}": art.roster_card(data, check_roster(data, lr))}))
        return {n: (c, art.CARD_SIZE[0] / art.CARD_LAYOUT[0], CARD_MM[0] * PT_PER_MM / c.size[0]) for n, c in cards.items()}
    from pipeline.measured.printing import CARD_MM

    return {n: (c, 1.0, CARD_MM[0] * PT_PER_MM / c.size[0]) for n, c in art.card_specs(data).items()}


@pytest.mark.parametrize("system", MEASURED)
def test_every_card_keeps_the_floor_on_screen_and_in_print(system):
    cards = _cards(system)
    assert cards
    small, over = [], []
    for name, (card, px, pt) in cards.items():
        job = card.job()
        d = RENDERER.drawing(job.template, job.context)
        small += [(name, "px", *s) for s in _small(d, px, MIN_SCREEN_PX, job.template)]
        small += [(name, "pt", *s) for s in _small(d, pt, MIN_PRINT_PT, job.template)]
        over += [(name, o.text[:40], o.need) for o in overflows(d)]
    assert small == [], small[:8]
    assert over == [], over[:8]


def test_the_cards_print_90_mm_wide():
    # at 63 mm a 600-unit card's 7 pt would be 23.5 units, more than its 17-unit body text
    from pipeline.measured.printing import CARD_MM
    from pipeline.systems.ronin.printing import CARD_MM as RONIN_CARD_MM

    assert CARD_MM == (90.0, 126.0) and RONIN_CARD_MM[0] == 90.0


def _sheets(system: str):
    from pipeline.measured.printing import sheet_context

    pr = importlib.import_module(f"pipeline.systems.{system}.printing")
    data = _data(system)
    if system == "ronin":
        return {lg.value.id: sheet_context(pr.game_sheet(data, lg)) for lg in data.games}
    return {s.id: sheet_context(s) for s in pr.print_set(data).scenarios}


@pytest.mark.parametrize("system", MEASURED)
def test_every_scenario_sheet_text_keeps_the_floor(system):
    # the sheet is drawn in mm: 2.835 pt a unit on the A4 page, 5 px a unit in the chart window
    from pipeline.measured.printing import SHEET_PNG_PX_PER_MM

    sheets = _sheets(system)
    assert sheets
    for sid, ctx in sheets.items():
        d = RENDERER.drawing("measured/scenario_sheet.yaml.j2", ctx)
        assert _small(d, PT_PER_MM, MIN_PRINT_PT, "measured/scenario_sheet.yaml.j2") == [], sid
        assert _small(d, SHEET_PNG_PX_PER_MM, MIN_SCREEN_PX, "measured/scenario_sheet.yaml.j2") == [], sid
        assert overflows(d) == [], sid


def test_a_text_below_the_floor_is_found():
    # worked by hand: size 9 on a 100-unit counter drawn 55 px wide is 4.95 px; a boxed text
    # counts at its min_size (13 -> 7.15 px), a text at 14.6 passes (8.03 px)
    d = parse_drawing({"canvas": {"width": 100, "height": 100}, "shapes": [
        {"text": {"x": 50, "y": 50, "text": "CP4 F4", "size": 9}},
        {"text": {"x": 50, "y": 50, "text": "Samurai", "size": 17, "max_width": 60, "min_size": 13}},
        {"text": {"x": 50, "y": 50, "text": "ok", "size": 14.6}},
    ]})
    found = [(s.where, s.text, round(s.smallest, 2)) for s in floor_problems(d, 0.55, MIN_SCREEN_PX)]
    assert found == [("shapes[0]", "CP4 F4", 4.95), ("shapes[1]", "Samurai", 7.15)]


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


# ---------------------------------------------------------------------------------------------
# data that cannot meet the floor is refused, naming its file, line and value


def _copy(tmp_path: Path, system: str) -> Path:
    dest = tmp_path / system
    shutil.copytree(DATA / system, dest)
    return dest


def _refused(system: str, folder: Path) -> list:
    load = importlib.import_module(f"pipeline.systems.{system}.load").load
    pr = importlib.import_module(f"pipeline.systems.{system}.printing")
    data = load(folder)  # loading draws nothing: the fit check is verification's
    with pytest.raises(DataError) as exc:
        pr.check_fit(data)
    return exc.value.problems


def _replace_line(path: Path, old: str, new: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if old in line:
            lines[i] = line.replace(old, new, 1)
            path.write_text("".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{old!r} not in {path}")


def test_an_ohw_unit_name_that_fits_its_counter_only_under_8_px_is_refused(tmp_path):
    # the Ashigaru's 4 × 2 inch base at 32 px an inch: its name box is 27.8 × 11.5 units, four
    # lines of 2.5 units (8 px), about 80 characters; a name of 150 is refused with its line
    d = _copy(tmp_path, "ohw")
    path = d / "units.yaml"
    long = "Ashigaru of the West Road, the River Ford and the Hill beyond the Village"
    line = _replace_line(path, 'name: "Ashigaru"', f'name: "{long}, {long}"')
    problems = _refused("ohw", d)
    counter = [p for p in problems if "the unit counter" in p.expected]
    assert counter, [str(p) for p in problems]
    (p,) = counter
    assert (p.file, p.line) == (path, line) and p.where == "units[2].name" and "Ashigaru of the West Road" in p.value


def test_a_ronin_marker_effect_that_fits_only_under_8_px_is_refused(tmp_path):
    # the 44 px marker's effect line holds two lines of 18.2 units (8 px) in 76 units: a third
    # effect does not fit
    d = _copy(tmp_path, "ronin")
    path = d / "system.yaml"
    line = _replace_line(path, 'sub: "-1 Init"', 'sub: "-1 Init -1 Fight -1 Shoot -1 CP"')
    problems = _refused("ronin", d)
    assert [(p.file, p.line, p.where) for p in problems] == [(path, line, "markers[0].sub")], [str(p) for p in problems]
    assert "-1 Init -1 Fight" in problems[0].value and "the marker" in problems[0].expected


def test_a_card_template_that_lets_a_text_shrink_under_the_floor_is_refused(tmp_path, monkeypatch):
    # a copy of the card template whose step texts may shrink to 9 units: 9 × 0.425 = 3.8 pt
    # on the 90 mm card, refused naming the template and the shape
    from pipeline.measured import art as measured_art

    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    card = templates / "common" / "card.yaml.j2"
    src = card.read_text(encoding="utf-8")
    marker = "min_size: {{ [9, F] | max | num }}}"
    assert src.count(marker) == 1
    card.write_text(src.replace(marker, "min_size: 9}"), encoding="utf-8")
    monkeypatch.setattr(measured_art, "_renderer", TemplateRenderer(templates))
    problems = _refused("sekigahara", DATA / "sekigahara")
    assert problems and all(p.file == card for p in problems), [str(p) for p in problems]
    assert any("Treachery die roll" in p.value and "at least 7 pt" in p.expected and "3.8 pt" in p.expected for p in problems), [str(p) for p in problems]
