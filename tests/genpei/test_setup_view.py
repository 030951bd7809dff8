"""What a player sees when a Genpei setup opens in VASSAL (issue 10, from the real VASSAL
3.7.26 screenshots of GP19 and GP20): the command tent hid the bodyguard under it, leader discs
covered the unit's abbreviation, every ocean hex repeated an "Ocean" label, and a unit's figure
count showed twice (the counter art and the Figures label).

Read back from the archive ``gunbai build`` writes; the stacking positions are worked by hand
from VASSAL's ``StackMetrics.nextPosition`` (3.7.26) and the layer binding from
``Stack.setState`` / ``LayeredPieceCollection``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from pipeline.systems.genpei import art
from pipeline.systems.genpei.build import layout_of
from pipeline.systems.genpei.load import load
from pipeline.vassal.pieces import decode_add_piece
from pipeline.vassal.save import read_save

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"
VM = "VASSAL.build.module."
LAYERS = ["Terrain", "Tiles", "Units", "Markers"]


@pytest.fixture(scope="module")
def archive(shipped_build) -> dict[str, bytes]:
    """The core module's entries (its map, palette) with the Genpei extension's setups and its
    buildFile as ``ext:buildFile.xml``: what VASSAL has once the extension is loaded."""
    out = shipped_build
    with zipfile.ZipFile(out / "genpei" / "samurai_battles.vmod") as z:
        entries = {n: z.read(n) for n in z.namelist()}
    with zipfile.ZipFile(out / "genpei" / "genpei.vmdx") as z:
        entries.update({n: z.read(n) for n in z.namelist() if n.endswith(".vsav")})
        entries["ext:buildFile.xml"] = z.read("buildFile.xml")
    return entries


def _map(archive):
    root = etree.fromstring(archive["buildFile.xml"])
    return root.find(VM + "Map")


def _properties(piece) -> dict[str, str]:
    """The named values of a piece (slot text or decoded), as :meth:`DecodedPiece.properties`."""
    return (decode_add_piece(piece) if isinstance(piece, str) else piece).properties()


def test_map_draws_pieces_in_layers_terrain_tiles_units_markers(archive):
    layers = _map(archive).find(VM + "map.LayeredPieceCollection")
    assert layers is not None
    assert layers.get("property") == "MapLayer"
    assert layers.get("layerOrder").split(",") == LAYERS


def test_every_palette_piece_names_its_layer(archive):
    want = {"Unit": "Units", "Leader": "Units", "Terrain": "Terrain"}
    seen = set()
    slots = [*etree.fromstring(archive["buildFile.xml"]).iter("VASSAL.build.widget.PieceSlot"),
             *etree.fromstring(archive["ext:buildFile.xml"]).iter("VASSAL.build.widget.PieceSlot")]
    for slot in slots:
        props = _properties(slot.text)
        kind = next(k for k in ("Unit", "Leader", "Terrain", "Marker") if k in props)
        if kind == "Marker":
            expected = "Tiles" if props["Marker"] in ("command_tent", "command_ship") else "Markers"
        else:
            expected = want[kind]
        assert props["MapLayer"] == expected, slot.get("entryName")
        seen.add(expected)
    assert seen == set(LAYERS)


def test_tent_is_its_own_stack_bound_to_the_tiles_layer_under_the_bodyguard(archive):
    """GP19: the commander's bodyguard stands on the command tent (hex [6,2]). The tent's stack
    must be bound to layer 1 (Tiles) and the unit's to layer 2 (Units): VASSAL binds a loaded
    stack to the layer its ``@@n`` names, and draws layer 1 under layer 2."""
    save = read_save(archive["gp19_nutas_stronghold.vsav"])
    pieces = {p.id: p for p in save.pieces}
    layer_of_stack = {}
    for st in save.stacks:
        members = [pieces[i] for i in st.stack.piece_ids]
        kinds = {_properties(m)["MapLayer"] for m in members}
        assert len(kinds) == 1, "a stack mixes layers"
        layer_of_stack[st.id] = (kinds.pop(), st.stack.layer)
    for name, index in layer_of_stack.values():
        assert index == LAYERS.index(name)
    tent = [p for p in save.pieces if _properties(p).get("Marker") == "command_tent"]
    assert tent and all(_properties(p)["MapLayer"] == "Tiles" for p in tent)
    assert ("Tiles", 1) in layer_of_stack.values() and ("Units", 2) in layer_of_stack.values()


def test_leader_disc_centred_on_the_units_top_right_corner(archive):
    """Unexpanded stack: VASSAL puts the next piece's left edge unexSepX right of the unit's left
    edge and its bottom edge unexSepY above the unit's bottom edge. Unit 55 px, leader 38 px
    (0.66 and 0.45 of the 84 px hex): sep 55 - 38/2 = 36 puts the leader's centre at
    (-27.5 + 36 + 19, 27.5 - 36 - 19) = (27.5, -27.5) from the unit's centre: its corner."""
    sm = _map(archive).find(VM + "map.StackMetrics")
    sx, sy = int(sm.get("unexSepX")), int(sm.get("unexSepY"))
    unit, leader = 55, 38
    centre_x = -unit / 2 + sx + leader / 2
    centre_y = unit / 2 - sy - leader / 2
    assert (sx, sy) == (36, 36)
    assert (centre_x, centre_y) == (27.5, -27.5)


def test_vassal_unit_counter_shows_the_figure_count_once():
    """The counter art has no figure badge; the Figures Label trait shows the live count. The
    print counter keeps the badge (starting figures)."""
    data = load(DATA / "genpei")
    layout = layout_of(data)
    jobs = art.all_counter_jobs(data, layout)
    r = art.renderer()
    unit = data.units["samurai_infantry"]
    job = jobs[art.unit_image_name(unit.id, "red")]
    vassal_yaml = r.render_yaml(job.template, job.context)
    print_yaml = r.render_yaml("genpei/unit_counter.yaml.j2", art.unit_context(unit, data.system.armies["red"]))
    figures = f"text: \"{unit.figures}\""
    assert figures not in vassal_yaml.replace("'", '"')
    assert figures in print_yaml.replace("'", '"')


def test_ocean_tile_has_no_label_other_tiles_keep_theirs():
    data = load(DATA / "genpei")
    layout = layout_of(data)
    r = art.renderer()
    ocean = r.render_yaml("genpei/terrain_tile.yaml.j2", art.terrain_context(data.terrain["ocean"], layout))
    forest = r.render_yaml("genpei/terrain_tile.yaml.j2", art.terrain_context(data.terrain["forest"], layout))
    assert "Ocean" not in ocean
    assert "Forest" in forest
