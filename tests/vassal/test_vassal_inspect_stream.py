"""``gunbai inspect`` streams (issue 28): the description of a file read entry by entry from
its path, line by line, is the description of its bytes; the command prints exactly those
lines."""

from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.vassal.inspect import inspect_bytes, iter_inspect_path
from tests.vassal.corpus import fixture_archive


def test_module_path_streams_what_its_bytes_give(tmp_path):
    data = fixture_archive("almoravid")  # 6 setups: 3 515 pieces (and their stacks)
    path = tmp_path / "almoravid.vmod"
    path.write_bytes(data)
    lines = inspect_bytes(data, "almoravid.vmod")
    stream = iter_inspect_path(path)
    assert next(stream) == lines[0]  # the first line comes before the rest is read
    assert [lines[0], *stream] == lines
    assert sum(line.startswith("  setup file") for line in lines) == 0  # every setup read
    assert sum(" on " in line and not line.startswith("At-start stack") for line in lines) == 3515  # its setups' placed pieces
    result = CliRunner().invoke(app, ["inspect", str(path)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == lines


def test_bare_buildfile_path_is_read_whole(tmp_path):
    xml = b'\n  <VASSAL.launch.BasicModule name="M" version="1"/>'
    path = tmp_path / "buildFile.xml"
    path.write_bytes(xml)
    assert list(iter_inspect_path(path)) == inspect_bytes(xml, "buildFile.xml")
