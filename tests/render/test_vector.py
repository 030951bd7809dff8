"""Vector PDF pages (:mod:`pipeline.render.vector`): drawings as PDF paths and real text, the
same layout as the raster renderer, and the print scenario sheets made of them.

PDF pages are rasterised with pypdfium2 (a dev dependency) to compare them with the raster
renderer; PDF units are points (72 per inch) from the page's bottom-left corner.
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from pipeline.render.drawing import draw, parse_drawing
from pipeline.render.sheets import new_pdf, pdf_bytes
from pipeline.render.vector import draw_pdf, drawing_texts

ROOT = Path(__file__).resolve().parents[2]
A4_PORTRAIT_PT = (595.28, 841.89)


def _content(pdf) -> str:
    return bytes(pdf.pages[pdf.page].contents).decode("latin-1")


def _render(pdf_data: bytes, dpi: float, page: int = 0) -> Image.Image:
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(pdf_data)
    try:
        return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference (0-255) of two RGB images, over every channel of every pixel."""
    hist = ImageChops.difference(a, b).histogram()
    return sum((i % 256) * n for i, n in enumerate(hist)) / sum(hist)


# ---------------------------------------------------------------------------------------------
# geometry and operators, worked by hand


def test_rect_lands_on_its_box_in_points():
    """A 100 × 50 unit canvas filling the box (10, 20, 100, 50) mm: 1 unit = 1 mm. Its rect at
    (10, 5) units, 20 × 10, covers (20, 25)-(40, 35) mm from the top-left corner; in points from
    the bottom-left of an A4 portrait page (841.89 pt high): x 20 mm = 56.693 pt, 40 mm =
    113.386 pt; y 25 mm = 70.866 pt down, i.e. 771.024 pt up; 35 mm = 99.213 down, 742.677 up."""
    d = parse_drawing({"canvas": {"width": 100, "height": 50}, "shapes": [{"rect": {"x": 10, "y": 5, "w": 20, "h": 10, "fill": "#ff0000"}}]})
    pdf = new_pdf("P", "a4")
    pdf.add_page()
    draw_pdf(pdf, d, (10, 20, 100, 50), 10.0)
    ops = _content(pdf)
    assert "1 0 0 rg 56.693 771.024 m 113.386 771.024 l 113.386 742.677 l 56.693 742.677 l h f" in ops
    assert ops.count("q") == ops.count("Q")  # the page's state is restored


def test_stroke_dash_caps_and_width_in_points():
    """A line 0.5 units wide dashed [2, 1] with butt caps, canvas units = 2 mm (a 50 unit wide
    canvas in a 100 mm box): width 1 mm = 2.835 pt, dash 4 mm on, 2 mm off = 11.339 / 5.669 pt."""
    d = parse_drawing({"canvas": {"width": 50, "height": 50}, "shapes": [
        {"line": {"points": [[0, 10], [40, 10]], "colour": "#00ff00", "width": 0.5, "dash": [2, 1], "cap": "butt"}}]})
    pdf = new_pdf("P", "a4")
    pdf.add_page()
    draw_pdf(pdf, d, (0, 0, 100, 100), 300 / 25.4)
    ops = _content(pdf)
    assert "0 1 0 RG 2.835 w 0 J 1 j [11.339 5.669] 0 d" in ops
    assert " S" in ops


def test_translucent_colour_and_group_opacity_use_graphics_states():
    """A fill of alpha 0x80 inside a group of opacity 0.5: the fill's alpha is 128 × 0.5 = 64,
    i.e. /ca 0.251 (64 / 255); the group's clip is a clipping path."""
    d = parse_drawing({"canvas": {"width": 10, "height": 10}, "shapes": [{"group": {
        "opacity": 0.5, "clip": {"circle": {"cx": 5, "cy": 5, "r": 4}},
        "shapes": [{"rect": {"x": 0, "y": 0, "w": 10, "h": 10, "fill": "#0000ff80"}}]}}]})
    pdf = new_pdf("P", "a4")
    pdf.add_page()
    draw_pdf(pdf, d, (0, 0, 10, 10), 10.0)
    ops = _content(pdf)
    assert " W n" in ops
    out = pdf_bytes(pdf)
    assert re.search(rb"/ca 0\.251", out)  # fill alpha (the rect has no stroke)


