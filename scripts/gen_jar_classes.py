"""Write ``pipeline/vassal/jar_classes.py``: the name of every class in VASSAL 3.7.26's jar.

Usage: ``.venv/bin/python scripts/gen_jar_classes.py [/work/shared/vassal/vassal-3.7.26.jar]``

The jar is the build of tag ``3.7.26`` (commit b16ccbfaa49763e9d3c523c52b253d7802d85e70) that
``/work/shared/vassal`` runs (its README gives the provenance). Only entry names are read (no
code is copied): every ``*.class`` entry, as its internal name (``VASSAL/counters/Labeler$1``),
grouped by package so the module stays small. Lint compares the classes a module's own code
refers to with this list (:func:`pipeline.vassal.lint.check_code_references`).
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

JAR = Path("/work/shared/vassal/vassal-3.7.26.jar")
OUT = Path(__file__).resolve().parent.parent / "pipeline" / "vassal" / "jar_classes.py"


def main(jar: Path = JAR) -> None:
    digest = hashlib.sha256(jar.read_bytes()).hexdigest()
    packages: dict[str, list[str]] = {}
    with zipfile.ZipFile(jar) as zf:
        for name in zf.namelist():
            if name.endswith(".class") and not name.startswith("META-INF/"):
                pkg, _, simple = name[: -len(".class")].rpartition("/")
                packages.setdefault(pkg, []).append(simple)
    count = sum(map(len, packages.values()))
    lines = [
        '"""Every class of VASSAL 3.7.26\'s jar, by package (generated: do not edit).',
        "",
        "SOURCE: ``/work/shared/vassal/vassal-3.7.26.jar``, the build of VASSAL tag ``3.7.26``",
        "(commit b16ccbfaa49763e9d3c523c52b253d7802d85e70, LGPL-2.1), sha256",
        f"``{digest}``; written by ``scripts/gen_jar_classes.py`` from the jar's entry names",
        f"({count} classes in {len(packages)} packages). Names only, no code.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "#: package (internal form, ``VASSAL/counters``) -> its classes' simple names, space-separated",
        "PACKAGES: dict[str, str] = {",
    ]
    for pkg in sorted(packages):
        names = " ".join(sorted(packages[pkg]))
        lines.append(f"    {pkg!r}: (")
        chunk = ""
        for word in names.split(" "):
            if len(chunk) + len(word) + 1 > 80:
                lines.append(f"        {chunk + ' '!r}")
                chunk = word
            else:
                chunk = f"{chunk} {word}" if chunk else word
        lines.append(f"        {chunk!r}),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT}: {count} classes, {len(packages)} packages")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else JAR)
