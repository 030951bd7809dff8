"""Every bad input of issue 14 is refused with one line naming the file, the line, the value and
what was expected (and so nothing is built).

Each test copies one system's data folder, makes one edit to one line, and checks the system's
``verify`` (which loads the data exactly as ``gunbai build`` does) raises a :class:`DataError`
whose single problem points at that file and line.
"""

from __future__ import annotations

import importlib
import re
import shutil
from pathlib import Path

import pytest

from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError

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
    mod = importlib.import_module(f"pipeline.systems.{system}.build")
    with pytest.raises(DataError) as exc:
        mod.verify(data_dir, None)
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

    cmd = [sys.executable, "-m", "pipeline", "verify", "--data", str(data), "--system", "genpei"]
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
