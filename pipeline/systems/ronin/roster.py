"""Check a Ronin roster (a Buntai) like BattleScribe does: cost every model from the model list,
then evaluate the faction's composition rules, the per-model option limits and the general
limits (4-20 models, the points limit, the Swords-for-Hire cap).

The composition rules are data (``composition:`` of each faction file, kinds ``ratio``,
``max_count``, ``max_percent``…); :func:`check_roster` evaluates every kind with one generic
checker. A problem is a :class:`RosterFinding`, printed as one line naming the rule and its
source::

    source_data/ronin/rosters/x.yaml:3: x: bushi_one_rank5: 2 models of Rank 5 (Bushou, Bushou); at most 1 — There may only be one Rank 5 model [ronin_book, Factions: Bushi, Composition (p.33)]

Example::

    >>> report = check_roster(data, load_roster(Path("rosters/bushi_sample_100.yaml")))  # doctest: +SKIP
    >>> report.total, [f.rule for f in report.findings]                                  # doctest: +SKIP
    (99, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.systems.ronin.data import HIRED, Loaded, RoninData
from pipeline.systems.ronin.model import CompositionRule, ModelType, Roster, RosterEntry, Selector

#: Missile weapon ids are those of kind ``missile`` in weapons.yaml; this selector word means
#: "any of them".
ANY_MISSILE = "missile"


@dataclass(frozen=True)
class RosterFinding:
    """A problem (``severity`` ``error``) or a note (``note``: a rule gunbai could not check, a
    printed total that differs) in a roster.

    Attributes:
        file, line: where (the roster file and line).
        roster: the roster id.
        rule: the rule id (a composition rule of the faction, or a general rule id).
        message: what is wrong.
        source: ``doc, section`` of the rule.
    """

    file: Path
    line: int | None
    roster: str
    rule: str
    message: str
    source: str
    severity: str = "error"

    def __str__(self) -> str:
        loc = f"{self.file}:{self.line}" if self.line else str(self.file)
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return f"{loc}: {self.roster}: {tag}{self.rule}: {self.message} [{self.source}]"


@dataclass
class CostLine:
    """One option (or the base cost) that goes into a model's points."""

    what: str
    points: int


@dataclass
class FieldedModel:
    """One model of the Buntai after its options are applied.

    Attributes:
        entry: index of its roster line; copy: which of that line's ``count`` models.
        model: the model type; hired: a Sword-for-Hire.
        weapons: weapons carried (base ids: a Korean ``bow`` counts as ``yumi`` too).
        armour, combat_pool: after options.
        attributes: free and bought.
        picked: option group id → picks.
        banner: carries a banner.
        cost: the cost lines; points: their sum.
        mount: ``horse`` or ``warhorse`` when it rides (bought, or the model is fielded
            mounted), else None.
    """

    entry: int
    copy: int
    model: ModelType
    hired: bool
    weapons: list[str]
    armour: str
    combat_pool: int | str
    attributes: list[str]
    picked: dict[str, list[str]]
    banner: bool
    cost: list[CostLine] = field(default_factory=list)
    mount: str | None = None

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cost)

    @property
    def label(self) -> str:
        return self.model.name


@dataclass
class RosterReport:
    """The result of a roster check."""

    roster: Roster
    path: Path
    models: list[FieldedModel]
    extras_points: int
    findings: list[RosterFinding]
    notes: list[RosterFinding]

    @property
    def total(self) -> int:
        return sum(m.points for m in self.models) + self.extras_points

    def table(self) -> list[str]:
        """The costed roster as text lines (one per roster line, then the total)."""
        lines = []
        by_entry: dict[int, list[FieldedModel]] = {}
        for m in self.models:
            by_entry.setdefault(m.entry, []).append(m)
        for _i, ms in sorted(by_entry.items()):
            first = ms[0]
            parts = " + ".join(f"{c.what} {c.points:+d}" if k else f"{c.what} {c.points}" for k, c in enumerate(first.cost))
            each = first.points
            n = len(ms)
            lines.append(f"{n} x {first.model.name}: {parts} = {each}" + (f" each, {each * n}" if n > 1 else ""))
        if self.extras_points:
            lines.append(f"extras: {self.extras_points}")
        lines.append(f"total {self.total} of {self.roster.points_limit} points, {len(self.models)} models")
        return lines


