"""Issue 14's build targets measured on the issue's own yardstick, whatever the machine.

Usage: .venv/bin/python benchmarks/bench_reference.py [--rounds N] [--all] [--data source_data]

Issue 14 gave its targets (a cold Genpei build in at most 4 s wall on 2 cores, all four systems
in at most 15 s) on a machine where the LaTeX ``wargame`` package's tutorial (Debian
texlive-games 0.3.2: ``pdflatex export.tex``, then its exporter ``wgexport.py``, 78 counters)
took 6.4 s of CPU. Machines differ by 2-3× from one day to the next here, so a wall time alone
says little; this script runs that same tutorial and gunbai's cold builds in turn, ``--rounds``
times (default 3), under the same load, and prints for each round:

- the tutorial's CPU and wall seconds (every process it started);
- a cold ``gunbai build --system genpei`` (empty output folder, empty render cache; verify,
  images, module, extension, print PDFs): CPU and wall seconds, and CPU as a multiple of the
  tutorial's (the issue measured 1.65× when it was filed);
- with ``--all``, a cold ``gunbai build`` of the four systems the same way;

then the medians, this machine's speed next to the issue's (``f`` = tutorial CPU here / 6.4 s)
and each target scaled by ``f``: a cold Genpei build meets the issue's 4 s when its wall time here
is at most ``4 × f`` seconds.

Needs Debian's TeX packages (not part of gunbai's product, so ``make setup`` does not install
them): ``apt-get install texlive-games texlive-pictures texlive-latex-recommended
texlive-latex-extra poppler-utils``. The exporter runs in gunbai's own virtual environment (it
needs Pillow). Without them the script says what is missing and exits 2.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = Path("/usr/share/doc/texlive-doc/latex/wargame/tutorial")
#: CPU seconds of the tutorial on the machine issue 14's targets were set on.
ISSUE_REFERENCE_CPU = 6.4
#: Issue 14's wall-time targets on that machine, seconds on 2 cores.
TARGETS = {"genpei": 4.0, "all": 15.0}
APT = "apt-get install texlive-games texlive-pictures texlive-latex-recommended texlive-latex-extra poppler-utils"


def children_cpu() -> float:
    """User + system seconds of every reaped child process so far."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``cmd`` to completion: ``(CPU seconds of it and its children, wall seconds)``.

    Raises:
        SystemExit: the command failed (its standard error is shown).
    """
    c0, w0 = children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - w0, children_cpu() - c0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return cpu, wall


def tutorial_copy(dest: Path) -> Path:
    """The tutorial's sources unpacked into ``dest``; the path of ``wgexport.py``.

    Raises:
        SystemExit: TeX Live's wargame package, pdflatex or poppler's tools are missing (exit 2).
    """
    wgexport = subprocess.run(["kpsewhich", "wgexport.py"], capture_output=True, text=True, check=False).stdout.strip() \
        if shutil.which("kpsewhich") else ""
    missing = [n for n in ("pdflatex", "pdfinfo", "pdftocairo") if not shutil.which(n)]
    if not TUTORIAL.is_dir() or not wgexport or missing:
        print(f"the LaTeX wargame tutorial is not installed (missing: {', '.join(missing) or TUTORIAL}); {APT}", file=sys.stderr)
        sys.exit(2)
    for f in TUTORIAL.iterdir():
        if f.suffix == ".gz":
            (dest / f.stem).write_bytes(gzip.decompress(f.read_bytes()))
        elif f.is_file():
            shutil.copyfile(f, dest / f.name)
    return Path(wgexport)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--all", action="store_true", help="also a cold build of all four systems")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    args = ap.parse_args()
    python = sys.executable
    rows: dict[str, list[tuple[float, float]]] = {"tutorial": [], "genpei": [], "all": []}
    with tempfile.TemporaryDirectory(prefix="gunbai-ref-") as tmp:
        tut = Path(tmp) / "tutorial"
        tut.mkdir()
        wgexport = tutorial_copy(tut)
        env = {**os.environ, "TEXINPUTS": ":..:"}
        print(f"{'round':<6}{'run':<22}{'CPU s':>8}{'wall s':>8}{'× tutorial CPU':>16}  load")
        for n in range(1, args.rounds + 1):
            load = os.getloadavg()[0]
            c1, w1 = timed(["pdflatex", "-interaction=nonstopmode", "export.tex"], tut, env)
            c2, w2 = timed([python, str(wgexport), "export.pdf", "export.json", "-p", "patch.py", "-r", "game.pdf",
                            "-d", "Example module from LaTeX PnP game", "-t", "LaTeX wargame tutorial", "-v", "0.1",
                            "-o", "Game.vmod"], tut)
            ref = (c1 + c2, w1 + w2)
            rows["tutorial"].append(ref)
            print(f"{n:<6}{'tutorial (78 counters)':<22}{ref[0]:>8.2f}{ref[1]:>8.2f}{'':>16}  {load:.2f}")
            runs = [("genpei", ["--system", "genpei"])] + ([("all", [])] if args.all else [])
            for name, extra in runs:
                out = Path(tmp) / f"out-{name}-{n}"
                load = os.getloadavg()[0]
                got = timed([python, "-m", "pipeline", "build", *extra, "--data", str(args.data), "--out", str(out), "--quiet"], ROOT)
                rows[name].append(got)
                label = "cold genpei" if name == "genpei" else "cold all four"
                print(f"{n:<6}{label:<22}{got[0]:>8.2f}{got[1]:>8.2f}{got[0] / ref[0]:>15.2f}×  {load:.2f}")
                shutil.rmtree(out, ignore_errors=True)
    ref_cpu = statistics.median(c for c, _ in rows["tutorial"])
    f = ref_cpu / ISSUE_REFERENCE_CPU
    speed = f"{f:.2f}× slower than" if f >= 1 else f"{1 / f:.2f}× faster than"
    print(f"\ntutorial median {ref_cpu:.2f} s CPU here, {ISSUE_REFERENCE_CPU} s on the issue's machine: this machine is {speed} that one")
    for name in ("genpei", "all"):
        if not rows[name]:
            continue
        cpu = statistics.median(c for c, _ in rows[name])
        wall = statistics.median(w for _, w in rows[name])
        target = TARGETS[name] * f
        verdict = "met" if wall <= target else "not met"
        print(f"cold {'genpei' if name == 'genpei' else 'all four'}: median {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"({cpu / ref_cpu:.2f}× the tutorial); the issue's {TARGETS[name]:g} s is {target:.2f} s here: {verdict}")
    print(f"load average now {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
