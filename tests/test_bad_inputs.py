"""Every bad input of issue 14 is refused with one line naming the file, the line, the value and
what was expected (and so nothing is built).

Each test copies one system's data folder, makes one edit to one line, and checks the system's
``verify`` (which loads the data exactly as ``gunbai build`` does) raises a :class:`DataError`
whose single problem points at that file and line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError
from pipeline.systems.base import get_system

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "source_data"


def _copy(tmp_path: Path, system: str) -> Path:
    dest = tmp_path / system
    shutil.copytree(DATA / system, dest)
    return dest


def _edit(path: Path, pattern: str, replacement: str) -> int:
    """Replace the first match of ``pattern`` (a regex over one line) and return its line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            lines[i] = re.sub(pattern, replacement, line, count=1)
            path.write_text("".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{pattern!r} not found in {path}")


def _refused(system: str, data_dir: Path) -> str:
    with pytest.raises(DataError) as exc:
        get_system(system).verify(data_dir, None)
    problems = exc.value.problems
    assert len(problems) == 1, [str(p) for p in problems]
    return str(problems[0])


def _assert_line(message: str, path: Path, line: int, *words: str) -> None:
    assert message.startswith(f"{path}:{line}: "), message
    assert " is not valid; expected " in message, message
    for w in words:
        assert w in message, (w, message)
    assert "\n" not in message


# ---------------------------------------------------------------------------------------------
# Genpei


@pytest.mark.parametrize("value", ["-3", "1000000000000000000000000000000"])
def test_figures_out_of_range(tmp_path, value):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"figures: 4", f"figures: {value}")
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "figures", "greater than or equal to 1" if value.startswith("-") else "less than or equal to 9")


def test_blank_unit_name(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"^    name: .*$", '    name: "   "')
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "units[0].name", "something other than spaces")


def test_emoji_in_name_ja(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"name_ja: 侍", "name_ja: 侍😀")
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "units[0].name_ja", "U+1F600", "empty boxes")


def test_name_too_long_for_its_card(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"^    name: .*$", "    name: " + "Samurai " * 1000)
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "units[0].name", "(7999 characters)", "unit card", "the height")


def test_both_sides_one_army_colour(tmp_path):
    d = _copy(tmp_path, "genpei")
    sc = d / "scenarios" / "gp20_nishinomiya.yaml"
    line = _edit(sc, r"army: yellow", "army: red")
    _assert_line(_refused("genpei", d), sc, line, "sides[1].army", "'red'", "look alike")


def test_negative_dice_cap(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "terrain.yaml", r"close_from: \{foot: 2,", "close_from: {foot: -2,")
    _assert_line(_refused("genpei", d), d / "terrain.yaml", line, "close_from.foot", "-2", "greater than or equal to 0")


def test_scenario_name_too_long_for_the_sheet(tmp_path):
    d = _copy(tmp_path, "genpei")
    sc = d / "scenarios" / "gp20_nishinomiya.yaml"
    line = _edit(sc, r"^name: Nishinomiya$", "name: " + "Nishinomiya " * 45)
    _assert_line(_refused("genpei", d), sc, line, "name", "scenario sheet", "the width")


def test_summary_too_long_for_the_sheet(tmp_path):
    d = _copy(tmp_path, "genpei")
    sc = d / "scenarios" / "gp20_nishinomiya.yaml"
    text = sc.read_text(encoding="utf-8")
    start = text.index("summary: >-")
    end = text.index("\n", text.index("\n", start) + 1)
    long = "summary: " + "The Taira fleet waits in the bay. " * 1000
    sc.write_text(text[:start] + long + text[end:], encoding="utf-8")
    line = text[:start].count("\n") + 1
    msg = _refused("genpei", d)
    _assert_line(msg, sc, line, "summary", "scenario sheet", "the height")


def test_impossible_date(tmp_path):
    d = _copy(tmp_path, "genpei")
    sc = d / "scenarios" / "gp20_nishinomiya.yaml"
    line = _edit(sc, r"^date: Feb 1184$", 'date: "1600-13-45"')
    _assert_line(_refused("genpei", d), sc, line, "date", "'1600-13-45'", "month 13 does not exist")


# ---------------------------------------------------------------------------------------------
# Ronin and Sekigahara


