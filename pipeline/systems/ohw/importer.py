"""``gunbai import`` for OHW Samurai: a VASSAL setup's units → the ``units`` of a scenario.

Each unit piece is a unit type of an army (``as: {unit: foot_samurai, army: red, general:
true}``, or, for gunbai's own module, its ``Unit``/``Side``/``General`` properties), placed in
inches and facing (:mod:`pipeline.measured.importer`). The turn marker (``Marker=turn``) is read
and left out. A setup holds neither the deployment areas, the objectives nor the victory text,
so an OHW import needs ``--base SCENARIO.yaml``: each imported unit takes the id, deployment,
General's name and defences of the base unit of the same side, type and General flag nearest
to it (a new id and the deployment area holding it when there is none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.importer import facing, inches, nearest, px_per_inch
from pipeline.setup_import import Mapped, PieceMapFile, SetupSource, merge_into_base, yaml_str
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.load import load
from pipeline.systems.ohw.model import Scenario
from pipeline.vassal.save import SetupPiece

TARGET_KEYS = frozenset({"unit", "marker", "army", "side", "general", "defences"})
SCENARIO_MODEL = Scenario
KIND_KEYS = ("unit", "marker")
MEASURED = True


def load_data(data_dir: Path) -> OhwData:
    """The OHW data without its scenarios."""
    return load(data_dir, scenario_files=[])


def own_target(piece: SetupPiece) -> dict[str, Any] | None:
    """What a piece of gunbai's own OHW module is, from its properties, or None."""
    p = piece.properties
    if p.get("Unit") and p.get("Side"):
        return {"unit": p["Unit"], "army": p["Side"], "general": p.get("General") == "true"}
    if p.get("Marker"):
        return {"marker": p["Marker"]}
    return None


def check_target(data: OhwData, target: dict[str, Any]) -> str | None:
    """A problem with a mapping target, or None."""
    if "unit" in target:
        if target["unit"] not in data.units:
            return f"unit {target['unit']!r} is not in units.yaml (known: {', '.join(data.units)})"
        if "army" not in target and "side" not in target:
            return "a unit needs its army (colour) or side"
        if target.get("army") is not None and target["army"] not in data.system.armies:
            return f"army {target['army']!r} is not in system.yaml ({', '.join(data.system.armies)})"
    return None


def scenario_text(data: OhwData, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
                  base: YamlDocument | None) -> str:
    """The scenario text: the base file with its ``units`` replaced by the setup's.

    Raises:
        ValueError: no base, a unit of an army no base side uses, no px_per_inch for a module
            gunbai did not write.
    """
    if base is None:
        raise ValueError("an OHW scenario needs deployments, objectives and victory, which a setup does not hold: import with --base SCENARIO.yaml")
    ppi = px_per_inch(source, mapping, data.system.vassal.module_name, data.system.vassal.px_per_inch)
    sides = {s["army"]: s["id"] for s in base.data.get("sides", [])}
    base_units = list(base.data.get("units") or [])
    deployments = list(base.data.get("deployments") or [])
    used: set[int] = set()
    lines = ["units:"]
    errors = []
    counts: dict[str, int] = {}
    for m in mapped:
        t = m.target
        if "marker" in t:
            continue
        side = t.get("side") or sides.get(t.get("army"))
        if side is None:
            errors.append(f"piece '{m.piece.name}' at ({m.piece.x}, {m.piece.y}) px: army {t.get('army')!r} is no side of the base ({', '.join(sides)})")
            continue
        x, y = inches(m, mapping, ppi)
        general = bool(t.get("general"))
        i = nearest(base_units, x, y, used, lambda e, side=side, t=t, general=general: e.get("side") == side and e.get("unit") == t["unit"] and bool(e.get("general")) == general)
        e = base_units[i] if i is not None else {}
        if i is not None:
            used.add(i)
        counts[side] = counts.get(side, 0) + 1
        uid = e.get("id") or f"{side}_{counts[side]}"
        dep = e.get("deployment") or next((d["id"] for d in deployments if d.get("side") == side and _inside(d.get("area", {}), x, y)), None)
        if dep is None:
            errors.append(f"piece '{m.piece.name}' at ({x:g}, {y:g}) in: in no deployment area of {side}")
            continue
        gname = e.get("general") if general else None
        if general and not gname:
            gname = f"{side.capitalize()} General"
        items = [("id", uid), ("side", side), ("unit", t["unit"]), ("x", x), ("y", y), ("facing", facing(m)), ("deployment", dep)]
        if gname:
            items.append(("general", gname))
        defences = t.get("defences") or e.get("defences")
        lines.append("  - {" + ", ".join(f"{k}: {yaml_str(v)}" for k, v in items)
                     + (f", defences: [{', '.join(defences)}]" if defences else "") + "}")
        lines.append(f"    # {m.origin()}")
    if errors:
        raise ValueError("\n".join(errors))
    header = [f"# Units imported by `gunbai import` from {source.setup_label} (module {source.module.name!r}),",
              f"# map {source.map_name!r}, {ppi:g} px per inch; each entry says which piece it came from."]
    return merge_into_base(base, {"units": lines}, header)


def _inside(area: dict, x: float, y: float) -> bool:
    try:
        return float(area["x"]) <= x <= float(area["x"]) + float(area["w"]) and float(area["y"]) <= y <= float(area["y"]) + float(area["h"])
    except (KeyError, TypeError, ValueError):
        return False
