"""``gunbai import`` for Ronin: a VASSAL setup's models, zones and markers → a game's set-up.

A game (``games/*.yaml``) names the scenario and each side's roster; a setup holds only models,
so the import needs ``--base GAME.yaml`` and writes, per side (by colour), where each of its
models stands (``placed``, inches from the table's top-left corner); the objective marker
gives ``objective``, the civilian markers ``civilians``, and a deployment-zone piece moves its
side's zone to where it stands (its size kept). Verify then checks that the placed models are
exactly the side's force, inside its zone (rule ``placed-force``).

Terrain pieces give the game's ``terrain``: a piece of the game itself (``Game``,
``TerrainIndex``) is the base's entry of that index (name, effects and citation kept) moved to
where it stands; a piece from the Terrain palette is a new entry of its kind and footprint
(terrain.yaml), cited as placed by the import. A piece turned by a quarter turn swaps its
width and depth; other angles are refused (a game's terrain is axis-aligned). When the setup's
terrain is the base's, unmoved, the base's ``terrain`` block is kept as written.

Pieces: gunbai's own module marks models ``Side``/``Faction``/``Model``, zones ``Zone`` (the
role), markers ``Marker`` and terrain ``Terrain`` (the kind), ``Footprint`` and, for a game's
own piece, ``Game`` and ``TerrainIndex``; another module maps them, e.g. ``as: {model:
bushi:samurai, side: red}``, ``as: {zone: Attacker}``, ``as: {marker: objective}``,
``as: {terrain: woods, footprint: large}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.importer import inches, px_per_inch
from pipeline.setup_import import Mapped, PieceMapFile, SetupSource, merge_into_base, yaml_str
from pipeline.systems.ronin.data import RoninData
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.model import Game
from pipeline.vassal.save import SetupPiece

TARGET_KEYS = frozenset({"model", "zone", "marker", "side", "terrain", "footprint", "game", "index"})
KIND_KEYS = ("model", "zone", "marker", "terrain")
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
    if p.get("Terrain"):
        if p.get("Footprint") == "game" and p.get("Game") and str(p.get("TerrainIndex", "")).isdigit():
            return {"terrain": p["Terrain"], "game": p["Game"], "index": int(p["TerrainIndex"])}
        return {"terrain": p["Terrain"], "footprint": p.get("Footprint", "")}
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
    if "terrain" in target:
        kind = data.terrain.get(str(target["terrain"]))
        if kind is None:
            return f"terrain {target['terrain']!r} is not a kind of terrain.yaml ({', '.join(data.terrain)})"
        if "game" not in target and target.get("footprint") and target["footprint"] not in {f.id for f in kind.footprints}:
            return f"terrain {kind.id!r} has no footprint {target['footprint']!r} ({', '.join(f.id for f in kind.footprints)})"
    return None


def _numbers(value: Any) -> Any:
    """``value`` with every int a float (YAML's ``6`` and an import's ``6.0`` compare equal)."""
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _flow(value: Any) -> str:
    """A YAML flow text of a terrain entry (mappings in braces, scalars by :func:`yaml_str`)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return yaml_str(value)


def _turned(m: Mapped, w: float, h: float) -> tuple[float, float]:
    """``(w, h)`` of a terrain piece as it lies: swapped by a quarter turn.

    Raises:
        ValueError: turned by other than a multiple of 90 degrees.
    """
    a = round((m.piece.angle or 0.0) % 180.0, 3)
    if a in (0.0, 180.0):
        return w, h
    if a == 90.0:
        return h, w
    raise ValueError(f"terrain piece '{m.piece.name}' ({m.origin()}) is turned {m.piece.angle:g} degrees: a game's terrain is axis-aligned, turn it by a multiple of 90")


def terrain_entries(data: RoninData, base_terrain: list[dict[str, Any]], base_id: str, pieces: list[tuple[Mapped, float, float]],
                    setup_label: str) -> list[dict[str, Any]]:
    """The game's ``terrain`` entries from its terrain pieces (``(mapped, x, y)``, the piece's
    centre in inches): the base game's own pieces first, in their order, then palette pieces in
    the setup's order.

    Raises:
        ValueError: a game piece of another game or of an index the base lacks, or a piece
            turned by other than a quarter turn.
    """
    own: list[tuple[int, dict[str, Any]]] = []
    new: list[dict[str, Any]] = []
    for m, x, y in pieces:
        t = m.target
        if "game" in t:
            i = int(t["index"])
            if t["game"] != base_id or not 0 <= i < len(base_terrain):
                raise ValueError(f"terrain piece '{m.piece.name}' ({m.origin()}) is terrain {i} of game {t['game']!r}, which the base {base_id!r} does not have")
            e = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base_terrain[i].items()}
            z = e["zone"]
        else:
            kind = data.terrain[str(t["terrain"])]
            fp = next((f for f in kind.footprints if f.id == t.get("footprint")), kind.footprints[0])
            z = {"kind": fp.kind, "x": 0.0, "y": 0.0, **({"r": fp.r} if fp.kind == "circle" else {"w": fp.w, "h": fp.h})}
            e = {"name": kind.name, "kind": kind.id, "zone": z, "movement": kind.movement, "cover": kind.cover,
                 "source": {"doc": "gunbai", "section": "gunbai import", "confidence": "L",
                            "note": f"a {kind.name} piece ({fp.id}) placed in {setup_label}; its footprint and effects are terrain.yaml's"}}
        if z.get("kind") == "circle":
            z["x"], z["y"] = x, y
        else:
            w, h = _turned(m, float(z.get("w", 0)), float(z.get("h", 0)))
            z["w"], z["h"] = w, h
            z["x"], z["y"] = round(x - w / 2, 4), round(y - h / 2, 4)
        if "game" in t:
            own.append((int(t["index"]), e))
        else:
            new.append(e)
    return [e for _i, e in sorted(own, key=lambda ie: ie[0])] + new


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
    terrain: list[tuple[Mapped, float, float]] = []
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
        elif "terrain" in t:
            terrain.append((m, x, y))
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
    base_terrain = [dict(e) for e in base.data.get("terrain", []) or []]
    entries = terrain_entries(data, base_terrain, str(base.data.get("id")), terrain, source.setup_label)
    if _numbers(entries) != _numbers(base_terrain):
        blocks["terrain"] = (["terrain:"] + [f"  - {_flow(e)}" for e in entries]) if entries else ["terrain: []"]
    header = [f"# Set-up imported by `gunbai import` from {source.setup_label} (module {source.module.name!r}),",
              f"# map {source.map_name!r}, {ppi:g} px per inch; each placed model says which piece it came from."]
    return merge_into_base(base, blocks, header)
