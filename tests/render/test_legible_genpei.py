"""The one legibility floor of every system (pipeline.render.legible) on the Genpei art: no text
of a VASSAL image shrinks under 8 px at 100 %, no text of a printed card or chart under 7 pt,
and data that could only fit smaller is refused (by the fit check verification runs)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.render.drawing import parse_drawing
from pipeline.render.legible import MIN_SCREEN_PX, floor_problems, smallest_sizes
from pipeline.render.templates import parse_drawing_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def genpei():
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(ROOT / "source_data" / "genpei", scenario_files=[])
    return data, layout_of(data)


def test_floor_counts_the_smallest_size_a_text_may_shrink_to():
    d = parse_drawing({"canvas": {"width": 100, "height": 100}, "shapes": [
        {"text": {"x": 50, "y": 20, "text": "boxed", "size": 20, "max_width": 50}},             # shrinks to 40 %: 8 units
        {"text": {"x": 50, "y": 50, "text": "floor", "size": 20, "max_width": 50, "min_size": 14.6}},
        {"text": {"x": 50, "y": 80, "text": "free", "size": 12}},                                # no box: drawn at 12
        {"group": {"scale": 0.5, "shapes": [{"text": {"x": 0, "y": 0, "text": "half", "size": 20}}]}},
    ]})
    assert [(t, s) for _w, t, s in smallest_sizes(d)] == [("boxed", 8.0), ("floor", 14.6), ("free", 12), ("half", 10.0)]
    # on a 55 px counter (0.55 px a unit): 8 → 4.4 px, 14.6 → 8.03 px, 12 → 6.6 px, 10 → 5.5 px
    assert [p.text for p in floor_problems(d, 0.55, MIN_SCREEN_PX)] == ["boxed", "free", "half"]


def test_no_text_of_a_genpei_counter_is_under_8_px_in_vassal(genpei):
    from pipeline.systems.genpei import art

    data, layout = genpei
    jobs = art.all_counter_jobs(data, layout)
    checked = 0
    for name, job in jobs.items():
        if name.startswith(("unit_", "leader_", "marker_", "terrain_")):
            drawing = parse_drawing_text(art.renderer().render_yaml(job.template, job.context), job.template)
            per_px = job.size[0] / drawing.width
            texts = smallest_sizes(drawing)
            checked += len(texts)
            assert not floor_problems(drawing, per_px, MIN_SCREEN_PX), (name, [(p.text, round(p.smallest, 2)) for p in floor_problems(drawing, per_px, MIN_SCREEN_PX)])
    assert checked > 60  # every unit's abbreviation and name, every leader's, marker's and tile's label


def test_every_genpei_card_and_chart_keeps_the_floor_on_screen_and_in_print(genpei):
    # VASSAL shows the cards at a pixel a unit; print: a unit card 90 mm for 600 units
    # (0.425 pt a unit), the charts across A4's 190 mm printable width
    from pipeline.render.drawing import overflows
    from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM
    from pipeline.systems.genpei import art
    from pipeline.systems.genpei.printing import UNIT_CARD_MM

    assert UNIT_CARD_MM == (90.0, 126.0)
    data, _layout = genpei
    jobs = art.card_jobs(data)
    assert len(jobs) > 10
    for name, job in jobs.items():
        d = parse_drawing_text(art.renderer().render_yaml(job.template, job.context), job.template)
        mm = art.UNIT_CARD_PRINT_MM if name.startswith("card_unit_") else art.CHART_PRINT_MM
        assert not floor_problems(d, 1.0, MIN_SCREEN_PX, job.template), name
        assert not floor_problems(d, mm * PT_PER_MM / d.width, MIN_PRINT_PT, job.template), (name, [(p.text[:30], round(p.smallest, 2)) for p in floor_problems(d, mm * PT_PER_MM / d.width, MIN_PRINT_PT)][:5])
        assert overflows(d) == [], name


def test_a_unit_rule_that_fits_its_card_only_under_7_pt_is_refused(tmp_path):
    # the unit card's special rules keep 16.5 units (7 pt on the 90 mm card): a rule of 1,500
    # characters cannot fit the box under the stat rows and is refused with its line
    d = _copy(tmp_path)
    path = d / "units.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "summary:" in line)
    lines[at] = lines[at].split("summary:")[0] + "summary: " + repr("Cavalry may not enter a Stockade hex. " * 40) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        _load(d)
    (problem,) = exc.value.problems
    assert problem.file == path and problem.line == at + 1 and problem.where.endswith(".summary")
    assert "Cavalry may not enter" in problem.value and "the unit card" in problem.expected


def _copy(tmp_path: Path) -> Path:
    d = tmp_path / "genpei"
    shutil.copytree(ROOT / "source_data" / "genpei", d, ignore=shutil.ignore_patterns("scenarios"))
    (d / "scenarios").mkdir()
    return d


def _load(d: Path):
    """Load ``d`` and run verification's text-fit check (loading alone draws nothing)."""
    from pipeline.systems.genpei.fit import check_fit
    from pipeline.systems.genpei.load import load

    data = load(d, scenario_files=[])
    check_fit(data)
    return data


def test_a_leader_name_that_fits_only_under_8_px_is_refused(tmp_path):
    # the disc's middle line is 84 units wide and the name may not shrink under 21.1 units
    # (8 px of the 38 px disc): four kanji need 4 × 21.1 ≈ 84 and fit, five need 105.5
    d = _copy(tmp_path)
    path = d / "leaders.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name_ja: 総大将", "name_ja: 騎馬総大将"), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        _load(d)
    (problem,) = exc.value.problems
    assert problem.file == path and problem.where.endswith(".name_ja") and "騎馬総大将" in problem.value
    assert re.search(r"1\.2 × the width", problem.expected), problem.expected


def test_a_template_that_lets_a_text_shrink_under_the_floor_is_refused(tmp_path, monkeypatch):
    from pipeline.render.templates import TemplateRenderer
    from pipeline.systems.genpei import art

    templates = tmp_path / "templates"
    shutil.copytree(art.TEMPLATES, templates)
    leader = templates / "genpei" / "leader_counter.yaml.j2"
    src = leader.read_text(encoding="utf-8")
    assert src.count("min_size: 21.1") == 2
    leader.write_text(src.replace("min_size: 21.1", "min_size: 13"), encoding="utf-8")
    monkeypatch.setattr(art, "_renderer", TemplateRenderer(templates))
    with pytest.raises(DataError) as exc:
        _load(_copy(tmp_path))
    problems = [p for p in exc.value.problems if p.file == leader]
    # the name and the abbreviation (once per shape, not once per leader of the same kind):
    # 13 units of a 38 px disc are 4.9 px
    assert {"'IL'", "'侍大将'"} <= {p.value for p in problems}, [str(p) for p in exc.value.problems]  # the first leader's
    assert len(problems) < 2 * 3  # two texts, at most three shape positions (the three kinds' icons)
    assert all("at least 8 px" in p.expected and "4.9 px" in p.expected for p in problems), [str(p) for p in problems]
