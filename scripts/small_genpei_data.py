"""Copy the Genpei data with its scenarios cut down to a corner of the battlefield, for a base
module whose board is smaller than the Samurai Battles board (the Hex'n'Counters template of
``tests/fixtures/vassal/bases/hexncounters``: 8 columns of hexes).

    .venv/bin/python scripts/small_genpei_data.py OUT --scenario gp19_nutas_stronghold --columns 6 --rows 8

Writes ``OUT/genpei/``: ``source_data/genpei`` as it is, but with only the named scenarios, each
keeping the terrain, units, leaders and markers that stand within the first ``--columns`` hexes
of the first ``--rows`` rows (a unit's leader goes with it), its title marked as cut. The cut
scenarios are for checking where pieces land on such a base, not for play.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def inside(hex_: list[int], columns: int, rows: int) -> bool:
    return 1 <= hex_[0] <= columns and 1 <= hex_[1] <= rows


def cut(scenario: dict, columns: int, rows: int) -> dict:
    """The scenario with only what stands in the corner (``rows`` x ``columns``)."""
    out = dict(scenario)
    terrain = []
    for tp in scenario.get("terrain") or []:
        hexes = [h for h in tp.get("hexes", []) if inside(h, columns, rows)]
        for span in tp.get("rows", []):
            hexes += [[c, span["row"]] for c in range(span["first"], span["last"] + 1) if inside([c, span["row"]], columns, rows)]
        if hexes:
            kept = {k: v for k, v in tp.items() if k not in ("hexes", "rows")}
            terrain.append({**kept, "hexes": hexes})
    out["terrain"] = terrain
    out["units"] = [u for u in scenario.get("units") or [] if inside(u["hex"], columns, rows)]
    out["leaders"] = [ld for ld in scenario.get("leaders") or [] if inside(ld["hex"], columns, rows)]
    out["markers"] = [m for m in scenario.get("markers") or [] if inside(m["hex"], columns, rows)]
    out["name"] = f"{scenario['name']} (cut to {columns} x {rows} hexes)"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--scenario", action="append", required=True, help="a scenario id to keep (cut)")
    ap.add_argument("--columns", type=int, required=True)
    ap.add_argument("--rows", type=int, required=True)
    args = ap.parse_args()
    src = ROOT / "source_data" / "genpei"
    dst = args.out / "genpei"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("scenarios"))
    (dst / "scenarios").mkdir()
    for sid in args.scenario:
        path = next(p for p in (src / "scenarios").glob("*.yaml") if yaml.safe_load(p.read_text(encoding="utf-8"))["id"] == sid)
        scenario = cut(yaml.safe_load(path.read_text(encoding="utf-8")), args.columns, args.rows)
        text = "# yaml-language-server: $schema=../schema/scenario.schema.json\n" + yaml.safe_dump(scenario, allow_unicode=True, sort_keys=False)
        (dst / "scenarios" / path.name).write_text(text, encoding="utf-8")
    print(f"{dst}: {len(args.scenario)} scenario(s) cut to {args.columns} x {args.rows} hexes")


if __name__ == "__main__":
    main()