def _src(s) -> str:
    return f"{s.doc}, {s.section}"


def field_models(data: RoninData, loaded: Loaded) -> tuple[list[FieldedModel], list[RosterFinding]]:
    """Cost every model of a roster and check each model's options against its model list
    entry (known choices, how many picks, exclusions, attribute prerequisites)."""
    roster: Roster = loaded.value
    doc = loaded.doc
    out: list[FieldedModel] = []
    problems: list[RosterFinding] = []

    def fail(loc: tuple, rule: str, msg: str, source: str) -> None:
        problems.append(RosterFinding(loaded.path, doc.line_of(loc), roster.id, rule, msg, source))

    for i, entry in enumerate(roster.models):
        found = data.model(roster.faction, entry.model)
        if found is None:
            fail(("models", i, "model"), "known-model", f"{entry.model!r} is not a model of {roster.faction} nor a Sword-for-Hire", "gunbai, Roster format")
            continue
        mt, hired = found
        fm = _field_one(data, roster, entry, mt, hired, i, lambda loc, rule, msg, source, i=i: fail(("models", i) + loc, rule, msg, source))
        for c in range(entry.count):
            out.append(FieldedModel(i, c, fm.model, fm.hired, list(fm.weapons), fm.armour, fm.combat_pool, list(fm.attributes), dict(fm.picked), fm.banner, list(fm.cost), fm.mount))
    return out, problems


def _field_one(data: RoninData, roster: Roster, entry: RosterEntry, mt: ModelType, hired: bool, index: int, fail) -> FieldedModel:
    src = _src(mt.source)
    weapons = list(mt.weapons)
    armour = mt.armour
    cp: int | str = mt.combat_pool
    attributes = list(mt.attributes)
    cost = [CostLine(f"{mt.name} base", mt.points)]
    banner = False
    mount: str | None = "horse" if mt.mounted else None
    groups = {g.id: g for g in mt.options}
    for gid in entry.choices:
        if gid not in groups:
            offered = ", ".join(groups) or "none"
            fail(("choices", gid), "known-option", f"{mt.name} has no option {gid!r} (options: {offered})", src)
    for gid, g in groups.items():
        picks = entry.choices.get(gid, [])
        gsrc = _src(g.source or mt.source)
        excluded_by = [o for o in groups.values() if gid in o.excludes and entry.choices.get(o.id)]
        need = 0 if excluded_by else g.min
        if len(picks) > g.max:
            fail(("choices", gid), "option-limit", f"{mt.name}: {len(picks)} picks of {gid!r} ({', '.join(picks)}); at most {g.max}: {g.text}", gsrc)
        if len(picks) < need:
            fail(("choices", gid), "option-required", f"{mt.name}: needs {need} pick(s) of {gid!r}: {g.text}", gsrc)
        if excluded_by and picks:
            fail(("choices", gid), "option-excluded", f"{mt.name}: {gid!r} cannot be combined with {excluded_by[0].id!r}: {excluded_by[0].text}", _src(excluded_by[0].source or mt.source))
        seen: set[str] = set()
        for p in picks:
            if p in seen:
                fail(("choices", gid), "option-repeated", f"{mt.name}: {p!r} picked twice in {gid!r}", gsrc)
            seen.add(p)
            if g.kind == "attribute":
                a = data.attributes.get(p)
                if a is None:
                    fail(("choices", gid), "known-attribute", f"{mt.name}: {p!r} is not an Attribute of attributes.yaml", gsrc)
                    continue
                if g.categories and a.category not in g.categories:
                    fail(("choices", gid), "attribute-category", f"{mt.name}: {a.name} is a {a.category}; this option allows {', '.join(g.categories)}", gsrc)
                if p in attributes:
                    fail(("choices", gid), "attribute-held", f"{mt.name} already has {a.name}", gsrc)
                attributes.append(p)
                price = g.cost
                cost.append(CostLine(a.name, price))
                continue
            if g.choices is None or p not in g.choices:
                offered = ", ".join(g.choices or {})
                fail(("choices", gid), "known-choice", f"{mt.name}: {p!r} is not a choice of {gid!r} ({offered})", gsrc)
                continue
            price = g.choices[p]
            if g.kind in ("weapon", "exchange"):
                for r in g.removes:
                    if r in weapons:
                        weapons.remove(r)
                weapons.append(p)
                cost.append(CostLine(data.weapons[p].name if p in data.weapons else p, price))
            elif g.kind == "armour":
                armour = p
                cost.append(CostLine(f"{p} armour" if p != "none" else "no armour", price))
            elif g.kind == "mount":
                mount = p
                cost.append(CostLine(p, price))
            elif g.kind == "banner":
                banner = True
                cost.append(CostLine("banner", price))
            if g.sets_armour:
                armour = g.sets_armour
            if g.sets_combat_pool is not None:
                cp = g.sets_combat_pool
    # advanced bujutsu prerequisites
    for a_id in attributes:
        a = data.attributes.get(a_id)
        if a is None:
            continue
        for req in a.requires:
            if req == "any_bujutsu":
                if not any(data.attributes[x].category == "bujutsu" for x in attributes if x in data.attributes):
                    fail(("choices",), "attribute-prerequisite", f"{mt.name}: {a.name} needs a Bujutsu first", _src(a.source))
            elif req not in attributes:
                fail(("choices",), "attribute-prerequisite", f"{mt.name}: {a.name} needs {data.attributes[req].name} first", _src(a.source))
    return FieldedModel(index, 0, mt, hired, weapons, armour, cp, attributes, {g: list(v) for g, v in entry.choices.items()}, banner, cost, mount)