def test_text_is_real_text_placed_where_the_raster_places_it():
    """Left-, centre- and right-anchored text at x = 20, 100, 180 mm: the characters pdfium
    finds start at the left anchor, end at the right anchor, and centre on the middle one, each
    within a fraction of a mm (a glyph's ink starts a little after its advance origin)."""
    pdfium = pytest.importorskip("pypdfium2")
    d = parse_drawing({"canvas": {"width": 200, "height": 60}, "shapes": [
        {"text": {"x": 20, "y": 10, "text": "HIHIH left", "size": 6, "anchor": "lm"}},
        {"text": {"x": 100, "y": 30, "text": "HIHIH", "size": 6, "anchor": "mm", "bold": True}},
        {"text": {"x": 180, "y": 50, "text": "right 僧兵", "size": 6, "anchor": "rm", "colour": "#7a1f14"}}]})
    pdf = new_pdf("P", "a4", text=drawing_texts(d))
    pdf.add_page()
    draw_pdf(pdf, d, (0, 0, 200, 60), 300 / 25.4)
    doc = pdfium.PdfDocument(pdf_bytes(pdf))
    text = doc[0].get_textpage()
    try:
        got = text.get_text_range()
        assert "HIHIH left" in got and "僧兵" in got
        mm = 25.4 / 72
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
        chars = [text.get_text_range(i, 1) for i in range(text.count_chars())]
        # the ink of "H" starts its side bearing (about 0.1 em, 0.6 mm at 6 mm) after the origin
        assert 20.3 <= boxes[0][0] * mm <= 20.8
        last = max(i for i, ch in enumerate(chars) if ch == "兵")
        assert 179.3 <= boxes[last][2] * mm <= 180.05
        middle = [i for i, ch in enumerate(chars) if ch in "HI"][5:10]  # the centred "HIHIH"
        centre = (boxes[middle[0]][0] + boxes[middle[-1]][2]) / 2 * mm
        assert abs(centre - 100) < 0.3
    finally:
        text.close()
        doc.close()


