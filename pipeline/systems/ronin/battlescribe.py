"""Write the Ronin factions in the BattleScribe data format: one game system file
(``Ronin.gst``: cost type, profile types, rank and weapon categories, the Swords-for-Hire as
shared entries) and one catalogue per faction (``Ronin - Bushi.cat``…: the model list with
costs, option groups with their limits, and the composition rules as constraints).

Composition rules become BattleScribe constraints where the format has one: ``max_count`` /
``min_count`` on a rank → a ``max`` / ``min`` constraint on the category link of the force entry;
``max_percent`` → a percentage constraint (``percentValue="true"``); ``ratio`` → a ``min``
constraint raised by an ``increment`` modifier repeated per selection of the other category
(as BSData writes "two Rank 1/2 per Rank 3"). The other kinds (``more_than``, ``max_per``,
``forbids``, points percentages) are written as rules text. Every composition rule is also a
``rule`` of the force entry, named by its id, with its text and source.

Example::

    >>> files = write_battlescribe(data, Path("build/ronin/battlescribe"))   # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from lxml import etree

from pipeline.output import write_bytes_atomic
from pipeline.systems.ronin.data import HIRED, RoninData
from pipeline.systems.ronin.model import CompositionRule, Faction, ModelType, Selector

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
BS_VERSION = "2.03"
GAME_ID = "ronin-gunbai"


def bs_id(*parts: str) -> str:
    """A stable BattleScribe id (``xxxx-xxxx-xxxx-xxxx``) from a name."""
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[0:4]}-{h[4:8]}-{h[8:12]}-{h[12:16]}"


COST_ID = bs_id("cost", "pts")
PROFILE_MODEL = bs_id("profile", "model")
PROFILE_MELEE = bs_id("profile", "melee")
PROFILE_MISSILE = bs_id("profile", "missile")
STATS = (("Rank", "rank"), ("CP", "combat_pool"), ("Initiative", "initiative"), ("Fight", "fight"), ("Shoot", "shoot"), ("Armour", "armour"))


def category_id(name: str) -> str:
    return bs_id("category", name)


def rank_category(rank: int) -> str:
    return f"Rank {rank}"


def _el(parent, tag: str, ns: str, **attrs) -> etree._Element:
    e = etree.SubElement(parent, f"{{{ns}}}{tag}")
    for k, v in attrs.items():
        e.set(k.rstrip("_"), str(v))
    return e


def _cost(parent, ns: str, value: float) -> None:
    costs = _el(parent, "costs", ns)
    _el(costs, "cost", ns, name="pts", typeId=COST_ID, value=f"{float(value):.1f}")


def _categories_of(data: RoninData, m: ModelType, hired: bool) -> list[str]:
    cats = ["Model"]
    if isinstance(m.rank, int):
        cats.append(rank_category(m.rank))
        for f in data.factions.values():
            for rule in f.composition:
                for sel in (rule.a, rule.b, rule.or_all):
                    c = _selector_category(sel)
                    if c and sel is not None and sel.ranks and len(sel.ranks) > 1 and m.rank in sel.ranks and c not in cats:
                        cats.append(c)
    if hired:
        cats.append("Sword for Hire")
    kinds = {data.base_weapon(w) for w in m.weapons}
    if "teppo" in kinds:
        cats.append("Teppo")
    if any(data.weapons[w].kind == "missile" for w in m.weapons if w in data.weapons):
        cats.append("Missile")
    return cats


def _model_entry(parent, ns: str, data: RoninData, m: ModelType, hired: bool, scope: str) -> None:
    e = _el(parent, "selectionEntry", ns, id=bs_id(scope, m.id), name=m.name, hidden="false", collective="false", import_="true", type="model")
    profiles = _el(e, "profiles", ns)
    p = _el(profiles, "profile", ns, id=bs_id(scope, m.id, "profile"), name=m.name, hidden="false", typeId=PROFILE_MODEL, typeName="Model")
    chars = _el(p, "characteristics", ns)
    for label, attr in STATS:
        c = _el(chars, "characteristic", ns, name=label, typeId=bs_id("char", label))
        v = getattr(m, attr)
        c.text = "?" if v == "unknown" else str(v)
    links = _el(e, "categoryLinks", ns)
    for cat in _categories_of(data, m, hired):
        _el(links, "categoryLink", ns, id=bs_id(scope, m.id, "cat", cat), name=cat, hidden="false", targetId=category_id(cat), primary="true" if cat == "Model" else "false")
    if m.max_per_buntai is not None:
        cons = _el(e, "constraints", ns)
        _el(cons, "constraint", ns, field="selections", scope="roster", value=f"{m.max_per_buntai:.1f}", percentValue="false", shared="true", includeChildSelections="false", includeChildForces="true", id=bs_id(scope, m.id, "max"), type="max")
    if m.options:
        groups = _el(e, "selectionEntryGroups", ns)
        for g in m.options:
            ge = _el(groups, "selectionEntryGroup", ns, id=bs_id(scope, m.id, g.id), name=g.text, hidden="false", collective="false", import_="true")
            gc = _el(ge, "constraints", ns)
            _el(gc, "constraint", ns, field="selections", scope="parent", value=f"{g.max:.1f}", percentValue="false", shared="true", includeChildSelections="false", includeChildForces="false", id=bs_id(scope, m.id, g.id, "max"), type="max")
            if g.min:
                _el(gc, "constraint", ns, field="selections", scope="parent", value=f"{g.min:.1f}", percentValue="false", shared="true", includeChildSelections="false", includeChildForces="false", id=bs_id(scope, m.id, g.id, "min"), type="min")
            children = _el(ge, "selectionEntries", ns)
            choices = g.choices if g.choices is not None else {a.id: g.cost for a in data.attributes.values() if a.category != "advanced_rule" and (not g.categories or a.category in g.categories)}
            for cid, cost in choices.items():
                name = data.weapons[cid].name if cid in data.weapons else (data.attributes[cid].name if cid in data.attributes else cid.replace("_", " ").capitalize())
                ce = _el(children, "selectionEntry", ns, id=bs_id(scope, m.id, g.id, cid), name=name, hidden="false", collective="false", import_="true", type="upgrade")
                cc = _el(ce, "constraints", ns)
                _el(cc, "constraint", ns, field="selections", scope="parent", value="1.0", percentValue="false", shared="true", includeChildSelections="false", includeChildForces="false", id=bs_id(scope, m.id, g.id, cid, "max"), type="max")
                _cost(ce, ns, cost)
    _cost(e, ns, m.points)


def _selector_category(sel: Selector | None) -> str | None:
    """The single category a selector counts, if it is one BattleScribe has."""
    if sel is None:
        return None
    if sel.ranks is not None and sel.models is None and sel.weapon is None and sel.option is None:
        return " + ".join(rank_category(r) for r in sel.ranks)
    if sel.weapon == "teppo" or sel.weapon == "arquebus":
        return "Teppo"
    if sel.weapon == "missile":
        return "Missile"
    if sel.hired:
        return "Sword for Hire"
    return None


def _constraint(parent, ns: str, rule: CompositionRule, cat: str, typ: str, value: float, percent: bool) -> etree._Element:
    return _el(parent, "constraint", ns, field="selections", scope="force", value=f"{value:.1f}", percentValue="true" if percent else "false", shared="true", includeChildSelections="true", includeChildForces="false", id=bs_id("rule", rule.id, cat, typ), type=typ)


def _force_entry(root, ns: str, data: RoninData, f: Faction) -> None:
    forces = _el(root, "forceEntries", ns)
    fe = _el(forces, "forceEntry", ns, id=bs_id(f.id, "force"), name=f"{f.name} Buntai", hidden="false")
    rules_el = _el(fe, "rules", ns)
    links = _el(fe, "categoryLinks", ns)
    link_of: dict[str, etree._Element] = {}

    def link(cat: str) -> etree._Element:
        if cat not in link_of:
            le = _el(links, "categoryLink", ns, id=bs_id(f.id, "force", cat), name=cat, hidden="false", targetId=category_id(cat), primary="false")
            _el(le, "constraints", ns)
            _el(le, "modifiers", ns)
            link_of[cat] = le
        return link_of[cat]

    size = data.system
    model_cons = link("Model").find(f"{{{ns}}}constraints")
    for typ, n in (("min", size.buntai_min_models), ("max", size.buntai_max_models)):
        rule = CompositionRule(id=f"buntai_{typ}", kind=f"{typ}_count", text="", a=Selector(scope="all"), n=n, source=size.source)
        _constraint(model_cons, ns, rule, "Model", typ, float(n), False)
    for rule in list(f.composition) + list(data.factions[HIRED].composition):
        a, b = _selector_category(rule.a), _selector_category(rule.b)
        if rule.kind in ("max_count", "min_count") and a:
            _constraint(link(a).find(f"{{{ns}}}constraints"), ns, rule, a, "max" if rule.kind == "max_count" else "min", float(rule.n or 0), False)
        elif rule.kind == "max_percent" and a and isinstance(rule.percent, int):
            _constraint(link(a).find(f"{{{ns}}}constraints"), ns, rule, a, "max", float(rule.percent), True)
        elif rule.kind == "ratio" and a and b:
            con = _constraint(link(a).find(f"{{{ns}}}constraints"), ns, rule, a, "min", 0.0, False)
            mods = link(a).find(f"{{{ns}}}modifiers")
            mod = _el(mods, "modifier", ns, type="increment", field=con.get("id"), value=f"{float(rule.n or 0):.1f}")
            reps = _el(mod, "repeats", ns)
            _el(reps, "repeat", ns, field="selections", scope="force", value="1.0", percentValue="false", shared="true", includeChildSelections="true", includeChildForces="false", childId=category_id(b), repeats="1", roundUp="false")
        r = _el(rules_el, "rule", ns, id=bs_id("rule", rule.id), name=rule.id, hidden="false")
        d = _el(r, "description", ns)
        d.text = f"{rule.text} [{rule.source.doc}, {rule.source.section}]"


def _categories(root, ns: str, data: RoninData) -> None:
    cats = _el(root, "categoryEntries", ns)
    names = ["Model"] + [rank_category(r) for r in range(6)] + ["Sword for Hire", "Teppo", "Missile"]
    for f in data.factions.values():
        for rule in f.composition:
            for sel in (rule.a, rule.b):
                c = _selector_category(sel)
                if c and c not in names:
                    names.append(c)
    for n in names:
        _el(cats, "categoryEntry", ns, id=category_id(n), name=n, hidden="false")


def game_system(data: RoninData) -> bytes:
    """``Ronin.gst``."""
    ns = GST_NS
    root = etree.Element(f"{{{ns}}}gameSystem", nsmap={None: ns})
    for k, v in (("id", GAME_ID), ("name", "Ronin"), ("revision", "1"), ("battleScribeVersion", BS_VERSION), ("authorName", "gunbai")):
        root.set(k, v)
    costs = _el(root, "costTypes", ns)
    _el(costs, "costType", ns, id=COST_ID, name="pts", defaultCostLimit="-1.0", hidden="false")
    pts = _el(root, "profileTypes", ns)
    pm = _el(pts, "profileType", ns, id=PROFILE_MODEL, name="Model")
    ct = _el(pm, "characteristicTypes", ns)
    for label, _a in STATS:
        _el(ct, "characteristicType", ns, id=bs_id("char", label), name=label)
    for pid, name, cols in ((PROFILE_MELEE, "Melee Weapon", ("Initiative", "Attack")), (PROFILE_MISSILE, "Missile Weapon", ("Shoot", "Range"))):
        p = _el(pts, "profileType", ns, id=pid, name=name)
        ct = _el(p, "characteristicTypes", ns)
        for c in cols:
            _el(ct, "characteristicType", ns, id=bs_id("char", name, c), name=c)
    _categories(root, ns, data)
    shared = _el(root, "sharedSelectionEntries", ns)
    for m in data.factions[HIRED].models:
        _model_entry(shared, ns, data, m, True, HIRED)
    sp = _el(root, "sharedProfiles", ns)
    for w in data.weapons.values():
        if w.same_as or w.id == "special":
            continue
        p = _el(sp, "profile", ns, id=bs_id("weapon", w.id), name=w.name, hidden="false", typeId=PROFILE_MELEE if w.kind == "melee" else PROFILE_MISSILE, typeName="Melee Weapon" if w.kind == "melee" else "Missile Weapon")
        chars = _el(p, "characteristics", ns)
        vals = ((str(w.initiative) + (f"/{w.initiative_later}" if w.initiative_later is not None else "")), str(w.attack)) if w.kind == "melee" else (str(w.shoot), f'{w.max_range_in:g}"')
        for c, v in zip(("Initiative", "Attack") if w.kind == "melee" else ("Shoot", "Range"), vals, strict=True):
            _el(chars, "characteristic", ns, name=c, typeId=bs_id("char", "Melee Weapon" if w.kind == "melee" else "Missile Weapon", c)).text = v
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True, pretty_print=True)


def catalogue(data: RoninData, f: Faction) -> bytes:
    """``Ronin - <Faction>.cat``."""
    ns = CAT_NS
    root = etree.Element(f"{{{ns}}}catalogue", nsmap={None: ns})
    for k, v in (("id", bs_id(f.id, "catalogue")), ("name", f"Ronin - {f.name}"), ("revision", "1"), ("battleScribeVersion", BS_VERSION), ("authorName", "gunbai"), ("gameSystemId", GAME_ID), ("gameSystemRevision", "1"), ("library", "false")):
        root.set(k, v)
    rules = _el(root, "rules", ns)
    for r in f.rules:
        re_ = _el(rules, "rule", ns, id=bs_id(f.id, "rule", r.id), name=r.id, hidden="false")
        _el(re_, "description", ns).text = f"{r.text} [{r.source.doc}, {r.source.section}]"
    _force_entry(root, ns, data, f)
    entries = _el(root, "selectionEntries", ns)
    for m in f.models:
        _model_entry(entries, ns, data, m, False, f.id)
    for x in f.extras:
        e = _el(entries, "selectionEntry", ns, id=bs_id(f.id, "extra", x.id), name=x.name, hidden="false", collective="false", import_="true", type="upgrade")
        _cost(e, ns, x.cost)
    hires = next((r.models or [] for r in f.composition if r.kind == "hires"), [])
    if hires:
        links = _el(root, "entryLinks", ns)
        for mid in hires:
            m = next(x for x in data.factions[HIRED].models if x.id == mid)
            _el(links, "entryLink", ns, id=bs_id(f.id, "hire", mid), name=m.name, hidden="false", collective="false", import_="true", targetId=bs_id(HIRED, mid), type="selectionEntry")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True, pretty_print=True)


def write_battlescribe(data: RoninData, folder: Path) -> list[Path]:
    """Write ``Ronin.gst`` and a ``.cat`` per faction into ``folder``; returns the files."""
    out = [write_bytes_atomic(folder / "Ronin.gst", game_system(data))]
    for f in data.factions.values():
        if f.id == HIRED:
            continue
        out.append(write_bytes_atomic(folder / f"Ronin - {f.name}.cat", catalogue(data, f)))
    return out