@pytest.mark.parametrize("value, words", [("-4", "greater than or equal to 0"), ("1000000000000", "less than or equal to 1000")])
def test_ronin_points_out_of_range(tmp_path, value, words):
    d = _copy(tmp_path, "ronin")
    path = d / "factions" / "bushi.yaml"
    line = _edit(path, r"points: 18", f"points: {value}")
    _assert_line(_refused("ronin", d), path, line, "points", words)


def test_ronin_percentage_over_100(tmp_path):
    d = _copy(tmp_path, "ronin")
    path = d / "factions" / "bandits.yaml"
    line = _edit(path, r"percent: 10\b", "percent: 3000")
    _assert_line(_refused("ronin", d), path, line, "percent", "3000", "less than or equal to 100")


def test_sekigahara_negative_men(tmp_path):
    d = _copy(tmp_path, "sekigahara")
    path = d / "scenarios" / "sekigahara_1600.yaml"
    line = _edit(path, r"men: 1500,", "men: -1500,")
    _assert_line(_refused("sekigahara", d), path, line, "men", "-1500", "greater than or equal to 1")


def test_sekigahara_impossible_date(tmp_path):
    d = _copy(tmp_path, "sekigahara")
    path = d / "scenarios" / "sekigahara_1600.yaml"
    line = _edit(path, r'date: "1600-10-21"', 'date: "1600-13-45"')
    _assert_line(_refused("sekigahara", d), path, line, "date", "month 13")


# ---------------------------------------------------------------------------------------------
# YAML


def test_leading_zero_number_is_refused_as_ambiguous():
    with pytest.raises(DataError) as exc:
        YamlDocument.parse("units:\n  - hex: [010, 9]\n", Path("s.yaml"))
    (p,) = exc.value.problems
    assert str(p) == ("s.yaml:2: units[0].hex[0]: '010' is not valid; expected a number without leading zeros "
                      "(YAML 1.1 reads 010 as octal 8); write 10, or quote it if it is text")


def test_quoted_leading_zero_is_text():
    assert YamlDocument.parse("code: '007'\n", Path("s.yaml")).data == {"code": "007"}


def test_merge_key_override_is_accepted_with_the_override_line():
    text = "base: &b {hex: [1, 2], unit: ashigaru}\nunits:\n  - <<: *b\n    hex: [3, 4]\n"
    doc = YamlDocument.parse(text, Path("s.yaml"))
    assert doc.data["units"] == [{"hex": [3, 4], "unit": "ashigaru"}]
    assert doc.line_of(("units", 0, "hex")) == 4
    assert doc.line_of(("units", 0, "unit")) == 1  # from the base


def test_a_key_written_twice_is_still_refused():
    with pytest.raises(DataError, match=r"s.yaml:3: u: 'hex' is not valid; expected each key once"):
        YamlDocument.parse("u:\n  hex: [1, 2]\n  hex: [3, 4]\n", Path("s.yaml"))


# ---------------------------------------------------------------------------------------------
# texts of the measured systems that do not fit where the shared templates draw them


def test_ohw_unit_name_too_long_for_its_counter(tmp_path):
    d = _copy(tmp_path, "ohw")
    line = _edit(d / "units.yaml", r'name: "Foot Samurai"', 'name: "' + "Foot Samurai of the Home Provinces " * 6 + '"')
    _assert_line(_refused("ohw", d), d / "units.yaml", line, "units[0].name", "unit counter", "measured/unit_counter.yaml.j2")


def test_ohw_scenario_description_too_long_for_the_sheet(tmp_path):
    d = _copy(tmp_path, "ohw")
    sc = d / "scenarios" / "ohw11_surprise_attack.yaml"
    line = _edit(sc, r"^description: .*$", 'description: "' + "A Blue army falls on the Red outpost at the crossroads. " * 400 + '"')
    _assert_line(_refused("ohw", d), sc, line, "description", "scenario sheet", "the height")


def test_sekigahara_contingent_name_too_long_for_its_counter(tmp_path):
    d = _copy(tmp_path, "sekigahara")
    sc = d / "scenarios" / "sekigahara_1600.yaml"
    line = _edit(sc, r'name: "Ishida Mitsunari", stands', 'name: "' + "Ishida Mitsunari of Sawayama " * 8 + '", stands')
    _assert_line(_refused("sekigahara", d), sc, line, "units[", "].name", "unit counter")