def test_vector_page_matches_the_raster_drawing_pixel_for_pixel_within_a_tolerance():
    """A card-like drawing with every kind of primitive, drawn by the raster renderer at 100 DPI
    and as a vector page rendered by pdfium at 100 DPI: the same picture, with differences only
    along edges (anti-aliasing): mean difference under 4 of 255 after a 1 px blur and under 6 of
    255 raw (measured: 2.7 and 3.4); the hexagon moved by 10 units gives 12."""
    doc = {"canvas": {"width": 80, "height": 60, "background": "#f4ecd8"}, "shapes": [
        {"rect": {"x": 3, "y": 3, "w": 74, "h": 54, "radius": 3, "outline": "#3b2a1a", "width": 0.8}},
        {"rect": {"x": 6, "y": 6, "w": 68, "h": 10, "radius": 2, "fill": "#3b2a1a"}},
        {"text": {"x": 9, "y": 11, "text": "GP01 Taiken Gate 源平", "size": 5, "bold": True, "colour": "#f6f0dc", "anchor": "lm"}},
        {"hexagon": {"cx": 20, "cy": 34, "r": 10, "fill": "#6b8e23", "outline": "#000000", "width": 0.4}},
        {"circle": {"cx": 45, "cy": 34, "r": 8, "fill": "#b22222cc", "outline": "#1d1d1d", "width": 0.5, "dash": [1, 0.8]}},
        {"line": {"points": [[8, 50], [70, 50]], "colour": "#7a1f14", "width": 0.6}},
        {"group": {"translate": [56, 22], "clip": {"rect": {"x": 0, "y": 0, "w": 18, "h": 24}},
                   "shapes": [{"regular_polygon": {"cx": 9, "cy": 12, "r": 14, "sides": 5, "fill": "#2e5e8c"}}]}},
        {"paragraphs": {"x": 8, "y": 52, "w": 64, "h": 6, "items": [{"text": "Victory: 6 banners. • 僧兵 hold the gate", "size": 3}]}},
    ]}
    d = parse_drawing(doc)
    dpi = 100
    L = dpi / 25.4
    # the raster renderer draws this size supersampled twice over, so it lays the text out at
    # 2 × 100 DPI: the vector page is laid out at that resolution
    raster = draw(d, (round(80 * L), round(60 * L)), supersample=2).convert("RGB")
    pdf = new_pdf("L", "a4", text=drawing_texts(d))
    pdf.add_page()
    draw_pdf(pdf, d, (0, 0, raster.width / L, raster.height / L), 2 * L)
    vector = _render(pdf_bytes(pdf), dpi).crop((0, 0, raster.width, raster.height))
    assert _mean_difference(vector, raster) < 6
    blur = ImageFilter.BoxBlur(1)
    assert _mean_difference(vector.filter(blur), raster.filter(blur)) < 4
    # and it is not the same for a wrong drawing: the check can fail
    moved = parse_drawing({**doc, "shapes": [*doc["shapes"][:3], {"hexagon": {"cx": 30, "cy": 34, "r": 10, "fill": "#6b8e23"}}, *doc["shapes"][4:]]})
    pdf2 = new_pdf("L", "a4", text=drawing_texts(d))
    pdf2.add_page()
    draw_pdf(pdf2, moved, (0, 0, raster.width / L, raster.height / L), 2 * L)
    wrong = _render(pdf_bytes(pdf2), dpi).crop((0, 0, raster.width, raster.height))
    assert _mean_difference(wrong.filter(blur), raster.filter(blur)) > 8


# ---------------------------------------------------------------------------------------------
# Genpei scenario sheets


@functools.cache
def _genpei():
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(ROOT / "source_data" / "genpei")
    return data, layout_of(data)


def _scenario(data, prefix):
    return next(s for s in data.scenarios if s.scenario.id.startswith(prefix))


def test_scenario_pdf_structure(tmp_path):
    """GP19's print sheet: one A4 landscape page (841.89 × 595.28 pt) with its TrimBox and
    BleedBox, no image at all, the embedded CJK font subsets, the sheet's texts (title, a
    unit's Japanese name, a special rule's words) present as text, and the same bytes from a
    second, empty cache."""
    pdfium = pytest.importorskip("pypdfium2")
    from pipeline.systems.genpei import art, printing

    data, layout = _genpei()
    loaded = _scenario(data, "gp19")
    text = printing.print_text(data, art.TEMPLATES)
    pdf = printing.scenario_pdf(data, layout, loaded, art.render_cache(tmp_path / "a"), text=text)
    again = printing.scenario_pdf(data, layout, loaded, art.render_cache(tmp_path / "b"), text=text)
    assert pdf == again
    assert b"/Subtype /Image" not in pdf
    assert b"/MediaBox [0 0 841.89 595.28]" in pdf
    assert b"/BleedBox [0 0 841.89 595.28]" in pdf and b"/TrimBox [0.00 0.00 841.89 595.28]" in pdf
    assert pdf.count(b"/FontFile3") + pdf.count(b"/FontFile2") >= 2 and b"NotoSansCJK" in pdf
    doc = pdfium.PdfDocument(pdf)
    try:
        assert len(doc) == 1
        assert tuple(round(v, 2) for v in doc[0].get_size()) == (841.89, 595.28)
        page_text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    flat = " ".join(page_text.split())
    assert "GP19 Nuta's Stronghold" in flat
    assert "源平合戦" in flat
    assert any(u.name_ja and u.name_ja in flat for u in data.units.values())
    assert "Special rules" in flat and "Victory" in flat


