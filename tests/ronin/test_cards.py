"""The Ronin reference and roster cards as designed tables (issue 13, the shared card renderer
:mod:`pipeline.render.cards`): every number read from the data, checked here against seed 001
(the book) and the data's sources, a stat no public source gives shown as ``?``.

Golden images live in ``tests/render/golden/`` (``ronin_card_*``); after an intended change,
regenerate and look at them before committing::

    GUNBAI_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/ronin/test_cards.py -k golden
"""

from __future__ import annotations

import pytest

from pipeline.systems.ronin import art
from pipeline.systems.ronin.load import load_roster
from pipeline.systems.ronin.roster import check_roster
from tests.golden_images import assert_golden


def _pages(card) -> list:
    """A card and its continuations (a card whose texts at the legibility floor need more room
    than one card goes on over two: :meth:`pipeline.render.cards.Card.pages`)."""
    return card if isinstance(card, list) else card.pages()


def _cells(card) -> list[list[str]]:
    """Every table row of a card (and its continuations) as its cells' texts."""
    out = []
    for page in _pages(card):
        for b in page.layout():
            if b["kind"] == "table":
                out += [[c["text"] for c in r["cells"]] for r in b["rows"]]
    return out


def _notes(card) -> list[str]:
    return [t for page in _pages(card) for b in page.layout() if b["kind"] == "notes" for t in b["items"]]


def _reference(data, name: str) -> list:
    """The reference card ``name`` and its continuations (``<name>_2.png``…)."""
    cards = art.reference_cards(data)
    first = art.card_image_name("reference", name)
    stem = first.removesuffix(".png")
    return [cards[first]] + [c for n, c in cards.items() if n.startswith(stem + "_")]


def test_every_reference_card_fits_and_is_drawn_at_card_size(data):
    cards = art.reference_cards(data)
    firsts = [art.card_image_name("reference", n) for n in ("1 turn", "2 combat", "3 wounds", "4 shooting", "5 shooting modifiers", "6 weapons", "7 movement morale")]
    assert all(n in cards for n in firsts)
    # the others continue a card whose texts at 7 pt need more room than one card
    assert all(any(n.startswith(f.removesuffix(".png") + "_") for f in firsts) for n in cards if n not in firsts)
    for name, job in art.reference_jobs(data).items():
        assert job.size == art.CARD_SIZE, name
        assert job.template == "common/card.yaml.j2"
    assert art.CARD_SIZE[0] * art.CARD_LAYOUT[1] == art.CARD_SIZE[1] * art.CARD_LAYOUT[0]  # 3:4, as printed


def test_turn_card_stunned_removal_from_the_book(data):
    """Seed 001, End Phase: d6 1-2 no effect, 3-5 remove one, 6 remove two; -1 engaged, +1 rested."""
    card = _reference(data, "1 turn")
    rows = _cells(card)
    assert [r[0] for r in rows] == ["1-2", "3-5", "6", "-1", "+1"]
    steps = card[0].layout()[0]["items"]
    assert [s.split(":")[0] for s in steps] == ["Priority Phase", "Move Phase", "Combat Phase", "Action Phase", "End Phase"]


def test_combat_card_dice_and_armour(data):
    """Seed 001: Initiative 1d6, Attack 2d6 (Enhanced 3d6 keep 2), Defence 1d6; armour light +1,
    medium +2, heavy +3; at most four attackers."""
    card = _reference(data, "2 combat")
    rows = _cells(card)
    assert [r[:2] for r in rows[:3]] == [["Initiative", "1d6"], ["Attack", "2d6"], ["Defence", "1d6"]]
    assert "3d6, keep the best 2" in rows[1][3]
    assert ["Target is engaged by 3 or more enemy models", "-1"] in rows
    notes = " ".join(_notes(card))
    assert "Light +1, Medium +2, Heavy +3" in notes and "At most 4 models" in notes


