"""The Ronin module: written through the registry, read back, linted. Rendering is stubbed with
blank images of the right size (the templates are still rendered to drawings and checked) so
the test stays fast; one test draws real images."""

from __future__ import annotations

import zipfile

import pytest
from lxml import etree
from PIL import Image

from pipeline.render.drawing import pixel_size
from pipeline.render.png import png_bytes
from pipeline.systems.base import get_system
from pipeline.systems.ronin import art
from pipeline.vassal.lint import lint

from .conftest import DATA


def _size(job):
    if job.size:
        return job.size
    if "table" in job.context:
        side = job.context["table"]["side"]
        return round(side * job.scale), round(side * job.scale)
    z = job.context["zone"]
    w, h = (2 * z["r"], 2 * z["r"]) if z["kind"] == "circle" else (z["w"], z["h"])
    return round(w * job.scale), round(h * job.scale)


def _blank(jobs, cache_folder=None):
    return {name: png_bytes(Image.new("RGBA", _size(job), (200, 200, 200, 255))) for name, job in jobs.items()}


def test_every_template_renders_a_valid_drawing_of_the_stubbed_size(data):
    from pipeline.systems.ronin.roster import check_roster

    r = art.renderer()
    jobs = {**art.counter_jobs(data), **art.zone_jobs(data), **art.reference_jobs(data)}
    jobs["table"] = art.table_jobs(data)["table_24in.png"]
    jobs["roster"] = art.roster_job(data, check_roster(data, data.rosters["bushi_sample_200"]))
    seen = set()
    for job in jobs.values():
        key = (job.template, job.context.get("zone", {}).get("kind"))
        if key in seen:
            continue
        seen.add(key)
        d = r.drawing(job.template, job.context)
        assert (job.size or pixel_size(d, scale=job.scale)) == _size(job)


@pytest.fixture(scope="module")
def vmod(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setattr(art, "render_pngs", _blank)
    out = tmp_path_factory.mktemp("build")
    try:
        result = get_system("ronin").build(DATA, out / "ronin", progress=False)
    finally:
        mp.undo()
    return result


def test_module_written_and_lint_clean(vmod):
    assert vmod.module.name == "ronin.vmod" and vmod.scenarios == 7
    assert [f for f in lint(vmod.module) if f.severity == "error"] == []


def test_measured_table_and_range_thread(vmod, data):
    with zipfile.ZipFile(vmod.module) as z:
        root = etree.fromstring(z.read("buildFile.xml"))
        names = set(z.namelist())
    ppi = data.system.vassal.px_per_inch
    boards = root.findall(".//VASSAL.build.module.map.boardPicker.Board")
    assert sorted((b.get("name"), b.get("width"), b.get("height")) for b in boards) == sorted((f'{s}" table', str(s * ppi), str(s * ppi)) for s in (24, 36, 48))
    los = root.find(".//VASSAL.build.module.map.LOS_Thread")
    assert los.get("drawRange") == "true" and float(los.get("scale")) == ppi
    dice = {d.get("name"): d.get("nDice") for d in root.findall(".//VASSAL.build.module.DiceButton")}
    assert dice["d6"] == "1" and dice["2d6"] == "2"
    setups = [s.get("name") for s in root.findall(".//VASSAL.build.module.PredefinedSetup")]
    assert len(setups) == 7 and all(f"{g.value.id}.vsav" in names for g in data.games)
    for m in ("stunned", "light_wound", "grievous_wound", "slain", "attack_counter", "defence_counter", "teppo_fired", "banner"):
        assert f"images/marker_{m}.png" in names
    assert "images/model_bushi_samurai_red.png" in names and "images/card_roster_bushi_sample_100.png" in names
    # the seven reference cards of the rules (turn, combat, wounds, shooting, its modifiers,
    # weapons, movement and morale), each followed by the continuations its text needs at the
    # legibility floor (pipeline.render.cards.paged)
    refs = art.reference_cards(data)
    assert {n for n in names if n.startswith("images/card_reference")} == {f"images/{n}" for n in refs}
    assert sum(not n.removesuffix(".png").rsplit("_", 1)[-1].isdigit() for n in refs) == 7


def test_setup_places_both_buntai_and_zones(vmod, data):
    from pipeline.systems.ronin.module import placements

    g = next(x.value for x in data.games if x.value.id == "defence")
    keys = [p.key for p in placements(data, g)]
    assert keys.count("zone:defence:0") == 1 and keys.count("zone:defence:1") == 1
    assert sum(k.startswith("model:ikko_ikki:") for k in keys) == 12  # the 200-point Ikko-Ikki roster
    assert sum(k.startswith("model:sohei:") for k in keys) == 6
    ppi = data.system.vassal.px_per_inch
    assert all(0 <= p.x <= 36 * ppi and 0 <= p.y <= 36 * ppi for p in placements(data, g))


def test_real_images(data):
    jobs = art.counter_jobs(data)
    img = art.render_jobs({k: jobs[k] for k in ("model_bushi_samurai_red.png", "marker_slain.png")})
    assert img["model_bushi_samurai_red.png"].size == (art.base_px(data),) * 2
    assert img["model_bushi_samurai_red.png"].getpixel((0, 0))[3] == 0  # round base: transparent corner
    table = art.render_jobs({"t": art.table_jobs(data)["table_24in.png"]})["t"]
    assert table.size == (24 * data.system.vassal.px_per_inch,) * 2