def test_sekigahara_emoji_in_a_contingent_name(tmp_path):
    d = _copy(tmp_path, "sekigahara")
    sc = d / "scenarios" / "sekigahara_1600.yaml"
    line = _edit(sc, r'name: "Ishida Mitsunari", stands', 'name: "Ishida 😀", stands')
    _assert_line(_refused("sekigahara", d), sc, line, "].name", "U+1F600", "empty boxes")


def test_ronin_model_name_too_long_for_its_counter(tmp_path):
    d = _copy(tmp_path, "ronin")
    path = d / "factions" / "bushi.yaml"
    line = _edit(path, r'name: "Samurai"$', 'name: "Samurai-retainer-of-the-Shogunate-household"')
    _assert_line(_refused("ronin", d), path, line, "models[", "].name", "model counter", "ronin/model_counter.yaml.j2")


# ---------------------------------------------------------------------------------------------
# Messages printed literally (issue 29, item 3)


def _line_100_problem(tmp_path: Path) -> tuple[Path, Path]:
    """A Genpei data copy whose only problem (a negative figure count) is on line 100 of
    ``units.yaml`` (comment lines put in front of it)."""
    d = _copy(tmp_path, "genpei")
    units = d / "units.yaml"
    lines = units.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if re.search(r"figures: 4", line))
    lines[at] = lines[at].replace("figures: 4", "figures: -3")
    lines[at:at] = ["# padding\n"] * (99 - at)
    units.write_text("".join(lines), encoding="utf-8")
    assert "figures: -3" in units.read_text(encoding="utf-8").splitlines()[99]
    return tmp_path, units


def _run_verify(data: Path, *, tty: bool) -> str:
    """``gunbai verify --data DATA`` in a pipe, or on a pseudo-terminal; its combined output."""
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "pipeline", "verify", "--data", str(data), "--system", "genpei", "--out", str(data.with_name(data.name + "-out"))]
    env = {**os.environ, "COLUMNS": "400"}
    if not tty:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        assert p.returncode != 0
        return p.stdout + p.stderr
    import pty

    out = bytearray()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the terminal
        os.chdir(ROOT)
        os.execve(sys.executable, cmd, env)
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) != 0
    return out.decode("utf-8", "replace")


@pytest.mark.parametrize("tty", [False, True], ids=["pipe", "terminal"])
def test_a_line_number_is_printed_literally(tmp_path, tty):
    data, units = _line_100_problem(tmp_path)
    text = _run_verify(data, tty=tty)
    assert f"{units}:100: " in text.replace("\r", ""), text
    assert "\U0001f4af" not in text  # 💯, rich's :100: shortcode


# ---------------------------------------------------------------------------------------------
# Strict numbers and booleans; repeated ids across files (issue 29, item 4; every kind of file
# and every catalogue: tests/data/test_strict_values.py)


@pytest.mark.parametrize("value, shown", [("true", "True"), ('"4"', "'4'"), ("4.0", "4.0")])
def test_figures_must_be_a_whole_number(tmp_path, value, shown):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"figures: 4", f"figures: {value}")
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "figures", f"{shown} is not valid", "a valid integer")


def test_a_yes_no_must_be_true_or_false(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "units.yaml", r"mounted: true", "mounted: 1")
    _assert_line(_refused("genpei", d), d / "units.yaml", line, "mounted", "1 is not valid", "a valid boolean")


def _assert_repeated(message: str, path: Path, line: int, value: str, kind: str, first: Path, first_line: int) -> None:
    assert f"{value!r} is not valid; expected a {kind} no other file uses (also at {first}:{first_line})" in message, message
    assert message.startswith(f"{path}:{line}: ") and "\n" not in message


def _twin(path: Path, name: str, pattern: str, replacement: str) -> tuple[Path, int]:
    """A copy of ``path`` named ``name`` beside it, with one line edited; its path and that line."""
    twin = path.with_name(name)
    shutil.copy(path, twin)
    return twin, _edit(twin, pattern, replacement)


