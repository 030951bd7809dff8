"""The Genpei pack as an extension of a base module (issue 26): the base read as untrusted
input, the mapping onto it drafted and checked, the extension adding only what the pack
brings, onto the base's own map, at the base grid's hex centres.

Bases: gunbai's own core module (read back from its bytes), the trimmed C&C Napoleonics module
(``tests/fixtures/vassal/bases/ccnapoleonics``: a real Commands & Colours module, a sideways
grid in a zone of a multi-zoned board, alphabetic descending numbering, custom code) and the
Hex'n'Counters template (``…/hexncounters``: an upright grid). Expected positions are worked
from VASSAL's HexGrid formula (vassal-format.md §2.5) and the grid attributes of each fixture's
buildFile, copied below.
"""

from __future__ import annotations

import hashlib
import io
import math
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import DataError, GunbaiError
from pipeline.systems.genpei import art
from pipeline.systems.genpei import module as gm
from pipeline.systems.genpei.base_mapping import draft_mapping, load_mapping, resolve_mapping
from pipeline.systems.genpei.build import layout_of, own_mapping
from pipeline.systems.genpei.extension import extension_archive_entries, pack_extension
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.printing import scenario_png_name
from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.base import BaseModuleError, read_base_module
from pipeline.vassal.buildfile import write_buildfile, write_moduledata
from pipeline.vassal.lint import lint_bytes
from pipeline.vassal.pieces import decode_add_piece
from pipeline.vassal.save import read_save

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "genpei"
BASES = ROOT / "tests" / "fixtures" / "vassal" / "bases"
CCN = BASES / "ccnapoleonics" / "ccnapoleonics.vmod"
CCN_MAPPING = BASES / "ccnapoleonics" / "base_mapping.yaml"
TEMPLATE = BASES / "hexncounters" / "template.vmod"
TEMPLATE_MAPPING = BASES / "hexncounters" / "base_mapping.yaml"
VM = "VASSAL.build.module."
#: the smallest PNG (1 x 1): stands in for the images in the in-memory builds below
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def _entries(data, base, mapping_file=None, *, mapping=None):
    if mapping is None:
        mf, doc = load_mapping(mapping_file)
        mapping = resolve_mapping(data, base, mf, path=mapping_file, doc=doc)
    cards = art.pack_card_names(data) + [scenario_png_name(s) for s in data.scenarios]
    pack = pack_extension(data, mapping, cards)
    images = dict.fromkeys(pack.images | set(cards), PNG)
    entries, built, saves = extension_archive_entries(data, pack, images, date_saved_ms=data.system.vassal.date_saved_ms)
    return pack, entries, built, saves


def core_bytes(data) -> bytes:
    """The core module's buildFile and moduledata (its images are not needed to read it)."""
    module, _pal = gm.build_core_module(data, layout_of(data), art.core_card_names(data))
    return archive_bytes({"buildFile.xml": write_buildfile(module).xml, "moduledata": write_moduledata(module, 0)}, 1735689600)


@pytest.fixture(scope="module")
def ccn(data):
    return _entries(data, read_base_module(CCN), CCN_MAPPING)


# ----------------------------------------------------------------------------- the base module


def test_the_napoleonics_base_as_read(data):
    """Values read from the fixture's buildFile and moduledata."""
    base = read_base_module(CCN)
    assert (base.name, base.version, base.vassal_version) == ("Commands & Colors: Napoleonics V4.2", "4.2.0a60", "3.7.5")
    assert base.sha256 == hashlib.sha256(CCN.read_bytes()).hexdigest()
    assert base.has_code  # napoleonics/*.class
    inland = base.maps["Main Map"].boards["Inland"]
    assert inland.size == (1200, 866) and inland.image == "map.jpg"
    (zone, grid), = inland.hex_grids()
    assert zone == "Battlefield" and grid.sideways
    assert (grid.x0, grid.y0, grid.dx, grid.dy) == (-17, 75, 75.32562584220355, 86.99999999999869)
    assert base.maps["Main Map"].layer_property == "Layer"
    assert base.maps["Main Map"].layer_order[:5] == ("bottom", "highlight", "labels", "middle", "top")
    slot, = base.find_slots(name="French Line Infantry")
    assert slot.gpid == "195" and slot.palette == ("Units & Leaders", "Units", "French", "French Line Infantry")
    assert len(base.find_slots(name="Hill")) == 2  # a terrain tile and a leader of honour


