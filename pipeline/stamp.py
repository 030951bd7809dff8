"""Build stamps: skip a game system whose inputs, code and outputs are as the last build left them.

After a successful ``gunbai build`` each system's output folder gets ``.gunbai-stamp.json``
holding

- ``inputs``: the SHA-256 of everything the build reads — every file of the system's data
  folder, the templates (the system's own and the shared ones), the Python code of ``pipeline/``
  (the system's own package and the shared packages, not the other systems'), the dependency
  lock and ``pyproject.toml``, the Python version, ``SOURCE_DATE_EPOCH`` and the build options;
- ``outputs``: every file the build wrote (or found already right) with its size and
  modification time; other files in the folder (``verify --play``'s chart) do not matter;
- ``summary``: the line the build printed.

:func:`fresh` recomputes the digest and looks at the outputs; when both match, the system is
skipped. Only the standard library is imported here, so ``gunbai build`` with nothing to do
answers before importing any drawing, YAML or VASSAL code (:mod:`pipeline.launch`).

A file deleted or edited in the output folder, or a stamp written by another version, makes
the system build again. ``gunbai build --force`` ignores the stamps.

The jobs ``gunbai counters``, ``cards`` and ``sheets`` (:data:`JOBS`) answer from the same
stamps: a job has nothing to do when the build stamp is fresh (a build writes every job's
outputs) or when its own stamp, ``.gunbai-stamp-<job>.json`` (the same record, over the files
that job wrote, with the job's name among the options), is (:func:`job_fresh`). Both are checked
from one walk of the inputs (:func:`tree_digest`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

#: The stamp's file name inside ``build/<system>/``.
STAMP_FILE = ".gunbai-stamp.json"
#: Stamp format; a stamp of another format is stale.
FORMAT = 1

#: The repository (holds ``pipeline/``, ``templates/``, ``pyproject.toml``).
REPO = Path(__file__).resolve().parents[1]
#: The game systems: each has ``pipeline/systems/<name>/`` and ``templates/<name>/``.
SYSTEMS = ("genpei", "ronin", "ohw", "sekigahara")
#: Files of the repository that pin the dependencies.
DEPENDENCY_FILES = ("pyproject.toml", "requirements.lock")
#: Stands for the output folder in a stamp's summary line (a moved folder is named as it is now).
OUT_MARK = "<out>"
#: Build options that change what is written (part of each system's digest).
BUILD_OPTIONS = {"print_sheets": True}
#: The commands that write one kind of output (each may keep its own stamp).
JOBS = ("counters", "cards", "sheets")


def stamp_file(job: str | None = None) -> str:
    """The stamp's file name inside ``build/<system>/``: the build's (``job`` None) or a job's
    (``.gunbai-stamp-counters.json``).

    >>> stamp_file(), stamp_file("cards")
    ('.gunbai-stamp.json', '.gunbai-stamp-cards.json')
    """
    if job is None:
        return STAMP_FILE
    if job not in JOBS:
        raise ValueError(f"{job!r} is not a job ({', '.join(JOBS)})")
    return f".gunbai-stamp-{job}.json"


def job_options(job: str) -> dict:
    """The options of a job's stamp (its digest is of the same inputs as a build's)."""
    return {"job": job}


def job_line(system: str, job: str) -> str:
    """The line ``gunbai counters``/``cards``/``sheets`` prints for a system with nothing to do."""
    return f"{system}: {job} unchanged since the last run, skipped"


def skipped_line(system: str, summary: str) -> str:
    """The line ``gunbai build`` prints for a system it skipped, from its last build's line."""
    return f"{system}: unchanged since the last build, skipped ({summary.split(': ', 1)[-1].split('; ')[0]})"


def _files(folder: Path, skip: set[Path] = frozenset()) -> list[Path]:  # type: ignore[assignment]
    out: list[Path] = []
    if not folder.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith(".") and here / d not in skip)
        out.extend(here / f for f in sorted(filenames) if not f.startswith(".") and not f.endswith((".pyc", ".tmp")) and here / f not in skip)
    return out


