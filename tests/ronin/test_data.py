"""The Ronin data: every faction, statlines where public, errata kept with both readings,
citations of known documents, unknown values where no public source gives them."""

from __future__ import annotations

import shutil

import pytest

from pipeline.errors import DataError
from pipeline.systems.ronin.load import load

from .conftest import DATA

FACTIONS = {"bushi", "ikko_ikki", "sohei", "koryu", "bandits", "koreans", "ming", "peasants", "swords_for_hire"}


def test_every_faction_is_there(data):
    assert set(data.factions) == FACTIONS
    assert all(f.models for f in data.factions.values())


@pytest.mark.parametrize("faction", ["bushi", "ikko_ikki", "sohei"])
def test_full_statlines_for_the_bsdata_factions(data, faction):
    for m in data.factions[faction].models:
        for stat in ("rank", "combat_pool", "initiative", "fight", "shoot"):
            assert isinstance(getattr(m, stat), int), (m.id, stat)
        assert m.stat_source is not None and m.source.doc == "ronin_book"


def test_bushi_model_list(data):
    bushi = {m.id: m for m in data.factions["bushi"].models}
    assert [(m.rank, m.points, m.armour) for m in bushi.values()] == [
        (1, 18, "medium"), (2, 18, "medium"), (3, 24, "heavy"), (4, 29, "heavy"), (5, 34, "heavy"),
    ]
    assert bushi["hatamoto"].options[0].max == 2 and bushi["bushou"].options[0].max == 3
    assert data.factions["bushi"].morale == 9


def test_combat_pool_is_stored_per_model_not_derived_from_rank(data):
    # errata combat_pool_rank_1: generally Rank 1-2 have CP 2, but the Temple Attendant is Rank 1, CP 1
    ta = next(m for m in data.factions["sohei"].models if m.id == "temple_attendant")
    ashigaru = next(m for m in data.factions["bushi"].models if m.id == "ashigaru")
    assert (ta.rank, ta.combat_pool) == (1, 1)
    assert (ashigaru.rank, ashigaru.combat_pool) == (1, 2)


def test_statlines_not_public_are_unknown(data):
    for fid in ("koryu", "koreans", "ming"):
        assert all(m.fight == "unknown" for m in data.factions[fid].models)
    sfh = {m.id: m for m in data.factions["swords_for_hire"].models}
    assert sfh["shugyosha"].fight == "unknown" and sfh["ronin"].fight == 3


def test_errata_keep_the_original_reading(data):
    errata = {e.id: e for e in data.sources.errata}
    for eid in ("combat_pool_rank_1", "nodachi_initiative", "tetsubo_enhanced", "wound_combination", "morale_below_quarter", "bandit_teppo_limit", "sample_buntai_hatamoto"):
        e = errata[eid]
        assert len(e.readings) >= 2 and 0 <= e.chosen < len(e.readings)
    assert any(s.doc == "ronin_errata" for s in errata["wound_combination"].sources)


def test_errata_applied_to_weapons_and_wounds(data):
    nodachi, tetsubo = data.weapons["nodachi"], data.weapons["tetsubo"]
    assert (nodachi.initiative, nodachi.initiative_later) == (1, -1)
    assert tetsubo.enhanced_attack_bonus == 1
    combos = {(c.has, c.new): c.becomes for c in data.rules.wound_combinations}
    assert combos[("grievous", "stunned")] == "grievous"  # errata: Stunned does not count
    assert combos[("light", "light")] == "grievous" and combos[("light", "grievous")] == "critical"


def test_range_bands(data):
    bands = [(b.from_in, b.to_in, b.modifier, b.teppo_modifier) for b in data.weapons_bands()]
    assert bands == [(0, 6, 1, None), (6, 12, 0, None), (12, 24, -1, None), (24, 36, -2, -3), (36, 48, -3, -4)]


def test_every_citation_names_a_document(data):
    docs = {d.id for d in data.sources.documents}
    assert {"ronin_book", "ronin_errata", "bsdata_ronin", "ronin_reference_sheet"} <= docs


def test_a_typo_is_reported_with_file_and_line(tmp_path):
    copy = tmp_path / "ronin"
    shutil.copytree(DATA, copy)
    path = copy / "factions" / "bushi.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    points: 24\n", "    pionts: 24\n", 1), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load(copy)
    msg = str(exc.value)
    assert "bushi.yaml:" in msg and "pionts" in msg


def test_rank_0_models_have_combat_pool_1(data):
    """ronin_book, Introduction: Models (p.5): 'Rank 0 and 1 models only have a combat pool of 1';
    the October 2013 errata raises Ranks 1 and 2 to 2 and leaves Rank 0 alone (erratum
    combat_pool_rank_1)."""
    rank0 = [(f.id, m) for f in data.factions.values() for m in f.models if m.rank == 0]
    assert {fid for fid, _ in rank0} == {"bandits", "ikko_ikki", "koreans", "peasants"}
    assert all(m.combat_pool == 1 for _, m in rank0)


@pytest.mark.parametrize("faction,model,pool,option_pool", [
    ("koreans", "heavy_infantry", 3, 4), ("koreans", "heavy_cavalry", 3, 4), ("koreans", "commander", 4, 5),
    ("ming", "heavy_infantry", 3, 4),
])
def test_korean_and_ming_heavy_pools_follow_from_the_extra_sword(data, faction, model, pool, option_pool):
    """ronin_book, Factions: Koreans (p.48) and Ming Chinese (p.50): 'an additional sword (Combat
    Pool increases to 4/5)': the base pool is one less (inferred, confidence M)."""
    m = next(m for m in data.factions[faction].models if m.id == model)
    sword = next(g for g in m.options if g.sets_combat_pool is not None)
    assert sword.sets_combat_pool == option_pool and m.combat_pool == pool == option_pool - 1
    assert m.stat_source.confidence == "M" and "inferred" in m.stat_source.note
    assert m.rank == m.initiative == m.fight == m.shoot == "unknown"


def test_an_unknown_weapon_in_a_model_list_is_reported(tmp_path):
    copy = tmp_path / "ronin"
    shutil.copytree(DATA, copy)
    path = copy / "factions" / "sohei.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("weapons: [yari]", "weapons: [yarri]", 1), encoding="utf-8")
    with pytest.raises(DataError, match="yarri"):
        load(copy)
