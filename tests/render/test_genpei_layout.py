"""Layout rules of the Genpei art (issue 32): hex labels clear of section lines, terrain chart
rows sized to their text, the scenario sheet's map sized to the text around it, and an empty
VASSAL setup that says why it is empty."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_section_line_strikes_a_hex_label(genpei):
    from pipeline.render.drawing import text_length
    from pipeline.systems.genpei import art

    data, layout = genpei
    ctx = art.board_context(data.board, layout)
    moved = 0
    for h in ctx["hexes"]:
        half = text_length(h["label"], round(ctx["label_size"] * 8), False) / 16
        x = h["label_at"][0]
        for line in ctx["section_lines"]:
            # clear of the line's dots (0.02 hex widths either side of it) by 0.05 hex widths
            assert abs(x - line) >= half + 0.07 * layout.hex_width - 1e-6, h["label"]
        moved += x != h["centre"][0]
    # the even rows' hexes of columns 4 and 8 stand on the two section lines: 10 of them on the 12 x 11 board
    assert moved == 10


def test_terrain_chart_rows_hold_their_text_with_room_to_spare(genpei):
    from pipeline.render.drawing import wrap_text
    from pipeline.systems.genpei import art

    data, _ = genpei
    ctx = art.terrain_chart_context(list(data.terrain.values()))
    for r in ctx["rows"]:
        for key, _h, _x, w in ctx["columns"]:
            lines = len(wrap_text(r[key], ctx["cell"]["size"], False, w - 2 * ctx["cell"]["pad"]))
            need = ((lines - 1) * ctx["cell"]["line"] + 1) * ctx["cell"]["size"]
            assert r["height"] - need >= 2 * art.TERRAIN_CELL_PAD_Y - 1, (r["id"], key)
    village = next(r for r in ctx["rows"] if r["id"] == "village")
    # rules-facts: Village caps close combat from it at 2 dice on foot, 1 mounted; ranged from and into it at 1
    assert "foot max 2 dice, mounted max 1 die" in village["battle"] and "ranged from and into it: max 1 die" in village["battle"]
    assert not any("1 dice" in r["battle"] for r in ctx["rows"])


def test_the_sheet_map_shrinks_for_the_text_and_no_text_is_under_7_pt(genpei):
    from pipeline.render.drawing import paragraphs_height
    from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM
    from pipeline.systems.genpei import printing

    data, layout = genpei
    widths = {}
    for loaded in data.scenarios:
        ctx = printing.scenario_context(data, layout, loaded)
        widths[loaded.scenario.id] = ctx["map"]["w"]
        right = ctx["right"]
        assert paragraphs_height(ctx["right_items"], right["w"]) <= right["h"], loaded.scenario.id
        for side in ctx["sides"]:
            assert paragraphs_height(side["lines"], ctx["side_box"]["column"] - 2) <= ctx["side_box"]["h"], loaded.scenario.id
            assert min(it["size"] for it in side["lines"]) * ctx["side_min_scale"] * PT_PER_MM >= MIN_PRINT_PT - 0.01
        assert min(it["size"] for it in ctx["right_items"]) * ctx["right_min_scale"] * PT_PER_MM >= MIN_PRINT_PT - 0.01
    assert widths["gp01_taiken_gate"] == 184  # little text: the widest map
    assert widths["gp20_nishinomiya"] < widths["gp19_nutas_stronghold"] < 184  # the longest rules take the most room
    assert len(set(widths.values())) <= 4


def test_an_empty_setup_lays_a_notice_on_the_board(genpei):
    from pipeline.systems.genpei import art, extension
    from pipeline.systems.genpei.build import own_mapping
    from pipeline.systems.genpei.module import build_core_module
    from pipeline.vassal.archive import archive_bytes
    from pipeline.vassal.base import read_base_module
    from pipeline.vassal.buildfile import write_buildfile, write_moduledata
    from pipeline.vassal.extension import write_extension

    data, layout = genpei
    module, _pal = build_core_module(data, layout, art.core_card_names(data))
    core = write_buildfile(module)
    base = read_base_module(archive_bytes({"buildFile.xml": core.xml, "moduledata": write_moduledata(module, 0)}, 1735689600))
    mapping = own_mapping(data, base)
    pack = extension.pack_extension(data, mapping, [])
    saves = extension.scenario_saves(data, pack, write_extension(pack.extension).gpids)
    hidden = 0
    for loaded in data.scenarios:
        save = saves[extension.gm.setup_file_name(loaded)]
        notices = [p for p in save.pieces if p.definition.basic.image.startswith("notice_map_not_public")]
        if loaded.scenario.map == "not public":
            hidden += 1
            (n,) = notices
            width, height = mapping.board.size
            assert (n.x, n.y) == (width // 2 + mapping.board_origin[0], height // 2 + mapping.board_origin[1])
            assert n.definition.basic.image == extension.notice_image_name(loaded.scenario.id) and not n.stacked
        else:
            assert not notices
    assert hidden == 28
