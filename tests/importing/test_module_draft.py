"""``gunbai import --module M.vmod -o DRAFT``: a draft data folder from a module; and the
``gunbai import`` command end to end."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.vassal.archive import archive_bytes

from .conftest import DATA, ROOT


def test_draft_folder_counts_the_board_from_the_modules_hex_grid(built, tmp_path):
    out = tmp_path / "draft"
    result = CliRunner().invoke(app, ["import", "--module", str(built / "genpei" / "samurai_battles.vmod"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    board = yaml.safe_load((out / "board.yaml").read_text())
    # the Commands & Colours board of board.yaml: 11 rows, 12 hexes in the long rows, the even
    # rows short (11 hexes)
    assert (board["columns"], board["rows"], board["short_rows"]) == (12, 11, "even")
    assert "11 rows holding 12, 11, 12, 11, 12, 11, 12, 11, 12, 11, 12 hexes" in (out / "board.yaml").read_text()
    units = yaml.safe_load((out / "units.yaml").read_text())["units"]
    assert {"samurai_infantry_naginata", "samurai_cavalry", "ashigaru_archers"} <= {u["id"] for u in units}
    assert not {"sohei_warriors", "sohei_archers"} & {u["id"] for u in units}  # the core module has no pack unit
    assert all(u["movement"]["hexes"] == "unknown" for u in units)
    pieces = yaml.safe_load((out / "pieces.yaml").read_text())
    assert pieces["system"] == "genpei" and pieces["map"] == "Battlefield"
    assert {"slot": "Samurai Cavalry", "as": {"unit": "samurai_cavalry"}} in pieces["pieces"]
    again = CliRunner().invoke(app, ["import", "--module", str(built / "genpei" / "samurai_battles.vmod"), "-o", str(out)])
    assert again.exit_code == 1 and "new or empty folder" in again.output


def test_draft_folder_of_a_module_without_a_hex_grid(tmp_path):
    module = tmp_path / "Almoravid.vmod"
    module.write_bytes(archive_bytes({"buildFile.xml": (ROOT / "tests/fixtures/vassal/corpus/almoravid/files/buildFile.xml").read_bytes()}))
    result = CliRunner().invoke(app, ["import", "--module", str(module), "-o", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert "no board with a sideways hex grid" in result.output
    assert not (tmp_path / "d" / "board.yaml").exists() and (tmp_path / "d" / "units.yaml").is_file()


def test_import_command_writes_and_verifies(built, tmp_path):
    out = tmp_path / "gp20.yaml"
    result = CliRunner().invoke(app, ["import", "gp20_nishinomiya.vsav", "--module", str(built / "genpei" / "samurai_battles.vmod"),
                                      "--extension", str(built / "genpei" / "genpei.vmdx"), "--system", "genpei",
                                      "--base", str(DATA / "genpei" / "scenarios" / "gp20_nishinomiya.yaml"), "-o", str(out), "--data", str(DATA)])
    assert result.exit_code == 0, result.output
    assert f"{out}: 120 piece(s) imported, 0 ignored" in result.output and f"{out}: verified, legal" in result.output
    missing = CliRunner().invoke(app, ["import", "nope.vsav", "--module", str(built / "genpei" / "samurai_battles.vmod"), "--system", "genpei", "-o", str(tmp_path / "n.yaml")])
    assert missing.exit_code == 1 and "nope.vsav: no such file" in missing.output and not (tmp_path / "n.yaml").exists()