def _resolve_weapon(data: RoninData, roster: Roster, w: str) -> set[str] | None:
    """Weapon ids a selector word stands for: ``missile`` (every missile weapon), a faction
    choice key (``primary_weapon``), or a weapon id and its other names."""
    if w == ANY_MISSILE:
        return {k for k, v in data.weapons.items() if v.kind == "missile"}
    if w in roster.faction_choices:
        ids = set(roster.faction_choices[w])
    elif w in data.factions[roster.faction].faction_choices:
        return None  # the roster did not make the choice
    else:
        ids = {w}
    return ids | {k for k, v in data.weapons.items() if v.same_as in ids} | {data.weapons[i].same_as for i in ids if i in data.weapons and data.weapons[i].same_as}


def _matches(data: RoninData, roster: Roster, m: FieldedModel, sel: Selector) -> bool | None:
    """True/False, or None when the answer depends on an unknown Rank."""
    if sel.scope == "faction" and m.hired:
        return False
    if sel.hired is not None and m.hired != sel.hired:
        return False
    if sel.models is not None and m.model.id not in sel.models:
        return False
    if sel.weapon is not None:
        ids = _resolve_weapon(data, roster, sel.weapon)
        if ids is None or not (ids & set(m.weapons)):
            return False
    if sel.option is not None and not m.picked.get(sel.option):
        return False
    if sel.banner is not None and m.banner != sel.banner:
        return False
    if sel.ranks is not None:
        if m.model.rank == "unknown":
            return None
        if m.model.rank not in sel.ranks:
            return False
    return True


@dataclass
class _Count:
    n: int
    names: list[str]
    unknown: list[str]


def _count(data: RoninData, roster: Roster, models: list[FieldedModel], sel: Selector | None) -> _Count:
    n, names, unknown = 0, [], []
    for m in models:
        r = _matches(data, roster, m, sel or Selector())
        if r is None:
            unknown.append(m.label)
        elif r:
            n += 1
            names.append(m.label)
    return _Count(n, names, unknown)


def _describe(sel: Selector | None) -> str:
    if sel is None:
        return "models"
    parts = []
    if sel.ranks is not None:
        parts.append("Rank " + "/".join(str(r) for r in sel.ranks))
    if sel.models is not None:
        parts.append("/".join(sel.models))
    if sel.weapon is not None:
        parts.append("with " + ("a missile weapon" if sel.weapon == ANY_MISSILE else sel.weapon))
    if sel.option is not None:
        parts.append(f"with option {sel.option}")
    if sel.banner:
        parts.append("banner bearers")
    if sel.hired:
        parts.append("Swords-for-Hire")
    return " ".join(parts) or ("models" if sel.scope == "faction" else "models (all)")


