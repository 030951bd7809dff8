"""Load the Ronin data folder (``source_data/ronin/``) into one :class:`RoninData`.

Example::

    >>> data = load(Path("source_data/ronin"))              # doctest: +SKIP
    >>> data.factions["bushi"].models[0].points               # doctest: +SKIP
    18
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.data.common import Sources
from pipeline.data.folder import UniqueIds, load_files, source_problems, unread_files
from pipeline.data.yamlfile import (
    YamlDocument,
)
from pipeline.errors import DataError, DataProblem
from pipeline.systems.ronin.data import HIRED, Loaded, RoninData
from pipeline.systems.ronin.model import (
    AttributesFile,
    Faction,
    Game,
    Roster,
    RulesFile,
    Scenario,
    SystemInfo,
    TerrainFile,
    WeaponsFile,
)

FILES: dict[str, type[BaseModel]] = {
    "system.yaml": SystemInfo,
    "sources.yaml": Sources,
    "rules.yaml": RulesFile,
    "weapons.yaml": WeaponsFile,
    "attributes.yaml": AttributesFile,
    "terrain.yaml": TerrainFile,
}


def load(root: Path, *, roster_files: list[Path] | None = None, game_files: list[Path] | None = None) -> RoninData:
    """Read and validate ``root``.

    Raises:
        DataError: any file is missing or invalid, an id is repeated, a citation names an
            unknown document, or a model names an unknown weapon or attribute (the texts' fit on
            the drawings is checked apart: ``printing.check_fit``).
    """
    models, docs, problems = load_files(root, FILES)
    problems += unread_files(root, FILES, ["factions", "scenarios", "rosters", "games"])
    factions: dict[str, Faction] = {}
    faction_ids = UniqueIds("faction id", problems)
    for path in sorted((root / "factions").glob("*.yaml")):
        try:
            doc = YamlDocument.load(path)
            f = doc.validate(Faction)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        key = f"factions/{path.name}"
        docs[key] = doc
        models[key] = f
        if faction_ids.add(f.id, doc, ("id",)):
            factions[f.id] = f
    scenarios: dict[str, Scenario] = {}
    scenario_ids = UniqueIds("scenario id", problems)
    for path in sorted((root / "scenarios").glob("*.yaml")):
        try:
            doc = YamlDocument.load(path)
            s = doc.validate(Scenario)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        key = f"scenarios/{path.name}"
        docs[key] = doc
        models[key] = s
        if scenario_ids.add(s.id, doc, ("id",)):
            scenarios[s.id] = s
    if problems:
        raise DataError(problems)
    if HIRED not in factions:
        raise DataError([DataProblem(root / "factions", None, "", "no swords_for_hire.yaml", "the Swords-for-Hire faction file")])

    data = RoninData(
        root=root,
        system=models["system.yaml"],
        sources=models["sources.yaml"],
        rules=models["rules.yaml"],
        weapons={w.id: w for w in models["weapons.yaml"].weapons},
        range_bands=list(models["weapons.yaml"].range_bands),
        attributes={a.id: a for a in models["attributes.yaml"].attributes},
        attribute_cost=models["attributes.yaml"].attribute_cost,
        factions=factions,
        scenarios=scenarios,
        terrain={t.id: t for t in models["terrain.yaml"].terrain},
        docs=docs,
    )
    problems += _cross_check(data, docs, models)
    rfiles = sorted((root / "rosters").glob("*.yaml")) if roster_files is None else roster_files
    roster_ids = UniqueIds("roster id", problems)
    for path in rfiles:
        try:
            loaded = load_roster(path)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if roster_ids.add(loaded.value.id, loaded.doc, ("id",)):
            data.rosters[loaded.value.id] = loaded
    gfiles = sorted((root / "games").glob("*.yaml")) if game_files is None else game_files
    # a game's id names its outputs (game_<id>.pdf), its name the predefined setup of the module
    game_ids, game_names = UniqueIds("game id", problems), UniqueIds("game name (the predefined setup's name)", problems)
    for path in gfiles:
        try:
            doc = YamlDocument.load(path)
            game = doc.validate(Game)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        game_ids.add(game.id, doc, ("id",))
        game_names.add(game.name, doc, ("name",))
        data.games.append(Loaded(game, doc))
    problems += source_problems([(doc, models.get(key)) for key, doc in docs.items()], data.sources, docs["sources.yaml"])
    if problems:
        raise DataError(problems)
    return data


def load_roster(path: Path) -> Loaded:
    """Read and validate one roster file.

    Raises:
        DataError: the file is missing or does not match :class:`Roster`.
    """
    doc = YamlDocument.load(path)
    return Loaded(doc.validate(Roster), doc)


def _cross_check(data: RoninData, docs: dict[str, YamlDocument], models: dict[str, Any]) -> list[DataProblem]:
    """Every weapon, attribute and model id a faction names exists; every deployment option a
    scenario names is one of rules.yaml, and every role its deployment rules bind is its own."""
    problems = []
    armour_ids = {"none", "light", "medium", "heavy", "as_model"}
    for key, doc in docs.items():
        if not key.startswith("factions/"):
            continue
        f: Faction = models[key]
        for i, m in enumerate(f.models):  # a repeated model id: YamlDocument.validate
            for j, w in enumerate(m.weapons):
                if w not in data.weapons:
                    problems.append(DataProblem(doc.path, doc.line_of(("models", i, "weapons", j)), f"models[{i}].weapons[{j}]", repr(w), "a weapon of weapons.yaml"))
            for j, a in enumerate(m.attributes):
                if a not in data.attributes:
                    problems.append(DataProblem(doc.path, doc.line_of(("models", i, "attributes", j)), f"models[{i}].attributes[{j}]", repr(a), "an attribute of attributes.yaml"))
            for j, g in enumerate(m.options):
                for c in g.choices or {}:
                    ok = {
                        "weapon": c in data.weapons, "exchange": c in data.weapons, "armour": c in armour_ids,
                        "mount": c in ("horse", "warhorse"), "banner": c == "banner", "attribute": c in data.attributes,
                    }[g.kind]
                    if not ok:
                        problems.append(DataProblem(doc.path, doc.line_of(("models", i, "options", j, "choices", c)), f"models[{i}].options[{j}].choices", repr(c), f"a valid {g.kind} choice"))
    options = {o.id for o in data.rules.deployments if o.depth_in is not None}  # Edges, Corners (Reserves places nobody)
    for key, doc in docs.items():
        if not key.startswith("scenarios/"):
            continue
        sc: Scenario = models[key]
        for j, o in enumerate(sc.deployment_options):
            if o not in options:
                problems.append(DataProblem(doc.path, doc.line_of(("deployment_options", j)), f"deployment_options[{j}]", repr(o),
                                            f"a deployment option of rules.yaml that places the models ({', '.join(sorted(options))})"))
        for j, rule in enumerate(sc.deployment_rules):
            for key_name in ("who", "apart_from"):
                role = getattr(rule, key_name)
                if role is not None and role not in sc.roles:
                    problems.append(DataProblem(doc.path, doc.line_of(("deployment_rules", j, key_name)), f"deployment_rules[{j}].{key_name}", repr(role),
                                                f"a role of the scenario ({', '.join(sc.roles)})"))
    return problems
