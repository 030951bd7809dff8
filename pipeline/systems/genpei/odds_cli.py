"""``gunbai odds``: the exact odds of one Genpei battle roll, printed
(:func:`pipeline.systems.genpei.odds.format_odds`). A command, not game code: it loads the data
folder itself, so it lies outside the code the verdicts digest (:attr:`GenpeiSystem.drawing_code`).
"""

from __future__ import annotations

from pipeline.systems.genpei.odds import format_odds, matchup


def run_cli(args: list[str], data_root: str = "source_data") -> int:
    """``gunbai odds ATTACKER DEFENDER [--terrain T] [--from T] [--leader] [--ranged] [--moved]
    [--flat] [--at-sea] [--data DIR]``: print the exact odds of one battle roll. Returns the exit
    code (2 for bad arguments or unknown ids)."""
    import argparse
    import sys
    from pathlib import Path

    from pipeline.errors import GunbaiError
    from pipeline.systems.genpei.load import load

    ap = argparse.ArgumentParser(prog="gunbai odds", description="Exact odds of one Genpei battle roll (icepool).", allow_abbrev=False)
    ap.add_argument("attacker", help="attacking unit type id (units.yaml)")
    ap.add_argument("defender", help="defending unit type id")
    ap.add_argument("--terrain", help="terrain id of the defender's hex (arrow_tower implies its Stockade)")
    ap.add_argument("--from", dest="attacker_terrain", help="terrain id of the attacker's hex")
    ap.add_argument("--leader", action="store_true", help="the attacker has a leader and spends H&F on Inspiration")
    ap.add_argument("--ranged", action="store_true", help="ranged combat at minimum range (default: close combat)")
    ap.add_argument("--moved", action="store_true", help="the attacker moved this turn")
    ap.add_argument("--flat", action="store_true", help="the defender is lying flat (embarking/disembarking)")
    ap.add_argument("--at-sea", action="store_true", help="both units are naval units")
    ap.add_argument("--data", default=data_root, help="the data folder (default source_data)")
    try:
        ns = ap.parse_args(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    root = Path(ns.data)
    root = root / "genpei" if (root / "genpei").is_dir() else root
    try:
        data = load(root, scenario_files=[])
        for tid in (ns.terrain, ns.attacker_terrain):
            if tid is not None and tid not in data.terrain:
                raise KeyError(f"unknown terrain {tid!r} (terrain: {', '.join(data.terrain)})")
        setup = matchup(data, ns.attacker, ns.defender, terrain=ns.terrain, attacker_terrain=ns.attacker_terrain,
                        leader=ns.leader, ranged=ns.ranged, moved=ns.moved, flat=ns.flat, at_sea=ns.at_sea)
    except (KeyError, GunbaiError) as exc:
        print(f"gunbai odds: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
    where = f" on {data.terrain[ns.terrain].name}" if ns.terrain else ""
    title = f"{data.units[ns.attacker].name} against {data.units[ns.defender].name}{where}" + (" (inspired)" if setup.inspired else " (leader attached, not inspired)" if ns.leader else "")
    from pipeline.systems.genpei.engine.stats import resolve

    print(format_odds(data, setup, title))
    guessed = [n for uid in dict.fromkeys((ns.attacker, ns.defender)) for n in resolve(data.units[uid]).notes]
    if guessed:
        print("  not in the public sources (the odds use a stand-in value):")
        print("\n".join(f"    {n}" for n in guessed))
    return 0
