"""Check that the virtual environment holds exactly what ``requirements.lock`` pins, and that the
lock covers every dependency ``pyproject.toml`` declares at a version it allows.

Run by ``make setup`` with the environment's Python (after installing the lock)::

    .venv/bin/python scripts/check_lock.py [requirements.lock] [pyproject.toml]

Exit 0 when all is well; else one line per problem and exit 1 (e.g. a dependency added to
pyproject.toml without ``make lock``: the fix is to run ``make lock`` and commit the lock).
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def locked(path: Path) -> dict[str, str]:
    """``name → version`` of every ``name==version`` line of the lock (comments skipped)."""
    out: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9._-]+)==([^\s;]+)", line)
        if not m:
            raise SystemExit(f"{path}:{n}: {line!r} is not valid; expected name==version")
        out[canonicalize_name(m.group(1))] = m.group(2)
    return out


def declared(pyproject: Path) -> list[Requirement]:
    """The runtime, ``dev`` and ``dask`` dependencies of ``pyproject.toml`` (and its build
    requirements): every one that ``make setup`` installs."""
    doc = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    reqs = list(doc["project"].get("dependencies", []))
    for extra in ("dev", "dask"):
        reqs += doc["project"].get("optional-dependencies", {}).get(extra, [])
    reqs += doc.get("build-system", {}).get("requires", [])
    return [Requirement(r) for r in reqs]


def main() -> int:
    lock = Path(sys.argv[1] if len(sys.argv) > 1 else "requirements.lock")
    pyproject = Path(sys.argv[2] if len(sys.argv) > 2 else "pyproject.toml")
    pins = locked(lock)
    problems = []
    for req in declared(pyproject):
        name = canonicalize_name(req.name)
        if name not in pins:
            problems.append(f"{pyproject}: {req} is not in {lock}; expected every dependency locked (run make lock, then commit {lock})")
        elif req.specifier and not req.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{lock}: {name}=={pins[name]} does not satisfy {req} of {pyproject} (run make lock)")
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    installed.pop("gunbai", None)
    for name, version in sorted(pins.items()):
        if installed.get(name) != version:
            problems.append(f"{lock}: {name}=={version} is locked but {installed.get(name, 'nothing')} is installed; expected the locked version (make setup)")
    for name in sorted(set(installed) - set(pins)):
        problems.append(f".venv: {name}=={installed[name]} is installed but not in {lock}; expected only locked packages (remove it, or rebuild: make distclean setup)")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
