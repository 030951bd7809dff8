"""The Ronin reference and roster cards as designed tables (issue 13, the shared card renderer
:mod:`pipeline.render.cards`): every number read from the data, checked here against seed 001
(the book) and the data's sources, a stat no public source gives shown as ``?``.

Golden images live in ``tests/render/golden/`` (``ronin_card_*``); after an intended change,
regenerate and look at them before committing::

    GUNBAI_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/ronin/test_cards.py -k golden
"""

from __future__ import annotations

from pipeline.systems.ronin import art
from pipeline.systems.ronin.load import load_roster
from pipeline.systems.ronin.roster import check_roster
from tests.golden_images import assert_golden


def _cells(card) -> list[list[str]]:
    """Every table row of a card as its cells' texts."""
    out = []
    for b in card.layout():
        if b["kind"] == "table":
            out += [[c["text"] for c in r["cells"]] for r in b["rows"]]
    return out


def _notes(card) -> list[str]:
    return [t for b in card.layout() if b["kind"] == "notes" for t in b["items"]]


def test_every_reference_card_fits_and_is_drawn_at_card_size(data):
    cards = art.reference_cards(data)
    assert len(cards) == 7
    for name, job in art.reference_jobs(data).items():
        assert job.size == art.CARD_SIZE, name
        assert job.template == "common/card.yaml.j2"
    assert art.CARD_SIZE[0] * art.CARD_LAYOUT[1] == art.CARD_SIZE[1] * art.CARD_LAYOUT[0]  # 3:4, as printed


def test_turn_card_stunned_removal_from_the_book(data):
    """Seed 001, End Phase: d6 1-2 no effect, 3-5 remove one, 6 remove two; -1 engaged, +1 rested."""
    card = art.reference_cards(data)[art.card_image_name("reference", "1 turn")]
    rows = _cells(card)
    assert [r[0] for r in rows] == ["1-2", "3-5", "6", "-1", "+1"]
    steps = card.layout()[0]["items"]
    assert [s.split(":")[0] for s in steps] == ["Priority Phase", "Move Phase", "Combat Phase", "Action Phase", "End Phase"]


def test_combat_card_dice_and_armour(data):
    """Seed 001: Initiative 1d6, Attack 2d6 (Enhanced 3d6 keep 2), Defence 1d6; armour light +1,
    medium +2, heavy +3; at most four attackers."""
    card = art.reference_cards(data)[art.card_image_name("reference", "2 combat")]
    rows = _cells(card)
    assert [r[:2] for r in rows[:3]] == [["Initiative", "1d6"], ["Attack", "2d6"], ["Defence", "1d6"]]
    assert "3d6, keep the best 2" in rows[1][3]
    assert ["Target is engaged by 3 or more enemy models", "-1"] in rows
    notes = " ".join(_notes(card))
    assert "Light +1, Medium +2, Heavy +3" in notes and "At most 4 models" in notes


def test_wound_card_scores_and_second_wounds(data):
    card = art.reference_cards(data)[art.card_image_name("reference", "3 wounds")]
    rows = _cells(card)
    assert [r[:2] for r in rows[:4]] == [["1", "Stunned"], ["2-3", "Light wound"], ["4-5", "Grievous wound"], ["6+", "Critical wound"]]
    assert ["Light wound", "Light wound", "Grievous wound"] in rows
    assert ["Grievous wound", "Grievous wound", "Critical wound"] in rows


def test_shooting_card_range_bands_with_the_teppo_column(data):
    """Reference sheet: 0-6" +1, 6-12" 0, 12-24" -1, 24-36" -2 (teppo -3), 36-48" -3 (teppo -4);
    the number needed is 6 + armour + cover."""
    card = art.reference_cards(data)[art.card_image_name("reference", "4 shooting")]
    rows = _cells(card)
    assert rows[:5] == [['0-6"', "+1", "+1"], ['6-12"', "0", "0"], ['12-24"', "-1", "-1"], ['24-36"', "-2", "-3"], ['36-48"', "-3", "-4"]]
    assert card.layout()[1]["title"].startswith("Number needed: 6 +")
    assert ["Target is in Heavy cover", "+2"] in rows


def test_weapons_card_initiative_first_and_later_rounds(data):
    card = art.reference_cards(data)[art.card_image_name("reference", "6 weapons")]
    rows = {r[0]: r[1:] for r in _cells(card)}
    assert rows["Katana"] == ["0", "0", "—"]
    assert rows["Nagae-yari"] == ["+3 / -2", "0", "long-handled"]
    assert rows["Flail"] == ["-1", "+2", "—"]  # seed 001, Koreans: +2 Attack, -1 Initiative
    assert "Sword = Katana" in " ".join(_notes(card))


def test_movement_and_morale_card(data):
    card = art.reference_cards(data)[art.card_image_name("reference", "7 movement morale")]
    rows = {r[0]: r[1] for r in _cells(card)}
    assert rows["Move"] == '6"' and rows["Run (not within 1 inch of an enemy)"] == '9"' and rows["Withdraw"] == '2"'
    assert rows["Gallop (not within 1 inch of an enemy)"] == '18"'
    assert rows["The Buntai has at least one model with the Commander ability"] == "-1"
    assert any("natural 2 always passes, a natural 12 always fails" in n for n in _notes(card))


def test_roster_card_one_row_per_roster_line_with_statline_and_points(data):
    """bushi_sample_200: 2 × Ashigaru (R1 CP2 I2 F2 S1, medium, 18 each) ... Hatamoto (R4 CP4
    I4 F4 S2, heavy, 38 points as gunbai costs it)."""
    card = art.roster_card(data, check_roster(data, data.rosters["bushi_sample_200"]))
    rows = _cells(card)
    assert rows[0][:8] == ["2 × Ashigaru", "1", "2", "2", "2", "1", "Medium", "Katana, Teppo"]
    assert rows[0][8] == "18"
    hatamoto = next(r for r in rows if r[0] == "Hatamoto")
    assert hatamoto[1:7] == ["4", "4", "4", "4", "2", "Heavy"] and hatamoto[8] == "38"
    assert "Commander" in hatamoto[7]
    assert card.subtitle == "Bushi · 9 models · 203 of 200 points"
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