def _hash_tree(h, label: str, folder: Path, skip: set[Path] = frozenset()) -> None:  # type: ignore[assignment]
    for path in _files(folder, skip):
        h.update(f"{label}/{path.relative_to(folder).as_posix()}\0".encode())
        h.update(path.read_bytes())
        h.update(b"\0")


def paths_digest(h, label: str, paths, skip: set[Path] = frozenset()) -> None:  # type: ignore[assignment]
    """Feed ``h`` (a :mod:`hashlib` object) every file of ``paths`` (files, or folders walked
    as :func:`inputs_digest` walks them: no dot files, caches or ``skip``), each named by its
    path relative to the repository (or to its folder, outside it) and ``label``; a missing
    path counts as such."""
    for path in paths:
        path = Path(path)
        name = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
        if path.is_dir():
            _hash_tree(h, f"{label}/{name}", path, set(skip))
        elif path.is_file():
            h.update(f"{label}/{name}\0".encode() + path.read_bytes() + b"\0")
        else:
            h.update(f"{label}/{name}\0-missing\0".encode())


def environment_digest(h) -> None:
    """Feed ``h`` what every digest of gunbai's results shares: the Python version and the
    dependency lock (:data:`DEPENDENCY_FILES`)."""
    h.update(f"{sys.version}\0".encode())
    for name in DEPENDENCY_FILES:
        p = REPO / name
        h.update(name.encode() + b"\0" + (p.read_bytes() if p.is_file() else b"-") + b"\0")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_closure(distributions) -> list[str]:
    """The installed distributions ``distributions`` (names as PyPI spells them) need, theirs
    included, each once, normalised (``pydantic_core`` → ``pydantic-core``) and sorted; an
    extra's requirements are left out, a name not installed is kept as it is."""
    from importlib import metadata

    seen: set[str] = set()
    todo = [_normal(d) for d in distributions]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for r in requires:
            if "extra ==" not in r.replace('"', "'"):
                todo.append(_normal(re.match(r"[A-Za-z0-9._-]+", r).group(0)))
    return sorted(seen)


def locked_digest(h, distributions) -> None:
    """Feed ``h`` the Python version and the lines of ``requirements.lock`` that pin
    :func:`requirement_closure` of ``distributions`` (a distribution the lock does not pin
    counts as such): a digest that a new package elsewhere in the lock leaves standing."""
    h.update(f"{sys.version}\0".encode())
    lock = REPO / "requirements.lock"
    pins = {}
    for line in (lock.read_text().splitlines() if lock.is_file() else []):
        if "==" in line and not line.lstrip().startswith("#"):
            name, _, version = line.partition("==")
            pins[_normal(name.strip())] = version.strip()
    for name in requirement_closure(distributions):
        h.update(f"{name}=={pins.get(name, '-')}\0".encode())


