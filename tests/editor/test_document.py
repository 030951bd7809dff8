"""The editor's edits of a scenario file (pipeline/editor/document.py) and the server's checks of
what it is sent (pipeline/editor/server.py), without a browser."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from pipeline.editor.document import EditError, ScenarioText, dump_text, load_text, mark_entered
from pipeline.editor.server import MAX_PICTURE_PIXELS, Editor, Refused, read_picture, scenario_path
from pipeline.errors import GunbaiError
from pipeline.systems.genpei.load import load

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "source_data" / "genpei" / "scenarios"
GP19 = SCENARIOS / "gp19_nutas_stronghold.yaml"


@pytest.fixture(scope="module")
def data():
    return load(REPO / "source_data" / "genpei", scenario_files=[])


def test_every_genpei_scenario_round_trips_byte_for_byte() -> None:
    for path in sorted(SCENARIOS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert dump_text(load_text(text)) == text, path.name


def test_place_and_remove_leave_the_file_as_it_was(data) -> None:
    text = GP19.read_text(encoding="utf-8")
    doc = ScenarioText(text)
    doc.apply({"op": "place_terrain", "terrain": "stockade", "hex": [7, 5]}, data)
    doc.apply({"op": "place_unit", "side": "taira", "unit": "samurai_cavalry", "hex": [7, 5]}, data)
    assert "    hexes: [[4, 2], [5, 3], [6, 3], [7, 3], [8, 3], [8, 2], [7, 5]]\n" in doc.text
    assert doc.text.endswith("") and "  - {side: taira, unit: samurai_cavalry, hex: [7, 5]}\nleaders: []\n" in doc.text
    doc.apply({"op": "remove", "hex": [7, 5]}, data)  # the unit first
    assert "hex: [7, 5]}" not in doc.text and "[7, 5]]" in doc.text
    doc.apply({"op": "remove", "hex": [7, 5]}, data)  # then the tile
    assert doc.text == text
    assert len(doc.undo_stack) == 4
    doc.undo()
    doc.undo()
    assert "  - {side: taira, unit: samurai_cavalry, hex: [7, 5]}\n" in doc.text
    doc.redo()
    doc.redo()
    assert doc.text == text and not doc.redo_stack


def test_removing_the_unit_under_a_comment_keeps_the_comment(data) -> None:
    doc = ScenarioText(GP19.read_text(encoding="utf-8"))
    doc.apply({"op": "remove", "hex": [11, 3]}, data)  # the last rebel unit, before "# Taira: ..."
    assert "Kawano no Shiro Michinobu}" not in doc.text
    assert "  - {side: rebels, unit: mounted_samurai_archers, hex: [10, 2]}\n  # Taira: Noritsune's assault force.\n" in doc.text


def test_a_base_tile_replaces_the_hexs_tile_and_an_overlay_stays(data) -> None:
    doc = ScenarioText(GP19.read_text(encoding="utf-8"))
    doc.apply({"op": "place_terrain", "terrain": "palisade", "hex": [5, 3]}, data)  # a stockade with an arrow tower
    assert "    hexes: [[4, 2], [6, 3], [7, 3], [8, 3], [8, 2]]\n" in doc.text
    assert "  - terrain: arrow_tower\n    hexes: [[5, 3], [8, 3]]\n" in doc.text
    assert "  - terrain: palisade\n    hexes: [[3, 3], [9, 3], [5, 3]]\n    hexsides: [SW, SE]\n" in doc.text


def test_palisade_hexsides_toggle_and_rotate_clockwise(data) -> None:
    doc = ScenarioText(GP19.read_text(encoding="utf-8"))
    doc.apply({"op": "rotate", "hex": [9, 3]}, data)  # SW, SE -> W, SW (clockwise: NE E SE SW W NW)
    assert "    hexes: [[3, 3]]\n    hexsides: [SW, SE]\n" in doc.text
    assert "  - terrain: palisade\n    hexes: [[9, 3]]\n    hexsides: [SW, W]\n" in doc.text
    doc.apply({"op": "toggle_hexside", "hex": [9, 3], "side": "W"}, data)
    doc.apply({"op": "toggle_hexside", "hex": [3, 3], "side": "SW"}, data)
    assert "hexes: [[9, 3]]\n    hexsides: [SW]\n" in doc.text and "hexes: [[3, 3]]\n    hexsides: [SE]\n" in doc.text
    doc.apply({"op": "toggle_hexside", "hex": [9, 3], "side": "SW"}, data)  # the last side off: no palisade
    assert "[9, 3]]" not in doc.text.split("units:")[0]


def test_a_row_run_is_split_around_a_removed_hex(data) -> None:
    text = (SCENARIOS / "gp20_nishinomiya.yaml").read_text(encoding="utf-8")
    doc = load_text(text)
    ocean = next(tp for tp in doc["terrain"] if tp.get("rows"))
    span = ocean["rows"][0]
    row, first, last = int(span["row"]), int(span["first"]), int(span["last"])
    assert last - first >= 2
    units_there = [u for u in doc.get("units") or [] if list(u["hex"]) == [first + 1, row]]
    ed = ScenarioText(text)
    for _ in range(len(units_there) + len([m for m in doc.get("markers") or [] if list(m["hex"]) == [first + 1, row]])):
        ed.apply({"op": "remove", "hex": [first + 1, row]}, data)
    ed.apply({"op": "remove", "hex": [first + 1, row]}, data)
    assert f"{{row: {row}, first: {first}, last: {first}}}" in ed.text
    assert f"{{row: {row}, first: {first + 2}, last: {last}}}" in ed.text


def test_leaders_attach_to_a_unit_of_their_side_else_stand_alone(data) -> None:
    doc = ScenarioText(GP19.read_text(encoding="utf-8"))
    doc.apply({"op": "place_leader", "side": "taira", "leader": "infantry_leader", "hex": [5, 8]}, data)
    assert "  - {side: taira, unit: ashigaru_spearmen, hex: [5, 8], leader: infantry_leader}\n" in doc.text
    doc.apply({"op": "place_leader", "side": "taira", "leader": "cavalry_leader", "hex": [7, 10]}, data)
    assert "leaders:\n  - {side: taira, leader: cavalry_leader, hex: [7, 10]}\nmarkers:" in doc.text


def test_form_fields_are_checked(data) -> None:
    doc = ScenarioText(GP19.read_text(encoding="utf-8"))
    doc.apply({"op": "set", "path": "sides.1.command_cards", "value": 5}, data)
    assert "    army: yellow\n    edge: north\n    command_cards: 5\n" in doc.text
    doc.apply({"op": "set", "path": "wind_tide", "value": ["E", "NE"]}, data)
    assert "naval: false\nwind_tide:\n  directions: [NE, E]\n" in doc.text
    for bad in ({"op": "set", "path": "sides.1.command_cards", "value": -1}, {"op": "set", "path": "code", "value": "GP99"},
                {"op": "set", "path": "sides.0.army", "value": "purple"}, {"op": "place_unit", "side": "taira", "unit": "tank", "hex": [1, 1]},
                {"op": "place_unit", "side": "minamoto", "unit": "bodyguard", "hex": [1, 1]},
                {"op": "place_unit", "side": "taira", "unit": "bodyguard", "hex": [12, 2]},  # a short row has 11 hexes
                {"op": "place_unit", "side": "taira", "unit": "bodyguard", "hex": [1, "1"]}, {"op": "drop_table"}, ["op"]):
        with pytest.raises(EditError):
            doc.apply(bad, data)  # type: ignore[arg-type]


def test_mark_entered_cites_the_picture_after_map() -> None:
    text = GP19.read_text(encoding="utf-8")
    out = mark_entered(text, {"doc": "genpei_pack", "section": "GP19 map", "confidence": "M", "bogus": "x"})
    assert "map: entered        # gunbai's own layout: see `reconstruction` at the end\nmap_source: {doc: genpei_pack, section: GP19 map, confidence: M}\nboard: ccsb\n" in out
    with pytest.raises(EditError):
        mark_entered(text, {"doc": "../x", "section": "s"})


def test_the_scenario_must_be_a_genpei_scenario_of_the_data_folder(tmp_path: Path) -> None:
    root = REPO / "source_data"
    assert scenario_path(root, GP19) == (GP19.resolve(), (root / "genpei").resolve())
    for given, says in ((tmp_path / "x.yaml", "no such scenario"), (REPO / "pyproject.toml", ".yaml file"),
                        (root / "genpei" / "board.yaml", "scenarios/ folder"),
                        (next((root / "ohw" / "scenarios").glob("*.yaml")), "Genpei hex board only")):
        with pytest.raises(GunbaiError, match=says):
            scenario_path(root, given)
    (tmp_path / "gp19.yaml").write_text("id: x\n")
    with pytest.raises(GunbaiError, match="outside the data folder"):
        scenario_path(root, tmp_path / "gp19.yaml")


def test_an_underlay_picture_is_checked_by_pillow() -> None:
    buf = io.BytesIO()
    Image.new("RGB", (30, 20), "red").save(buf, "JPEG")
    png, w, h = read_picture(buf.getvalue())
    assert (w, h) == (30, 20) and png.startswith(b"\x89PNG")
    for raw, status in ((b"<svg xmlns='http://www.w3.org/2000/svg'/>", 415), (buf.getvalue()[:40], 415)):
        with pytest.raises(Refused) as exc:
            read_picture(raw)
        assert exc.value.status == status
    big = io.BytesIO()
    Image.new("1", (8000, MAX_PICTURE_PIXELS // 8000 + 10)).save(big, "PNG")  # a small file of too many pixels
    with pytest.raises(Refused) as exc:
        read_picture(big.getvalue())
    assert exc.value.status == 413


def test_findings_are_verify_findings_with_hex_rule_and_source(tmp_path: Path) -> None:
    ed = Editor(REPO / "source_data", GP19, "token")
    assert ed.findings(ed.doc.text) == []
    ed.doc.apply({"op": "place_unit", "side": "rebels", "unit": "samurai_cavalry", "hex": [4, 2]}, ed.data)
    (f,) = [f for f in ed.findings(ed.doc.text) if f["rule"] == "no-cavalry-in-stockade"]
    assert f["hex"] == [4, 2] and f["source"] == "genpei_pack, Stockade"
    schema = ed.findings(ed.doc.text.replace("first_player: taira", "first_player: [taira]"))
    assert [f["rule"] for f in schema] == ["schema"]


def _call(app, path: str, headers: dict[str, str], method: str = "GET", body: bytes = b"") -> int:
    """The status the ASGI ``app`` answers a request of ``path`` with ``headers``."""
    import asyncio

    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(msg):
        sent.append(msg)

    p, _, q = path.partition("?")
    scope = {"type": "http", "method": method, "path": p, "raw_path": p.encode(), "query_string": q.encode(), "root_path": "",
             "scheme": "http", "server": ("127.0.0.1", 8765), "client": ("127.0.0.1", 5000), "http_version": "1.1",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    asyncio.run(app(scope, receive, send))
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


def test_every_request_needs_the_token_and_the_servers_host() -> None:
    from pipeline.editor.server import make_app

    ed = Editor(REPO / "source_data", GP19, "s3cret-token")
    app = make_app(ed, {"port": 8765})
    here = {"host": "127.0.0.1:8765"}
    assert _call(app, "/api/play?token=s3cret-token", here) == 200
    assert _call(app, "/api/play", {**here, "x-gunbai-token": "s3cret-token"}) == 200
    assert _call(app, "/api/play", here) == 403
    assert _call(app, "/api/play?token=s3cret-tokeN", here) == 403
    assert _call(app, "/api/play?token=s3cret-token", {"host": "evil.example:8765"}) == 403  # DNS rebinding
    assert _call(app, "/api/play?token=s3cret-token", {"host": "127.0.0.1:9999"}) == 403
    assert _call(app, "/static/..%2Fserver.py?token=s3cret-token", here) == 404
    assert _call(app, "/art/..?token=s3cret-token", here) == 404


def test_request_bodies_are_bounded() -> None:
    from pipeline.editor.server import MAX_JSON_BYTES, make_app

    ed = Editor(REPO / "source_data", GP19, "t")
    app = make_app(ed, {"port": 8765})
    here = {"host": "127.0.0.1:8765", "x-gunbai-token": "t"}
    big = b"[" + b"0," * MAX_JSON_BYTES + b"0]"
    assert _call(app, "/api/edit", {**here, "content-length": str(len(big))}, "POST", big) == 413
    assert _call(app, "/api/edit", here, "POST", big) == 413  # no length given: counted as it comes
    assert _call(app, "/api/edit", here, "POST", b'{"edit": {"op": "remove", "hex": [0, 0]}}') == 400
    assert _call(app, "/api/edit", here, "POST", b'{"edit": {"op": "remove", "hex": [1, 1]}}') == 200


def test_a_map_not_public_is_checked_as_it_is_entered() -> None:
    """verify checks only the sides and cards of an incomplete scenario; the editor checks the
    layout being entered all the same (with stand-ins for the unknown values)."""
    ed = Editor(REPO / "source_data", SCENARIOS / "gp28_dan_no_ura_first_phase.yaml", "t")
    assert [f["rule"] for f in ed.findings(ed.doc.text)].count("incomplete") == 1
    side = load_text(ed.doc.text)["sides"][0]["id"]
    ed.doc.apply({"op": "place_terrain", "terrain": "stockade", "hex": [3, 3]}, ed.data)
    ed.doc.apply({"op": "place_unit", "side": side, "unit": "samurai_cavalry", "hex": [3, 3]}, ed.data)
    found = ed.findings(ed.doc.text)
    (f,) = [f for f in found if f["rule"] == "no-cavalry-in-stockade"]
    assert f["hex"] == [3, 3] and f["line"] is None
    assert found[-1]["rule"] == "incomplete" and found[-1]["message"].endswith("(the layout is checked with stand-ins for these)")