def test_sha256_mismatch_names_both_digests(tmp_path):
    wrong = "0" * 64
    with pytest.raises(BaseModuleError) as err:
        read_base_module(CCN, expected_sha256=wrong, sha_source="system.yaml base_module_sha256")
    actual = hashlib.sha256(CCN.read_bytes()).hexdigest()
    assert f"SHA-256 is {actual}, but system.yaml base_module_sha256 says {wrong}" in str(err.value)
    assert read_base_module(CCN, expected_sha256=actual.upper()).name.startswith("Commands & Colors")


def test_sha256_mismatch_stops_the_build_before_anything_is_written(tmp_path):
    data_root = tmp_path / "data"
    shutil.copytree(DATA, data_root / "genpei")
    (data_root / "genpei" / "base_mapping.yaml").write_bytes(CCN_MAPPING.read_bytes())
    system = (data_root / "genpei" / "system.yaml").read_text(encoding="utf-8")
    wrong = "ab" * 32
    system = system.replace("  hex_width_px: 84", f"  base_module: {CCN}\n  base_module_sha256: \"{wrong}\"\n  hex_width_px: 84")
    (data_root / "genpei" / "system.yaml").write_text(system, encoding="utf-8")
    from pipeline.build import build_all

    with pytest.raises(GunbaiError) as err:
        build_all(data_root, tmp_path / "out", progress=False, system="genpei")
    assert wrong in str(err.value) and hashlib.sha256(CCN.read_bytes()).hexdigest() in str(err.value)
    assert not (tmp_path / "out" / "genpei" / "genpei.vmdx").exists()


def _module(files: dict[str, bytes], name="Evil") -> bytes:
    build = (f'<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule name="{name}" version="1">'
             '<VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
             '<VASSAL.build.module.map.boardPicker.Board name="B" image="../../etc/board.png"/>'
             '</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>')
    entries = {"buildFile.xml": build.encode(), "moduledata": f"<data version=\"1\"><name>{name}</name></data>".encode()}
    entries.update(files)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:  # written by hand: archive_bytes refuses unsafe names
        for n, b in entries.items():
            z.writestr(n, b)
    return out.getvalue()


def test_a_path_escape_in_the_base_is_refused():
    with pytest.raises(BaseModuleError) as err:
        read_base_module(_module({"../outside.png": PNG}), label="evil.vmod")
    assert "evil.vmod" in str(err.value) and "'..'" in str(err.value)
    with pytest.raises(BaseModuleError) as err:
        read_base_module(_module({}), label="evil.vmod")
    assert "board image '../../etc/board.png' escapes images/" in str(err.value)


def test_an_extension_or_a_non_module_is_no_base(ccn):
    _pack, entries, _b, _s = ccn
    with pytest.raises(BaseModuleError, match="is an extension"):
        read_base_module(archive_bytes(entries, 1735689600), label="genpei.vmdx")
    with pytest.raises(BaseModuleError, match="not a ZIP"):
        read_base_module(b"not a zip", label="x.vmod")


# ----------------------------------------------------------------------------- the mapping


def _mapping_with(tmp_path: Path, old: str, new: str) -> Path:
    text = CCN_MAPPING.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "base_mapping.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _problem(data, path: Path) -> str:
    mf, doc = load_mapping(path)
    with pytest.raises(DataError) as err:
        resolve_mapping(data, read_base_module(CCN), mf, path=path, doc=doc)
    return str(err.value)


