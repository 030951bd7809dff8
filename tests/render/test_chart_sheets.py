"""Genpei's chart window scenario sheets composed on the drawing processes
(:func:`pipeline.systems.genpei.printing.scenario_pngs`): the same bytes as composing each
sheet in this process, read back from the render cache the next time."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.render import parallel
from pipeline.render.cache import RenderCache
from pipeline.systems.genpei import art, printing

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def three():
    """The Genpei data with three scenarios: a map not public (veiled), two with pieces."""
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(ROOT / "source_data" / "genpei")
    by_id = {s.scenario.id: s for s in data.scenarios}
    chosen = [by_id["gp01_taiken_gate"], by_id["gp19_nutas_stronghold"], by_id["gp20_nishinomiya"]]
    assert chosen[0].scenario.map == "not public" and all(s.scenario.units for s in chosen[1:])
    small = replace(data, scenarios=chosen)
    return small, layout_of(small)


@pytest.mark.parametrize("jobs", [2, 1])
def test_chart_sheets_from_the_drawing_processes_are_the_sheets_composed_here(three, tmp_path, jobs):
    data, layout = three
    parallel.set_workers(jobs)
    try:
        cache = art.render_cache(tmp_path / "pool")
        pngs = printing.scenario_pngs(data, layout, cache)
        assert list(pngs) == [printing.scenario_png_name(s) for s in data.scenarios]
        here = art.render_cache(tmp_path / "here")
        for s in data.scenarios:
            assert pngs[printing.scenario_png_name(s)] == printing.scenario_sheet(data, layout, s, printing.SCENARIO_PNG_PX_PER_MM, here)
        # the next run reads every sheet back from the cache: nothing drawn or composed
        again = art.render_cache(tmp_path / "pool")
        assert printing.scenario_pngs(data, layout, again) == pngs
        assert again.rendered == [] and set(pngs) <= set(again.reused)
        # without a cache folder the sheets are composed in forked processes: the same bytes
        assert printing.scenario_pngs(data, layout, RenderCache(None, art.renderer())) == pngs
    finally:
        parallel.set_workers(None)
        parallel.shutdown()
