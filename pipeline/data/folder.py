"""Reading a game system's data folder: its fixed files, catalogues by id, and the checks every
system makes of its citations and errata.

Each system's loader (``pipeline/systems/<system>/load.py``) names its files and schema models
and calls these; every problem is a :class:`~pipeline.errors.DataProblem` with file and line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.data.common import Source, Sources
from pipeline.data.yamlfile import YamlDocument, also_at, format_location
from pipeline.errors import DataError, DataProblem


def load_files(root: Path, files: dict[str, type[BaseModel]]) -> tuple[dict[str, Any], dict[str, YamlDocument], list[DataProblem]]:
    """Read and validate each fixed file of a data folder.

    Args:
        root: the folder.
        files: file name (relative to ``root``) → schema model.

    Returns:
        ``(models, docs, problems)``: validated models and parsed documents by file name (files
        that failed are absent), and every problem found.
    """
    models: dict[str, Any] = {}
    docs: dict[str, YamlDocument] = {}
    problems: list[DataProblem] = []
    for name, model in files.items():
        try:
            doc = YamlDocument.load(root / name)
            docs[name] = doc
            models[name] = doc.validate(model)
        except DataError as exc:
            problems.extend(exc.problems)
    return models, docs, problems


def unread_files(root: Path, files: Iterable[str], folders: Iterable[str]) -> list[DataProblem]:
    """What a data folder holds that its loader would pass over without a word: a YAML file of
    the folder that is none of ``files`` (``unit.yaml`` for ``units.yaml``), a folder that is
    none of ``folders`` (``scenario/`` for ``scenarios/``), a YAML file in one of ``folders``
    whose name does not end ``.yaml`` (``gp31.yml``, ``GP31.YAML``). Other files (a README,
    a picture), the ``schema/`` folder, the ladder record (``ladder.yaml``,
    :mod:`pipeline.data.ladder`) and names starting with ``.`` or ``_`` are left alone.

    Returns:
        one problem per such file or folder.
    """
    from pipeline.data.ladder import LADDER_FILE

    files, folders = set(files) | {LADDER_FILE}, set(folders)
    problems: list[DataProblem] = []
    if not root.is_dir():
        return problems
    for entry in sorted(root.iterdir()):
        name = entry.name
        if name.startswith((".", "_")):
            continue
        if entry.is_dir():
            if name not in folders and name != "schema":
                problems.append(DataProblem(entry, None, "", f"folder {name!r}",
                                            f"one of the folders gunbai reads here ({', '.join(sorted(folders)) or 'none'}, schema): its files would not be read"))
            continue
        if entry.suffix.lower() in (".yaml", ".yml") and name not in files:
            problems.append(DataProblem(entry, None, "", f"file {name!r}", f"one of the files gunbai reads here ({', '.join(sorted(files))}): it would not be read"))
    for folder in sorted(folders):
        for entry in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            if entry.is_file() and not entry.name.startswith(".") and entry.suffix.lower() in (".yaml", ".yml") and entry.suffix != ".yaml":
                problems.append(DataProblem(entry, None, "", f"file {entry.name!r}", f"a name ending .yaml: {entry.stem}.yaml (only those are read)"))
    return problems


def catalogue(items: Iterable[Any], doc: YamlDocument, key: str, problems: list[DataProblem]) -> dict[str, Any]:
    """Items (models with an ``id``) by id, in file order; a repeated id is added to
    ``problems`` with its line and the line of its first use (the list ``key`` of ``doc``;
    :meth:`YamlDocument.validate` has refused one already, so this is for lists built in code)."""
    out: dict[str, Any] = {}
    ids = UniqueIds(f"{key} id", problems)
    for i, item in enumerate(items):
        ids.add(item.id, doc, (key, i, "id"))
        out.setdefault(item.id, item)
    return out


class UniqueIds:
    """The values of one kind of id (a scenario id, a scenario code, a roster id, a setup's
    name…) across the files of a data folder: the second file that gives one is a problem
    naming both files and lines.

    Example::

        >>> problems = []
        >>> ids = UniqueIds("scenario code", problems)
        >>> a = YamlDocument.parse("code: GP20\n", Path("a.yaml"))
        >>> b = YamlDocument.parse("id: b\ncode: GP20\n", Path("b.yaml"))
        >>> ids.add("GP20", a, ("code",)), ids.add("GP20", b, ("code",))
        (True, False)
        >>> print(problems[0])
        b.yaml:2: code: 'GP20' is not valid; expected a scenario code no other file uses (also at a.yaml:1)
    """

    def __init__(self, kind: str, problems: list[DataProblem]):
        self.kind = kind
        self.problems = problems
        self.first: dict[Any, tuple[Path, int | None]] = {}

    def add(self, value: Any, doc: YamlDocument, loc: tuple[Any, ...]) -> bool:
        """Record ``value`` (at ``loc`` of ``doc``); False, and a problem, when it was given
        before."""
        line = doc.line_of(loc)
        if value in self.first:
            path, first_line = self.first[value]
            same = path == doc.path
            expected = f"a {self.kind} used once" if same else f"a {self.kind} no other file uses"
            self.problems.append(DataProblem(doc.path, line, format_location(loc), repr(value), f"{expected} ({also_at(path, first_line)})"))
            return False
        self.first[value] = (doc.path, line)
        return True


def citations(obj: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Source]]:
    """Every :class:`Source` inside a model, with its path in the document."""
    if isinstance(obj, Source):
        yield loc, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from citations(getattr(obj, name), loc + (name,))
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            yield from citations(item, loc + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from citations(v, loc + (k,))


def source_problems(checked: Iterable[tuple[YamlDocument, Any]], sources: Sources, sources_doc: YamlDocument) -> list[DataProblem]:
    """Problems with the citations of ``checked`` (document, model) pairs and with the errata.

    A citation must name a document of ``sources.yaml``; a confidence ``L`` citation must carry
    a note; an erratum's ``chosen`` must index one of its readings.
    """
    known = {d.id for d in sources.documents}
    problems: list[DataProblem] = []
    for doc, model in checked:
        for loc, src in citations(model):
            if src.doc not in known:
                where = loc + ("doc",)
                problems.append(DataProblem(doc.path, doc.line_of(where), format_location(where), repr(src.doc), f"a document id of sources.yaml ({', '.join(sorted(known))})"))
            if src.confidence == "L" and not src.note:
                problems.append(DataProblem(doc.path, doc.line_of(loc), format_location(loc), "confidence L without a note", "a note saying what was inferred and from what"))
    for i, erratum in enumerate(sources.errata):
        if erratum.chosen >= len(erratum.readings):
            problems.append(DataProblem(sources_doc.path, sources_doc.line_of(("errata", i, "chosen")), f"errata[{i}].chosen", str(erratum.chosen), f"an index below {len(erratum.readings)}"))
    return problems
