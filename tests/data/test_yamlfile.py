"""A typo in a data file gets one line: file, line, the bad value, what was expected."""

from pathlib import Path

import pytest
from pydantic import Field

from pipeline.data.common import Strict
from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError


class Item(Strict):
    id: str
    figures: int | None = Field(None, ge=1)
    standard: str = "circle"


class Doc(Strict):
    items: list[Item]


TEXT = """\
items:
  - id: a
    figures: 4
  - id: b
    figures: four
  - id: c
    colour: red
"""


def problems(text: str) -> list:
    with pytest.raises(DataError) as exc:
        YamlDocument.parse(text, Path("units.yaml")).validate(Doc)
    return exc.value.problems


def test_wrong_value_names_file_line_value_and_expectation():
    p = problems(TEXT)
    bad = [x for x in p if x.where == "items[1].figures"]
    assert len(bad) == 1, p  # the int|None union gives one line, not two
    assert bad[0].line == 5
    assert bad[0].value == "'four'"
    assert "integer" in bad[0].expected
    assert str(bad[0]).startswith("units.yaml:5: items[1].figures: 'four' is not valid; expected ")


def test_unknown_key_is_reported_at_its_line():
    p = problems(TEXT)
    extra = [x for x in p if x.where == "items[2].colour"]
    assert extra and extra[0].line == 7


def test_missing_key_points_at_the_mapping():
    p = problems("items:\n  - figures: 2\n")
    assert [(x.where, x.line) for x in p] == [("items[0].id", 2)]


def test_duplicate_key_is_an_error():
    with pytest.raises(DataError) as exc:
        YamlDocument.parse("items:\n  - id: a\n    id: b\n", Path("x.yaml"))
    assert exc.value.problems[0].line == 3
    assert "'id'" in exc.value.problems[0].value


def test_yaml_syntax_error_has_a_line():
    with pytest.raises(DataError) as exc:
        YamlDocument.parse("items:\n  - id: [a\n", Path("x.yaml"))
    assert exc.value.problems[0].line is not None


def test_range_violation():
    p = problems("items:\n  - id: a\n    figures: 0\n")
    assert p[0].line == 3 and "greater than or equal to 1" in p[0].expected


def test_too_large_file_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (4 * 1024 * 1024 + 1))
    with pytest.raises(DataError) as exc:
        YamlDocument.load(big)
    assert "bytes" in str(exc.value)


def test_alias_bomb_is_refused_in_linear_time():
    # a "billion laughs": 9 levels of 9 aliases would expand to 9**9 items
    lines = ['x0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    with pytest.raises(DataError) as exc:
        YamlDocument.parse("\n".join(lines) + "\n", Path("bomb.yaml"))
    assert "aliases" in exc.value.problems[0].value


def test_a_few_aliases_are_fine():
    doc = YamlDocument.parse("a: &x [1, 2]\nb: *x\n", Path("ok.yaml"))
    assert doc.data == {"a": [1, 2], "b": [1, 2]}


def test_empty_file_and_non_utf8_byte_are_named(tmp_path):
    empty = tmp_path / "units.yaml"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        YamlDocument.load(empty).validate(Doc)
    assert "an empty document" in str(exc.value)
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"items:\n  - id: a\n  - id: \xff\n")
    with pytest.raises(DataError) as exc:
        YamlDocument.load(bad)
    assert exc.value.problems[0].line == 3 and "0xff" in exc.value.problems[0].value


def test_a_folder_is_not_a_data_file(tmp_path):
    with pytest.raises(DataError) as exc:
        YamlDocument.load(tmp_path)
    assert "a folder" in str(exc.value)


def test_numbers_must_be_finite():
    class P(Strict):
        x: float

    with pytest.raises(DataError) as exc:
        YamlDocument.parse("x: .nan\n", Path("p.yaml")).validate(P)
    assert exc.value.problems[0].line == 1