def test_wound_card_scores_and_second_wounds(data):
    card = _reference(data, "3 wounds")
    rows = _cells(card)
    assert [r[:2] for r in rows[:4]] == [["1", "Stunned"], ["2-3", "Light wound"], ["4-5", "Grievous wound"], ["6+", "Critical wound"]]
    assert ["Light wound", "Light wound", "Grievous wound"] in rows
    assert ["Grievous wound", "Grievous wound", "Critical wound"] in rows


def test_shooting_card_range_bands_with_the_teppo_column(data):
    """Reference sheet: 0-6" +1, 6-12" 0, 12-24" -1, 24-36" -2 (teppo -3), 36-48" -3 (teppo -4);
    the number needed is 6 + armour + cover."""
    card = _reference(data, "4 shooting")
    rows = _cells(card)
    assert rows[:5] == [['0-6"', "+1", "+1"], ['6-12"', "0", "0"], ['12-24"', "-1", "-1"], ['24-36"', "-2", "-3"], ['36-48"', "-3", "-4"]]
    assert card[0].layout()[1]["title"].startswith("Number needed: 6 +")
    assert ["Target is in Heavy cover", "+2"] in rows


def test_weapons_card_initiative_first_and_later_rounds(data):
    card = _reference(data, "6 weapons")
    rows = {r[0]: r[1:] for r in _cells(card)}
    assert rows["Katana"] == ["0", "0", "—"]
    assert rows["Nagae-yari"] == ["+3 / -2", "0", "long-handled"]
    assert rows["Flail"] == ["-1", "+2", "—"]  # seed 001, Koreans: +2 Attack, -1 Initiative
    assert "Sword = Katana" in " ".join(_notes(card))


def test_movement_and_morale_card(data):
    card = _reference(data, "7 movement morale")
    rows = {r[0]: r[1] for r in _cells(card)}
    assert rows["Move"] == '6"' and rows["Run (not within 1 inch of an enemy)"] == '9"' and rows["Withdraw"] == '2"'
    assert rows["Gallop (not within 1 inch of an enemy)"] == '18"'
    assert rows["The Buntai has at least one model with the Commander ability"] == "-1"
    assert any("natural 2 always passes, a natural 12 always fails" in n for n in _notes(card))


def test_roster_card_one_row_per_roster_line_with_statline_and_points(data):
    """bushi_sample_200: 2 × Ashigaru (R1 CP2 I2 F2 S1, medium, 18 each) ... Hatamoto (R4 CP4
    I4 F4 S2, heavy, 38 points as gunbai costs it); armour by its letter, as on the counters."""
    card = art.roster_card(data, check_roster(data, data.rosters["bushi_sample_200"]))
    rows = _cells(card)
    assert rows[0][:8] == ["2 × Ashigaru", "1", "2", "2", "2", "1", "M", "Katana, Teppo"]
    assert rows[0][8] == "18"
    hatamoto = next(r for r in rows if r[0] == "Hatamoto")
    assert hatamoto[1:7] == ["4", "4", "4", "4", "2", "H"] and hatamoto[8] == "38"
    assert "Commander" in hatamoto[7]
    assert all(c.subtitle == "Bushi · 9 models · 203 of 200 points" for c in _pages(card))
    assert any(n.startswith("points-limit") for n in _notes(card))


def test_roster_card_shows_an_unknown_statline_as_unknown(data, write_roster):
    """The Bandit's statline is not public (factions/bandits.yaml: unknown): the card says ?."""
    path = write_roster("id: bandit_test\nname: Bandit test\nfaction: bandits\npoints_limit: 100\nmodels:\n  - {model: bandit, count: 2}\n  - {model: peasant}\n")
    card = art.roster_card(data, check_roster(data, load_roster(path)))
    rows = _cells(card)
    assert rows[0][:6] == ["2 × Bandit", "?", "?", "?", "?", "?"]
    assert rows[1][:6] == ["Peasant", "0", "1", "?", "?", "?"]
    assert "? = not in the public sources" in card.footer


