"""Games saved with an earlier release of the Genpei extension still find their pieces
(issue 26): the setups of release 0.1 (``tests/fixtures/genpei/upgrade/``) against the core
module and extension the current data builds. VASSAL's Refresh Counters finds a saved piece's
palette slot by its gpid (vassal-format.md §2.2, §5), so each must still be a slot's."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pipeline.systems.genpei import art
from pipeline.systems.genpei.build import layout_of, own_mapping
from pipeline.systems.genpei.extension import pack_extension
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.module import build_core_module
from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.base import read_base_module
from pipeline.vassal.buildfile import write_buildfile, write_moduledata
from pipeline.vassal.extension import write_extension
from pipeline.vassal.save import read_save

ROOT = Path(__file__).resolve().parents[2]
UPGRADES = sorted((ROOT / "tests" / "fixtures" / "genpei" / "upgrade").glob("*.vsav"))


@pytest.fixture(scope="module")
def current():
    """The gpids of the current core module's and extension's palette slots, the extension's
    id, and the core module's name and version."""
    data = load(ROOT / "source_data" / "genpei")
    layout = layout_of(data)
    module, _pal = build_core_module(data, layout, art.core_card_names(data))
    core = write_buildfile(module)
    base = read_base_module(archive_bytes({"buildFile.xml": core.xml, "moduledata": write_moduledata(module, 0)}, 1735689600))
    pack = pack_extension(data, own_mapping(data, base), [])
    ext = write_extension(pack.extension)
    return set(core.gpids.values()) | set(ext.gpids.values()), etree.fromstring(ext.xml).get("extensionId"), base


def test_there_are_setups_of_an_earlier_release():
    assert [p.name for p in UPGRADES] == ["gp19_nutas_stronghold-0.1.vsav", "gp20_nishinomiya-0.1.vsav"]


@pytest.mark.parametrize("path", UPGRADES, ids=lambda p: p.name)
def test_every_piece_of_an_earlier_release_still_has_its_slot(current, path):
    gpids, ext_id, base = current
    save = read_save(path.read_bytes())
    assert save.module_name == base.name
    assert ext_id == "91d"
    pieces = [p for p in save.pieces if p.gpid]
    assert pieces and {p.gpid for p in pieces if p.gpid.startswith("91d:")}  # the pack's pieces are there
    lost = sorted({f"{p.name} ({p.gpid})" for p in pieces if p.gpid not in gpids})
    assert lost == []
