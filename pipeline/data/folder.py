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
from pipeline.data.yamlfile import YamlDocument, format_location
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


def catalogue(items: Iterable[Any], doc: YamlDocument, key: str, problems: list[DataProblem]) -> dict[str, Any]:
    """Items (models with an ``id``) by id, in file order; a repeated id is added to
    ``problems`` with its line (the list ``key`` of ``doc``)."""
    out: dict[str, Any] = {}
    for i, item in enumerate(items):
        if item.id in out:
            problems.append(DataProblem(doc.path, doc.line_of((key, i, "id")), f"{key}[{i}].id", repr(item.id), "an id not used before in this file"))
        out[item.id] = item
    return out


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
