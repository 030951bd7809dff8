"""The JSON Schema shipped for editors, for every game system, is the schema the loader enforces:
up to date with the models, named on the first line of every data file, and every shipped data
file validates against it (what an editor would check)."""

from pathlib import Path

import jsonschema
import pytest
import yaml

from pipeline.schema import (
    SYSTEMS,
    add_headers,
    data_files,
    header_problems,
    render_schema,
    schema_of,
    schemas,
)

DATA = Path(__file__).resolve().parents[2] / "source_data"


@pytest.mark.parametrize("system", SYSTEMS)
def test_shipped_json_schema_is_up_to_date(system):
    shipped_dir = DATA / system / "schema"
    for name, schema in schemas(system).items():
        shipped = shipped_dir / name
        assert shipped.exists(), f"{shipped} missing: run `make schema`"
        assert shipped.read_bytes() == render_schema(schema), f"{shipped} is stale: run `make schema`"
    assert sorted(p.name for p in shipped_dir.glob("*.json")) == sorted(schemas(system)), "a schema no kind has: remove it"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_data_file_names_its_schema(system):
    assert header_problems(DATA / system, system) == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_data_file_validates_against_its_json_schema(system):
    root = DATA / system
    found = {}
    for path in data_files(root):
        kind = schema_of(root, path)
        schema = schemas(system)[f"{kind}.schema.json"]
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
        found[kind] = found.get(kind, 0) + 1
    assert set(found) == {n.removesuffix(".schema.json") for n in schemas(system)}, "every kind has a data file to check"


def test_schema_rejects_what_the_loader_rejects():
    unit = schemas("genpei")["units.schema.json"]
    standard = unit["$defs"]["UnitType"]["properties"]["standard"]
    assert set(standard["enum"]) == {"circle", "triangle", "square"}
    assert unit["$defs"]["UnitType"]["additionalProperties"] is False
    ohw = schemas("ohw")["system.schema.json"]
    assert ohw["$defs"]["GeneralRules"]["properties"]["reroll"]["enum"] == ["own_side", "own_unit"]
    with pytest.raises(jsonschema.ValidationError):
        game = yaml.safe_load((DATA / "ronin" / "games" / "defence.yaml").read_text(encoding="utf-8"))
        game["terrain"][0]["cover"] = "thick"
        jsonschema.validate(game, schemas("ronin")["game.schema.json"], cls=jsonschema.Draft202012Validator)


def test_a_missing_or_wrong_header_is_found_and_fixed(tmp_path):
    root = tmp_path / "ohw"
    (root / "scenarios").mkdir(parents=True)
    (root / "units.yaml").write_text("units: []\n", encoding="utf-8")
    (root / "scenarios" / "x.yaml").write_text("# yaml-language-server: $schema=schema/scenario.schema.json\nid: x\n", encoding="utf-8")
    problems = header_problems(root, "ohw")
    assert len(problems) == 2 and "units.yaml:1" in problems[0] and "../schema/scenario.schema.json" in problems[1]
    assert sorted(p.name for p in add_headers(root)) == ["units.yaml", "x.yaml"]
    assert header_problems(root, "ohw") == []
    assert (root / "scenarios" / "x.yaml").read_text(encoding="utf-8") == "# yaml-language-server: $schema=../schema/scenario.schema.json\nid: x\n"