def test_map_jobs_made_once_are_the_jobs_made_afresh(monkeypatch):
    """The board and counter jobs of the scenario maps are made once per data, layout and width
    (``printing._map_art``): every scenario's map jobs are equal to those made with nothing
    remembered, a second width or another data object (data loaded again) gets jobs of its own,
    and a scenario's map holds only the pieces it places."""
    from pipeline.systems.genpei import printing
    from pipeline.systems.genpei.load import load

    data, layout = _genpei()
    monkeypatch.setattr(printing, "_map_arts", {})
    remembered = {s.scenario.id: printing.map_jobs(data, layout, s, 1984) for s in data.scenarios}
    assert len(printing._map_arts) == 1
    for s in data.scenarios:
        printing._map_arts.clear()
        assert printing.map_jobs(data, layout, s, 1984) == remembered[s.scenario.id]
    wider = printing.map_jobs(data, layout, _scenario(data, "gp19"), 2480)[0]
    assert {j.size for j in wider.values()} != {j.size for j in remembered[_scenario(data, "gp19").scenario.id][0].values()}
    again = load(ROOT / "source_data" / "genpei")
    printing.map_jobs(again, layout, again.scenarios[0], 1984)
    assert any(v[0] is again for v in printing._map_arts.values())
    gp19 = remembered[_scenario(data, "gp19").scenario.id]
    assert set(gp19[0]) == {printing.art.board_image_name(data.board.id)} | {n for n, *_ in gp19[1]}


def test_scenario_pdf_looks_like_the_raster_sheet(tmp_path):
    """The vector sheet rendered at 60 DPI against the raster sheet drawn at 60 DPI (the chart
    window's renderer): the same page within anti-aliasing, mean difference under 5 of 255
    after a 1 px blur (measured: 4.3). The chart window's sheet drawing is drawn at its own
    resolution (``SCENARIO_PNG_SUPERSAMPLE`` = 1), so its text is laid out at 60 DPI; the vector
    page is laid out at that resolution (``layout_px_per_mm``) so that lines break alike (the
    pieces, drawn supersampled, differ a little more)."""
    from pipeline.render import sheets
    from pipeline.systems.genpei import art, printing

    data, layout = _genpei()
    loaded = _scenario(data, "gp03")
    cache = art.render_cache(tmp_path / "c")
    ppm = 60 / 25.4
    raster = Image.open(io.BytesIO(printing.scenario_sheet(data, layout, loaded, ppm, cache))).convert("RGB")
    key, layers = printing.scenario_layers(data, layout, loaded, ppm, cache)
    pdf = sheets.vector_pdf(key, layers, printing.SCENARIO_SHEET_MM, cache, name="x.pdf", title="x", text=printing.print_text(data, art.TEMPLATES),
                            layout_px_per_mm=ppm)
    vector = _render(pdf, raster.width / (297 / 25.4)).resize(raster.size)
    blur = ImageFilter.BoxBlur(1)
    assert _mean_difference(vector.filter(blur), raster.filter(blur)) < 5


def test_print_jobs_hold_no_scenario_or_card_picture():
    """The scenario sheets and cards need no 300 DPI picture any more: the print jobs are the
    counters only."""
    from pipeline.systems.genpei import printing

    data, layout = _genpei()
    assert {k.split("/")[0] for k in printing.print_jobs(data, layout)} == {"counters"}


def test_print_text_holds_every_character_a_sheet_shows():
    """The one font subset of a build (:func:`printing.print_text`) holds every character of
    every scenario sheet's drawing, so no PDF cuts a subset of its own."""
    from pipeline.render.fonts import PDF_REPERTOIRE
    from pipeline.systems.genpei import art, printing

    data, layout = _genpei()
    text = set(printing.print_text(data, art.TEMPLATES)) | set(PDF_REPERTOIRE)
    cache = art.render_cache(None)
    for loaded in data.scenarios:
        _key, layers = printing.scenario_layers(data, layout, loaded, 300 / 25.4, cache)
        shown = {c for d, _box in layers() for c in drawing_texts(d) if c.isprintable() and not c.isspace()}
        assert shown <= text, (loaded.scenario.id, sorted(shown - text))