def test_a_second_roster_with_the_same_id(tmp_path):
    d = _copy(tmp_path, "ronin")
    first = d / "rosters" / "bushi_guard_150.yaml"
    twin, _ = _twin(first, "zz_other.yaml", r'^name: .*$', 'name: "Another Buntai"')
    line = next(i for i, ln in enumerate(twin.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("id:"))
    _assert_repeated(_refused("ronin", d), twin, line, "bushi_guard_150", "roster id", first, line)


def test_a_genpei_scenario_code_used_twice(tmp_path):
    d = _copy(tmp_path, "genpei")
    first = d / "scenarios" / "gp20_nishinomiya.yaml"
    code_line = next(i for i, ln in enumerate(first.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("code:"))
    twin, _ = _twin(first, "gp20b.yaml", r"^id: .*$", "id: gp20b")
    _assert_repeated(_refused("genpei", d), twin, code_line, "GP20", "scenario code", first, code_line)


def test_an_ohw_scenario_code_used_twice(tmp_path):
    d = _copy(tmp_path, "ohw")
    sc = d / "scenarios"
    first = sc / "ohw04_take_the_high_ground.yaml"
    other = sc / "ohw11_surprise_attack.yaml"
    code = YamlDocument.load(first).data["code"]
    line = _edit(other, r"^code: .*$", f"code: {code!r}")
    first_line = next(i for i, ln in enumerate(first.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("code:"))
    _assert_repeated(_refused("ohw", d), other, line, code, "scenario code", first, first_line)


@pytest.mark.parametrize("folder, name, kind", [("scenarios", "zz_assassination.yaml", "scenario id"), ("factions", "zz_bushi.yaml", "faction id"),
                                                ("games", "zz_assassination.yaml", "game id")])
def test_a_second_ronin_file_with_the_same_id(tmp_path, folder, name, kind):
    d = _copy(tmp_path, "ronin")
    first = sorted((d / folder).glob("*.yaml"))[0]
    twin = first.with_name(name)
    shutil.copy(first, twin)
    if folder == "games":  # a game's name is its setup's name: only the id repeated here
        _edit(twin, r"^name: .*$", 'name: "Another game"')
    line = next(i for i, ln in enumerate(twin.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("id:"))
    _assert_repeated(_refused("ronin", d), twin, line, YamlDocument.load(first).data["id"], kind, first, line)


def test_two_ronin_games_of_one_name_would_be_two_setups_of_one_name(tmp_path):
    d = _copy(tmp_path, "ronin")
    first = d / "games" / "assassination.yaml"
    twin, _ = _twin(first, "zz_again.yaml", r"^id: .*$", "id: zz_again")
    line = next(i for i, ln in enumerate(twin.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("name:"))
    name = YamlDocument.load(first).data["name"]
    _assert_repeated(_refused("ronin", d), twin, line, name, "game name (the predefined setup's name)", first, line)


# ---------------------------------------------------------------------------------------------
# Output folders: never the data, never a file, never someone else's folder without --force
# (issue 29, items 2 and 7)


def _build_refused(tmp_path: Path, out: Path, data: Path, match: str, **kw) -> None:
    from pipeline.build import build_all, render_only
    from pipeline.errors import GunbaiError

    before = sorted((p.relative_to(tmp_path), p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    with pytest.raises(GunbaiError) as exc:
        build_all(data, out, progress=False, system="ohw", **kw)
    assert re.fullmatch(match, str(exc.value)), str(exc.value)
    with pytest.raises(GunbaiError, match=re.escape(str(exc.value))):
        list(render_only(data, out, what="cards", system="ohw", **kw))
    after = sorted((p.relative_to(tmp_path), p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    assert after == before


@pytest.mark.parametrize("where", ["the data folder", "inside it", "a system's data folder", "gunbai's templates"])
def test_out_among_the_inputs_is_refused_even_with_force(tmp_path, where):
    data = tmp_path / "source_data"
    _copy(data, "ohw")
    out = {"the data folder": data, "inside it": data / "ohw" / "build", "a system's data folder": data / "ohw" / "..",
           "gunbai's templates": ROOT / "templates"}[where]
    what = "gunbai's templates" if "templates" in where else "the data folder \\(--data\\)"
    _build_refused(tmp_path, out, data, rf"--out {re.escape(str(out))}: the ohw outputs would go to .*, which (is|is inside|holds) {what} .*; "
                   r"choose an --out outside the data \(the default is build\)", force=True)


def test_out_a_file_is_refused(tmp_path):
    data = tmp_path / "source_data"
    _copy(data, "ohw")
    (tmp_path / "out").write_text("not a folder", encoding="utf-8")
    _build_refused(tmp_path, tmp_path / "out", data, rf"--out {re.escape(str(tmp_path / 'out'))}: is a file; expected the folder the outputs go to")
    (tmp_path / "out").unlink()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "ohw").write_text("a file where the system's folder goes", encoding="utf-8")
    _build_refused(tmp_path, tmp_path / "out", data, r".*/out/ohw: is a file; expected the folder of the ohw outputs \(move it, or choose another --out\)")


def test_a_folder_of_other_files_is_not_written_into_without_force(tmp_path):
    from pipeline.build import check_output_folders

    data = tmp_path / "source_data"
    _copy(data, "ohw")
    mine = tmp_path / "docs" / "ohw"
    mine.mkdir(parents=True)
    for name in ("notes.txt", "images", "photo.png"):
        (mine / name).write_text("the user's own", encoding="utf-8")
    _build_refused(tmp_path, tmp_path / "docs", data, rf"{re.escape(str(mine))}: holds files gunbai did not write \(notes.txt, photo.png\) and no gunbai build; "
                   r"the ohw outputs would be written among them: choose another --out, or pass --force to write there")
    check_output_folders(data, tmp_path / "docs", ["ohw"], force=True)
    # gunbai's own folders: a built one (its cache, its stamp), or one holding only what gunbai writes
    for name in ("notes.txt", "photo.png"):
        (mine / name).unlink()
    (mine / "ohw.vmod").write_bytes(b"PK")
    check_output_folders(data, tmp_path / "docs", ["ohw"])
    (mine / "notes.txt").write_text("x", encoding="utf-8")
    (mine / ".cache").mkdir()
    check_output_folders(data, tmp_path / "docs", ["ohw"])


# ---------------------------------------------------------------------------------------------
# Control characters in any text of any data file (issue 29, item 5; lxml refused them when the
# module was written: a traceback)


@pytest.mark.parametrize("system, file, pattern, replacement, code", [
    ("genpei", "units.yaml", r"^    name: (.*)$", r'    name: "Sam\\x01urai"', "U+0001"),
    ("ronin", "factions/bushi.yaml", r'name: "Samurai"$', r'name: "\\e[31mSamurai"', "U+001B"),  # a terminal escape
    ("ohw", "units.yaml", r'name: "Foot Samurai"', r'name: "Foot\\x85Samurai"', "U+0085"),  # C1 (NEL)
    ("sekigahara", "scenarios/sekigahara_1600.yaml", r'name: "Ishida Mitsunari", stands', r'name: "Ishida\\x7f", stands', "U+007F"),
    ("genpei", "scenarios/gp20_nishinomiya.yaml", r"^name: Nishinomiya$", r'name: "Nishinomiya\\uFFFE"', "U+FFFE"),
])
def test_a_control_character_in_a_text(tmp_path, system, file, pattern, replacement, code):
    d = _copy(tmp_path, system)
    line = _edit(d / file, pattern, replacement)
    message = _refused(system, d)
    _assert_line(message, d / file, line, f"expected a text without control characters ({code} at character")
    assert not any(0 < ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in message)  # shown escaped: nothing reaches the terminal


def test_a_module_is_never_written_with_a_control_character(tmp_path):
    """The issue's case, built: one line and exit 1, no traceback, nothing written."""
    import subprocess
    import sys

    data = tmp_path / "source_data"
    d = _copy(data, "ohw")
    line = _edit(d / "units.yaml", r'name: "Foot Samurai"', r'name: "Foot\\x01Samurai"')
    run = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data), "--out", str(tmp_path / "out"), "-q"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 1 and run.stderr.startswith(f"{d / 'units.yaml'}:{line}: units[0].name: 'Foot\\x01Samurai' is not valid"), run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------------
# Every printed text against the font, format characters included (issue 29, item 6): any
# string of any data file (a mon's text, a roster's name, a rule's summary), not a list of the
# fields some template draws


@pytest.mark.parametrize("system, file, pattern, replacement, shown", [
    ("genpei", "units.yaml", r"^    name: (.*)$", r'    name: "Samurai\\u202eyrtnafnI"', "U+202E RIGHT-TO-LEFT OVERRIDE would not print as written"),
    ("ohw", "units.yaml", r'name: "Foot Samurai"', r'name: "Foot\\u200bSamurai"', "U+200B ZERO WIDTH SPACE would not print as written"),
    ("genpei", "scenarios/gp20_nishinomiya.yaml", r"^name: Nishinomiya$", r'name: "Nishinomiya\\u2066"', "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("sekigahara", "scenarios/sekigahara_1600.yaml", r'text: "大一大万大吉"', r'text: "大一\\U00012000"', "it lacks '\U00012000' (U+12000), which would print as empty boxes"),
    ("ronin", "rosters/bushi_sample_100.yaml", r'^name: .*$', 'name: "Sample Bushi Buntai 🏯"', "it lacks '🏯' (U+1F3EF), which would print as empty boxes"),
    ("ohw", "scenarios/ohw11_surprise_attack.yaml", r"^description: (.*)$", r'description: "A private \\ue000 mark"', "U+E000 would not print as written"),
    ("ronin", "factions/bushi.yaml", r'name: "Samurai"$', r'name: "Samu\\xadrai"', "U+00AD SOFT HYPHEN"),
])
def test_a_character_that_would_not_print_in_any_text(tmp_path, system, file, pattern, replacement, shown):
    d = _copy(tmp_path, system)
    line = _edit(d / file, pattern, replacement)
    message = _refused(system, d)
    _assert_line(message, d / file, line, "expected characters the Noto Sans CJK JP font has; ", shown)
    assert not any(c in message for c in "\u202e\u200b\u2066\ue000\xad")  # the value is shown escaped


# ---------------------------------------------------------------------------------------------
# A model's check of one of its fields names that field's line and value, not the whole mapping
# (issue 29, item 7: a board's section_lines printed about 900 characters, on the board's line)


def test_section_lines_out_of_order(tmp_path):
    d = _copy(tmp_path, "genpei")
    line = _edit(d / "board.yaml", r"^section_lines: \[4.0, 8.0\]", "section_lines: [8.0, 4.0]")
    message = _refused("genpei", d)
    assert message == f"{d / 'board.yaml'}:{line}: section_lines: [8.0, 4.0] is not valid; expected two increasing numbers inside 0..12 (the section lines, in columns)"


def test_a_zone_missing_its_size_names_its_kind(tmp_path):
    d = _copy(tmp_path, "ronin")
    path = d / "terrain.yaml"
    line = _edit(path, r"kind: circle, r: [0-9.]+", "kind: circle")
    message = _refused("ronin", d)
    assert message.startswith(f"{path}:{line}: terrain[") and "].kind: 'circle' is not valid; expected a circle footprint with r above 0" in message, message


def test_a_long_mapping_is_shown_by_its_keys():
    from pipeline.data.yamlfile import shown_value

    board = {"id": "ccsb", "name": "x" * 200, "columns": 12, "rows": 11, "short_rows": "even", "section_lines": [8, 4], "sources": []}
    assert shown_value(board) == "the mapping of id, name, columns, rows, short_rows, section_lines and 1 more keys"


# ---------------------------------------------------------------------------------------------
# Found trying again (issue 29, the new bad inputs): nothing in a data folder passed over in
# silence, a file of another kind named as such, no write through a link out of the outputs


@pytest.mark.parametrize("system, make, shown, expected", [
    ("ohw", lambda d: (d / "scenarios" / "ohw04_take_the_high_ground.yaml").rename(d / "scenarios" / "ohw04.yml"),
     "scenarios/ohw04.yml: file 'ohw04.yml'", "a name ending .yaml: ohw04.yaml (only those are read)"),
    ("sekigahara", lambda d: (d / "scenarios").rename(d / "scenario"), "scenario: folder 'scenario'",
     "one of the folders gunbai reads here (scenarios, schema): its files would not be read"),
    ("ronin", lambda d: shutil.copy(d / "weapons.yaml", d / "weapon.yaml"), "weapon.yaml: file 'weapon.yaml'", "one of the files gunbai reads here (attributes.yaml, ladder.yaml, rules.yaml,"),
    ("genpei", lambda d: (d / "scenarios" / "gp02.yaml").rename(d / "scenarios" / "GP02.YAML"), "scenarios/GP02.YAML: file 'GP02.YAML'", "a name ending .yaml: GP02.yaml"),
])
def test_a_data_file_or_folder_that_would_not_be_read(tmp_path, system, make, shown, expected):
    d = _copy(tmp_path, system)
    make(d)
    (d / "README.md").write_text("notes are fine", encoding="utf-8")
    (d / "_drafts").mkdir()  # as are folders named _… or .…
    message = _refused(system, d)
    assert message.startswith(f"{d}/{shown} is not valid; expected {expected}"), message


def test_a_file_of_another_kind_is_named_as_such(tmp_path):
    from pipeline.systems.ronin.load import load_roster

    with pytest.raises(DataError) as exc:
        load_roster(DATA / "ronin" / "weapons.yaml")
    (p,) = exc.value.problems
    assert str(p).endswith("a file with the keys weapons, range_bands is not valid; expected a Roster file "
                           "(with the keys id, name, faction, points_limit, models): is it the right file?")


def test_no_output_is_written_through_a_link_into_the_data(tmp_path):
    from pipeline.build import build_all
    from pipeline.errors import GunbaiError

    data = tmp_path / "source_data"
    d = _copy(data, "sekigahara")
    (tmp_path / "out" / "sekigahara").mkdir(parents=True)
    (tmp_path / "out" / "sekigahara" / "images").symlink_to(d)  # images/ leads into the data folder
    before = sorted((p.relative_to(d), p.read_bytes()) for p in d.rglob("*") if p.is_file())
    with pytest.raises(GunbaiError) as exc:
        build_all(data, tmp_path / "out", progress=False)
    assert str(exc.value) == (f"{tmp_path / 'out' / 'sekigahara' / 'images'}: leads outside {tmp_path / 'out'} (to {d}, through a link); "
                              "gunbai writes only inside its output folder: remove the link, or choose another --out; nothing written")
    assert sorted((p.relative_to(d), p.read_bytes()) for p in d.rglob("*") if p.is_file()) == before
    assert not list((tmp_path / "out").glob(".staging-*"))


def test_a_zip_given_where_a_yaml_file_goes(tmp_path):
    path = tmp_path / "pieces.yaml"
    path.write_bytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xd7\x91")
    with pytest.raises(DataError) as exc:
        YamlDocument.load(path)
    assert str(exc.value) == f"{path}: a ZIP archive (a VASSAL module, extension or saved game) is not valid; expected a YAML file (UTF-8 text): is it the right file?"


def test_units_yaml_given_as_a_scenario_is_one_line(tmp_path):
    with pytest.raises(DataError) as exc:
        get_system("ohw").verify(DATA / "ohw", [DATA / "ohw" / "units.yaml"])
    (p,) = exc.value.problems
    assert str(p).endswith("a file with the keys units is not valid; expected a Scenario file (with the keys id, code, name, pattern, description, turns): is it the right file?")


def test_schema_headers_are_added_all_or_none(tmp_path, monkeypatch):
    """A data file that cannot be written leaves every data file as it was (the headers were
    added one file after the other), and the error names that file."""
    from pipeline import output
    from pipeline.errors import GunbaiError
    from pipeline.schema import add_headers

    d = _copy(tmp_path, "ohw")
    for name in ("units.yaml", "terrain.yaml"):
        path = d / name
        path.write_text(path.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")  # no header
    before = {p: p.read_bytes() for p in d.rglob("*.yaml")}
    real = output.os.replace

    def refuse_units(src, dst, *a, **kw):
        if str(dst) == str(d / "units.yaml"):
            raise PermissionError(1, "Operation not permitted", str(src))
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(output.os, "replace", refuse_units)
    with pytest.raises(GunbaiError, match=rf"{re.escape(str(d / 'units.yaml'))}: cannot be written \(Operation not permitted\)"):
        add_headers(d)
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in d.rglob("*.yaml")} == before
