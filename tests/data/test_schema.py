"""The JSON Schema shipped for editors is the schema the loader enforces."""

from pathlib import Path

from pipeline.schema import render_schema, schemas

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "source_data" / "genpei" / "schema"


def test_shipped_json_schema_is_up_to_date():
    for name, schema in schemas().items():
        shipped = SCHEMA_DIR / name
        assert shipped.exists(), f"{shipped} missing: run `make schema`"
        assert shipped.read_bytes() == render_schema(schema), f"{shipped} is stale: run `make schema`"


def test_schema_rejects_what_the_loader_rejects():
    unit = schemas()["units.schema.json"]
    standard = unit["$defs"]["UnitType"]["properties"]["standard"]
    assert set(standard["enum"]) == {"circle", "triangle", "square"}
    assert unit["$defs"]["UnitType"]["additionalProperties"] is False