def test_cards_pdf_is_vector_with_its_bleed_in_the_card_colour(tmp_path):
    """Genpei's cards PDF: the unit cards (90 × 126 mm, so that their text keeps 7 pt) butted 4
    to a page, then the two charts on a page each,
    no image; the unit names are text; the bleed ring 1.5 mm outside a card's trim box (here
    0.75 mm out, in the middle of its left edge) has the card's background colour, and the
    paper 3 mm out is white."""
    pdfium = pytest.importorskip("pypdfium2")
    from pipeline.render import sheets
    from pipeline.systems.genpei import art, printing

    data, _layout = _genpei()
    cache = art.render_cache(tmp_path / "c")
    text = printing.print_text(data, art.TEMPLATES)
    pdf = printing.cards_pdf(data, cache, "a4", printing.DEFAULTS, text)
    assert b"/Subtype /Image" not in pdf
    unit_jobs, charts = printing.card_sheet_jobs(data, printing.DEFAULTS.spec("a4"))
    pages = sheets.card_pages(list(unit_jobs), printing.UNIT_CARD_MM, sheets.card_spec(printing.DEFAULTS, "a4"), "t")
    assert [len(pg.pieces) for pg in pages] == [4, 4, len(unit_jobs) - 8]
    doc = pdfium.PdfDocument(pdf)
    try:
        assert len(doc) == len(pages) + len(charts)
        words = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    words = " ".join(words.split())
    assert all(u.name.split(" (")[0] in words for u in data.units.values())
    first = pages[0].pieces[0]
    background = sheets.job_drawing(cache, unit_jobs[first.name]).background
    dpi = 150
    page = _render(pdf, dpi)
    px = dpi / 25.4
    y = round((first.y + first.h / 2) * px)
    assert page.getpixel((round((first.x - 0.75) * px), y)) == background[:3]
    assert page.getpixel((round((first.x - 3.0) * px), y)) == (255, 255, 255)


def test_measured_sheet_vector_matches_its_raster_with_units_turned(tmp_path):
    """OHW scenario 4 (red units face south, drawn turned half round, text and all): the vector
    sheet rendered at 60 DPI against the raster sheet drawn at 60 DPI, within anti-aliasing
    (mean difference under 6 of 255 after a 1 px blur; measured 4.4, text laid out at the
    raster's own 60 DPI), with no image."""
    from pipeline.measured import printing as mp
    from pipeline.render import sheets
    from pipeline.systems.ohw import printing
    from pipeline.systems.ohw.load import load

    data = load(ROOT / "source_data" / "ohw")
    ps = printing.print_set(data)
    sheet = next(s for s in ps.scenarios if s.id.startswith("ohw04"))
    assert any(u.facing % 360 for u in sheet.units)
    from pipeline.measured import art

    cache = art.render_cache(tmp_path / "c")
    ppm = 60 / 25.4
    raster = Image.open(io.BytesIO(mp.scenario_png(sheet, ppm, cache))).convert("RGB")
    key, layers = mp.sheet_layers(sheet, ppm, cache)
    pdf = sheets.vector_pdf(key, layers, mp.SHEET_MM, cache, name="x.pdf", title="x", text=mp.print_text(ps, cache.renderer.root), layout_px_per_mm=ppm)
    assert b"/Subtype /Image" not in pdf
    vector = _render(pdf, raster.width / (297 / 25.4)).resize(raster.size)
    blur = ImageFilter.BoxBlur(1)
    assert _mean_difference(vector.filter(blur), raster.filter(blur)) < 6


