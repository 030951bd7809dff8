"""The BattleScribe export: parse the written .gst/.cat back and check that the points, the
option limits and the composition limits survive."""

from __future__ import annotations

import pytest
from lxml import etree

from pipeline.systems.ronin.battlescribe import (
    CAT_NS,
    GST_NS,
    bs_id,
    category_id,
    write_battlescribe,
)


@pytest.fixture(scope="module")
def files(data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("bs")
    paths = write_battlescribe(data, folder)
    return {p.name: etree.parse(str(p)).getroot() for p in paths}


def _cost(entry, ns):
    return float(entry.find(f"{{{ns}}}costs/{{{ns}}}cost").get("value"))


def test_one_game_system_and_a_catalogue_per_faction(files, data):
    assert "Ronin.gst" in files
    assert {n for n in files if n.endswith(".cat")} == {f"Ronin - {f.name}.cat" for f in data.factions.values() if f.id != "swords_for_hire"}
    gst = files["Ronin.gst"]
    assert gst.tag == f"{{{GST_NS}}}gameSystem"
    for cat in (v for k, v in files.items() if k.endswith(".cat")):
        assert cat.tag == f"{{{CAT_NS}}}catalogue" and cat.get("gameSystemId") == gst.get("id")


def test_points_survive(files, data):
    ns = CAT_NS
    for f in data.factions.values():
        if f.id == "swords_for_hire":
            continue
        cat = files[f"Ronin - {f.name}.cat"]
        for m in f.models:
            e = cat.find(f".//{{{ns}}}selectionEntry[@id='{bs_id(f.id, m.id)}']")
            assert e is not None and e.get("name") == m.name
            assert _cost(e, ns) == m.points
            for g in m.options:
                ge = e.find(f".//{{{ns}}}selectionEntryGroup[@id='{bs_id(f.id, m.id, g.id)}']")
                mx = ge.find(f"{{{ns}}}constraints/{{{ns}}}constraint[@type='max']")
                assert float(mx.get("value")) == g.max
                for cid, cost in (g.choices or {}).items():
                    ce = ge.find(f".//{{{ns}}}selectionEntry[@id='{bs_id(f.id, m.id, g.id, cid)}']")
                    assert _cost(ce, ns) == cost
    sfh = files["Ronin.gst"].find(f".//{{{GST_NS}}}sharedSelectionEntries")
    ronin = sfh.find(f"{{{GST_NS}}}selectionEntry[@id='{bs_id('swords_for_hire', 'ronin')}']")
    assert _cost(ronin, GST_NS) == 17


def test_composition_limits_survive(files):
    ns = CAT_NS
    bushi = files["Ronin - Bushi.cat"]
    force = bushi.find(f".//{{{ns}}}forceEntry")
    def constraints(cat):
        link = force.find(f"{{{ns}}}categoryLinks/{{{ns}}}categoryLink[@targetId='{category_id(cat)}']")
        return {(c.get("type"), float(c.get("value")), c.get("percentValue")) for c in link.findall(f"{{{ns}}}constraints/{{{ns}}}constraint")}
    assert ("max", 1.0, "false") in constraints("Rank 5")
    assert ("max", 25.0, "true") in constraints("Teppo")
    assert ("max", 50.0, "true") in constraints("Missile")
    assert ("max", 25.0, "true") in constraints("Sword for Hire")
    assert {("min", 4.0, "false"), ("max", 20.0, "false")} <= constraints("Model")
    # ratio: two Rank 1/2 per Rank 3+: a min raised by 2 for each Rank 3+ selection
    link = force.find(f"{{{ns}}}categoryLinks/{{{ns}}}categoryLink[@targetId='{category_id('Rank 1 + Rank 2')}']")
    mod = link.find(f"{{{ns}}}modifiers/{{{ns}}}modifier")
    assert mod.get("type") == "increment" and float(mod.get("value")) == 2.0
    assert mod.find(f".//{{{ns}}}repeat").get("childId") == category_id("Rank 3 + Rank 4 + Rank 5")
    names = {r.get("name") for r in force.findall(f"{{{ns}}}rules/{{{ns}}}rule")}
    assert {"bushi_one_rank5", "bushi_teppo_25", "bushi_low_per_high", "sfh_cap_25"} <= names
    # a Samurai counts in Rank 3 and in the Rank 3+ category the ratio counts
    sam = bushi.find(f".//{{{ns}}}selectionEntry[@id='{bs_id('bushi', 'samurai')}']")
    targets = {c.get("targetId") for c in sam.findall(f"{{{ns}}}categoryLinks/{{{ns}}}categoryLink")}
    assert {category_id("Rank 3"), category_id("Rank 3 + Rank 4 + Rank 5")} <= targets
