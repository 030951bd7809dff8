"""The Reluctant Samurai, rules as written (issue 27): charge reach to any point of contact (C1)
and no move, pivot or charge through another unit (erratum no_interpenetration). Positions are
built by hand; the numbers are worked from the rules text (seed 003) in each test. Stands are
1.5" x 1" (system.yaml), so a unit of 4 stands is 6" wide, of 3 stands 4.5"."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.systems.sekigahara.engine import SekiState
from pipeline.systems.sekigahara.load import load

DATA = Path(__file__).resolve().parents[2] / "source_data" / "sekigahara"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def _only(data, keep, **places):
    """A state with only the units ``keep`` alive, each of ``places`` (id: (x, y, facing)) put there."""
    st = SekiState(data, data.scenarios[0].model)
    for u in st.units.values():
        u.alive = u.id in keep
    for ld in st.leaders.values():
        ld.alive = ld.unit in keep
    st.engagements = []
    for uid, (x, y, f) in places.items():
        st.units[uid].base = st.units[uid].base.placed(x, y, f)
    return st


def test_a_charge_reaches_the_corner_of_a_line(data):
    """ "Units may charge up to 6\\" but only if they can reach an enemy unit" (erratum
    charge_reach). Ieyasu's 4 stands (6" x 1", x 19-25, y 25.5-26.5) face north at (22, 26);
    Ishida's 3 stands (4.5" x 1", x 27.75-32.25, y 19.5-20.5) face south at (30, 20), a corner
    (27.75, 19.5) in Ieyasu's front 90 degrees (41.5 degrees off his facing). Ieyasu's front
    corner (25, 25.5) is sqrt(2.75^2 + 5^2) = 5.71" from Ishida's corner (27.75, 20.5): within
    6". He conforms flush and centred on Ishida's front, at (30, 21) facing north, 9.43" from
    where he stood (sqrt(8^2 + 5^2)): the old engine measured that and refused."""
    st = _only(data, {"ieyasu", "ishida"}, ieyasu=(22, 26, 0), ishida=(30, 20, 180))
    u, e = st.units["ieyasu"], st.units["ishida"]
    assert u.base.distance_to(e.base) == pytest.approx((2.75 ** 2 + 5 ** 2) ** 0.5)
    st.steps, st.pending = [("charge", 0, "ieyasu")], None
    assert ("charge", "ishida") in st.legal_actions()
    st.apply_action(("charge", "ishida"))
    assert u.base.centre == pytest.approx((30, 21)) and u.base.facing == pytest.approx(0)
    assert u.base.touches(e.base) and not u.base.overlaps(e.base)
    assert [(m.a, m.b, m.flank) for m in st.engagements] == [("ieyasu", "ishida", False)]
    # 1" further south the corners are sqrt(2.75^2 + 6^2) = 6.6" apart: out of reach
    st = _only(data, {"ieyasu", "ishida"}, ieyasu=(22, 27, 0), ishida=(30, 20, 180))
    assert st._charge_to(st.units["ieyasu"], st.units["ishida"]) is None


def test_a_charge_does_not_pass_through_a_friend(data):
    """Erratum no_interpenetration: Ieyasu (x 37-43, y 29.5-30.5) facing north, 4" behind
    Ukita's front (y 25.5), with Hosokawa's 3 stands (x 37.75-42.25, y 27.5-28.5) between them.
    The spot on Ukita's front (40, 26) is free, but the 4" straight move to it crosses Hosokawa:
    no charge (the old engine checked only the end). Hosokawa himself may charge."""
    st = _only(data, {"ieyasu", "hosokawa", "ukita"}, ieyasu=(40, 30, 0), hosokawa=(40, 28, 0), ukita=(40, 25, 180))
    ieyasu, hosokawa, ukita = st.units["ieyasu"], st.units["hosokawa"], st.units["ukita"]
    assert st._charge_to(ieyasu, ukita) is None
    end = st._charge_to(hosokawa, ukita)
    assert end is not None and end.centre == pytest.approx((40, 26))


def test_no_pivot_through_a_neighbour(data):
    """Erratum no_interpenetration: Ieyasu's 6" line facing north at (20, 20) (y 19.5-20.5) with
    the Tokugawa arquebusiers (4.5" x 1", x 17.75-22.25, y 22.5-23.5) behind him. To face Ukita
    in the east he would pivot to 90 degrees and stand 6" deep (y 17-23), on the arquebusiers:
    he may only hold (the old engine pivoted him onto them)."""
    st = _only(data, {"ieyasu", "ieyasu_teppo", "ukita"}, ieyasu=(20, 20, 0), ieyasu_teppo=(20, 23, 0), ukita=(40, 20, 270))
    st.steps, st.pending = [("move", 0, "ieyasu")], None
    assert st.legal_actions() == [("hold",)]
    # with the arquebusiers 2" further back (y 24.5-25.5) he may turn
    st = _only(data, {"ieyasu", "ieyasu_teppo", "ukita"}, ieyasu=(20, 20, 0), ieyasu_teppo=(20, 25, 0), ukita=(40, 20, 270))
    st.steps, st.pending = [("move", 0, "ieyasu")], None
    assert ("face",) in st.legal_actions()
    st.apply_action(("face",))
    assert st.units["ieyasu"].base.facing == pytest.approx(90)