def test_a_character_outside_the_font_subset_is_still_real_text():
    """A kanji the PDF's font subset was not cut for (its ``text`` does not hold 鬼) is drawn from
    a second subset that has it: still text pdfium reads back, with that font embedded too."""
    pdfium = pytest.importorskip("pypdfium2")
    d = parse_drawing({"canvas": {"width": 100, "height": 20}, "shapes": [{"text": {"x": 50, "y": 10, "text": "Oni 鬼", "size": 8}}]})
    pdf = new_pdf("P", "a4", text="")
    pdf.add_page()
    draw_pdf(pdf, d, (0, 0, 100, 20), 300 / 25.4)
    out = pdf_bytes(pdf)
    assert out.count(b"/FontFile3") + out.count(b"/FontFile2") >= 2
    doc = pdfium.PdfDocument(out)
    try:
        assert "Oni 鬼" in doc[0].get_textpage().get_text_range()
    finally:
        doc.close()


def test_a_turned_drawing_turns_about_its_box_centre():
    """A 20 × 10 mm drawing with a word at its left end, turned 180° about the centre of its box
    at (50, 50)-(70, 60) mm: the word's characters now lie at the right end (x above 60 mm),
    read right to left."""
    pdfium = pytest.importorskip("pypdfium2")
    d = parse_drawing({"canvas": {"width": 20, "height": 10}, "shapes": [{"text": {"x": 1, "y": 5, "text": "AB", "size": 4, "anchor": "lm"}}]})
    pdf = new_pdf("P", "a4")
    pdf.add_page()
    draw_pdf(pdf, d, (50, 50, 20, 10), 300 / 25.4, 180.0)
    doc = pdfium.PdfDocument(pdf_bytes(pdf))
    text = doc[0].get_textpage()
    try:
        mm = 25.4 / 72
        xs = [(text.get_text_range(i, 1), (text.get_charbox(i)[0] + text.get_charbox(i)[2]) / 2 * mm) for i in range(text.count_chars())]
    finally:
        text.close()
        doc.close()
    centres = dict(xs)
    assert 60 < centres["B"] < centres["A"] < 70


# ---------------------------------------------------------------------------------------------
# a drawing placed again: its recorded operators replayed


def _two_drawings():
    """``board``: a translucent fill and a text; ``other``: another translucent colour and a text
    sharing some characters, so that drawing ``other`` first numbers the graphics states and
    the font subset's glyphs differently for ``board``."""
    board = parse_drawing({"canvas": {"width": 100, "height": 50}, "background": "#f4ecd8", "shapes": [
        {"rect": {"x": 10, "y": 5, "w": 20, "h": 10, "fill": "#ff000080", "outline": "#000000", "width": 1}},
        {"text": {"x": 50, "y": 30, "text": "Hex 12 源平", "size": 6, "bold": True, "stroke_width": 0.5, "stroke_colour": "#ffffff"}},
        {"text": {"x": 5, "y": 45, "text": "exit", "size": 4, "anchor": "lm", "colour": "#00000099"}}]})
    other = parse_drawing({"canvas": {"width": 100, "height": 50}, "shapes": [
        {"rect": {"x": 0, "y": 0, "w": 50, "h": 50, "fill": "#00ff0040"}},
        {"text": {"x": 50, "y": 25, "text": "Zebra 9 平家", "size": 5}}]})
    return board, other