def test_a_mapping_naming_a_piece_the_base_lacks_is_an_error_naming_it_and_the_base(data, tmp_path):
    path = _mapping_with(tmp_path, "    slot: French Heavy Cavalry", "    slot: Samurai Infantry")
    msg = _problem(data, path)
    line = path.read_text().splitlines().index("    slot: Samurai Infantry") + 1
    assert f"{path}:{line}: pieces.2.slot: 'Samurai Infantry' is not valid; expected a palette piece of base module " \
           f"'Commands & Colors: Napoleonics V4.2' ({CCN})" in msg


def test_a_slot_name_several_pieces_share_is_an_error_listing_them(data, tmp_path):
    path = _mapping_with(tmp_path, "    palette: [Terrain, Terrain, Terrain, Hill]", "    slot: Hill")
    msg = _problem(data, path)
    assert "2 match (Terrain / Terrain / Terrain / Hill; Units & Leaders / Units / Leaders of Honor (unofficial)" in msg
    assert "give its palette path" in msg


def test_a_mapping_made_for_another_module_or_with_a_bad_place_is_refused(data, tmp_path):
    path = _mapping_with(tmp_path, 'name: "Commands & Colors: Napoleonics V4.2"', 'name: "Samurai Battles"')
    assert "'Samurai Battles' is not valid; expected the base module's exact name 'Commands & Colors: Napoleonics V4.2'" in _problem(data, path)
    path = _mapping_with(tmp_path, "zone: Battlefield", "zone: Allies")
    assert "expected a zone of board 'Inland' with a hex grid: 'Battlefield'" in _problem(data, path)
    path = _mapping_with(tmp_path, "first_hex: L01", "first_hex: Z99")
    assert "first_hex: 'Z99' is not valid" in _problem(data, path)
    path = _mapping_with(tmp_path, "unit: top, leader: top", "unit: roof, leader: top")
    assert "layers.unit: 'roof' is not valid; expected a Game Piece Layer of map 'Main Map'" in _problem(data, path)
    path = _mapping_with(tmp_path, "palette: [Units & Leaders, Units]", "palette: [Units & Leaders, Nope]")
    assert "palette: ['Units & Leaders', 'Nope'] is not valid" in _problem(data, path)


def test_the_drafted_mapping_of_gunbais_own_core_module_is_complete(data):
    base = read_base_module(core_bytes(data), label="samurai_battles.vmod")
    mapping, facts = draft_mapping(data, base)
    assert facts["complete"] and facts["raw"] == (0, 0)
    assert (mapping.map, mapping.board, mapping.zone, mapping.first_hex) == ("Battlefield", "Samurai Battles board", None, "1,1")
    assert mapping.layers == {"terrain": "Terrain", "tile": "Tiles", "unit": "Units", "leader": "Units", "marker": "Markers"}
    resolved = own_mapping(data, base)
    core = {p.key for _n, ps in gm.core_palette(data, layout_of(data)) for p in ps}
    assert set(resolved.slots) == core and len(core) == 2 * 12 + 9 + 3  # 2 armies x (9 units + 3 leaders), 9 terrain (+1 palisade set), 3 markers


def test_extension_draft_command(data, tmp_path):
    out = tmp_path / "m.yaml"
    r = CliRunner().invoke(app, ["extension", "draft", "--base-module", str(CCN), "-o", str(out), "--data", str(DATA.parent)])
    assert r.exit_code == 0, r.output
    assert f"base_module_sha256: {hashlib.sha256(CCN.read_bytes()).hexdigest()}" in r.output
    text = out.read_text()
    assert "map: Main Map\nboard: Inland\nzone: Battlefield\nfirst_hex: K01" in text  # the battlefield's top-left hex
    assert "#   French Line Infantry   [Units & Leaders / Units / French / French Line Infantry]" in text
    mf, doc = load_mapping(out)  # the draft as written builds as it is (gunbai's own pieces for all)
    assert resolve_mapping(data, read_base_module(CCN), mf, path=out, doc=doc).slots == {}
    again = CliRunner().invoke(app, ["extension", "draft", "--base-module", str(CCN), "-o", str(out), "--data", str(DATA.parent)])
    assert again.exit_code == 1 and "exists; give --force" in again.output