def _names(c: _Count) -> str:
    if not c.names:
        return ""
    shown = ", ".join(c.names[:6]) + (", …" if len(c.names) > 6 else "")
    return f" ({shown})"


def evaluate_rule(data: RoninData, roster: Roster, models: list[FieldedModel], rule: CompositionRule, extras: dict[str, int]) -> tuple[str | None, str | None]:
    """Evaluate one composition rule: ``(violation message or None, not-checked note or None)``."""
    a = _count(data, roster, models, rule.a) if rule.a is not None or rule.kind in ("max_count", "min_count") else None
    b = _count(data, roster, models, rule.b) if rule.b is not None else None
    unknown = sorted(set((a.unknown if a else []) + (b.unknown if b else [])))
    if rule.kind == "hires":
        bad = [m.label for m in models if m.hired and m.model.id not in (rule.models or [])]
        return (f"{', '.join(bad)} may not be hired" if bad else None), None
    if rule.kind == "max_extra":
        k = extras.get(rule.extra or "", 0)
        return (f"{k} x {rule.extra}; at most {rule.n}" if k > (rule.n or 0) else None), None
    if rule.kind in ("max_percent", "min_percent", "min_points_percent") and rule.percent == "unknown":
        return None, "the limit is not public (unknown)"
    if rule.a is not None and rule.a.weapon is not None and _resolve_weapon(data, roster, rule.a.weapon) is None:
        return None, f"the roster does not name its {rule.a.weapon} (faction_choices)"
    if unknown:
        return None, f"Rank unknown for {', '.join(unknown)}"
    assert a is not None
    if rule.kind == "max_count":
        return (f"{a.n} {_describe(rule.a)}{_names(a)}; at most {rule.n}" if a.n > (rule.n or 0) else None), None
    if rule.kind == "min_count":
        return (f"{a.n} {_describe(rule.a)}; at least {rule.n}" if a.n < (rule.n or 0) else None), None
    assert b is not None or rule.kind == "min_points_percent"
    if rule.kind == "ratio":
        assert b is not None
        if rule.or_all is not None:
            base = _count(data, roster, models, Selector(scope=rule.or_all.scope))
            alls = _count(data, roster, models, rule.or_all)
            if base.n and alls.n == base.n:
                return None, None
        need = (rule.n or 0) * b.n
        if a.n < need:
            return f"{a.n} {_describe(rule.a)} for {b.n} {_describe(rule.b)}{_names(b)}; needs at least {need} ({rule.n} per model)", None
        return None, None
    if rule.kind == "max_per":
        assert b is not None
        allowed = b.n // (rule.n or 1)
        return (f"{a.n} {_describe(rule.a)}{_names(a)} for {b.n} {_describe(rule.b)}; at most {allowed} (one per {rule.n})" if a.n > allowed else None), None
    if rule.kind == "more_than":
        assert b is not None
        return (f"{a.n} {_describe(rule.a)} is not more than {b.n} {_describe(rule.b)}{_names(b)}" if a.n <= b.n else None), None
    if rule.kind == "max_percent":
        assert b is not None and isinstance(rule.percent, int)
        allowed = rule.percent * b.n // 100
        if a.n > allowed:
            return f"{a.n} of {b.n} {_describe(rule.b)} {_describe(rule.a).removeprefix('with ')}{_names(a)}; at most {allowed} ({rule.percent}% of {b.n}, rounded down)", None
        return None, None
    if rule.kind == "min_percent":
        assert b is not None and isinstance(rule.percent, int)
        if a.n * 100 < rule.percent * b.n:
            return f"{a.n} of {b.n} {_describe(rule.b)} {_describe(rule.a)}; at least {rule.percent}%", None
        return None, None
    if rule.kind == "min_points_percent":
        assert isinstance(rule.percent, int)
        pts = sum(m.points for m in models if _matches(data, roster, m, rule.a or Selector()))
        total = sum(m.points for m in models)
        if pts * 100 < rule.percent * total:
            return f"{pts} of {total} points on {_describe(rule.a)}; at least {rule.percent}%", None
        return None, None
    if rule.kind == "forbids":
        assert b is not None
        if a.n and b.n:
            return f"{_describe(rule.a)}{_names(a)} fielded with {_describe(rule.b)}{_names(b)}", None
        return None, None
    raise AssertionError(rule.kind)


