"""``gunbai import`` for The Reluctant Samurai (Sekigahara): a setup's units → a scenario's units.

Each unit piece is a contingent: unit type, side (``east``, ``west`` or ``undecided``) and
``Stands`` left (gunbai's own module: the ``Unit``/``Side``/``Leader`` properties and the
``Stands`` counter; another module: ``as: {unit: foot_samurai, side: west, stands: 3}``), placed
in inches and facing (:mod:`pipeline.measured.importer`). The turn marker is left out. Names,
leaders, strengths, mon and their citations are not in a setup: the import needs ``--base`` and
takes them from the base contingent of the same side and type with the same name (the piece's
name), else the nearest one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.importer import facing, inches, nearest, px_per_inch
from pipeline.setup_import import Mapped, PieceMapFile, SetupSource, merge_into_base, yaml_str
from pipeline.systems.sekigahara.data import SekiData
from pipeline.systems.sekigahara.load import load
from pipeline.systems.sekigahara.model import Scenario
from pipeline.vassal.save import SetupPiece

TARGET_KEYS = frozenset({"unit", "marker", "side", "stands", "name"})
SCENARIO_MODEL = Scenario
KIND_KEYS = ("unit", "marker")
MEASURED = True


def load_data(data_dir: Path) -> SekiData:
    """The Sekigahara data without its scenarios."""
    return load(data_dir, scenario_files=[])


def own_target(piece: SetupPiece) -> dict[str, Any] | None:
    """What a piece of gunbai's own Sekigahara module is, or None."""
    p = piece.properties
    if p.get("Unit") and p.get("Side"):
        out: dict[str, Any] = {"unit": p["Unit"], "side": p["Side"], "name": piece.name}
        if (p.get("Stands") or "").isdigit():
            out["stands"] = int(p["Stands"])
        return out
    if p.get("Marker"):
        return {"marker": p["Marker"]}
    return None


def check_target(data: SekiData, target: dict[str, Any]) -> str | None:
    """A problem with a mapping target, or None."""
    if "unit" in target:
        if target["unit"] not in data.units:
            return f"unit {target['unit']!r} is not in units.yaml (known: {', '.join(data.units)})"
        if "side" not in target:
            return "a unit needs its side (east, west or undecided)"
        if "stands" in target and not (isinstance(target["stands"], int) and target["stands"] >= 1):
            return f"stands {target['stands']!r}: expected a whole number of at least 1"
    return None


_KEEP = ("deployment", "leader", "men", "mon", "source")


def scenario_text(data: SekiData, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
                  base: YamlDocument | None) -> str:
    """The base scenario's text with its ``units`` replaced by the setup's.

    Raises:
        ValueError: no base, or a piece no base contingent matches.
    """
    if base is None:
        raise ValueError("a Sekigahara scenario needs names, leaders, deployments and their sources, which a setup does not hold: import with --base SCENARIO.yaml")
    ppi = px_per_inch(source, mapping, data.system.vassal.module_name, data.system.vassal.px_per_inch)
    units = list(base.data.get("units") or [])
    used: set[int] = set()
    lines = ["units:"]
    errors = []
    for m in mapped:
        t = m.target
        if "marker" in t:
            continue
        x, y = inches(m, mapping, ppi)
        same = [i for i, e in enumerate(units) if i not in used and e.get("side") == t["side"] and e.get("unit") == t["unit"] and e.get("name") == t.get("name")]
        i = same[0] if same else nearest(units, x, y, used, lambda e, t=t: e.get("side") == t["side"] and e.get("unit") == t["unit"])
        if i is None:
            errors.append(f"piece '{m.piece.name}' at ({x:g}, {y:g}) in: no contingent of the base is a {t['unit']} of {t['side']}")
            continue
        used.add(i)
        e = units[i]
        items = [("id", e["id"]), ("side", t["side"]), ("unit", t["unit"]), ("name", e.get("name", t.get("name"))),
                 ("stands", t.get("stands", e.get("stands"))), ("x", x), ("y", y), ("facing", facing(m))]
        text = "  - {" + ", ".join(f"{k}: {yaml_str(v)}" for k, v in items)
        for k in _KEEP:
            if k in e:
                text += f", {k}: {_flow(e[k])}"
        lines.append(text + "}")
        lines.append(f"    # {m.origin()}")
    if errors:
        raise ValueError("\n".join(errors))
    header = [f"# Units imported by `gunbai import` from {source.setup_label} (module {source.module.name!r}),",
              f"# map {source.map_name!r}, {ppi:g} px per inch; each entry says which piece it came from."]
    return merge_into_base(base, {"units": lines}, header)


def _flow(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return yaml_str(v)
