"""The core module and the Genpei extension, read back from the archives `gunbai build` writes
(not the in-memory model).

Expected positions are worked from the scenario files and VASSAL's HexGrid formula
(vassal-format.md §2.5) applied to the grid attributes *read from the core module's
buildFile.xml*, so a mismatch between the board the module declares and the setups its
extension packs is caught.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from lxml import etree
from PIL import Image

from pipeline.vassal.pieces import decode_add_piece
from pipeline.vassal.save import read_save

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
VM = "VASSAL.build.module."


@pytest.fixture(scope="module")
def vmod(shipped_build) -> Path:
    return shipped_build / "genpei" / "samurai_battles.vmod"


@pytest.fixture(scope="module")
def archive(vmod):
    with zipfile.ZipFile(vmod) as z:
        yield {name: z.read(name) for name in z.namelist()}


@pytest.fixture(scope="module")
def ext_archive(vmod):
    with zipfile.ZipFile(vmod.parent / "genpei.vmdx") as z:
        yield {name: z.read(name) for name in z.namelist()}


@pytest.fixture(scope="module")
def ext_buildfile(ext_archive):
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    return etree.fromstring(ext_archive["buildFile.xml"], parser)


@pytest.fixture(scope="module")
def buildfile(archive):
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    return etree.fromstring(archive["buildFile.xml"], parser)


def slots(buildfile):
    return buildfile.iter("VASSAL.build.widget.PieceSlot")


def test_archive_has_buildfile_moduledata_and_names_match(archive, buildfile):
    assert list(archive)[:2] == ["buildFile.xml", "moduledata"]
    md = etree.fromstring(archive["moduledata"])
    assert md.findtext("name") == buildfile.get("name")
    assert md.findtext("VassalVersion").startswith("3.7.")


@pytest.mark.parametrize("which", ["module", "extension"])
def test_every_image_named_exists(archive, buildfile, ext_archive, ext_buildfile, which):
    if which == "extension":
        archive, buildfile = ext_archive, ext_buildfile
    names: set[str] = set()
    for el in buildfile.iter():
        for attr in ("image", "icon", "fileName"):
            v = el.get(attr)
            if v and not v.startswith("/") and el.tag != VM + "documentation.HelpFile":
                names.add(v)
    for el in [*slots(buildfile), *buildfile.iter(VM + "PrototypeDefinition")]:
        piece = decode_add_piece(el.text)
        for t, _s in piece.levels:
            if t.startswith("piece;"):
                img = t.split(";")[3]
                if img:
                    names.add(img)
            if t.startswith("emb2;"):
                names.update(i for i in re.split(r"(?<!\\),", t.split(";")[16]) if i)
    assert names, "no image names found"
    missing = sorted(n for n in names if f"images/{n}" not in archive)
    assert missing == []


def _ids(kind: str, base: bool | None = None) -> list[str]:
    items = yaml.safe_load((DATA / "genpei" / f"{kind}.yaml").read_text())[kind]
    return [x["id"] for x in items if base is None or x["base"] is base]


def test_core_palette_has_every_base_game_piece_and_no_pack_piece(buildfile):
    """The core module is the base game alone: a piece of every unit, leader, terrain and
    marker type with ``base: true`` (units and leaders in each army), none of the pack's."""
    images = {decode_add_piece(s.text).image for s in slots(buildfile)}
    for kind, prefix in (("units", "unit"), ("leaders", "leader"), ("terrain", "terrain"), ("markers", "marker")):
        for x in _ids(kind, True):
            assert any(i.startswith(f"{prefix}_{x}") for i in images), x
        for x in _ids(kind, False):
            assert not any(i.startswith(f"{prefix}_{x}") for i in images), x
    assert {"sohei_warriors", "sohei_archers"} == set(_ids("units", False))
    assert {"ocean", "palisade", "stockade", "arrow_tower", "marsh"} == set(_ids("terrain", False))