def test_a_drawing_placed_again_gives_the_bytes_of_drawing_it_afresh(monkeypatch):
    """The board is drawn into one PDF, then into another after a different drawing: the second
    time its operators are replayed (not worked out again), and the PDF is byte for byte the PDF
    made with nothing remembered, though that PDF numbers its graphics states and its font
    subset's glyphs in another order than the first."""
    from pipeline.render import vector

    board, other = _two_drawings()
    monkeypatch.setattr(vector, "_recordings", {})
    recorded = []
    record = vector._record
    monkeypatch.setattr(vector, "_record", lambda *a: recorded.append(a[1]) or record(*a))

    def pdf_of(*drawings) -> bytes:
        pdf = new_pdf("L", "a4", text="源平家")
        pdf.add_page()
        for d in drawings:
            draw_pdf(pdf, d, (20, 30, 100, 50), 300 / 25.4)
        return pdf_bytes(pdf)

    pdf_of(board)
    replayed = pdf_of(other, board)
    assert recorded == [board, other]  # the board's second placement was replayed
    vector._recordings.clear()
    afresh = pdf_of(other, board)
    assert recorded == [board, other, other, board]
    assert replayed == afresh


def test_a_drawing_in_another_box_or_page_is_worked_out_again(monkeypatch):
    """A recording is replayed only in the same box on a page of the same height with the same
    font subset: elsewhere the drawing is worked out again (the bytes of a fresh drawing)."""
    from pipeline.render import vector

    board, _ = _two_drawings()
    monkeypatch.setattr(vector, "_recordings", {})
    recorded = []
    record = vector._record
    monkeypatch.setattr(vector, "_record", lambda *a: recorded.append((a[2], a[0].h)) or record(*a))
    for orientation, box, text in [("L", (20, 30, 100, 50), "源平"), ("L", (20, 31, 100, 50), "源平"), ("P", (20, 30, 100, 50), "源平"),
                                   ("L", (20, 30, 100, 50), "源平家"), ("L", (20, 30, 100, 50), "源平")]:
        pdf = new_pdf(orientation, "a4", text=text)
        pdf.add_page()
        draw_pdf(pdf, board, box, 300 / 25.4)
    assert len(recorded) == 4  # the last placement repeats the first


def test_a_text_outside_the_font_subset_is_not_remembered(monkeypatch):
    """A drawing with a character outside the PDF's font subset (drawn from a second subset the
    PDF adds) is worked out every time, and each PDF has the bytes of the first."""
    from pipeline.render import vector

    monkeypatch.setattr(vector, "_recordings", {})
    d = parse_drawing({"canvas": {"width": 100, "height": 20}, "shapes": [{"text": {"x": 50, "y": 10, "text": "Oni 鬼", "size": 8, "colour": "#00000080"}}]})
    made = []
    for _ in range(2):
        pdf = new_pdf("P", "a4", text="")
        pdf.add_page()
        draw_pdf(pdf, d, (0, 0, 100, 20), 300 / 25.4)
        made.append(pdf_bytes(pdf))
    assert vector._recordings == {}
    assert made[0] == made[1]
    assert made[0].count(b"/FontFile3") + made[0].count(b"/FontFile2") >= 2


def test_path_numbers_are_written_as_n_writes_each_number():
    """``PdfPainter._path`` formats a whole path in one pass; every number is the one ``_n``
    writes for it (3 decimals, no ``.000``, no ``-0``), including values that round to zero
    from either side, whole numbers and negative coordinates."""
    from pipeline.render.vector import PdfPainter, _n

    values = [0.0, -0.0, 0.0004, -0.0004, 0.0005, -0.0005, 1.0, -1.0, 10.0, 0.9995, -0.9995, -1e-9, 123.4565, -626.42, 841.89]
    painter = PdfPainter.__new__(PdfPainter)
    for f, page_h in [(1.0, 0.0), (0.24, 595.28), (72 / 300, 841.89), (1.0, 0.0005)]:
        painter.f, painter.page_h = f, page_h
        for i in range(len(values)):
            pts = [(values[i], values[-1 - i]), (values[(i + 3) % len(values)], values[(i + 5) % len(values)]), (-values[i], values[i])]
            for close in (True, False):
                expected = " ".join([f"{_n(pts[0][0] * f)} {_n(page_h - pts[0][1] * f)} m"]
                                    + [f"{_n(x * f)} {_n(page_h - y * f)} l" for x, y in pts[1:]] + (["h"] if close else []))
                assert painter._path(pts, close) == expected