def test_golden_cards(data):
    images = {
        "ronin_card_wounds.png": art.reference_jobs(data, 0.5)[art.card_image_name("reference", "3 wounds")].render(art.renderer()),
        "ronin_card_roster.png": art.roster_job(data, check_roster(data, data.rosters["bushi_sample_200"]), 0.5).render(art.renderer()),
    }
    assert_golden(images)


# ---------------------------------------------------------------------------------------------
# tables sized to their text (issue 32, item 10)


def _table_texts(job):
    """``(text, size as drawn, lines, box height, row height)`` of every table cell of a card's
    drawing: each text shape laid out as the renderer lays it, measured at 100 px per unit (so
    that a size is read to a hundredth of a unit: 16.47, not 131 px / 8 = 16.375)."""
    from pipeline.render.drawing import _layout_text

    d = art.renderer().drawing(job.template, job.context)
    out = []
    for shape in d.shapes:
        p = shape.params
        if shape.name == "text" and p["wrap"] and p["line_height"] == 1.1 and p["text"].strip():
            lines, s = _layout_text(p, 100.0)
            out.append((p["text"], s / 100, len(lines), ((len(lines) - 1) * s * 1.1 + s) / 100, p["max_height"] + 10))
    return out


def test_every_roster_card_row_holds_its_text_on_two_lines_at_its_size(data):
    """Every cell of every shipped roster card (and its continuation) is drawn at its own size,
    never shrunk: the model names and stats 15 and the weapons and options 13 are raised to the
    card's floor, 16.47 units (7 pt printed 90 mm wide, below), on at most three lines (at the
    floor the weapons column of a 544-unit table with seven stat columns cannot hold
    Hatamoto's "Commander, Naginatajutsu, Powerful" on one), and its text keeps 5 units from
    the rules above and below its row: the row grows, nothing touches its rule."""
    for rid, lr in data.rosters.items():
        for card in art.roster_card(data, check_roster(data, lr)).pages():
            assert card.floor == 16.47
            tables = [b for b in card.layout() if b["kind"] == "table"]
            sizes = {c["text"]: max(c["size"] or 15, card.floor) for b in tables for r in b["rows"] for c in r["cells"]}
            if not tables:
                continue  # a continuation with the notes only
            cells = [t for t in _table_texts(card.job(1.0)) if t[0] in sizes]
            assert cells, rid
            for text, size, lines, block, row_h in cells:
                assert size == pytest.approx(sizes[text], abs=0.011), (rid, text, size)
                assert lines <= 3, (rid, text, lines)
                assert block <= row_h - 10 + 1e-6, (rid, text)  # 5 units clear above and below


def test_roster_card_text_keeps_the_print_floor(data):
    """A roster card prints 90 mm wide for its 600 layout units: 0.15 mm a unit, 0.4252 pt, so
    the 7 pt print floor (pipeline.render.legible.MIN_PRINT_PT) is 7 / 0.4252 = 16.46 units; the
    card's floor rounds it up to 16.47 and no row text is drawn smaller (the 13-unit weapons
    and options are raised to it)."""
    from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM
    from pipeline.systems.ronin.printing import CARD_MM

    mm_per_unit = CARD_MM[0] / art.CARD_LAYOUT[0]
    assert mm_per_unit == 0.15
    assert round(MIN_PRINT_PT / (mm_per_unit * PT_PER_MM), 2) == 16.46
    for rid, lr in data.rosters.items():
        for card in art.roster_card(data, check_roster(data, lr)).pages():
            cells = {c["text"] for b in card.layout() if b["kind"] == "table" for r in b["rows"] for c in r["cells"]}
            if not cells:
                continue  # a continuation with the notes only
            smallest = min(size for text, size, *_ in _table_texts(card.job(1.0)) if text in cells)
            assert smallest * mm_per_unit * PT_PER_MM >= MIN_PRINT_PT - 0.01, rid


