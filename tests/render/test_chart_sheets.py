"""Genpei's chart window scenario sheets composed on the drawing processes
(:func:`pipeline.systems.genpei.printing.scenario_pngs`): the same bytes as composing each
sheet in this process, read back from the render cache the next time."""

from __future__ import annotations

import time
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


def test_chart_sheet_keys_made_once_are_those_made_per_sheet(tmp_path):
    """scenario_pngs makes each sheet's context and map jobs once and each map image's key once
    for every scenario (_chart_sheet_parts, _chart_sheet_key_and_args): for every Genpei
    scenario the cache key is _sheet_parts' and the map jobs are map_image_jobs' (the sheets
    composed from the arguments are compared byte for byte with _sheet_parts' in the test
    above)."""
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(ROOT / "source_data" / "genpei")
    layout = layout_of(data)
    cache = art.render_cache(tmp_path / "cache")
    px = printing.SCENARIO_PNG_PX_PER_MM
    job_keys: dict = {}
    for s in data.scenarios:
        part = printing._chart_sheet_parts(data, layout, s, px)
        assert part[1] == printing.map_image_jobs(data, layout, s, px)
        key, args = printing._chart_sheet_key_and_args(data, s, px, cache, part, job_keys)
        assert key == printing._sheet_parts(data, layout, s, px, cache, printing.SCENARIO_PNG_SUPERSAMPLE)[0]
        assert args[1] == "genpei/scenario_sheet.yaml.j2" and args[3] == printing.SCENARIO_PNG_SUPERSAMPLE
    assert len(job_keys) < sum(len(printing.map_image_jobs(data, layout, s, px)) for s in data.scenarios)  # shared by scenarios


def test_chart_sheets_whose_maps_are_alike_share_one_map_picture(tmp_path):
    """Two scenarios whose map is not public show the same veiled board: it is made once per
    process (printing._chart_map_picture), and each sheet is still the one scenario_sheet
    composes from scratch."""
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(ROOT / "source_data" / "genpei")
    veiled = [s for s in data.scenarios if s.scenario.map == "not public"][:2]
    assert len(veiled) == 2
    data = replace(data, scenarios=veiled)
    layout = layout_of(data)
    parallel.set_workers(1)
    try:
        printing._chart_maps.clear()
        pngs = printing.scenario_pngs(data, layout, art.render_cache(tmp_path / "pool"))
        assert len(printing._chart_maps) == 1  # one picture served both sheets
        here = art.render_cache(tmp_path / "here")
        for s in data.scenarios:
            assert pngs[printing.scenario_png_name(s)] == printing.scenario_sheet(data, layout, s, printing.SCENARIO_PNG_PX_PER_MM, here)
        assert pngs[printing.scenario_png_name(veiled[0])] != pngs[printing.scenario_png_name(veiled[1])]
    finally:
        parallel.set_workers(None)
        parallel.shutdown()


def test_images_sent_before_the_fit_checks(three, tmp_path, monkeypatch):
    """send_images_early: with several drawing processes the module's images are sent and give
    the PNGs render_all gives, and nothing is written in the render cache before they are
    awaited (nor when they are dropped, as by a build its checks refuse); with one drawing
    process nothing is sent; when the jobs cannot be made nothing is left pending (what was
    sent is cancelled) and the build sends them after its checks."""
    from pipeline.systems.genpei.build import layout_of, send_images_early

    data, layout = three
    parallel.set_workers(1)
    try:
        assert send_images_early(data, art.render_cache(tmp_path / "one")) is None
        parallel.set_workers(2)
        cache = art.render_cache(tmp_path / "two")
        sent = send_images_early(data, cache)
        assert sent is not None and sorted(sent.card_jobs) == sorted(art.card_jobs(data))
        assert not cache.hold and not (tmp_path / "two").exists()  # nothing written before they are awaited
        dropped = art.render_cache(tmp_path / "dropped")
        assert send_images_early(data, dropped) is not None
        time.sleep(0.5)  # some drawings finish
        dropped.stop_drawing()  # a build its checks refused
        assert not (tmp_path / "dropped").exists() and dropped._pending == {}
        here = art.render_cache(tmp_path / "here")
        assert sent.wait_counters() == here.render_all(art.all_counter_jobs(data, layout_of(data)))
        assert sent.wait_cards() == here.render_all(art.card_jobs(data))
        assert set(sent.compose_sheets()()) == {printing.scenario_png_name(s) for s in data.scenarios}

        def broken(_data):
            raise KeyError("no such unit")

        monkeypatch.setattr(art, "card_jobs", broken)  # after the counters and map pictures were sent
        failed = art.render_cache(tmp_path / "failed")
        assert send_images_early(data, failed) is None
        assert failed._pending == {}
    finally:
        parallel.set_workers(None)
        parallel.shutdown()


@pytest.mark.parametrize("jobs", [2, 1])
def test_a_build_failing_after_its_checks_keeps_the_images_it_drew(tmp_path, monkeypatch, jobs):
    """A Genpei build that its checks passed and that then fails (here: packing the module; or
    Ctrl-C while it waits for its images) keeps in its render cache every image already drawn,
    on two processes as on one: the images sent before the checks (send_images_early) are
    released once the checks pass (RenderCache.release), not dropped with the build."""
    import shutil

    from pipeline.errors import GunbaiError
    from pipeline.systems.genpei import build as genpei_build
    from pipeline.systems.genpei import module

    data_dir = tmp_path / "genpei"
    shutil.copytree(ROOT / "source_data" / "genpei", data_dir)
    for path in (data_dir / "scenarios").glob("*.yaml"):
        if not path.name.startswith(("gp01_", "gp19_")):
            path.unlink()
    caches: list[RenderCache] = []
    made = art.render_cache
    monkeypatch.setattr(art, "render_cache", lambda folder: caches.append(made(folder)) or caches[-1])
    counters: dict = {}

    def failing(data, layout, card_names):  # the counters are drawn (waited for as another call would), then packing fails
        counters.update(art.all_counter_jobs(data, layout))
        caches[0].render_all(counters)
        raise GunbaiError("packing failed")

    monkeypatch.setattr(module, "build_core_module", failing)
    parallel.set_workers(jobs)
    try:
        with pytest.raises(GunbaiError, match="packing failed"):
            genpei_build.build(data_dir, tmp_path / "out", progress=False)
        cache = caches[0]
        missing = [name for name, job in counters.items() if cache.cached_blob(cache.key(job), "png") is None]
        assert counters and missing == []
        assert not cache._pending and not cache._held  # nothing left waiting or held
    finally:
        parallel.set_workers(None)
        parallel.shutdown()