def tree_digest(data_dir: Path, system: str) -> str:
    """SHA-256 (hex) of the files a build or a job of ``system`` from ``data_dir`` reads (the
    data folder, the templates, the code, the lock; see the module doc), without the options."""
    h = hashlib.sha256(f"gunbai-stamp {FORMAT}\0{sys.version}\0".encode())
    h.update(json.dumps({"SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "")}, sort_keys=True).encode())
    _hash_tree(h, "data", Path(data_dir))
    others = {s for s in SYSTEMS if s != system}
    _hash_tree(h, "templates", REPO / "templates", {REPO / "templates" / s for s in others})
    _hash_tree(h, "pipeline", REPO / "pipeline", {REPO / "pipeline" / "systems" / s for s in others})
    for name in DEPENDENCY_FILES:
        p = REPO / name
        h.update(name.encode() + b"\0" + (p.read_bytes() if p.is_file() else b"-") + b"\0")
    return h.hexdigest()


def with_options(tree: str, options: dict | None) -> str:
    """The inputs digest of a :func:`tree_digest` ``tree`` built with ``options``."""
    return hashlib.sha256(f"{tree}\0".encode() + json.dumps({"options": options or {}}, sort_keys=True).encode()).hexdigest()


def inputs_digest(data_dir: Path, system: str, options: dict | None = None) -> str:
    """SHA-256 (hex) of everything a build of ``system`` from ``data_dir`` depends on (see the
    module doc). ``options`` are the build options that change the outputs (a job's:
    :func:`job_options`)."""
    return with_options(tree_digest(data_dir, system), options)


def outputs_listing(out_dir: Path, names: list[str]) -> dict[str, list[int] | None]:
    """Each of ``names`` (paths relative to ``out_dir``) → ``[size, mtime_ns]``, or None when
    it does not exist."""
    out: dict[str, list[int] | None] = {}
    for name in sorted(names):
        try:
            st = (Path(out_dir) / name).stat()
        except OSError:
            out[name] = None
            continue
        out[name] = [st.st_size, st.st_mtime_ns]
    return out


def fresh(data_dir: Path, out_dir: Path, system: str, options: dict | None = None, *, job: str | None = None,
          tree: str | None = None) -> str | None:
    """The summary line of the last build (or of the last run of ``job``) when ``out_dir``
    holds exactly what it wrote from the same inputs (so the system can be skipped), else
    None. ``tree``: the :func:`tree_digest` when the caller has it (not walked again)."""
    try:
        stamp = json.loads((Path(out_dir) / stamp_file(job)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or stamp.get("format") != FORMAT:
        return None
    outputs = stamp.get("outputs")
    if not isinstance(outputs, dict) or not outputs or outputs != outputs_listing(Path(out_dir), list(outputs)):
        return None
    if tree is None:
        tree = tree_digest(data_dir, system)
    if stamp.get("inputs") != with_options(tree, options):
        return None
    summary = stamp.get("summary")
    # the paths in the line are the output folder's as it is now (a moved folder is named anew)
    return summary.replace(OUT_MARK, str(out_dir)) if isinstance(summary, str) else None


def job_fresh(data_dir: Path, out_dir: Path, system: str, job: str, tree: str | None = None) -> bool:
    """True when ``job`` (``counters``, ``cards``, ``sheets``) of ``system`` has nothing to do:
    the build stamp (:data:`BUILD_OPTIONS`) or the job's own stamp is fresh. The inputs are
    walked once (``tree``: already walked)."""
    if not (Path(out_dir) / STAMP_FILE).is_file() and not (Path(out_dir) / stamp_file(job)).is_file():
        return False
    tree = tree if tree is not None else tree_digest(data_dir, system)
    return (fresh(data_dir, out_dir, system, BUILD_OPTIONS, tree=tree) is not None
            or fresh(data_dir, out_dir, system, job_options(job), job=job, tree=tree) is not None)


def write(out_dir: Path, digest: str, summary: str, files: list[Path], *, job: str | None = None) -> None:
    """Record a successful build (or run of ``job``) of ``out_dir`` from inputs ``digest``
    that wrote ``files`` (call after the outputs are in place). Written atomically; a failure
    to write only costs a rebuild next time."""
    names = [os.path.relpath(f, out_dir) for f in files]
    summary = summary.replace(str(out_dir) + os.sep, OUT_MARK + os.sep)
    data = json.dumps({"format": FORMAT, "inputs": digest, "summary": summary, "outputs": outputs_listing(Path(out_dir), names)}, sort_keys=True, indent=1)
    path = Path(out_dir) / stamp_file(job)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(data, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def remove(out_dir: Path, job: str | None = None) -> None:
    """Forget the stamp of ``out_dir`` (the next build of it is a full one), or ``job``'s."""
    (Path(out_dir) / stamp_file(job)).unlink(missing_ok=True)