def test_extension_palette_adds_exactly_the_pack_pieces(ext_buildfile):
    """The extension's palette tab holds the pack's pieces (base: false) and nothing the core
    module has: no base-game piece twice."""
    images = {decode_add_piece(s.text).image for s in slots(ext_buildfile)}
    for kind, prefix in (("units", "unit"), ("leaders", "leader"), ("terrain", "terrain"), ("markers", "marker")):
        for x in _ids(kind, False):
            assert any(i.startswith(f"{prefix}_{x}") for i in images), x
        for x in _ids(kind, True):
            assert not any(i.startswith(f"{prefix}_{x}") for i in images), x


def test_core_module_has_no_setup_and_the_extension_each_scenario_once(buildfile, ext_buildfile):
    assert list(buildfile.iter(VM + "PredefinedSetup")) == []
    files = [s.get("file") for s in ext_buildfile.iter(VM + "PredefinedSetup") if s.get("isMenu") != "true"]
    scenarios = sorted(yaml.safe_load(p.read_text(encoding="utf-8"))["id"] + ".vsav" for p in (DATA / "genpei" / "scenarios").glob("*.yaml"))
    assert sorted(files) == scenarios and len(files) == 30


def test_gpids_unique_and_below_next_piece_slot_id(buildfile):
    next_id = int(buildfile.get("nextPieceSlotId"))
    gpids = [s.get("gpid") for s in slots(buildfile)]
    assert len(gpids) == len(set(gpids)) > 0
    assert all(g.isdigit() and int(g) < next_id for g in gpids)
    for s in slots(buildfile):
        assert decode_add_piece(s.text).gpid == s.get("gpid")


def test_every_piece_string_decodes_with_as_many_state_levels_as_type_levels(buildfile):
    for el in [*slots(buildfile), *buildfile.iter(VM + "PrototypeDefinition")]:
        p = decode_add_piece(el.text)  # raises PieceDecodeError on a level mismatch
        assert p.levels and p.levels[-1][0].startswith("piece;")
        assert not p.unknown_trait_ids


def _grid(buildfile):
    g = next(buildfile.iter(VM + "map.boardPicker.board.HexGrid"))
    return {k: g.get(k) for k in ("x0", "y0", "dx", "dy", "sideways")}


def _vassal_centre(grid, raw_col: int, raw_row: int) -> tuple[int, int]:
    """VASSAL HexGrid.getRawCenter, §2.5: x = x0 + (int)(c·dx); y = y0 + (int)(r·dy (+dy/2 if c odd));
    swapped for a sideways grid."""
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    px = x0 + int(raw_col * dx)
    py = y0 + int(raw_row * dy + (dy / 2 if raw_col % 2 else 0))
    return (py, px) if grid["sideways"] == "true" else (px, py)


def _expected(scenario: dict, grid, edge: int) -> Counter:
    """(image prefix, x, y) of every unit and leader a scenario file places, worked by hand:
    in the sideways grid the raw column counts rows and the raw row counts hexes in a row."""
    army = {s["id"]: s["army"] for s in scenario["sides"]}
    out: Counter = Counter()
    for u in scenario.get("units") or []:
        c, r = u["hex"]
        x, y = _vassal_centre(grid, r - 1, c - 1)
        out[(f"unit_{u['unit']}_{army[u['side']]}", x + edge, y + edge)] += 1
        if u.get("leader"):
            out[(f"leader_{u['leader']}_{army[u['side']]}", x + edge, y + edge)] += 1
    for ld in scenario.get("leaders") or []:
        c, r = ld["hex"]
        x, y = _vassal_centre(grid, r - 1, c - 1)
        out[(f"leader_{ld['leader']}_{army[ld['side']]}", x + edge, y + edge)] += 1
    return out


