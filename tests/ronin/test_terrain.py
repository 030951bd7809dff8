"""Ronin terrain pieces (issue 13): every kind of ``terrain.yaml`` in each footprint in the
module's Terrain palette, drawn to scale; each game's terrain placed in its predefined setup;
terrain drawn under the models (Game Piece Layers).

Golden images live in ``tests/render/golden/`` (``ronin_terrain_*``); after an intended change,
regenerate and look at them before committing::

    GUNBAI_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/ronin/test_terrain.py -k golden
"""

from __future__ import annotations

import zipfile

import pytest
from lxml import etree
from PIL import Image

from pipeline.systems.base import get_system
from pipeline.systems.ronin import art, module
from pipeline.vassal.pieces import decode_add_piece
from pipeline.vassal.save import read_save
from tests.golden_images import assert_golden

from .conftest import DATA
from .test_module import _blank

VM = "VASSAL.build.module."


def _properties(piece) -> dict[str, str]:
    """The named values of a piece (slot text or decoded), as :meth:`DecodedPiece.properties`."""
    return (decode_add_piece(piece) if isinstance(piece, str) else piece).properties()


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> dict[str, bytes]:
    mp = pytest.MonkeyPatch()
    mp.setattr(art, "render_pngs", _blank)
    out = tmp_path_factory.mktemp("build")
    try:
        result = get_system("ronin").build(DATA, out / "ronin", progress=False)
    finally:
        mp.undo()
    with zipfile.ZipFile(result.module) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_palette_holds_every_kind_in_every_footprint(data):
    lists = dict(module.palette(data))
    keys = {p.key for p in lists["Terrain"]}
    want = {module.terrain_key(t.id, fp.id) for t in data.terrain.values() for fp in t.footprints}
    assert keys == want
    # the kinds the book names (p.13-15, p.57) are all there
    for kind in ("building", "wall", "fence", "hedge", "woods", "rocks", "stream", "river", "pond", "marsh", "paddy", "hill", "palisade"):
        assert kind in data.terrain, kind


def test_a_piece_is_drawn_at_its_footprint_to_scale(data):
    ppi = data.system.vassal.px_per_inch
    pieces = art.terrain_pieces(data)
    # building small: 4 x 3 inches (terrain.yaml, gunbai's footprint)
    b = pieces[art.terrain_image_name("building", "small")]
    assert (b.w, b.h) == (4, 3) and b.job(ppi).size == (4 * ppi, 3 * ppi)
    # a shrine is a round court of radius 2: 4 inches across
    s = pieces[art.terrain_image_name("shrine", "small")]
    assert (s.shape, s.w, s.h) == ("circle", 4, 4)
    # a wall section: 6 x 0.5 inches, laid along x
    w = pieces[art.terrain_image_name("wall", "section")]
    assert w.job(ppi).size == (6 * ppi, round(0.5 * ppi)) and w.context()["piece"]["along_x"]


