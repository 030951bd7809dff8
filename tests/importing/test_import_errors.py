"""Bad setups: a piece nothing maps, a piece off the board, a mapping naming an unknown id.
Each is an error naming the piece and its position, and nothing is written; a drafted mapping,
completed, makes the same setup import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.setup_import import ImportError_, import_setup
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.module import BOARD_NAME, MAP_NAME
from pipeline.vassal.archive import open_archive
from pipeline.vassal.pieces import PieceDefinition
from pipeline.vassal.read import read_module
from pipeline.vassal.save import PlacedPiece, SaveGame, read_save
from pipeline.vassal.traits import BasicPiece, Marker

from .conftest import DATA, ROOT

#: The core module `gunbai build` writes; the GP setups are in its extension genpei.vmdx.
CORE = "samurai_battles.vmod"
EXT = ["genpei.vmdx"]


def _setup_with(built: Path, tmp_path: Path, extra: list[PlacedPiece]) -> Path:
    """GP20's built setup with ``extra`` pieces added, written as a .vsav."""
    with open_archive(built / "genpei" / CORE) as arc:
        info = read_module(arc)
    with open_archive(built / "genpei" / "genpei.vmdx") as arc:  # the pack's setups are its extension's
        save = read_save(arc.read("gp20_nishinomiya.vsav"))
    # re-write the decoded save's command text with the extra pieces before end_save
    from pipeline.vassal.commands import END_SAVE, join_commands
    from pipeline.vassal.save import obfuscate

    extra_cmds = SaveGame(info.name, info.version, extra, stack_id_start=990000).commands()[1:-1]
    commands = [c for c in save.commands if c != END_SAVE] + extra_cmds + [END_SAVE]
    from pipeline.vassal.archive import archive_bytes

    path = tmp_path / "gp20_plus.vsav"
    path.write_bytes(archive_bytes({"savedGame": obfuscate(join_commands(commands))}))
    return path


def _centre(hex_: tuple[int, int]) -> tuple[int, int]:
    data = load(DATA / "genpei", scenario_files=[])
    v = data.system.vassal
    return HexLayout(data.board, v.hex_width_px, v.board_margin_px).centre(hex_)


def test_an_unmapped_piece_is_an_error_by_name_and_position_and_nothing_is_written(built, tmp_path):
    x, y = _centre((4, 9))
    mystery = PlacedPiece("77001", PieceDefinition([], BasicPiece("mystery.png", "Mystery counter")), MAP_NAME, x, y)
    setup = _setup_with(built, tmp_path, [mystery])
    out = tmp_path / "out.yaml"
    with pytest.raises(ImportError_) as err:
        import_setup(setup, built / "genpei" / CORE, "genpei", out, data_root=DATA, extensions=[built / "genpei" / e for e in EXT],
                     base=DATA / "genpei" / "scenarios" / "gp20_nishinomiya.yaml")
    msg = str(err.value)
    # the location VASSAL shows (first=V, sep=",": column in the row, then the row) and the pixels
    assert "piece 'Mystery counter' at 4,9 (" + f"{x}, {y}) px on map 'Battlefield' is not in the piece mapping" in msg
    assert "nothing written" in msg
    assert not out.exists()


def test_a_drafted_mapping_lists_the_unknown_piece_and_once_completed_the_import_works(built, tmp_path):
    x, y = _centre((4, 9))
    mystery = PlacedPiece("77001", PieceDefinition([], BasicPiece("mystery.png", "Mystery counter")), MAP_NAME, x, y)
    setup = _setup_with(built, tmp_path, [mystery])
    out, draft = tmp_path / "out.yaml", tmp_path / "pieces.yaml"
    base = DATA / "genpei" / "scenarios" / "gp20_nishinomiya.yaml"
    with pytest.raises(ImportError_):
        import_setup(setup, built / "genpei" / CORE, "genpei", out, data_root=DATA, extensions=[built / "genpei" / e for e in EXT], base=base, draft_pieces=draft)
    text = draft.read_text()
    assert "- name: Mystery counter\n    as: null  # TODO" in text and "1 on the map at 4,9" in text
    assert not out.exists()
    # a person completes it: the mystery counter is a Command Tent of the Rebels' army
    draft.write_text(text.replace("as: null  # TODO", "as: {marker: command_tent}"))
    result = import_setup(setup, built / "genpei" / CORE, "genpei", out, data_root=DATA, extensions=[built / "genpei" / e for e in EXT], base=base, pieces=draft)
    assert result.written == out
    assert "- {marker: command_tent, hex: [4, 9]}  # 'Mystery counter' at 4,9" in out.read_text()


