"""Print outputs: the render cache, sheet geometry, golden images, PDFs and scenario sheets.

Golden images live in ``tests/render/golden/``. After an intended change to a template or the
drawing engine, regenerate them and look at them before committing::

    GUNBAI_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_print.py -k golden
"""

from __future__ import annotations

import io
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pipeline.render.cache import RenderCache
from pipeline.render.sheets import PAPER, SheetItem, SheetSpec, mirrored, pack, printable_area
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.genpei import art
from pipeline.systems.genpei.art import TEMPLATES
from tests.golden_images import assert_golden

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------------------------
# cache


def _jobs(data, layout):
    return art.counter_jobs(data, layout, ["red", "yellow"], [("NE", "NW")])


@pytest.mark.parametrize("workers", [1, 2])
def test_render_all_later_gives_render_alls_bytes_and_draws_a_pending_job_once(tmp_path, data, layout, workers):
    """Two batches sent before either is awaited (the second repeats jobs of the first): the
    same bytes as render_all of a fresh cache, each drawing drawn once, all stored in the
    cache; awaiting again gives the same bytes."""
    from pipeline.render import parallel

    jobs = _jobs(data, layout)
    names = sorted(jobs)
    first, second = {n: jobs[n] for n in names[: len(names) // 2 + 2]}, {n: jobs[n] for n in names[len(names) // 2:]}
    want = art.render_cache(tmp_path / "reference").render_all(jobs)
    parallel.set_workers(workers)
    try:
        cache = art.render_cache(tmp_path / "cache")
        wait_first = cache.render_all_later(first)
        wait_second = cache.render_all_later(second)
        got_second = wait_second()  # the shared jobs are awaited through the first batch
        got_first = wait_first()
    finally:
        parallel.set_workers(None)
    assert got_first == {n: want[n] for n in first} and got_second == {n: want[n] for n in second}
    assert list(got_first) == list(first) and list(got_second) == list(second)
    assert wait_first() is got_first and wait_second() is got_second
    assert sorted(cache.rendered) == sorted(set(first) | set(second))  # each drawn once…
    assert sorted(cache.reused) == sorted(set(first) & set(second))  # …the shared ones by the first batch
    assert sorted(p.name for p in (tmp_path / "cache").glob("*.png")) == sorted(p.name for p in (tmp_path / "reference").glob("*.png"))
    assert not cache._pending


def test_render_all_later_raises_a_bad_drawing_when_awaited(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "bad.yaml.j2").write_text("canvas: {width: 10, height: 10}\nshapes:\n  - blob: {}\n", encoding="utf-8")
    cache = RenderCache(tmp_path / "cache", TemplateRenderer(tmp_path / "t"))
    from pipeline.render.cache import RenderJob
    from pipeline.render.drawing import RenderError

    wait = cache.render_all_later({"a.png": RenderJob("bad.yaml.j2", {}, size=(10, 10)), "b.png": RenderJob("bad.yaml.j2", {"x": 1}, size=(12, 12))})
    with pytest.raises(RenderError, match="blob"):
        wait()


@pytest.mark.parametrize("finish_first", [True, False])
def test_stop_drawing_keeps_the_finished_drawings_and_cancels_the_rest(tmp_path, data, layout, finish_first):
    """A build that fails before awaiting its images (bad data found while packing, Ctrl-C)
    stops them: each drawing finished is stored in the cache with the bytes awaiting it gives,
    the others are cancelled, and a later run draws only those."""
    from pipeline.render import parallel

    jobs = _jobs(data, layout)
    want = art.render_cache(tmp_path / "reference").render_all(jobs)
    reference = {p.name: p.read_bytes() for p in (tmp_path / "reference").glob("*.png")}
    parallel.set_workers(2)
    try:
        cache = art.render_cache(tmp_path / "cache")
        cache.render_all_later(jobs)  # sent, never awaited
        if finish_first:  # the processes take tasks in the order sent: when this one is done,
            parallel._get_pool().submit(int).result()  # every drawing is, but the other process's last
        cache.stop_drawing()
    finally:
        parallel.set_workers(None)
    assert not cache._pending
    kept = {p.name: p.read_bytes() for p in (tmp_path / "cache").glob("*.png")}
    assert all(reference.get(name) == png for name, png in kept.items())
    if finish_first:
        assert len(kept) >= len(reference) - 1
    later = art.render_cache(tmp_path / "cache")
    assert later.render_all(jobs) == want
    assert len({later.key(jobs[n]) for n in later.rendered}) == len(reference) - len(kept)


def test_cache_second_run_draws_nothing(tmp_path, data, layout):
    c1 = art.render_cache(tmp_path / "cache")
    first = c1.render_all(_jobs(data, layout))
    assert len(c1.rendered) + len(c1.reused) == len(first) and c1.rendered
    c2 = art.render_cache(tmp_path / "cache")
    second = c2.render_all(_jobs(data, layout))
    assert c2.rendered == [] and second == first


def test_cache_touching_one_unit_redraws_exactly_its_images(tmp_path, data, layout):
    art.render_cache(tmp_path / "cache").render_all(_jobs(data, layout))
    data.units["sohei_warriors"] = data.units["sohei_warriors"].model_copy(update={"name_ja": "僧"})
    cache = art.render_cache(tmp_path / "cache")
    cache.render_all(_jobs(data, layout))
    assert sorted(cache.rendered) == ["unit_sohei_warriors_red.png", "unit_sohei_warriors_yellow.png"]
    cards = art.render_cache(tmp_path / "cache")
    cards.render_all(art.card_jobs(data, scale=0.2))
    assert "card_unit_sohei_warriors.png" in cards.rendered


def test_cache_template_edit_redraws_only_the_images_it_changes(tmp_path, data, layout):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    jobs = _jobs(data, layout)
    RenderCache(tmp_path / "cache", TemplateRenderer(templates)).render_all(jobs)
    pattern = templates / "genpei" / "_terrain.j2"  # imported by the terrain tile template only
    text = pattern.read_text(encoding="utf-8")
    assert text.count('"#2f5a22"') >= 1
    pattern.write_text(text.replace('"#2f5a22"', '"#2f5a23"'), encoding="utf-8")
    cache = RenderCache(tmp_path / "cache", TemplateRenderer(templates))
    cache.render_all(jobs)
    # exactly the tiles whose drawing holds the colour are drawn again
    users = sorted(n for n, j in jobs.items() if '"#2f5a23"' in TemplateRenderer(templates).render_yaml(j.template, j.context))
    assert users and all(n.startswith("terrain_") for n in users)
    assert sorted(cache.rendered) == users


def test_cache_key_holds_only_what_the_template_draws(tmp_path, data, layout):
    """A unit counter shows the abbreviation, not the long name: renaming the unit draws no
    counter again, but its card (which shows the name) is drawn again."""
    art.render_cache(tmp_path / "cache").render_all(_jobs(data, layout))
    art.render_cache(tmp_path / "cache").render_all(art.card_jobs(data, scale=0.2))
    data.units["sohei_warriors"] = data.units["sohei_warriors"].model_copy(update={"name": "Warrior Monks of Mount Hiei"})
    counters = art.render_cache(tmp_path / "cache")
    counters.render_all(_jobs(data, layout))
    assert counters.rendered == []
    cards = art.render_cache(tmp_path / "cache")
    cards.render_all(art.card_jobs(data, scale=0.2))
    assert cards.rendered == ["card_unit_sohei_warriors.png"]


def test_parallel_drawing_gives_the_same_bytes_as_one_process(tmp_path, data, layout):
    from pipeline.render import parallel

    jobs = art.counter_jobs(data, layout, ["red"], [])
    try:
        parallel.set_workers(1)
        one = RenderCache(None, art.renderer()).render_all(jobs)
        parallel.set_workers(2)
        two = RenderCache(None, art.renderer()).render_all(jobs)
    finally:
        parallel.set_workers(None)
        parallel.shutdown()
    assert one == two and len(one) == len(jobs)


def test_print_images_are_cached_fast_compressed_with_the_same_pixels(tmp_path, data, layout):
    """Print-resolution images (only ever decoded into a PDF) are stored at zlib level 1: the
    same pixels as at the default level, under their own cache key."""
    from pipeline.render.png import PNG_LEVEL
    from pipeline.render.sheets import PRINT_PNG_LEVEL, supersampled

    name = "unit_sohei_warriors_red.png"
    job = _jobs(data, layout)[name]
    plain = {name: job.__class__(job.template, job.context, job.size, job.scale, supersample=1)}
    fast = supersampled({name: job}, 1)
    assert fast[name].png_level == PRINT_PNG_LEVEL == 1 and PNG_LEVEL == 6
    cache = RenderCache(tmp_path / "cache", art.renderer())
    assert cache.key(fast[name]) != cache.key(plain[name])
    a, b = cache.render_all(plain)[name], cache.render_all(fast)[name]
    assert a != b
    ia, ib = Image.open(io.BytesIO(a)), Image.open(io.BytesIO(b))
    assert ia.mode == ib.mode == "RGBA" and ImageChops.difference(ia, ib).getbbox() is None
    assert supersampled({name: job}, None)[name] is job


# ---------------------------------------------------------------------------------------------
# sheet geometry


def _items():
    return [SheetItem(f"u{i}", 25, 25, f"b{i}") for i in range(40)] + [SheetItem(f"l{i}", 17, 17, f"lb{i}") for i in range(13)] + [SheetItem(f"t{i}", 38, 44, f"t{i}") for i in range(20)]


@pytest.mark.parametrize("paper", list(PAPER))
def test_every_piece_bleed_and_mark_inside_printable_area(paper):
    spec = SheetSpec(paper=paper)
    x0, y0, x1, y1 = printable_area(spec)
    pages = pack(_items(), spec=spec)
    assert sum(len(p.pieces) for p in pages) == len(_items())
    b = spec.bleed_mm
    for pg in pages:
        for p in pg.pieces:
            assert x0 <= p.x - b and p.x + p.w + b <= x1 and y0 + spec.header_mm <= p.y - b and p.y + p.h + b <= y1
        for m in pg.marks:
            for x, y in ((m.x0, m.y0), (m.x1, m.y1)):
                assert x0 <= x <= x1 and y0 <= y <= y1


def test_pieces_do_not_overlap_and_marks_stay_off_artwork():
    spec = SheetSpec()
    b = spec.bleed_mm
    for pg in pack(_items(), spec=spec):
        boxes = [(p.x - b, p.y - b, p.x + p.w + b, p.y + p.h + b) for p in pg.pieces]
        for i, a in enumerate(boxes):
            for c in boxes[i + 1:]:
                assert a[2] <= c[0] + 1e-6 or c[2] <= a[0] + 1e-6 or a[3] <= c[1] + 1e-6 or c[3] <= a[1] + 1e-6
            for m in pg.marks:
                inside = a[0] < min(m.x0, m.x1) and max(m.x0, m.x1) < a[2] and a[1] < min(m.y0, m.y1) and max(m.y0, m.y1) < a[3]
                assert not inside


def test_cut_marks_continue_counter_edges():
    spec = SheetSpec()
    for pg in pack(_items(), spec=spec):
        xs = {round(v, 3) for p in pg.pieces for v in (p.x, p.x + p.w)}
        ys = {round(v, 3) for p in pg.pieces for v in (p.y, p.y + p.h)}
        for m in pg.marks:
            assert (m.x0 == m.x1 and round(m.x0, 3) in xs) or (m.y0 == m.y1 and round(m.y0, 3) in ys)
        # every edge of every piece has a mark on its line
        mark_x = {round(m.x0, 3) for m in pg.marks if m.x0 == m.x1}
        mark_y = {round(m.y0, 3) for m in pg.marks if m.y0 == m.y1}
        assert xs <= mark_x and ys <= mark_y


def test_back_sheet_is_mirrored():
    spec = SheetSpec(paper="letter")
    items = _items()
    fronts = pack(items, spec=spec)
    backs = mirrored(fronts, spec, {it.name: it.back for it in items})
    w, _ = spec.size
    for f, bk in zip(fronts, backs, strict=True):
        assert len(f.pieces) == len(bk.pieces)
        for p, q in zip(f.pieces, bk.pieces, strict=True):
            assert q.name == {it.name: it.back for it in items}[p.name]
            assert q.x == pytest.approx(w - p.x - p.w) and q.y == p.y and (q.w, q.h) == (p.w, p.h)
        # the first front column lands in the last back column
        first = min(f.pieces, key=lambda p: (p.y, p.x))
        row = [q for q in bk.pieces if q.y == first.y]
        assert max(row, key=lambda q: q.x).name == {it.name: it.back for it in items}[first.name]


def test_oversized_piece_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        pack([SheetItem("big", 300, 20)], spec=SheetSpec())


# ---------------------------------------------------------------------------------------------
# golden images


def _golden_images(data, layout):
    red = data.system.armies["red"]
    from pipeline.systems.genpei.printing import _back_context

    r = art.renderer()
    from pipeline.render.cache import RenderJob

    return {
        "unit_sohei_red.png": art.render_unit(data.units["sohei_warriors"], red, 64),
        "leader_commander_red.png": art.render_leader(data.leaders["commander"], red, 48),
        "terrain_palisade_ne_nw.png": art.render_terrain(data.terrain["palisade"], layout, ("NE", "NW"), 0.75),
        "terrain_arrow_tower.png": art.render_terrain(data.terrain["arrow_tower"], layout, (), 0.75),
        "marker_wind_tide_se.png": art.render_marker(data.markers["wind_tide"], 48, "SE"),
        "back_unit_sohei_red.png": RenderJob("genpei/counter_back.yaml.j2", _back_context(data.units["sohei_warriors"], red, "square"), size=(64, 64)).render(r),
    }


def test_golden_images(data, layout):
    images = _golden_images(data, layout)
    assert_golden(images)


def test_palisade_tile_shows_ground_not_a_brown_slab(data, layout):
    img = art.render_terrain(data.terrain["palisade"], layout, ("NE", "NW"), 1.0)
    centre = img.getpixel((img.width // 2, int(img.height * 0.62)))
    ground = art.DEFAULT_GROUND if "countryside" not in data.terrain else data.terrain["countryside"].colour
    g = tuple(int(ground[i:i + 2], 16) for i in (1, 3, 5))
    assert sum(abs(c - d) for c, d in zip(centre[:3], g, strict=True)) < 40
    tower = art.render_terrain(data.terrain["arrow_tower"], layout, (), 1.0)
    alpha = tower.getchannel("A").histogram()
    assert alpha[0] > 0.45 * tower.width * tower.height  # mostly see-through


# ---------------------------------------------------------------------------------------------
# PDFs and scenario sheets on the real data (low resolution to stay fast)


def test_scenario_sheet_places_what_the_vassal_setup_places(genpei):
    from pipeline.systems.genpei.module import palette, placements
    from pipeline.systems.genpei.printing import map_pieces

    data, layout = genpei
    images = {p.key: p.piece.basic.image for _, pieces in palette(data, layout) for p in pieces}
    for loaded in data.scenarios:
        setup = placements(data, layout, loaded)
        sheet = map_pieces(data, layout, loaded)
        assert [k for _, k, _, _ in sheet] == [p.key for p in setup]
        for (name, key, x, y), p in zip(sheet, setup, strict=True):
            # on the same hex: within the stacking offset of the setup's hex centre (a leader's
            # centre on the unit counter's corner: half the unit's 0.66 hex widths)
            assert layout.centre(tuple(p.hex)) == (p.x, p.y)
            bound = 0.33 * layout.hex_width + 1e-6
            assert abs(x - p.x) <= bound and abs(y - p.y) <= bound
            if p.layer_value is None:
                assert name == images[key], key


def test_duplex_print_puts_each_back_behind_its_front(genpei):
    """Printed duplex and flipped on the long edge, page 2k+1 is the back of sheet k and a point
    (x, y) on it lands behind (page width - x, y) of page 2k: every counter's back image must
    be there."""
    from pipeline.systems.genpei import printing

    data, layout = genpei
    opts = printing.PrintOptions(dpi=40)
    items, _jobs = printing.counter_sheet(data, layout, opts)
    backs = {it.name: it.back for it in items}
    for paper in ("a4", "letter"):
        spec = opts.spec(paper)
        pages = printing.print_order(items, spec)
        assert len(pages) % 2 == 0 and len(pages) >= 4
        width = spec.size[0]
        for k in range(0, len(pages), 2):
            front, back = pages[k], pages[k + 1]
            assert f"front {k // 2 + 1}/" in front.title and f"back {k // 2 + 1}/" in back.title
            behind = {(round(width - p.x - p.w, 6), round(p.y, 6)): p.name for p in back.pieces}
            for p in front.pieces:
                assert behind[(round(p.x, 6), round(p.y, 6))] == backs[p.name], (paper, k, p)
            assert len(back.pieces) == len(front.pieces)


def test_scenario_sheet_png_and_pdf(genpei, tmp_path):
    from pipeline.systems.genpei import printing

    data, layout = genpei
    cache = art.render_cache(tmp_path / "cache")
    loaded = data.scenarios[0]
    png = printing.scenario_sheet(data, layout, loaded, 2.0, cache)
    img = Image.open(io.BytesIO(png))
    assert img.size == (594, 420)
    pdf = printing.scenario_pdf(data, layout, loaded, cache, printing.PrintOptions(dpi=50))
    assert pdf.startswith(b"%PDF") and b"NotoSansCJK" in pdf


def test_scenario_sheet_picture_is_drawn_into_the_sheet_not_cached(genpei, tmp_path):
    """The sheet picture (8.7 Mpx at 300 DPI, used once) is drawn straight into the composed
    sheet: no PNG of it in the render cache, only the map's board and pieces; outside the map
    box the composed sheet has exactly the picture's pixels."""
    from pipeline.systems.genpei import printing

    data, layout = genpei
    cache = art.render_cache(tmp_path / "cache")
    loaded = data.scenarios[0]
    jobs = printing.scenario_sheet_jobs(data, layout, loaded, 2.0)
    composed = Image.open(io.BytesIO(printing.scenario_sheet(data, layout, loaded, 2.0, cache))).convert("RGBA")
    cached = {p.stem for p in (tmp_path / "cache").glob("*.png")}
    assert cache.key(jobs["sheet"]) not in cached
    assert set(printing.map_image_jobs(data, layout, loaded, 2.0)) == set(jobs) - {"sheet"}
    assert {cache.key(j) for n, j in jobs.items() if n != "sheet"} <= cached
    # the chart window sheet is drawn without supersampling (printing.SCENARIO_PNG_SUPERSAMPLE)
    picture = replace(jobs["sheet"], supersample=printing.SCENARIO_PNG_SUPERSAMPLE).render(cache.renderer)
    top = round(printing.scenario_context(data, layout, loaded)["map"]["y"] * 2.0)
    assert top > 10
    assert composed.crop((0, 0, composed.width, top)).tobytes() == picture.crop((0, 0, picture.width, top)).tobytes()
    assert composed.crop((0, 0, composed.width, top)).tobytes() != jobs["sheet"].render(cache.renderer).crop((0, 0, picture.width, top)).tobytes()


def test_counter_pdf_has_fronts_and_backs_and_cjk_font(genpei, tmp_path):
    from pipeline.systems.genpei import printing

    data, layout = genpei
    cache = art.render_cache(tmp_path / "cache")
    opts = printing.PrintOptions(dpi=40)
    items, jobs = printing.counter_sheet(data, layout, opts)
    expected = sum(u.copies for u in data.units.values()) * 2 + sum(ld.copies for ld in data.leaders.values()) * 2
    assert sum(1 for it in items if it.name.startswith(("unit_", "leader_"))) == expected
    assert sum(1 for it in items if it.name.startswith("terrain_")) == sum(t.copies for t in data.terrain.values())
    assert all(it.back in jobs for it in items)
    fronts, backs = printing.counter_pages(items, opts.spec("letter"))
    assert len(fronts) == len(backs)
    pdf = printing.counters_pdf(data, layout, cache, "letter", opts)
    assert pdf.startswith(b"%PDF") and b"NotoSansCJK" in pdf
    assert b"/Count " + str(2 * len(fronts)).encode() in pdf


def test_decode_pngs_shared_decodes_each_png_once_with_the_same_pixels():
    from pipeline.render import sheets
    from pipeline.render.png import png_bytes

    a = png_bytes(Image.new("RGBA", (7, 5), (10, 20, 30, 128)))
    b = png_bytes(Image.new("RGB", (3, 4), (200, 100, 0)))
    first = sheets.decode_pngs_shared({"a": a, "b": b})
    again = sheets.decode_pngs_shared({"board": a})
    assert again["board"] is first["a"]  # the same PNG bytes: decoded once
    plain = sheets.decode_pngs({"a": a, "b": b})
    for n in ("a", "b"):
        assert first[n].mode == "RGBA" and first[n].tobytes() == plain[n].tobytes()


# ---------------------------------------------------------------------------------------------
# PDF placement: each image embedded once, placed in the page's own coordinates


@pytest.mark.parametrize(("paper", "page_pt"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_pdf_places_each_image_once_at_its_trim_box_plus_bleed_in_mm(paper, page_pt):
    """Two copies of one 25 mm piece at (20, 30) and (50, 30) mm with 1.5 mm bleed: each is
    drawn on a 28 mm box starting 1.5 mm up and left of its trim box, from one embedded image.
    PDF units are points (72 per inch, origin bottom-left): worked by hand, 28 mm = 79.37 pt,
    18.5 mm = 52.44 pt, 48.5 mm = 137.48 pt, and the box's bottom edge at 28.5 + 28 = 56.5 mm
    from the top is 160.16 pt above the page's height."""
    import re

    from pipeline.render.sheets import Page, Placed, draw_pages, new_pdf, pdf_bytes

    spec = SheetSpec(paper=paper)
    pdf = new_pdf("P", paper)
    page = Page([Placed("a", 20, 30, 25, 25), Placed("a", 50, 30, 25, 25)], [], "title")
    draw_pages(pdf, [page], {"a": Image.new("RGBA", (100, 100), (200, 30, 30, 255))}, spec)
    content = bytes(pdf.pages[1].contents).decode("latin-1")
    boxes = [tuple(float(v) for v in m) for m in re.findall(r"q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm /I1 Do Q", content)]
    bottom = round(page_pt[1] - 160.16, 2)
    assert boxes == [(79.37, 79.37, 52.44, pytest.approx(bottom, abs=0.011)), (79.37, 79.37, 137.48, pytest.approx(bottom, abs=0.011))]
    out = pdf_bytes(pdf)
    w, h = (float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", out).groups())
    assert (w, h) == pytest.approx(page_pt, abs=0.01)
    assert out.count(b"/Subtype /Image") == 1  # one embedded copy for both placements


def test_pdf_image_samples_are_stored_whole_and_the_same_file_twice():
    """The embedded image decodes to exactly the picture's samples (no predictor, no loss), and
    the same pages give the same bytes."""
    import zlib

    from pipeline.render.sheets import embed_image, new_pdf, pdf_bytes

    img = Image.new("RGB", (7, 3), (1, 2, 3))
    img.putpixel((6, 2), (250, 128, 9))

    def one() -> bytes:
        pdf = new_pdf("P", "a4")
        pdf.add_page()
        pdf.image(embed_image(pdf, img), x=10, y=10, w=7, h=3)
        return pdf_bytes(pdf)

    a = one()
    assert a == one()
    start = a.index(b"stream", a.index(b"/Subtype /Image")) + len(b"stream\n")
    assert zlib.decompressobj().decompress(a[start:]) == img.tobytes()
    with pytest.raises(ValueError, match="RGBA"):
        embed_image(new_pdf("P", "a4"), Image.new("RGBA", (2, 2)))


def test_pdf_fonts_are_the_cff_the_library_embeds_when_it_saves_the_font_file_too():
    """fpdf saves each subset font whole before embedding its CID-keyed CFF table compiled
    alone; new_pdf skips that unused save. The file is byte for byte the one the library makes
    with the save, and its text is drawn (pdfium renders dark pixels where it stands)."""
    import pypdfium2 as pdfium


    def one(skip_save: bool) -> bytes:
        def restore_save(pdf) -> None:
            if not skip_save:
                for f in pdf.fonts.values():
                    assert f.ttfont.__dict__.pop("save", None) is not None  # the library's own save again
        return _two_line_pdf("Genpei 源平合戦", "ひらがな Taira", 40, restore_save)

    skipped = one(True)
    assert skipped == one(False)
    assert skipped.count(b"/FontFile3") == 2
    page = pdfium.PdfDocument(skipped)[0]
    img = page.render(scale=1).to_pil().convert("L")
    assert img.crop((50, 70, 400, 240)).getextrema()[0] < 64  # glyphs drawn, not blank


def test_a_pdf_whose_fonts_come_from_the_kept_models_is_the_pdf_made_afresh(monkeypatch):
    """The second PDF with the same font subsets builds its fonts from what the first read from
    the files (``sheets._font_models``), not from the files' tables again; each gets its own
    fontTools font and glyph subset, so a document that used other characters before changes
    nothing: the PDF is byte for byte the one made with nothing kept, and both fonts are
    models of the first document's."""
    from pipeline.render import sheets

    monkeypatch.setattr(sheets, "_font_models", {})
    first = _two_line_pdf("Heike 戦 平", "Kamakura 合", 30)  # other glyphs, in another order
    assert len(sheets._font_models) == 2
    made = []
    doc_fonts = []

    def note(doc) -> None:
        doc_fonts.append([f.ttfont for f in doc.fonts.values()])

    made.append(_two_line_pdf("Genpei 源平合戦", "ひらがな Taira", 40, note))
    sheets._font_models.clear()
    made.append(_two_line_pdf("Genpei 源平合戦", "ひらがな Taira", 40))
    assert made[0] == made[1] != first
    assert len({id(t) for t in doc_fonts[0]}) == 2


def test_a_font_program_embedded_before_for_the_same_glyphs_is_reused_with_the_same_bytes(monkeypatch):
    """fpdf subsets each document's font to its glyphs and compiles the CFF table it embeds: a
    second document using the same glyphs of the same subset file (in another order) gets the
    remembered program (its font is not subset again), and its bytes are those of the PDF made
    with nothing remembered; other glyphs are subset and compiled afresh."""
    from pipeline.render import sheets

    monkeypatch.setattr(sheets, "_embedded", {})
    docs = []
    first = _two_line_pdf("Genpei 源平合戦", "ひらがな Taira", 40)
    assert len(sheets._embedded) == 2  # regular and bold
    again = _two_line_pdf("戦合平源 Genpei", "Taira ひらがな", 40, docs.append)
    assert all(isinstance(f.ttfont.tables["CFF "], sheets._CompiledCFF) for f in docs[0].fonts.values())
    sheets._embedded.clear()
    afresh = _two_line_pdf("戦合平源 Genpei", "Taira ひらがな", 40)
    assert again == afresh != first
    other = _two_line_pdf("Heike 平", "Taira ひらがな", 40, docs.append)
    assert not isinstance(docs[1].fonts["notoB"].ttfont.tables["CFF "], sheets._CompiledCFF)
    sheets._embedded.clear()
    assert other == _two_line_pdf("Heike 平", "Taira ひらがな", 40)


def _two_line_pdf(bold: str, regular: str, size: float, before=None) -> bytes:
    """A one-page A4 PDF of gunbai's print fonts: ``bold`` at y 40 mm and ``regular`` at y 80 mm,
    ``size`` pt; ``before`` is called with the document before its page is added."""
    from pipeline.render.sheets import new_pdf, pdf_bytes

    doc = new_pdf("P", "a4", text="源平合戦")
    if before is not None:
        before(doc)
    doc.add_page()
    doc.set_font("noto", "B", size)
    doc.text(20, 40, bold)
    doc.set_font("noto", "", size)
    doc.text(20, 80, regular)
    return pdf_bytes(doc)


def test_subsets_skip_the_seac_pass_of_cid_fonts_and_keep_the_same_bytes(tmp_path, monkeypatch):
    """fontTools' seac closure can add no glyph to a CID-keyed font: a subset cut without it
    (fonts.no_seac_closure_for_cid_fonts, in force here) has the bytes of one cut with it, and
    so has a PDF whose fonts fpdf subsets again on output."""
    from fontTools.ttLib import getTableClass

    from pipeline.render import fonts

    fonts.no_seac_closure_for_cid_fonts()
    table = getTableClass("CFF ")
    skipping = table.closure_glyphs
    assert skipping.skips_cid_fonts
    chars = frozenset(fonts.PDF_REPERTOIRE) | frozenset("源平合戦義経頼朝僧兵")

    def pdf() -> bytes:
        return _two_line_pdf("Genpei 源平合戦 Ōmi", "ひらがな カタカナ 1185", 30)

    fonts._make_subset(True, chars, tmp_path / "skipped.otf")
    skipped_pdf = pdf()
    monkeypatch.setattr(table, "closure_glyphs", skipping.full)
    monkeypatch.setattr(fonts, "no_seac_closure_for_cid_fonts", lambda: None)
    fonts._make_subset(True, chars, tmp_path / "full.otf")
    assert not getattr(table.closure_glyphs, "skips_cid_fonts", False)  # the full pass ran
    assert (tmp_path / "skipped.otf").read_bytes() == (tmp_path / "full.otf").read_bytes()
    assert pdf() == skipped_pdf


def test_pdf_subsets_have_no_subroutines_and_fpdf_skips_the_subroutine_pass_with_the_same_bytes(monkeypatch):
    """The subsets fonts._make_subset cuts are desubroutinized: no global subroutine, no local
    ``Subrs``. fpdf's subset of each PDF's fonts from them skips the subroutine pass
    (fonts.no_subroutine_pass_without_subroutines, in force here): the charstrings are not
    decompiled, and the PDF has the bytes of one made with the full pass. A font with
    subroutines still gets the full pass (its charstrings decompiled, its subroutines pruned)."""
    from fontTools import subset
    from fontTools.cffLib import CFFFontSet
    from fontTools.ttLib import TTFont

    from pipeline.render import fonts

    fonts.no_subroutine_pass_without_subroutines()
    skipping = CFFFontSet.remove_unused_subroutines
    assert skipping.skips_fonts_without_subroutines

    def top_dict(font: TTFont):
        cff = font["CFF "].cff
        return cff, cff[cff.keys()[0]]

    for bold in (False, True):
        cff, top = top_dict(TTFont(str(fonts.pdf_subset_path(bold, "源平合戦"))))
        assert len(top.GlobalSubrs) == 0
        assert not any(hasattr(fd.Private, "Subrs") for fd in top.FDArray)
        cff.remove_unused_subroutines()
        assert all(cs.needsDecompilation() for cs in top.CharStrings.values())  # bytes kept as read

    def pdf() -> bytes:
        return _two_line_pdf("Genpei 源平合戦 Ōmi", "ひらがな カタカナ 1185", 30)

    skipped = pdf()
    monkeypatch.setattr(CFFFontSet, "remove_unused_subroutines", skipping.full)
    assert pdf() == skipped
    monkeypatch.setattr(CFFFontSet, "remove_unused_subroutines", skipping)

    # a subset cut with subroutines (fontTools' default): the full pass runs
    with_subrs = TTFont(str(fonts.font_path(False)), lazy=True)
    options = subset.Options()
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="源平")
    subsetter.subset(with_subrs)  # runs the (skipping) pass: there are subroutines
    cff, top = top_dict(with_subrs)
    assert len(top.GlobalSubrs) > 0 or any(hasattr(fd.Private, "Subrs") for fd in top.FDArray)
    kept = len(top.GlobalSubrs)
    assert not any(cs.needsDecompilation() for cs in top.CharStrings.values())  # decompiled to mark
    assert kept < len(TTFont(str(fonts.font_path(False)), lazy=True)["CFF "].cff.GlobalSubrs)  # pruned


def test_subsets_cut_with_the_unused_tables_deleted_first_keep_the_same_bytes(tmp_path, monkeypatch):
    """fonts._make_subset deletes the tables it drops (GSUB, GPOS...) before subsetting, so the
    subsetter does not read them: the subset has the bytes of one cut with them left to the
    subsetter's own drop, and holds none of them."""
    from fontTools.ttLib import TTFont

    from pipeline.render import fonts

    chars = frozenset(fonts.PDF_REPERTOIRE) | frozenset("源平合戦")
    fonts._make_subset(False, chars, tmp_path / "deleted_first.otf")
    monkeypatch.setattr(fonts, "_drop_tables", lambda font_file: None)
    fonts._make_subset(False, chars, tmp_path / "dropped_by_subsetter.otf")
    assert (tmp_path / "deleted_first.otf").read_bytes() == (tmp_path / "dropped_by_subsetter.otf").read_bytes()
    assert not set(fonts._DROPPED) & set(TTFont(str(tmp_path / "deleted_first.otf")).keys())


def test_subset_file_names_hold_the_subset_kind(monkeypatch):
    """A subset folder kept from a build that cut its subsets another way is not reused: the
    file name changes with fonts.SUBSET_KIND."""
    from pipeline.render import fonts

    chars = frozenset("源平")
    name = fonts._subset_file(True, chars).name
    monkeypatch.setattr(fonts, "SUBSET_KIND", "cff-with-subroutines")
    assert fonts._subset_file(True, chars).name != name
    assert fonts._subset_file(True, chars).name.startswith("noto-bold-")


def test_a_png_is_embedded_as_it_is_and_decodes_to_its_samples():
    """embed_png puts a PNG's zlib stream of filtered rows into the PDF unchanged, read with the
    PNG predictors: the stream is the PNG's IDAT, and it decodes (filter byte 0 per row) to
    exactly the picture's samples."""
    import re
    import zlib

    from pipeline.render.png import png_bytes
    from pipeline.render.sheets import embed_png, new_pdf, pdf_bytes

    img = Image.new("RGB", (5, 3), (1, 2, 3))
    img.putpixel((4, 2), (250, 128, 9))
    png = png_bytes(img, 3)
    pdf = new_pdf("P", "a4")
    pdf.add_page()
    pdf.image(embed_png(pdf, png), x=10, y=10, w=5, h=3)
    out = pdf_bytes(pdf)
    assert re.search(rb"/DecodeParms <</Predictor 15 /Colors 3 /Columns 5 /BitsPerComponent 8>>", out)
    start = out.index(b"stream", out.index(b"/Subtype /Image")) + len(b"stream\n")
    idat = png[png.index(b"IDAT") + 4:png.index(b"IEND") - 8]
    assert out[start:start + len(idat)] == idat
    rows = zlib.decompress(idat)
    assert b"".join(rows[y * 16 + 1:(y + 1) * 16] for y in range(3)) == img.tobytes() and rows[::16] == b"\0\0\0"
    with pytest.raises(ValueError, match="8-bit RGB or grey"):
        embed_png(new_pdf("P", "a4"), png_bytes(Image.new("RGBA", (2, 2), (0, 0, 0, 0))))


def test_counter_pictures_get_their_bleed_where_they_are_drawn(tmp_path, genpei):
    """bled_jobs: each counter picture is drawn with its print bleed around it (the bleed over
    the width of the first piece showing it, front or back) and cached as an RGB PNG at the PDF
    image level, exactly the pixels with_bleed gives the plain picture; the counter PDF holds
    those files as they are."""
    from pipeline.render.sheets import PDF_IMAGE_LEVEL, with_bleed
    from pipeline.systems.genpei import printing

    data, layout = genpei
    opts = printing.PrintOptions(dpi=60)
    items, jobs = printing.counter_sheet(data, layout, opts)
    unit = next(it for it in items if it.name.startswith("unit_"))
    tile = next(it for it in items if it.name.startswith("terrain_"))
    for it, name in ((unit, unit.name), (unit, unit.back), (tile, tile.name)):
        job = jobs[name]
        assert job.bleed == opts.bleed_mm / it.w and job.png_level == PDF_IMAGE_LEVEL
    cache = RenderCache(tmp_path / "cache", art.renderer())
    for name in (unit.name, unit.back, tile.name):
        plain = replace(jobs[name], bleed=None).render(cache.renderer)
        drawn = Image.open(io.BytesIO(cache.render_all({name: jobs[name]})[name]))
        expected = with_bleed(plain, round(jobs[name].bleed * plain.width))
        assert drawn.mode == "RGB" and drawn.size == expected.size and drawn.tobytes() == expected.tobytes()
    pdf = printing.counters_pdf(data, layout, cache, "a4", opts)
    assert pdf.count(b"/Predictor 15") == len({n for it in items for n in (it.name, it.back) if n})