def check_roster(data: RoninData, loaded: Loaded) -> RosterReport:
    """Cost ``loaded`` and check it against every rule; the report holds the findings (errors)
    and the notes (rules not checked for lack of public data, printed totals compared)."""
    roster: Roster = loaded.value
    doc = loaded.doc
    findings: list[RosterFinding] = []
    notes: list[RosterFinding] = []

    def add(loc: tuple, rule: str, msg: str, source: str, severity: str = "error") -> None:
        f = RosterFinding(loaded.path, doc.line_of(loc), roster.id, rule, msg, source, severity)
        (findings if severity == "error" else notes).append(f)

    if roster.faction not in data.factions or roster.faction == HIRED:
        add(("faction",), "known-faction", f"{roster.faction!r} is not a faction ({', '.join(f for f in data.factions if f != HIRED)})", "gunbai, Roster format")
        return RosterReport(roster, loaded.path, [], 0, findings, notes)
    faction = data.factions[roster.faction]
    models, problems = field_models(data, loaded)
    findings += problems

    extras_points = 0
    known_extras = {e.id: e for e in faction.extras}
    for k, n in roster.extras.items():
        if k not in known_extras:
            add(("extras", k), "known-extra", f"{k!r} is not an extra of {faction.name} ({', '.join(known_extras) or 'none'})", _src(faction.source))
            continue
        extras_points += known_extras[k].cost * n

    allowed: dict[str, set[str]] = {}
    for key, fc in faction.faction_choices.items():
        picks = roster.faction_choices.get(key, [])
        if not fc.min <= len(picks) <= fc.max:
            add(("faction_choices", key), "faction-choice", f"{len(picks)} {key} ({', '.join(picks) or 'none'}); {fc.min} to {fc.max}: {fc.text}", _src(fc.source))
        bad = [p for p in picks if p not in fc.choices]
        if bad:
            add(("faction_choices", key), "faction-choice", f"{', '.join(bad)} not a {key} ({', '.join(fc.choices)})", _src(fc.source))
        if fc.restricts:
            allowed.setdefault(fc.restricts, set()).update(picks)
    for k in roster.faction_choices:
        if k not in faction.faction_choices:
            add(("faction_choices", k), "faction-choice", f"{faction.name} rosters make no choice {k!r}", _src(faction.source))
    repeated = set(roster.faction_choices.get("primary_weapon", [])) & set(roster.faction_choices.get("secondary_weapons", []))
    if repeated:
        add(("faction_choices",), "faction-choice", f"{', '.join(sorted(repeated))} is both primary and secondary", _src(faction.source))
    for group, ok in allowed.items():
        for m in models:
            if m.copy:
                continue
            off = [p for p in m.picked.get(group, []) if p not in ok]
            if off:
                src = next((_src(fc.source) for fc in faction.faction_choices.values() if fc.restricts == group), _src(faction.source))
                add(("models", m.entry, "choices", group), "faction-choice", f"{m.model.name} picks {', '.join(off)}: not among the roster's {', '.join(k for k, fc in faction.faction_choices.items() if fc.restricts == group)} ({', '.join(sorted(ok)) or 'none'})", src)

    s = data.system
    n_models = len(models)
    size_src = _src(s.source)
    if n_models < s.buntai_min_models or n_models > s.buntai_max_models:
        add(("models",), "buntai-size", f"{n_models} models; a Buntai has {s.buntai_min_models} to {s.buntai_max_models}", size_src)
    total = sum(m.points for m in models) + extras_points
    if total > roster.points_limit:
        add(("points_limit",), "points-limit", f"{total} points; the limit is {roster.points_limit}", "ronin_book, Factions (p.32)")

    rules = list(faction.composition) + list(data.factions[HIRED].composition)
    if not any(r.kind == "hires" for r in faction.composition):
        bad = [m.label for m in models if m.hired]
        if bad:
            add(("models",), "hires", f"{', '.join(bad)}: {faction.name} name no Swords-for-Hire", _src(faction.source))
    for rule in rules:
        msg, note = evaluate_rule(data, roster, models, rule, roster.extras)
        if msg:
            add(_rule_loc(data, roster, models, rule), rule.id, f"{msg} — {rule.text}", _src(rule.source))
        if note:
            add(("faction",), rule.id, f"not checked: {note} — {rule.text}", _src(rule.source), "note")
    for e in data.sources.errata:
        if e.id == "bandit_teppo_limit" and roster.faction == "bandits":
            add(("faction",), e.id, "the October 2013 errata changed the Bandit teppo limit to a value that is not public; the book's 10% is checked", "ronin_errata, p.36 Bandits", "note")

    _compare_printed(data, loaded, models, extras_points, add)
    return RosterReport(roster, loaded.path, models, extras_points, findings, notes)


