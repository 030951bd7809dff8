"""Issue 32, items 6 and 18: pages that waste no paper. Every system's counter sheets (A4 and
Letter) and ``cards.pdf`` hold, on every page but the last, at least 80 % of what fits there,
measured from the layout itself: each piece counts ``1 / capacity`` of its size, the capacity
being how many of it an empty page holds by the same rules (bleed, gutters, cut marks, title
line; a base turned a quarter where that holds more). Cards are butted 3 × 3 (63 × 88 mm) on
A4; OHW's and Sekigahara's bases are turned where a page then holds more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.render import sheets
from pipeline.render.sheets import PrintOptions, SheetItem, SheetSpec

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
#: The least share of a page (every page but a document's last) its pieces must use.
LEAST_FILL = 0.8


def _counter_items(system: str) -> list[SheetItem]:
    opts = PrintOptions()
    if system == "genpei":
        from pipeline.systems.genpei import printing
        from pipeline.systems.genpei.build import layout_of
        from pipeline.systems.genpei.load import load

        data = load(DATA / "genpei")
        return printing.counter_sheet(data, layout_of(data), opts)[0]
    if system == "ronin":
        from pipeline.systems.ronin import printing
        from pipeline.systems.ronin.load import load

        return printing.counter_sheet(load(DATA / "ronin"), opts)[0]
    import importlib

    from pipeline.measured.printing import counter_sheet

    mod = importlib.import_module(f"pipeline.systems.{system}.printing")
    data = importlib.import_module(f"pipeline.systems.{system}.load").load(DATA / system)
    return counter_sheet(mod.print_set(data), opts)[0]


def _cards(system: str) -> tuple[list[str], tuple[float, float]]:
    opts = PrintOptions()
    if system == "genpei":
        from pipeline.systems.genpei import printing
        from pipeline.systems.genpei.load import load

        return list(printing.card_sheet_jobs(load(DATA / "genpei"), opts.spec("a4"))[0]), printing.UNIT_CARD_MM
    if system == "ronin":
        from pipeline.systems.ronin import printing
        from pipeline.systems.ronin.load import load

        return list(printing.card_jobs(load(DATA / "ronin"), opts)), printing.CARD_MM
    import importlib

    from pipeline.measured.printing import CARD_MM

    mod = importlib.import_module(f"pipeline.systems.{system}.printing")
    data = importlib.import_module(f"pipeline.systems.{system}.load").load(DATA / system)
    return list(mod.print_set(data).cards), CARD_MM


SYSTEMS = ("genpei", "ronin", "ohw", "sekigahara")


def area_fill(page: sheets.Page, spec: SheetSpec) -> float:
    """The share of the page's room its pieces take: each piece with its bleed, over the room
    pieces can take (the printable area less the title line and the ring of cut marks round
    it). An A4 page of 4 x 2 inch bases on their side, 3 x 2 of them: 6 x 53.8 x 104.6 mm over
    180 x 259 mm = 0.72 (a page cannot hold more of them)."""
    x0, y0, x1, y1 = sheets.printable_area(spec)
    e, b = spec.mark_mm + 1.0, spec.bleed_mm
    room = (x1 - x0 - 2 * e) * (y1 - y0 - spec.header_mm - 2 * e)
    return sum((p.w + 2 * b) * (p.h + 2 * b) for p in page.pieces) / room


def fits_in_what_is_left(page: sheets.Page, spec: SheetSpec, w: float, h: float) -> bool:
    """Whether a ``w`` × ``h`` mm piece (upright or turned), as a block of its own with its
    bleed and its ring of cut marks, fits the room the page's pieces leave (each piece's
    artwork widened by its own ring of marks). A box that fits anywhere fits with its left edge
    on the room's left or on some piece's right, and its top on the room's top or some piece's
    bottom: those places are tried."""
    x0, y0, x1, y1 = sheets.printable_area(spec)
    e, b = spec.mark_mm + 1.0, spec.bleed_mm
    top = y0 + spec.header_mm
    taken = [(p.x - b - e, p.y - b - e, p.x + p.w + b + e, p.y + p.h + b + e) for p in page.pieces]
    eps = 1e-6
    for pw, ph in ((w, h), (h, w)):
        bw, bh = pw + 2 * b + 2 * e, ph + 2 * b + 2 * e
        for x in [x0] + [t[2] for t in taken]:
            for y in [top] + [t[3] for t in taken]:
                if x + bw > x1 + eps or y + bh > y1 + eps:
                    continue
                if all(x + bw <= t[0] + eps or t[2] <= x + eps or y + bh <= t[1] + eps or t[3] <= y + eps for t in taken):
                    return True
    return False


def test_the_room_measure_sees_what_a_page_leaves():
    """Hand-worked on A4 (printable 10-200 x 10-287 mm, title line to 18 mm, marks 5 mm round
    a block, so artwork lies in 15-195 x 23-282 mm: 180 x 259 mm of room): one 4 x 3 inch base
    leaves room for another. Six 4 x 2 inch bases on their side (3 columns of 53.8 mm, 2 rows of
    104.6 mm with their bleed) end at 23 + 209.2 = 232.2 mm; a block below them starts past
    both rings of marks, at 242.2 mm, leaving 39.8 mm: a 16 mm marker (19 mm with its bleed)
    fits, a 4 x 2 inch base (53.8 mm upright) does not; beside them 195 - 176.4 - 10 = 8.6 mm.
    Their share of the room: 6 x 53.8 x 104.6 / (180 x 259) = 0.72."""
    spec = SheetSpec()
    one = sheets.pack([SheetItem("m", 101.6, 76.2)], spec=spec, rotate=True)[0]
    assert fits_in_what_is_left(one, spec, 101.6, 76.2)
    six = sheets.pack([SheetItem("f", 101.6, 50.8)] * 6, spec=spec, rotate=True)[0]
    assert round(area_fill(six, spec), 2) == 0.72
    assert fits_in_what_is_left(six, spec, 16, 16) and not fits_in_what_is_left(six, spec, 101.6, 50.8)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counter_sheet_pages_use_their_area_or_have_no_room_for_what_follows(system, paper):
    """Every page but the last: its pieces take 80 % of its room (:func:`area_fill`), or no
    piece of a later page fits what it leaves (:func:`fits_in_what_is_left`: the page is as
    full as those pieces allow; OHW's 4 inch bases fill at most 72 % of an A4 page)."""
    items = _counter_items(system)
    spec = PrintOptions().spec(paper)
    fronts, _backs = sheets.counter_pages(items, spec, "t")
    sizes = {it.name: (it.w, it.h) for it in items}
    short = []
    for i, pg in enumerate(fronts[:-1]):
        if area_fill(pg, spec) >= LEAST_FILL:
            continue
        later = {sizes[p.name] for q in fronts[i + 1:] for p in q.pieces}
        if any(fits_in_what_is_left(pg, spec, w, h) for w, h in later):
            short.append((i + 1, round(area_fill(pg, spec), 2)))
    assert short == []


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counter_sheet_pages_hold_at_least_80_percent_of_what_fits(system, paper):
    items = _counter_items(system)
    spec = PrintOptions().spec(paper)
    fronts, backs = sheets.counter_pages(items, spec, "t")
    assert sorted(p.name for pg in fronts for p in pg.pieces) == sorted(it.name for it in items)  # every copy, once
    sizes = {it.name: (it.w, it.h) for it in items}
    fills = [sheets.fill(pg, sizes, spec, rotate=True) for pg in fronts]
    assert all(f <= 1.0 + 1e-9 for f in fills)
    assert all(f >= LEAST_FILL for f in fills[:-1]), [round(f, 2) for f in fills]
    assert len(fronts) == len(backs)


@pytest.mark.parametrize("system", SYSTEMS)
def test_card_pages_hold_at_least_80_percent_of_what_fits(system):
    names, card_mm = _cards(system)
    spec = sheets.card_spec(PrintOptions(), "a4")
    pages = sheets.card_pages(names, card_mm, spec, "t")
    per_page = sheets.capacity(*card_mm, spec, butted=True)
    assert len(pages) == -(-len(names) // per_page)  # no page more than the cards need
    fills = [sheets.fill(pg, {n: card_mm for n in names}, spec, butted=True) for pg in pages]
    assert all(f >= LEAST_FILL for f in fills[:-1]), [round(f, 2) for f in fills]


def test_nine_cards_of_63_by_88_mm_fit_an_a4_page_butted_inside_the_margin():
    """3 × 3 cards (189 × 264 mm) butted, their outer bleed (1.5 mm) and 3 mm cut marks in a
    5 mm margin: every trim box, bleed and mark lies inside the printable area."""
    spec = sheets.card_spec(PrintOptions(), "a4")
    assert (spec.margin_mm, spec.mark_mm) == (5.0, 3.0)
    (page,) = sheets.pack([SheetItem(f"c{i}", 63, 88) for i in range(9)], spec=spec, butted=True)
    xs = sorted({p.x for p in page.pieces})
    ys = sorted({p.y for p in page.pieces})
    assert [round(b - a, 6) for a, b in zip(xs, xs[1:], strict=False)] == [63, 63] and [round(b - a, 6) for a, b in zip(ys, ys[1:], strict=False)] == [88, 88]
    x0, y0, x1, y1 = sheets.printable_area(spec)
    b = spec.bleed_mm
    assert min(p.x for p in page.pieces) - b >= x0 and max(p.x + p.w for p in page.pieces) + b <= x1 + 1e-9
    for mk in page.marks:
        assert x0 - 1e-9 <= min(mk.x0, mk.x1) and max(mk.x0, mk.x1) <= x1 + 1e-9
        assert y0 - 1e-9 <= min(mk.y0, mk.y1) and max(mk.y0, mk.y1) <= y1 + 1e-9
    # marks continue each of the 4 vertical and 4 horizontal cut lines on both sides: 16
    assert len(page.marks) == 16


def test_ohw_bases_are_turned_so_a_page_holds_six_not_four():
    """A 4 × 2 inch base (101.6 × 50.8 mm) on A4 with a 10 mm margin: upright one column of 4
    (104.6 mm wide with its bleed, 180 mm free), turned 3 columns of 2 rows."""
    spec = SheetSpec()
    assert sheets.grid(101.6, 50.8, spec) == (1, 4)
    assert sheets.grid(50.8, 101.6, spec) == (3, 2)
    items = [SheetItem("u", 101.6, 50.8, "back_u")] * 6
    fronts, backs = sheets.counter_pages(items, spec, "t")
    assert len(fronts) == 1 and all(p.rotate == 90 and (p.w, p.h) == (50.8, 101.6) for p in fronts[0].pieces)
    # the back of a piece turned a quarter one way is turned the other way, mirrored left to right
    assert all(p.rotate == 270 for p in backs[0].pieces)
    w = spec.size[0]
    assert sorted(round(w - p.x - p.w, 6) for p in backs[0].pieces) == sorted(round(p.x, 6) for p in fronts[0].pieces)


def test_pieces_of_the_next_size_go_on_in_a_partial_last_row():
    """Three pieces of a size that fills two columns, then a narrower one of the same height:
    it takes the free place beside the third, its vertical cuts marked below the block."""
    spec = SheetSpec()
    items = [SheetItem("a", 80, 60)] * 3 + [SheetItem("b", 40, 60)]
    (page,) = sheets.pack(items, spec=spec)
    a3, b = page.pieces[2], page.pieces[3]
    assert b.name == "b" and b.y == a3.y and round(b.x - (a3.x + a3.w), 6) == 2 * spec.bleed_mm
    bottom = a3.y + a3.h
    below = [mk for mk in page.marks if mk.x0 == mk.x1 and mk.y0 > bottom]
    assert {round(b.x, 6), round(b.x + b.w, 6)} <= {round(mk.x0, 6) for mk in below}