def test_a_piece_off_the_board_cannot_be_placed(built, tmp_path):
    x, y = _centre((4, 11))
    data = load(DATA / "genpei", scenario_files=[])
    row_height = HexLayout(data.board, data.system.vassal.hex_width_px, data.system.vassal.board_margin_px).row_height
    off = PlacedPiece("77002", PieceDefinition([Marker(("Unit", "Army"), ("samurai_infantry", "yellow"))], BasicPiece("u.png", "Stray unit")),
                      MAP_NAME, x, y + 2 * row_height)  # row 13 of an 11-row board (short like row 11)
    setup = _setup_with(built, tmp_path, [off])
    out = tmp_path / "out.yaml"
    with pytest.raises(ImportError_) as err:
        import_setup(setup, built / "genpei" / CORE, "genpei", out, data_root=DATA, extensions=[built / "genpei" / e for e in EXT],
                     base=DATA / "genpei" / "scenarios" / "gp20_nishinomiya.yaml")
    assert f"piece 'Stray unit' at ({x}, {y + 2 * row_height}) px cannot be placed: it lies outside every board of map 'Battlefield'" in str(err.value)
    assert not out.exists()


def test_a_mapping_naming_an_unknown_unit_is_an_error_with_its_line(built, tmp_path):
    x, y = _centre((4, 9))
    mystery = PlacedPiece("77001", PieceDefinition([], BasicPiece("mystery.png", "Mystery counter")), MAP_NAME, x, y)
    setup = _setup_with(built, tmp_path, [mystery])
    pieces = tmp_path / "pieces.yaml"
    pieces.write_text("system: genpei\npieces:\n  - name: Mystery counter\n    as: {unit: ninja_bears, army: red}\n")
    with pytest.raises(ImportError_) as err:
        import_setup(setup, built / "genpei" / CORE, "genpei", tmp_path / "o.yaml", data_root=DATA, pieces=pieces,
                     extensions=[built / "genpei" / e for e in EXT])
    assert f"{pieces}:3: unit 'ninja_bears' is not in units.yaml" in str(err.value)
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: genpei\npieces:\n  - name: A\n    slot: B\n    as: {unit: bodyguard}\n")
    with pytest.raises(DataError) as derr:
        import_setup(setup, built / "genpei" / CORE, "genpei", tmp_path / "o.yaml", data_root=DATA, pieces=bad,
                     extensions=[built / "genpei" / e for e in EXT])
    assert f"{bad}:3: pieces[0]: name, slot is not valid; expected exactly one of name, slot or prototype" in str(derr.value)
    assert BOARD_NAME


# ---------------------------------------------------------------------------------------------
# No import writes over one of its inputs, or over a file that is not a scenario file (a piece
# mapping), without --force (issue 29, item 2); checked before anything is read


def _inputs(tmp_path: Path) -> dict[str, Path]:
    """Files standing for the import's inputs (the checks come before any is read)."""
    paths = {"setup": tmp_path / "s.vsav", "module": tmp_path / "m.vmod", "pieces": tmp_path / "pieces.yaml",
             "base": tmp_path / "base.yaml", "units": tmp_path / "units.yaml", "scenario": tmp_path / "old.yaml"}
    paths["setup"].write_bytes(b"PK\x03\x04 a save")
    paths["module"].write_bytes(b"PK\x03\x04 a module")
    paths["pieces"].write_text("system: genpei\npieces: []\n", encoding="utf-8")
    shutil.copy(DATA / "genpei" / "scenarios" / "gp20_nishinomiya.yaml", paths["base"])
    shutil.copy(DATA / "genpei" / "units.yaml", paths["units"])
    shutil.copy(DATA / "genpei" / "scenarios" / "gp19_nutas_stronghold.yaml", paths["scenario"])
    return paths


