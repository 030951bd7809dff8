"""``gunbai import`` for Ronin: a VASSAL setup's models, zones and markers → a game's set-up.

A game (``games/*.yaml``) names the scenario and each side's roster; a setup holds only models,
so the import needs ``--base GAME.yaml`` and writes, per side (by colour), where each of its
models stands (``placed``, inches from the table's top-left corner); the objective marker
gives ``objective``, the civilian markers ``civilians``, and a deployment-zone piece moves its
side's zone to where it stands (its size kept). Verify then checks that the placed models are
exactly the side's force, inside its zone (rule ``placed-force``).

Pieces: gunbai's own module marks models ``Side``/``Faction``/``Model``, zones ``Zone`` (the
role) and markers ``Marker``; another module maps them, e.g. ``as: {model: bushi:samurai,
side: red}``, ``as: {zone: Attacker}``, ``as: {marker: objective}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.importer import inches, px_per_inch
from pipeline.setup_import import Mapped, PieceMapFile, SetupSource, merge_into_base, yaml_str
from pipeline.systems.ronin.load import RoninData, load
from pipeline.systems.ronin.model import Game
from pipeline.vassal.save import SetupPiece

TARGET_KEYS = frozenset({"model", "zone", "marker", "side"})
KIND_KEYS = ("model", "zone", "marker")
SCENARIO_MODEL = Game
MEASURED = True


def load_data(data_dir: Path) -> RoninData:
    """The Ronin data (factions, scenarios, rosters) without its games."""
    return load(data_dir, game_files=[])


def own_target(piece: SetupPiece) -> dict[str, Any] | None:
    """What a piece of gunbai's own Ronin module is, or None."""
    p = piece.properties
    if p.get("Model") and p.get("Faction") and p.get("Side"):
        return {"model": f"{p['Faction']}:{p['Model']}", "side": p["Side"]}
    if p.get("Zone"):
        return {"zone": p["Zone"]}
    if p.get("Marker"):
        return {"marker": p["Marker"]}
    return None


def check_target(data: RoninData, target: dict[str, Any]) -> str | None:
    """A problem with a mapping target, or None."""
    if "model" in target:
        fid, _, mid = str(target["model"]).partition(":")
        if not mid:
            return f"model {target['model']!r}: expected <faction>:<model id>"
        if "side" not in target or target["side"] not in data.system.sides:
            return f"a model needs its side, one of {', '.join(data.system.sides)}"
        if fid in data.factions and mid not in {m.id for m in data.factions[fid].models}:
            return f"model {mid!r} is not in faction {fid!r}"
        if fid not in data.factions and fid not in data.scenarios:
            return f"faction {fid!r} is neither a faction nor a scenario with a fixed force"
    if "marker" in target and target["marker"] not in {m.id for m in data.system.markers}:
        return f"marker {target['marker']!r} is not in system.yaml"
    return None


def scenario_text(data: RoninData, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
                  base: YamlDocument | None) -> str:
    """The base game's text with ``sides`` (zones and placed models), ``objective`` and
    ``civilians`` from the setup.

    Raises:
        ValueError: no base, or models of a colour no side of the base plays.
    """
    if base is None:
        raise ValueError("a Ronin game names the rosters its models were bought from, which a setup does not hold: import with --base GAME.yaml")
    ppi = px_per_inch(source, mapping, data.system.vassal.module_name, data.system.vassal.px_per_inch)
    sides = [dict(s) for s in base.data.get("sides", [])]
    colours = {s.get("side"): i for i, s in enumerate(sides)}
    placed: dict[int, list[str]] = {i: [] for i in range(len(sides))}
    objective = None
    civilians = 0
    errors = []
    for m in mapped:
        t = m.target
        x, y = inches(m, mapping, ppi)
        if "model" in t:
            if t["side"] not in colours:
                errors.append(f"piece '{m.piece.name}' at ({x:g}, {y:g}) in: side {t['side']!r} plays in no side of the base ({', '.join(map(str, colours))})")
                continue
            placed[colours[t["side"]]].append(f"      - {{model: {yaml_str(t['model'])}, x: {yaml_str(x)}, y: {yaml_str(y)}}}  # {m.origin()}")
        elif "zone" in t:
            for s in sides:
                if s.get("role") == t["zone"] and isinstance(s.get("zone"), dict):
                    z = dict(s["zone"])
                    if z.get("kind") == "circle":
                        z["x"], z["y"] = x, y
                    else:
                        z["x"], z["y"] = round(x - float(z.get("w", 0)) / 2, 4), round(y - float(z.get("h", 0)) / 2, 4)
                    s["zone"] = z
        elif t["marker"] == "objective":
            objective = (x, y, m)
        elif t["marker"] == "civilian":
            civilians += 1
    if errors:
        raise ValueError("\n".join(errors))
    lines = ["sides:"]
    for i, s in enumerate(sides):
        items = [f"role: {yaml_str(s.get('role'))}", f"side: {s.get('side')}"]
        if s.get("roster") is not None:
            items.append(f"roster: {s['roster']}")
        if s.get("fixed"):
            items.append("fixed: {" + ", ".join(f"{k}: {v}" for k, v in s["fixed"].items()) + "}")
        z = s.get("zone", {})
        items.append("zone: {" + ", ".join(f"{k}: {yaml_str(v)}" for k, v in z.items()) + "}")
        lines.append("  - " + items[0])
        lines += [f"    {it}" for it in items[1:]]
        lines.append("    placed:" if placed[i] else "    placed: []")
        lines += placed[i]
    blocks = {"sides": lines}
    if objective is not None:
        blocks["objective"] = [f"objective: [{yaml_str(objective[0])}, {yaml_str(objective[1])}]  # {objective[2].origin()}"]
    if civilians or "civilians" in base.data:
        blocks["civilians"] = [f"civilians: {civilians}"]
    header = [f"# Set-up imported by `gunbai import` from {source.setup_label} (module {source.module.name!r}),",
              f"# map {source.map_name!r}, {ppi:g} px per inch; each placed model says which piece it came from."]
    return merge_into_base(base, blocks, header)