# ----------------------------------------------------------------------------- the extension


def test_the_extension_names_the_base_exactly_and_adds_no_map(ccn):
    pack, entries, built, saves = ccn
    root = etree.fromstring(entries["buildFile.xml"])
    assert root.tag == VM + "ModuleExtension"
    assert (root.get("module"), root.get("moduleVersion"), root.get("anyModule"), root.get("extensionId")) == (
        "Commands & Colors: Napoleonics V4.2", "4.2.0a60", "false", "91d")
    assert not list(root.iter(VM + "Map")) and not list(root.iter(VM + "map.boardPicker.Board"))
    targets = sorted(w.get("target") for w in root.iter(VM + "ExtensionElement"))
    assert targets == sorted(["", "VASSAL.build.module.PrototypesContainer", "VASSAL.build.module.PrototypesContainer",
                              "VASSAL.build.module.PrototypesContainer", "VASSAL.build.module.PrototypesContainer",
                              "VASSAL.build.module.PieceWindow:Units & Leaders/VASSAL.build.widget.TabWidget:Units",
                              "VASSAL.build.module.ChartWindow:Player Aids/VASSAL.build.widget.TabWidget:Reference Sheet"])
    menu, = [s for s in root.iter(VM + "PredefinedSetup") if s.get("isMenu") == "true"]
    assert menu.get("name") == "Genpei War" and len(menu) == 30
    assert entries["moduledata"] == read_base_module(CCN).moduledata
    # every target resolves in the base, and the whole extension lints clean against it
    findings = lint_bytes(archive_bytes(entries, 1735689600), "genpei.vmdx", base=CCN.read_bytes())
    assert [str(f) for f in findings if f.severity == "error"] == []


def test_mapped_units_are_the_bases_own_pieces_unmapped_ones_gunbais(ccn):
    pack, _entries, built, _saves = ccn
    base = pack.mapping.base
    # mapped: no slot in the extension; unmapped base-game units and all pack units: one each
    assert gm.unit_key("ashigaru_spearmen", "red") not in built.gpids
    assert gm.unit_key("samurai_infantry", "red") in built.gpids
    assert gm.unit_key("sohei_warriors", "yellow") in built.gpids
    assert gm.terrain_key("forest") not in built.gpids and gm.terrain_key("ocean") in built.gpids
    # and the new pieces name the base's layer property with the mapping's layers
    ocean = pack.pieces[gm.terrain_key("ocean")].piece
    marker = ocean.traits[1]
    assert dict(zip(marker.keys, marker.values, strict=True))["Layer"] == "bottom"
    assert base.find_slots(name="French Line Infantry")[0].gpid == "195"


def _centre(i: int, j: int) -> tuple[int, int]:
    """VASSAL's centre of raw hex (i, j) of the Napoleonics battlefield grid (sideways: x0 = -17
    vertical, y0 = 75 horizontal, dx = 75.32562584220355 between rows, dy = 86.99999999999869
    between hexes; odd raw rows shifted right by dy / 2), §2.5."""
    dx, dy = 75.32562584220355, 86.99999999999869
    return 75 + int(j * dy + (dy / 2 if i % 2 else 0)), -17 + int(i * dx)