@pytest.mark.parametrize("scenario_file", sorted((DATA / "genpei" / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_setup_places_every_unit_and_leader_at_its_hex_centre(ext_archive, ext_buildfile, buildfile, scenario_file):
    scenario = yaml.safe_load(scenario_file.read_text(encoding="utf-8"))
    setups = {s.get("file"): s for s in ext_buildfile.iter(VM + "PredefinedSetup")}
    name = f"{scenario['id']}.vsav"
    assert name in setups and name in ext_archive
    save = read_save(ext_archive[name])
    assert save.problems == []
    map_el = next(buildfile.iter(VM + "Map"))
    edge = int(map_el.get("edgeWidth") or 0)
    assert edge == int(map_el.get("edgeHeight") or 0)
    grid = _grid(buildfile)
    placed = Counter()
    for p in save.pieces:
        assert p.map_name == map_el.get("mapName")
        if p.image.startswith(("unit_", "leader_")):
            placed[(p.image.rsplit(".", 1)[0], p.x, p.y)] += 1
    assert placed == _expected(scenario, grid, edge)


@pytest.mark.parametrize("scenario_file", sorted((DATA / "genpei" / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_setup_places_every_terrain_tile(ext_archive, buildfile, scenario_file):
    scenario = yaml.safe_load(scenario_file.read_text(encoding="utf-8"))
    save = read_save(ext_archive[f"{scenario['id']}.vsav"])
    grid = _grid(buildfile)
    expected = Counter()
    for tp in scenario.get("terrain") or []:
        hexes = [tuple(h) for h in tp.get("hexes", [])]
        for span in tp.get("rows", []):
            hexes += [(c, span["row"]) for c in range(span["first"], span["last"] + 1)]
        for c, r in hexes:
            x, y = _vassal_centre(grid, r - 1, c - 1)
            expected[(tp["terrain"], x, y)] += 1
    placed = Counter()
    for p in save.pieces:
        if p.image.startswith("terrain_"):
            tid = next(t for t in sorted({k[0] for k in expected}, key=len, reverse=True) if p.image.startswith(f"terrain_{t}"))
            placed[(tid, p.x, p.y)] += 1
    assert placed == expected
    # terrain tiles do not stack: no stack lists them
    terrain_ids = {p.id for p in save.pieces if p.image.startswith("terrain_")}
    assert not any(set(s.stack.piece_ids) & terrain_ids for s in save.stacks)


def test_board_image_matches_board_size_and_grid(archive, buildfile):
    board = next(buildfile.iter(VM + "map.boardPicker.Board"))
    img = Image.open(io.BytesIO(archive[f"images/{board.get('image')}"]))
    grid = _grid(buildfile)
    board_yaml = yaml.safe_load((DATA / "genpei" / "board.yaml").read_text())
    # the last hex of the first row and of the last row lie inside the image, a hex-width away
    # from its right edge at most
    last_col = board_yaml["columns"]
    x, y = _vassal_centre(grid, board_yaml["rows"] - 1, last_col - 1)
    assert 0 < x < img.width and 0 < y < img.height
    assert img.width - x < float(grid["dy"])


# Two builds give the same module and extension bytes: tests/vassal/test_vassal_lint37.py
# (test_two_builds_byte_identical_vmdx_and_vsav), against the same shared build.


def test_gpids_survive_adding_a_unit_type():
    """A published module's gpids must not move when the data grows: VASSAL finds a saved
    piece's palette slot by gpid (Refresh Counters, vassal-format.md §2.2)."""
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load
    from pipeline.systems.genpei.module import build_core_module
    from pipeline.vassal.buildfile import write_buildfile

    data = load(DATA / "genpei")
    layout = layout_of(data)
    before = write_buildfile(build_core_module(data, layout, [])[0]).gpids
    first = next(iter(data.units.values()))
    data.units = {"new_unit": first.model_copy(update={"id": "new_unit", "name": "New Unit"}), **data.units}
    after = write_buildfile(build_core_module(data, layout, [])[0]).gpids
    assert set(before) < set(after)
    assert all(after[k] == v for k, v in before.items())
