"""Issue 32, items 12 and 13: the measured tables' scenario sheets use the page and their maps
are legible in print. Each text block fills its box (the right column, and the side lists under
a map that leaves room for them, go where the text is set largest); every text on the map's
counters keeps to the print floor (:data:`pipeline.render.legible.MIN_PRINT_PT`): a name that
cannot be set at it gives way to the number of its line in the side list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.measured.art import renderer
from pipeline.measured.printing import (
    map_jobs,
    map_label_min,
    map_mm_per_inch,
    sheet_context,
    text_blocks,
)
from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM, floor_problems

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
#: The least share of its box a text block of a sheet fills.
LEAST_FILL = 0.85


def _sheets():
    from pipeline.systems.ohw import printing as ohw_printing
    from pipeline.systems.ohw.load import load as ohw_load
    from pipeline.systems.sekigahara import printing as seki_printing
    from pipeline.systems.sekigahara.load import load as seki_load

    out = []
    for printing, load, name in ((ohw_printing, ohw_load, "ohw"), (seki_printing, seki_load, "sekigahara")):
        data = load(DATA / name)
        out += [printing.scenario_sheet(data, s.model) for s in data.scenarios]
    return out


@pytest.fixture(scope="module")
def sheets():
    return _sheets()


def test_the_print_floor_at_the_maps_scale():
    # a 36" square OHW table is 172 mm on the sheet (4.778 mm per inch), the 72 x 48" field
    # 190 mm wide (2.639 mm per inch); 7 pt = 7 / 72 x 25.4 = 2.469 mm: 2.469 / 4.778 = 0.517"
    # and 2.469 / 2.639 = 0.936"
    assert round(map_mm_per_inch(36, 36), 3) == 4.778 and round(map_mm_per_inch(72, 48), 3) == 2.639
    assert map_label_min(36, 36) == 0.517 and map_label_min(72, 48) == 0.936


def test_every_text_block_of_a_sheet_fills_its_box(sheets):
    for s in sheets:
        blocks = text_blocks(sheet_context(s))
        assert blocks and all(f >= LEAST_FILL for _scale, f in blocks), (s.id, blocks)


def test_sekigahara_sets_the_east_under_the_map_and_the_rest_beside_it(sheets):
    seki = next(s for s in sheets if s.id == "sekigahara_1600")
    assert sheet_context(seki)["layout"]["below"] == 1
    # the side lists were 0.82 x their base size in three columns under the map; now no block is
    # set under 0.95 x
    assert min(scale for scale, _f in text_blocks(sheet_context(seki))) >= 0.95


def test_every_text_on_a_sheets_map_keeps_the_print_floor(sheets):
    for s in sheets:
        t = s.table["table"]
        # a counter unit is a tenth of an inch: points per unit on the page
        per_unit = map_mm_per_inch(t["width"], t["depth"]) / 10 * PT_PER_MM
        jobs, _ppi = map_jobs(s, 1000)
        for name, job in jobs.items():
            if name == "table":
                continue
            d = renderer().drawing(job.template, job.context)
            assert floor_problems(d, per_unit, MIN_PRINT_PT) == [], (s.id, name)


def test_a_sekigahara_counter_on_the_map_shows_its_side_list_number(sheets):
    seki = next(s for s in sheets if s.id == "sekigahara_1600")
    keys = [u.key for u in seki.units]
    bullets = [b for side in seki.sides for b in side["bullets"]]
    assert sorted(keys, key=int) == bullets == [str(i) for i in range(1, len(seki.units) + 1)]
    jobs, _ppi = map_jobs(seki, 1000)
    texts = {i: [sh.params["text"] for sh in renderer().drawing(jobs[f"u{i}"].template, jobs[f"u{i}"].context).shapes if sh.name == "text"]
             for i in range(len(seki.units))}
    # a 1" deep base leaves 8.6 units under its front strip, under the floor of 9.36 units
    # (0.936", 7 pt): no contingent's name can be set on its base, every one shows its number
    named = [u.counter.name for i, u in enumerate(seki.units) if texts[i] == [u.counter.name]]
    assert named == []
    assert all(texts[i] == [u.key] for i, u in enumerate(seki.units) if u.counter.name not in named), texts


def test_an_ohw_counter_on_the_map_keeps_its_name_and_leaves_its_second_line(sheets):
    ohw = next(s for s in sheets if s.id == "ohw11_surprise_attack")
    jobs, _ppi = map_jobs(ohw, 1000)
    for i, u in enumerate(ohw.units):
        texts = [sh.params["text"] for sh in renderer().drawing(jobs[f"u{i}"].template, jobs[f"u{i}"].context).shapes if sh.name == "text"]
        assert texts == [u.counter.name]