def test_setups_stand_on_the_bases_hex_centres_with_the_bases_own_pieces(data, ccn):
    """first_hex L01 is raw hex (1, 0) (the numbering counts rows A… from the bottom, vDescend):
    gunbai's [c, r] is raw (1 + r - 1, c - 1 + (1 if r even)), the shift because raw row 1 is
    one of VASSAL's shifted rows and gunbai's even rows are its short ones."""
    _pack, entries, _built, _saves = ccn
    assert _centre(1, 0) == (118, 58) and _centre(2, 0) == (75, 133)
    save = read_save(entries["gp20_nishinomiya.vsav"])
    sc = next(s for s in data.scenarios if s.scenario.id == "gp20_nishinomiya").scenario
    army = {s.id: s.army for s in sc.sides}
    for up in sc.units:
        c, r = up.hex
        x, y = _centre(r, c - 1 + (1 if r % 2 == 0 else 0))
        placed = [p for p in save.pieces if (p.x, p.y) == (x, y) and p.map_name == "Main Map"]
        assert placed, (up.unit, up.hex)
        if up.unit == "ashigaru_spearmen":  # mapped: the base's French / British Line Infantry
            slot = "195" if army[up.side] == "red" else "84"
            assert any(p.gpid == slot for p in placed), (up.hex, [p.gpid for p in placed])
    # the mapped piece is the base slot's own definition (its prototypes, traits, image)
    slot_piece = decode_add_piece(read_base_module(CCN).find_slots(name="French Line Infantry")[0].text)
    placed = next(p for p in save.pieces if p.gpid == "195")
    assert [t for t, _s in placed.levels] == [t for t, _s in slot_piece.levels]


def test_setups_start_from_the_bases_own_empty_setup(ccn):
    """setup: B00 (the module's 'New Scenario'): its global properties, decks and counters come
    first (not its 8 seat assignments, PLAYER, of whoever saved it), then the scenario's pieces;
    its board choice stands (no second BoardPicker command)."""
    _pack, entries, _b, saves = ccn
    template = read_save(read_base_module(CCN).read_entry("B00 - Standard Map empty.vsav"))
    save = read_save(entries["gp19_nutas_stronghold.vsav"])
    kept = [c for c in template.commands[1:-1] if not c.startswith("PLAYER\t")]
    assert len(kept) == len(template.commands) - 2 - 8
    assert save.commands[1:len(kept) + 1] == kept
    assert not any(c.startswith("PLAYER\t") for c in save.commands)
    assert len(save.pieces) == len(template.pieces) + 60  # GP19 places 60 pieces
    assert sum(1 for c in save.commands if c.startswith("Main MapBoardPicker")) == 1


def test_every_scenario_once_and_notes_on_rows_off_the_hex_area(ccn):
    pack, _entries, _b, saves = ccn
    assert len(saves) == 30
    assert any(n.startswith("gp20_nishinomiya: 15 piece(s) on hexes of row(s) 1, 11 lie outside zone 'Battlefield'") for n in pack.notes)


def test_a_board_too_small_for_the_battlefield_is_an_error_naming_each_hex(data):
    """The template's 750 x 750 px board holds 9 columns of 93.9 px hexes: GP19's 10 rows of 12
    hexes do not fit it."""
    with pytest.raises(GunbaiError) as err:
        _entries(data, read_base_module(TEMPLATE), TEMPLATE_MAPPING)
    msg = str(err.value)
    assert "gp19_nutas_stronghold hex [" in msg and "lies off board 'Map' (750 x 750 px) of map 'Main Map' of \"Hex'n'Counters template\"" in msg
    assert "nothing written" in msg


def test_on_an_upright_grid_gunbais_board_turns_a_quarter_turn_and_keeps_every_neighbour(data):
    """On the template's upright grid (hexes in columns, 93.9 px apart; columns 80.88 px apart)
    every two neighbouring hexes of gunbai's board land on neighbouring hexes, one hex (93.9 px)
    apart; gunbai's east is the template's south, its south the template's west."""
    base = read_base_module(TEMPLATE)
    mf, doc = load_mapping(TEMPLATE_MAPPING)
    mapping = resolve_mapping(data, base, mf, path=TEMPLATE_MAPPING, doc=doc)
    assert mapping.quarter_turn and mapping.origin == (8, 1)  # "0801": column 08, row 01 (hOff = vOff = 0)
    layout = layout_of(data)
    for r in range(1, 12):
        for c in range(1, 13):
            if not data.board.contains((c, r)):
                continue
            for d in ("E", "SE", "SW"):
                n = layout.neighbour((c, r), d)
                if not data.board.contains(n):
                    continue
                (x0, y0), (x1, y1) = mapping.board_centre((c, r)), mapping.board_centre(n)
                assert abs(math.hypot(x1 - x0, y1 - y0) - 93.9) < 2, ((c, r), d)
    (x0, y0), (x1, y1), (x2, y2) = (mapping.board_centre(h) for h in ((1, 1), (2, 1), (1, 2)))
    assert x1 == x0 and y1 > y0  # east: down the column
    assert x2 < x0  # south: one column to the west
    assert mapping.hex_width == 94