def _import(p: dict[str, Path], out: Path, **kw) -> None:
    kw.setdefault("pieces", p["pieces"])
    import_setup(p["setup"], p["module"], "genpei", out, data_root=DATA, **kw)


@pytest.mark.parametrize("which", ["setup", "module", "pieces"])
def test_o_over_an_input_is_refused_and_the_input_kept(tmp_path, which):
    p = _inputs(tmp_path)
    before = p[which].read_bytes()
    with pytest.raises(ImportError_) as exc:
        _import(p, p[which])
    option = {"setup": "SETUP", "module": "--module", "pieces": "--pieces"}[which]
    assert str(exc.value).startswith(f"-o {p[which]}: is the ") and f"({option}) file this command reads" in str(exc.value)
    assert str(exc.value).endswith("choose another -o, or pass --force to write over it")
    assert p[which].read_bytes() == before


def test_o_over_a_data_file_of_another_kind_is_refused(tmp_path):
    p = _inputs(tmp_path)
    with pytest.raises(ImportError_, match=r"-o .*units\.yaml: holds YAML with the keys units, not a scenario file \(genpei\); choose another -o"):
        _import(p, p["units"])


@pytest.mark.parametrize("name", ["x.vmod", "x.png", "x"])
def test_o_must_name_a_yaml_file(tmp_path, name):
    p = _inputs(tmp_path)
    with pytest.raises(ImportError_, match=r"expected the name of a scenario file \(genpei\) \(ending \.yaml or \.yml\)"):
        _import(p, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_o_a_folder_is_refused_even_with_force(tmp_path):
    p = _inputs(tmp_path)
    with pytest.raises(ImportError_, match="is a folder; expected the name of a scenario file"):
        _import(p, tmp_path, force=True)


def test_draft_pieces_over_the_mapping_or_over_o_is_refused(tmp_path):
    p = _inputs(tmp_path)
    with pytest.raises(ImportError_, match=r"--draft-pieces .*pieces\.yaml: is the piece mapping \(--pieces\) file"):
        _import(p, tmp_path / "new.yaml", draft_pieces=p["pieces"])
    with pytest.raises(ImportError_, match="name one file"):
        _import(p, tmp_path / "new.yaml", draft_pieces=tmp_path / "new.yaml")
    with pytest.raises(ImportError_, match=r"--draft-pieces .*units\.yaml: holds YAML with the keys units, not a piece mapping"):
        _import(p, tmp_path / "new.yaml", draft_pieces=p["units"])


@pytest.mark.parametrize("case", ["new file", "a scenario file", "the --base file", "--force over the module"])
def test_what_import_may_write_passes_the_check(tmp_path, case):
    """These get past the output checks to reading the setup (which is not a real one here)."""
    p = _inputs(tmp_path)
    out, kw = {"new file": (tmp_path / "new.yaml", {}), "a scenario file": (p["scenario"], {}),
               "the --base file": (p["base"], {"base": p["base"]}), "--force over the module": (p["module"], {"force": True})}[case]
    with pytest.raises(ImportError_) as exc:
        _import(p, out, **kw)
    assert str(exc.value).startswith(f"{p['module']}: a ZIP archive cut short")  # the module is read: past the checks


def test_a_draft_data_folder_is_not_written_over_a_file(tmp_path):
    from pipeline.errors import GunbaiError
    from pipeline.module_draft import draft_data_folder

    p = _inputs(tmp_path)
    with pytest.raises(GunbaiError, match=r"-o .*m\.vmod: is a file; the draft goes to a new or empty folder"):
        list(draft_data_folder(p["module"], p["module"]))


# ---------------------------------------------------------------------------------------------
# Saves cut short or broken, and the smaller import cases (issue 29, item 7)


def _save_entries(built: Path) -> dict[str, bytes]:
    with open_archive(built / "ohw" / "ohw.vmod") as arc:
        data = arc.read("ohw04_take_the_high_ground.vsav")
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zip(path: Path, entries: dict[str, bytes]) -> Path:
    from pipeline.vassal.archive import archive_bytes

    path.write_bytes(archive_bytes(entries))
    return path


@pytest.mark.parametrize("cut", ["half", "none"])
def test_a_save_cut_short_is_refused_as_such_and_nothing_written(built, tmp_path, cut):
    entries = _save_entries(built)
    saved = entries["savedGame"]
    entries["savedGame"] = saved[: len(saved) // 2] if cut == "half" else b""
    setup = _zip(tmp_path / "cut.vsav", entries)
    out = tmp_path / "out.yaml"
    with pytest.raises(ImportError_) as exc:
        import_setup(setup, built / "ohw" / "ohw.vmod", "ohw", out, data_root=DATA, base=DATA / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml")
    message = str(exc.value)
    assert message.startswith(f"{setup}: the save is cut short or damaged, so VASSAL would not load it (command ") and message.endswith("; nothing written")
    assert "\n" not in message and not out.exists()


def test_a_zip_cut_short_says_so(built, tmp_path):
    data = (built / "ohw" / "ohw.vmod").read_bytes()
    module = tmp_path / "cut.vmod"
    module.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportError_, match=r"cut\.vmod: a ZIP archive cut short: it begins as one but its end is missing"):
        import_setup(Path("x.vsav"), module, "ohw", tmp_path / "o.yaml", data_root=DATA)


def test_a_vsav_without_saved_game_is_a_broken_save_not_a_module(built, tmp_path):
    from pipeline.vassal.archive import VassalFormatError
    from pipeline.vassal.inspect import inspect_path
    from pipeline.vassal.lint import lint

    entries = _save_entries(built)
    del entries["savedGame"]
    setup = _zip(tmp_path / "nosave.vsav", entries)
    findings = [f for f in lint(setup) if f.severity == "error"]
    assert [f.message for f in findings] == ["save has no savedGame entry: 'not a VASSAL saved game' (§4.1)"]
    with pytest.raises(VassalFormatError, match=r"not a VASSAL save: no savedGame entry"):
        inspect_path(setup)
    with pytest.raises(ImportError_, match=r"nosave\.vsav: not a VASSAL save: no savedGame entry"):
        import_setup(setup, built / "ohw" / "ohw.vmod", "ohw", tmp_path / "o.yaml", data_root=DATA)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}, timeout=600)