def test_the_slot_of_a_large_piece_keeps_its_shape_at_most_max_slot_px():
    assert module._slot(560, 280) == (module.MAX_SLOT_PX, module.MAX_SLOT_PX // 2)
    assert module._slot(100, 50) == (100, 50)
    assert module._slot(336, 28) == (200, 17)  # a wall section keeps a visible depth


def test_effects_line_from_the_kind():
    assert art.effects_text("difficult", "heavy") == "Difficult · Heavy cover"
    assert art.effects_text("open", "none") == "Open · no cover"


def test_map_draws_terrain_under_zones_models_and_markers(archive):
    layers = etree.fromstring(archive["buildFile.xml"]).find(VM + "Map").find(VM + "map.LayeredPieceCollection")
    assert layers.get("property") == "MapLayer"
    assert layers.get("layerOrder").split(",") == ["Terrain", "Zones", "Models", "Markers"]


def test_every_palette_piece_names_its_layer(archive):
    seen = {}
    for slot in etree.fromstring(archive["buildFile.xml"]).iter("VASSAL.build.widget.PieceSlot"):
        props = _properties(slot.text)
        kind = next(k for k in ("Model", "Zone", "Terrain", "Marker") if k in props)
        seen.setdefault(kind, set()).add(props["MapLayer"])
    assert seen == {"Model": {"Models"}, "Zone": {"Zones"}, "Terrain": {"Terrain"}, "Marker": {"Markers"}}


def test_setup_places_the_games_terrain_at_its_zone(data, archive):
    """Defend the Village (games/defend_the_village.yaml): the farmhouse is a 4 x 2.5 inch rect at
    (9, 9), so its piece's centre is (11, 10.25) inches; every terrain entry is placed once."""
    ppi = data.system.vassal.px_per_inch
    g = next(x.value for x in data.games if x.value.id == "defend_the_village")
    farm = g.terrain[0]
    assert (farm.zone.x, farm.zone.y, farm.zone.w, farm.zone.h) == (9, 9, 4, 2.5)
    save = read_save(archive["defend_the_village.vsav"])
    terrain = [p for p in save.pieces if "Terrain" in _properties(p)]
    assert sorted(int(_properties(p)["TerrainIndex"]) for p in terrain) == list(range(len(g.terrain)))
    farm_piece = next(p for p in terrain if _properties(p)["TerrainIndex"] == "0")
    assert _properties(farm_piece)["Terrain"] == farm.kind == "building"
    assert (farm_piece.x, farm_piece.y) == (11 * ppi, round(10.25 * ppi))


def test_every_setup_binds_each_stack_to_its_pieces_layer(data, archive):
    """A stack is saved bound to a layer (``@@n``); models must be in Models (2), markers in
    Markers (3), else VASSAL draws them in the layer the stack names, under the zones."""
    order = ["Terrain", "Zones", "Models", "Markers"]
    for lg in data.games:
        save = read_save(archive[f"{lg.value.id}.vsav"])
        pieces = {p.id: p for p in save.pieces}
        for st in save.stacks:
            layers = {_properties(pieces[i])["MapLayer"] for i in st.stack.piece_ids}
            assert len(layers) == 1, lg.value.id
            assert st.stack.layer == order.index(layers.pop()), lg.value.id
        assert sum("Terrain" in _properties(p) for p in save.pieces) == len(lg.value.terrain)


# ---------------------------------------------------------------------------------------------
# golden images, at the module's own scale (px_per_inch): the names keep 8 px there, and at a
# smaller scale they would overflow the piece


def _golden(data) -> dict[str, Image.Image]:
    r = art.renderer()
    pieces = art.terrain_pieces(data)
    out = {}
    for kind, fp in (("building", "small"), ("shrine", "small"), ("wall", "section"), ("woods", "small"), ("rocks", "small"), ("hedge", "section")):
        out[f"ronin_terrain_{kind}.png"] = pieces[art.terrain_image_name(kind, fp)].job(data.system.vassal.px_per_inch).render(r)
    return out


def test_golden_terrain_images(data):
    images = _golden(data)
    assert_golden(images)


def test_a_round_piece_is_transparent_outside_its_circle(data):
    img = art.terrain_pieces(data)[art.terrain_image_name("shrine", "small")].job(20).render(art.renderer())
    assert img.getpixel((0, 0))[3] == 0 and img.getpixel((40, 40))[3] == 255


def test_print_sheet_of_a_game_draws_its_terrain_first_under_the_models(data):
    """The print scenario sheet places what the VASSAL setup places, terrain first (drawn first,
    so under the zones' models); before, a game's terrain keys had no printed piece."""
    from pipeline.systems.ronin import printing

    lg = next(x for x in data.games if x.value.id == "defence")
    sheet = printing.game_sheet(data, lg)
    n = len(lg.value.terrain)
    assert n == 4
    assert all(isinstance(u.counter, art.TerrainPiece) for u in sheet.units[:n])
    assert not any(isinstance(u.counter, art.TerrainPiece) for u in sheet.units[n:])
    shrine = sheet.units[[t.kind for t in lg.value.terrain].index("shrine")]
    z = lg.value.terrain[[t.kind for t in lg.value.terrain].index("shrine")].zone
    assert (shrine.x, shrine.y) == pytest.approx((z.x, z.y), abs=1 / data.system.vassal.px_per_inch)