def test_lint_base_flags_a_target_the_base_lacks_and_a_newer_module_version(ccn, tmp_path):
    _pack, entries, _b, _s = ccn
    root = etree.fromstring(entries["buildFile.xml"])
    wrapper = next(w for w in root.iter(VM + "ExtensionElement") if "PieceWindow" in w.get("target"))
    # VASSAL tries every component of a segment's class when the name matches none
    # (ComponentPathBuilder.addToPath), so a wrong window name alone still resolves; a tab widget
    # on the map does not
    wrapper.set("target", "VASSAL.build.module.Map:Main Map/VASSAL.build.widget.TabWidget:Units")
    bad = dict(entries, **{"buildFile.xml": etree.tostring(root, xml_declaration=True, encoding="UTF-8")})
    path = tmp_path / "genpei.vmdx"
    path.write_bytes(archive_bytes(bad, 1735689600))
    r = CliRunner().invoke(app, ["lint", "--base", str(CCN), str(path)])
    assert r.exit_code == 1
    assert "target 'VASSAL.build.module.Map:Main Map/VASSAL.build.widget.TabWidget:Units' does not resolve in the base module" in r.output

    def warnings(version: str) -> list[str]:
        root = etree.fromstring(entries["buildFile.xml"])
        root.set("moduleVersion", version)
        data = archive_bytes(dict(entries, **{"buildFile.xml": etree.tostring(root, xml_declaration=True, encoding="UTF-8")}), 1735689600)
        return [f.message for f in lint_bytes(data, "genpei.vmdx", base=CCN.read_bytes()) if f.severity == "warning"]

    # the base is 4.2.0a60: an alpha of 4.2.0, so older than 4.2.0 and 4.3, newer than 4.2.0a59
    assert any("moduleVersion '4.3' is newer than the base module's version '4.2.0a60'" in w for w in warnings("4.3"))
    assert any("moduleVersion '4.2.0' is newer" in w for w in warnings("4.2.0"))
    assert not any("moduleVersion" in w for w in warnings("4.2.0a59"))
    assert not any("moduleVersion" in w for w in warnings("4.2.0a60"))


# ----------------------------------------------------------------------------- upgrades


def test_a_setup_of_release_n_finds_its_pieces_in_release_n_plus_1(data):
    """Release N+1 (the data changed: version 0.2, a new pack unit, the unused Grapple marker
    gone) keeps the extension id and the gpid of every piece that still exists, so a game saved
    with release N finds each of its pieces' slots (VASSAL's Refresh Counters matches by gpid)."""
    import dataclasses

    base = read_base_module(core_bytes(data), label="samurai_battles.vmod")
    mapping = own_mapping(data, base)
    _p, n_entries, n_built, n_saves = _entries(data, base, mapping=mapping)
    first = data.units["sohei_warriors"]
    v = data.system.vassal.model_copy(update={"extension_version": "0.2"})
    later = dataclasses.replace(
        data, system=data.system.model_copy(update={"vassal": v}),
        units={**data.units, "sohei_naginata": first.model_copy(update={"id": "sohei_naginata", "name": "Sohei Naginata"})},
        markers={k: m for k, m in data.markers.items() if k != "grapple"})
    _p, m_entries, m_built, _m_saves = _entries(later, base, mapping=own_mapping(later, base))
    n_root, m_root = (etree.fromstring(e["buildFile.xml"]) for e in (n_entries, m_entries))
    assert n_root.get("extensionId") == m_root.get("extensionId") == "91d"
    assert (n_root.get("version"), m_root.get("version")) == ("0.1", "0.2")
    kept = set(n_built.gpids) & set(m_built.gpids)
    assert kept == set(n_built.gpids) - {gm.marker_key("grapple")}
    assert all(n_built.gpids[k] == m_built.gpids[k] for k in kept)
    assert gm.unit_key("sohei_naginata", "red") in m_built.gpids
    slots = set(m_built.gpids.values()) | {s.gpid for s in base.slots}
    for name, save in n_saves.items():
        # the empty-board notice of a scenario whose map is not public is no palette piece: it has
        # no gpid for Refresh Counters to match, and is left as it is
        pieces = [p for p in save.pieces if not p.definition.basic.image.startswith("notice_map_not_public")]
        assert {p.gpid for p in pieces} <= slots, name