def test_import_without_its_data_folder_is_one_line(built, tmp_path):
    run = _cli("import", "ohw04_take_the_high_ground.vsav", "--module", str(built / "ohw" / "ohw.vmod"), "--system", "ohw", "-o", "x.yaml", cwd=tmp_path)
    assert run.returncode == 1 and run.stderr.splitlines() == [
        "--data source_data: no ohw data folder (source_data/ohw); the import needs the data it imports into (its unit, terrain and "
        "marker ids): run it where source_data is, or give --data"], run.stderr


def test_import_of_gunbais_own_module_needs_no_system(built, tmp_path):
    out = tmp_path / "ohw04.yaml"
    run = _cli("import", "ohw04_take_the_high_ground.vsav", "--module", str(built / "ohw" / "ohw.vmod"),
               "--base", str(DATA / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml"), "-o", str(out), "--data", str(DATA), cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "--system ohw (its data names the module)"
    # the schema line points at the data folder's schema from where the file is
    schema = DATA / "ohw" / "schema" / "scenario.schema.json"
    first = out.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema={Path(os.path.relpath(schema, tmp_path)).as_posix()}"
    assert (tmp_path / first.split("=", 1)[1]).resolve() == schema.resolve()
    assert out.read_text(encoding="utf-8").count("yaml-language-server") == 1


def test_import_help_shows_no_default_module():
    run = _cli("import", "--help", cwd=ROOT)
    line = next(ln for ln in run.stdout.splitlines() if "--module" in ln)
    assert "default" not in line and "[default: .]" not in run.stdout


def test_a_folder_given_as_the_setup(built, tmp_path):
    with pytest.raises(ImportError_, match=r": is a folder; expected a saved game or setup \(\.vsav\), or the name of a setup in "):
        import_setup(tmp_path, built / "ohw" / "ohw.vmod", "ohw", tmp_path / "o.yaml", data_root=DATA)