def _rule_loc(data: RoninData, roster: Roster, models: list[FieldedModel], rule: CompositionRule) -> tuple:
    """The roster line of the last model a rule counts (the one that broke the limit, for the
    line number), else ``models`` (or ``extras``)."""
    if rule.kind == "max_extra":
        return ("extras",)
    if rule.kind == "hires":
        hit = [m for m in models if m.hired and m.model.id not in (rule.models or [])]
        return ("models", hit[-1].entry) if hit else ("models",)
    for sel in (rule.a, rule.b):
        if sel is None:
            continue
        hit = [m for m in models if _matches(data, roster, m, sel)]
        if hit:
            return ("models", hit[-1].entry)
    return ("models",)


def _compare_printed(data: RoninData, loaded: Loaded, models: list[FieldedModel], extras_points: int, add) -> None:
    """Compare the points the source prints with the points computed from the model list, and
    name the model and the options that make up every difference."""
    roster: Roster = loaded.value
    by_entry: dict[int, list[FieldedModel]] = {}
    for m in models:
        by_entry.setdefault(m.entry, []).append(m)
    for i, entry in enumerate(roster.models):
        if entry.printed_points is None or i not in by_entry:
            continue
        ms = by_entry[i]
        computed = sum(m.points for m in ms)
        if computed != entry.printed_points:
            diff = computed - entry.printed_points
            m = ms[0]
            lines = " + ".join(f"{c.what} {c.points}" for c in m.cost)
            culprits = [c.what for c in m.cost[1:] if c.points * len(ms) == diff]
            why = f"; the difference {diff:+d} is the cost of one of: {', '.join(culprits)} — the printed figure leaves one of them uncosted" if culprits else ""
            add(("models", i, "printed_points"), "printed-points", f"{entry.count} x {m.model.name}: printed {entry.printed_points}, computed {computed} ({lines} = {m.points} each){why}", _src(roster.source) if roster.source else "roster", "note")
    if roster.printed_total is not None:
        total = sum(m.points for m in models) + extras_points
        if total != roster.printed_total:
            line_diffs = []
            for i, entry in enumerate(roster.models):
                if entry.printed_points is not None and i in by_entry:
                    d = sum(m.points for m in by_entry[i]) - entry.printed_points
                    if d:
                        line_diffs.append(f"{by_entry[i][0].model.name} {d:+d}")
            printed_lines = sum(e.printed_points for e in roster.models if e.printed_points is not None)
            arith = ""
            if all(e.printed_points is not None for e in roster.models) and printed_lines != roster.printed_total:
                arith = f"; the printed lines themselves add up to {printed_lines}"
            add(("printed_total",), "printed-total", f"printed total {roster.printed_total}, computed {total} (difference {total - roster.printed_total:+d}" + (f": {', '.join(line_diffs)}" if line_diffs else "") + f"){arith}", _src(roster.source) if roster.source else "roster", "note")