def test_a_build_for_an_upright_grid_turns_the_hex_tiles_and_places_on_its_centres(tmp_path):
    """The whole build for the template (GP20 cut to the 6 x 8 hexes of its corner,
    scripts/small_genpei_data.py): the new pieces drawn at its 94 px hexes, hex tiles and the
    wind/tide arrow turned a quarter turn (width and height swapped), and every unit at the centre
    of its hex on the upright grid: x = 22 + (int)(i * 80.883), y = -4 + (int)(j * 93.9 (+ 46.95
    when i is odd)), i = 8 - (r - 1), j = 1 + (c - 1) (first_hex 0801 is raw (8, 1), even: no
    shift)."""
    import subprocess
    import sys

    from PIL import Image

    from pipeline.build import build_all

    subprocess.run([sys.executable, str(ROOT / "scripts" / "small_genpei_data.py"), str(tmp_path / "data"), "--columns", "6",
                    "--rows", "8", "--scenario", "gp20_nishinomiya"], check=True, capture_output=True)
    [result] = build_all(tmp_path / "data", tmp_path / "out", progress=False, system="genpei",
                         base_module=TEMPLATE, base_mapping=TEMPLATE_MAPPING)
    assert result.module is None and result.extension_base == "Hex'n'Counters template 1.2 release (v3.7.9)"
    out = tmp_path / "out" / "genpei"
    assert not (out / "samurai_battles.vmod").exists()
    assert (out / "extension_bases.tsv").read_text().split("\t")[0] == "genpei.vmdx"
    with zipfile.ZipFile(out / "genpei.vmdx") as z:
        ocean = Image.open(io.BytesIO(z.read("images/terrain_ocean.png")))
        arrow = Image.open(io.BytesIO(z.read("images/marker_wind_tide_ne.png")))
        unit = Image.open(io.BytesIO(z.read("images/unit_sohei_warriors_red.png")))
        save = read_save(z.read("gp20_nishinomiya.vsav"))
    tile_h = round(round(94 * math.sqrt(3) / 2) * 4 / 3 + 0.5)  # HexLayout at 94 px: hex height + 0.5
    assert ocean.size == (tile_h, 94)  # turned: the pointy-top tile's 94 x tile_h is now tile_h x 94
    assert arrow.size[0] == arrow.size[1] and unit.size == (round(94 * 0.66),) * 2
    data = load(tmp_path / "data" / "genpei")
    sc = data.scenarios[0].scenario
    assert sc.units
    for up in sc.units:
        c, r = up.hex
        i, j = 8 - (r - 1), 1 + (c - 1)
        x = 22 + int(i * 80.88337155288302)
        y = -4 + int(j * 93.90000000000086 + (93.90000000000086 / 2 if i % 2 else 0))
        assert any((p.x, p.y) == (x, y) for p in save.pieces), (up.unit, up.hex, (x, y))
    findings = lint_bytes((out / "genpei.vmdx").read_bytes(), "genpei.vmdx", base=TEMPLATE.read_bytes())
    assert [str(f) for f in findings if f.severity == "error"] == []
