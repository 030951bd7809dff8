"""``gunbai import`` of Ronin terrain pieces (issue 13): a game's own piece maps back to its
``terrain`` entry (moved to where it stands), a palette piece becomes a new entry of its kind
and footprint, a quarter turn swaps width and depth, other angles are refused. (The shipped
setups' round trip, terrain unchanged, is ``test_round_trip.py``.)"""

from __future__ import annotations

import pytest

from pipeline.setup_import import Mapped
from pipeline.systems.ronin import importer
from pipeline.vassal.save import SetupPiece

from .conftest import DATA

BASE = [
    {"name": "Garden wall", "kind": "wall", "zone": {"kind": "rect", "x": 10, "y": 9, "w": 6, "h": 0.5}, "movement": "difficult", "cover": "heavy",
     "source": {"doc": "gunbai", "section": "Game layout", "confidence": "L"}},
    {"name": "Pond", "kind": "pond", "zone": {"kind": "circle", "x": 5, "y": 28, "r": 3}, "movement": "impassable",
     "source": {"doc": "gunbai", "section": "Game layout", "confidence": "L"}},
]


@pytest.fixture(scope="module")
def data():
    return importer.load_data(DATA / "ronin")


def _piece(props: dict[str, str], angle: float | None = None) -> SetupPiece:
    return SetupPiece("1", "piece", "", None, (), props, {}, angle, "Table", None, 0, 0, None, None, None)


def _mapped(props: dict[str, str], angle: float | None = None) -> Mapped:
    p = _piece(props, angle)
    return Mapped(p, importer.own_target(p), "its own properties")


def test_own_target_of_game_and_palette_terrain_pieces():
    game = _piece({"Terrain": "wall", "Footprint": "game", "Game": "skirmish", "TerrainIndex": "0", "MapLayer": "Terrain"})
    palette = _piece({"Terrain": "woods", "Footprint": "large", "MapLayer": "Terrain"})
    assert importer.own_target(game) == {"terrain": "wall", "game": "skirmish", "index": 0}
    assert importer.own_target(palette) == {"terrain": "woods", "footprint": "large"}


def test_check_target_names_unknown_kinds_and_footprints(data):
    assert importer.check_target(data, {"terrain": "woods", "footprint": "large"}) is None
    assert "not a kind of terrain.yaml" in importer.check_target(data, {"terrain": "lava"})
    assert "has no footprint 'huge'" in importer.check_target(data, {"terrain": "woods", "footprint": "huge"})


def test_a_moved_game_piece_keeps_its_entry_at_its_new_place(data):
    """The wall (6 x 0.5 inches) now centred at (20, 12): its corner is (17, 11.75)."""
    wall = _mapped({"Terrain": "wall", "Footprint": "game", "Game": "g", "TerrainIndex": "0"})
    pond = _mapped({"Terrain": "pond", "Footprint": "game", "Game": "g", "TerrainIndex": "1"})
    out = importer.terrain_entries(data, BASE, "g", [(pond, 5.0, 28.0), (wall, 20.0, 12.0)], "s.vsav")
    assert [e["name"] for e in out] == ["Garden wall", "Pond"]  # the game's order, not the setup's
    assert out[0]["zone"] == {"kind": "rect", "x": 17.0, "y": 11.75, "w": 6.0, "h": 0.5}
    assert out[0]["source"] == BASE[0]["source"] and out[0]["cover"] == "heavy"
    assert out[1]["zone"] == {"kind": "circle", "x": 5.0, "y": 28.0, "r": 3}
    assert BASE[0]["zone"]["x"] == 10  # the base is not changed


def test_a_quarter_turn_swaps_width_and_depth_other_angles_are_refused(data):
    wall = _mapped({"Terrain": "wall", "Footprint": "game", "Game": "g", "TerrainIndex": "0"}, angle=90.0)
    out = importer.terrain_entries(data, BASE, "g", [(wall, 12.0, 12.0)], "s.vsav")
    assert out[0]["zone"] == {"kind": "rect", "x": 11.75, "y": 9.0, "w": 0.5, "h": 6.0}
    askew = _mapped({"Terrain": "wall", "Footprint": "game", "Game": "g", "TerrainIndex": "0"}, angle=30.0)
    with pytest.raises(ValueError, match="turned 30 degrees"):
        importer.terrain_entries(data, BASE, "g", [(askew, 12.0, 12.0)], "s.vsav")


def test_a_palette_piece_is_a_new_entry_of_its_kind_and_footprint(data):
    """terrain.yaml: a large wood is a circle of radius 5 (gunbai's footprint), Open, light cover."""
    woods = data.terrain["woods"]
    large = next(f for f in woods.footprints if f.id == "large")
    m = _mapped({"Terrain": "woods", "Footprint": "large"})
    (e,) = importer.terrain_entries(data, [], "g", [(m, 18.0, 18.0)], "s.vsav")
    assert e["kind"] == "woods" and e["name"] == woods.name
    assert (e["movement"], e["cover"]) == (woods.movement, woods.cover)
    assert e["zone"] == {"kind": "circle", "x": 18.0, "y": 18.0, "r": 5} and large.r == 5
    assert e["source"]["doc"] == "gunbai" and "s.vsav" in e["source"]["note"]


def test_a_piece_of_another_game_is_refused(data):
    m = _mapped({"Terrain": "wall", "Footprint": "game", "Game": "other", "TerrainIndex": "0"})
    with pytest.raises(ValueError, match="which the base 'g' does not have"):
        importer.terrain_entries(data, BASE, "g", [(m, 1.0, 1.0)], "s.vsav")
