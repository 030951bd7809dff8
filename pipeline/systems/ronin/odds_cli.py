"""``gunbai odds ronin …``: the exact odds of one hand-to-hand attack, or of one shooting attack
in each range band, between two models of the Ronin data.

Usage::

    gunbai odds ronin melee --attacker bushi:samurai --weapon katana --defender bushi:ashigaru
    gunbai odds ronin melee --attacker hatamoto --weapon tetsubo --attacker-enhance \\
        --attacker-attributes tetsubojutsu,powerful --defender sohei:sohei --defender-enhance
    gunbai odds ronin shoot --attacker bushi:ashigaru --weapon teppo --defender bushi:samurai --cover light

A model is ``faction:model`` (or just ``model`` when only one faction has it). Statlines come
from the data; a characteristic the public sources do not give is ``unknown`` and the command
stops and says so unless it is given with ``--attacker-fight`` etc. Exit codes: 0 table
printed, 2 bad arguments or unknown data.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.errors import GunbaiError
from pipeline.systems.ronin.data import RoninData
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.model import ModelType
from pipeline.systems.ronin.odds import (
    MeleeSide,
    OddsTable,
    ShootSide,
    melee_distribution,
    shooting_distribution,
)

ARMOUR = {"none": 0, "light": 1, "medium": 2, "heavy": 3}


class OddsError(Exception):
    """A bad argument or a value the data does not give (printed, exit 2)."""


def find_model(data: RoninData, spec: str) -> tuple[str, ModelType]:
    """``faction:model`` or ``model`` → (faction id, model type)."""
    if ":" in spec:
        fid, mid = spec.split(":", 1)
        f = data.factions.get(fid)
        if f is None:
            raise OddsError(f"no faction {fid!r} (factions: {', '.join(data.factions)})")
        for m in f.models:
            if m.id == mid:
                return fid, m
        raise OddsError(f"{f.name} has no model {mid!r} (models: {', '.join(m.id for m in f.models)})")
    hits = [(f.id, m) for f in data.factions.values() for m in f.models if m.id == spec]
    if not hits:
        raise OddsError(f"no model {spec!r} in any faction")
    if len(hits) > 1:
        raise OddsError(f"{spec!r} is in several factions ({', '.join(h[0] for h in hits)}); write faction:{spec}")
    return hits[0]


def _stat(m: ModelType, name: str, override: int | None, role: str) -> int:
    if override is not None:
        return override
    v = getattr(m, name)
    if v == "unknown":
        raise OddsError(f"{m.name}: {name.replace('_', ' ')} is unknown (no public source gives it); give it with --{role}-{name.replace('_', '-')}")
    return int(v)


def _attrs(text: str | None, data: RoninData) -> list[str]:
    ids = [a.strip() for a in (text or "").split(",") if a.strip()]
    for a in ids:
        if a not in data.attributes:
            raise OddsError(f"no attribute {a!r} (attributes: {', '.join(data.attributes)})")
    return ids


def _has_bujutsu(data: RoninData, attributes: list[str], weapon: str) -> bool:
    base = data.base_weapon(weapon)
    for a in attributes:
        ws = data.attributes[a].weapons
        if weapon in ws or base in ws:
            return True
    return False


def _weapon(data: RoninData, wid: str, kind: str):
    w = data.weapons.get(wid)
    if w is None:
        raise OddsError(f"no weapon {wid!r} (weapons: {', '.join(data.weapons)})")
    if w.kind != kind:
        raise OddsError(f"{w.name} is a {w.kind} weapon; the {'melee' if kind == 'melee' else 'shoot'} command needs a {kind} weapon")
    return w


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gunbai odds ronin", description="Exact odds of one Ronin attack (icepool).")
    p.add_argument("--data", type=Path, default=Path("source_data/ronin"), help="the Ronin data folder")
    sub = p.add_subparsers(dest="mode", required=True)
    for mode in ("melee", "shoot"):
        s = sub.add_parser(mode, help="one hand-to-hand attack" if mode == "melee" else "one shooting attack in each range band")
        s.add_argument("--attacker", required=True, help="faction:model of the attacker")
        s.add_argument("--defender", required=True, help="faction:model of the defender")
        s.add_argument("--weapon", required=True, help="the attacker's weapon id (weapons.yaml)")
        s.add_argument("--attacker-attributes", help="comma-separated attribute ids (a bujutsu of the weapon re-rolls one die; powerful +1)")
        s.add_argument("--defender-armour", choices=sorted(ARMOUR), help="the defender's armour (default: its model's)")
        s.add_argument("--defender-wound", choices=("none", "light", "grievous"), default="none")
        s.add_argument("--attacker-mod", type=int, default=0, help="other modifiers to the attack roll")
        s.add_argument("--reroll-at-most", type=int, default=3, help="a bujutsu re-rolls the lowest die when it is this or less (default 3)")
        for stat in ("fight", "shoot"):
            s.add_argument(f"--attacker-{stat}", type=int, help=f"the attacker's {stat} when the data has it unknown")
        s.add_argument("--defender-fight", type=int, help="the defender's Fight when the data has it unknown")
        if mode == "melee":
            s.add_argument("--attacker-enhance", action="store_true", help="Enhanced Attack Roll (3d6, discard one)")
            s.add_argument("--defender-enhance", action="store_true", help="Enhanced Defence Roll (2d6)")
            s.add_argument("--defender-weapon", help="the defender's weapon (for its bujutsu; default its first weapon)")
            s.add_argument("--defender-attributes", help="comma-separated attribute ids (a bujutsu of its weapon re-rolls a die; tough)")
            s.add_argument("--attacker-wound", choices=("none", "light", "grievous"), default="none")
            s.add_argument("--defender-mod", type=int, default=0, help="other modifiers to the defence roll (engaged by 3+: -1)")
            s.add_argument("--later-round", action="store_true", help="a later round of the combat (nodachi, nagae-yari)")
            s.add_argument("--defender-heavy-vs-weaponless", action="store_true", help=argparse.SUPPRESS)
        else:
            s.add_argument("--cover", choices=("none", "light", "heavy"), default="none")
    return p


def melee_table(data: RoninData, a: argparse.Namespace) -> OddsTable:
    _, am = find_model(data, a.attacker)
    _, dm = find_model(data, a.defender)
    w = _weapon(data, a.weapon, "melee")
    a_attrs = list(am.attributes) + _attrs(a.attacker_attributes, data)
    d_attrs = list(dm.attributes) + _attrs(a.defender_attributes, data)
    d_weapon = a.defender_weapon or (dm.weapons[0] if dm.weapons else "weaponless")
    armour = a.defender_armour or dm.armour
    if armour not in ARMOUR:
        raise OddsError(f"{dm.name}: armour {armour!r}; give --defender-armour")
    if w.attack == "unknown":
        raise OddsError(f"{w.name}: its Attack Roll modifier is unknown")
    mods = a.attacker_mod
    if "powerful" in a_attrs:
        mods += 1
    if w.vs_heavy_attack and armour == "heavy":
        mods += w.vs_heavy_attack
    attacker = MeleeSide(
        fight=_stat(am, "fight", a.attacker_fight, "attacker"),
        weapon_attack=int(w.attack),
        enhanced_attack_bonus=w.enhanced_attack_bonus,
        enhance=a.attacker_enhance,
        reroll_at_most=a.reroll_at_most if _has_bujutsu(data, a_attrs, w.id) else 0,
        wound=a.attacker_wound,
        tough="tough" in a_attrs,
        modifiers=mods,
    )
    defender = MeleeSide(
        fight=_stat(dm, "fight", a.defender_fight, "defender"),
        armour=ARMOUR[armour],
        enhance=a.defender_enhance,
        reroll_at_most=a.reroll_at_most if _has_bujutsu(data, d_attrs, d_weapon) else 0,
        wound=a.defender_wound,
        tough="tough" in d_attrs,
        modifiers=a.defender_mod,
    )
    dist = melee_distribution(attacker, defender)
    title = [
        f"Ronin hand-to-hand: {am.name} ({w.name}{', Enhanced' if attacker.enhance else ''}{', re-roll ≤' + str(attacker.reroll_at_most) if attacker.reroll_at_most else ''}) attacks {dm.name} ({armour} armour{', Enhanced defence' if defender.enhance else ''}{', re-roll ≤' + str(defender.reroll_at_most) if defender.reroll_at_most else ''})",
        f"Attack Roll: {'3d6 keep 2' if attacker.enhance else '2d6'} + Fight {attacker.effective_fight()} + weapon {attacker.weapon_attack:+d}{f' + Enhanced {attacker.enhanced_attack_bonus:+d}' if attacker.enhance and attacker.enhanced_attack_bonus else ''} + other {attacker.modifiers:+d};"
        f" Defence Roll: {'2d6' if defender.enhance else '1d6'} + Fight {defender.effective_fight()} + armour {defender.armour:+d} + other {defender.modifiers:+d}",
    ]
    if defender.wound != "none":
        title.append(f"the defender has a {defender.wound} wound: results are after combining (errata wound_combination)")
    return OddsTable(title, ["one attack"], {r: [p] for r, p in dist.items()})


def shoot_table(data: RoninData, a: argparse.Namespace) -> OddsTable:
    _, am = find_model(data, a.attacker)
    _, dm = find_model(data, a.defender)
    w = _weapon(data, a.weapon, "missile")
    a_attrs = list(am.attributes) + _attrs(a.attacker_attributes, data)
    armour = a.defender_armour or dm.armour
    if armour not in ARMOUR:
        raise OddsError(f"{dm.name}: armour {armour!r}; give --defender-armour")
    counted = (w.armour_as or {}).get(armour, armour)
    cover = {"none": 0, "light": 1, "heavy": 2}[a.cover]
    defence = data.rules.shooting_defence_base + ARMOUR[counted] + cover
    if w.shoot == "unknown":
        raise OddsError(f"{w.name}: its Shoot modifier is unknown")
    shooter = ShootSide(
        shoot=_stat(am, "shoot", a.attacker_shoot, "attacker"),
        weapon_shoot=int(w.shoot),
        reroll_at_most=a.reroll_at_most if _has_bujutsu(data, a_attrs, w.id) else 0,
        modifiers=a.attacker_mod,
    )
    is_teppo = data.base_weapon(w.id) == "teppo"
    cols, rows = [], {}
    for band in data.weapons_bands():
        if w.max_range_in is not None and band.from_in >= w.max_range_in:
            continue
        mod = band.teppo_modifier if is_teppo and band.teppo_modifier is not None else band.modifier
        to = min(band.to_in, w.max_range_in or band.to_in)
        cols.append(f'{band.from_in:g}-{to:g}" ({mod:+d})')
        for r, p in shooting_distribution(shooter, mod, defence, a.defender_wound).items():
            rows.setdefault(r, []).append(p)
    title = [
        f"Ronin shooting: {am.name} ({w.name}{', re-roll ≤' + str(shooter.reroll_at_most) if shooter.reroll_at_most else ''}) at {dm.name} ({armour} armour{f', counts as {counted} against a {w.name}' if counted != armour else ''}, {a.cover} cover)",
        f"Shooting Attack Roll: 2d6 + Shoot {shooter.shoot} + weapon {shooter.weapon_shoot:+d} + other {shooter.modifiers:+d} + range; Shooting Defence Score {defence}",
    ]
    return OddsTable(title, cols, rows)


def run(argv: list[str]) -> int:
    """Parse ``argv`` (the words after ``gunbai odds ronin``), print the table, return the exit
    code (0 printed, 2 bad arguments or a value the data does not give)."""
    p = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        data = load(args.data)
        table = melee_table(data, args) if args.mode == "melee" else shoot_table(data, args)
    except (OddsError, GunbaiError) as exc:
        print(f"gunbai odds ronin: {exc}", file=sys.stderr)
        return 2
    print("\n".join(table.lines()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(sys.argv[1:]))