def test_hatamoto_row_is_two_lines_and_its_armour_a_letter(data):
    card = art.roster_card(data, check_roster(data, data.rosters["bushi_sample_200"]))
    hatamoto = next(r for r in _cells(card) if r[0] == "Hatamoto")
    assert hatamoto[6] == "H" and hatamoto[7] == "Katana, Wakizashi, Naginata\nCommander, Naginatajutsu, Powerful"
    drawn = {t[0]: t for page in card.pages() for t in _table_texts(page.job(1.0))}
    assert drawn[hatamoto[7]][2] in (2, 3)  # the weapons on one line, the options on one or two at the floor
    assert "A Armour (L light, M medium, H heavy, - none)" in card.footer


def test_every_weapons_card_row_is_set_at_one_size(data):
    """The hand-to-hand weapons card: every weapon's name is drawn at one size, the card's floor
    (16.47 units: its 15 raised to 7 pt printed 90 mm wide), "Improvised weapon" as "Katana"
    (it was set smaller than every other row); a long name wraps rather than shrinks."""
    cards = _reference(data, "6 weapons")
    names = {r[0] for r in _cells(cards)}
    drawn = [t for c in cards for t in _table_texts(c.job(1.0)) if t[0] in names]
    assert {t[0] for t in drawn} == names and "Improvised weapon" in names
    assert {round(t[1], 2) for t in drawn} == {16.47} and max(t[2] for t in drawn) <= 2


def test_every_reference_card_table_cell_is_drawn_at_its_size(data):
    for name, card in art.reference_cards(data).items():
        tables = [b for b in card.layout() if b["kind"] == "table"]
        sizes = {c["text"]: max(c["size"] or 15, card.floor) for b in tables for r in b["rows"] for c in r["cells"]}
        for text, size, _lines, block, row_h in _table_texts(card.job(1.0)):
            if text in sizes:
                assert size == pytest.approx(sizes[text], abs=0.01), (name, text)
                assert block <= row_h - 10 + 1e-6, (name, text)


def test_a_table_sized_to_its_text_gives_each_column_its_need_and_shares_the_rest():
    """Two columns of fractions 0.5 / 0.5 in a table 300 units wide: a column needs its widest
    line plus 14 units of padding (and half a unit of slack). When the needs fit, each gets its
    need and half of what is left; when they do not, the column with room to spare gives it
    to the one that lacks it, and the long text wraps onto a taller row."""
    from pipeline.render.cards import Table, _text_w

    short, long_ = "Yari", "long-handled, +1 Enhanced"
    need = [_text_w(short, 15, False) + 14.5, _text_w(long_, 15, False) + 14.5]
    widths, heights = Table("", [("", 0.5), ("", 0.5)], [[short, long_]], row_h=30, fit=True).measure(300)
    left = 300 - sum(need)
    assert left > 0
    assert widths == pytest.approx([need[0] + left / 2, need[1] + left / 2])
    assert heights == [30]
    # narrower than the needs (the long text's line at 0.7 of its width): the short column keeps
    # its need, the long one gets the rest and wraps on two lines ("long-handled, +1" / "Enhanced")
    w = need[0] + 14 + 0.7 * _text_w(long_, 15, False)
    widths, heights = Table("", [("", 0.5), ("", 0.5)], [[short, long_]], row_h=30, fit=True).measure(w)
    assert widths == pytest.approx([need[0], w - need[0]])
    assert heights[0] == pytest.approx(15 * 1.1 + 15 + 10, abs=0.02)  # two lines at 15, 5 above and below
    # without fit: the fractions and row_h, as before
    assert Table("", [("", 0.5), ("", 0.5)], [[short, long_]], row_h=30).measure(120) == ([60, 60], [30])
