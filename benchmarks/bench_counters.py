"""Benchmark of incremental counter rendering (`gunbai counters` and its render cache).

Usage: .venv/bin/python benchmarks/bench_counters.py [--data source_data]

Copies the data to a temporary folder and times three runs of the counters job into a fresh
output folder (and so a fresh cache under ``<out>/genpei/.cache``):

1. cold: empty cache, every image drawn;
2. no change: the same data again, every image read from the cache;
3. one-unit change: the English name of one unit type changed in units.yaml. Its counters show
   the abbreviation and the Japanese name, not the English name, and the cache key is the
   drawing the template renders, so no counter is drawn again (its card is, by ``gunbai
   cards``/``build``);
4. one-unit drawn change: its Japanese name changed: exactly its counters (one per army colour)
   are drawn again.

For each it prints the seconds of the whole job (load data + render + write) and of the render
step alone, and how many images were drawn and reused.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.output import write_images  # noqa: E402
from pipeline.systems.genpei import art  # noqa: E402
from pipeline.systems.genpei.build import CACHE_DIR, layout_of  # noqa: E402
from pipeline.systems.genpei.load import load  # noqa: E402


def run(data_dir: Path, out_dir: Path) -> tuple[float, float, int, int]:
    t0 = time.perf_counter()
    data = load(data_dir)
    layout = layout_of(data)
    t1 = time.perf_counter()
    cache = art.render_cache(out_dir / CACHE_DIR)
    pngs = cache.render_all(art.all_counter_jobs(data, layout))
    write_images(out_dir / "images", pngs)
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1, len(cache.rendered), len(cache.reused)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("source_data"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "genpei"
        shutil.copytree(args.data / "genpei", data_dir)
        out_dir = Path(tmp) / "out"
        rows = [("cold", *run(data_dir, out_dir)), ("no change", *run(data_dir, out_dir))]
        units = data_dir / "units.yaml"
        text = units.read_text(encoding="utf-8")
        changed, n = re.subn(r"(\n    name: )([^\n]+)", r"\1\2 Changed", text, count=1)
        assert n == 1, "no unit name found in units.yaml"
        units.write_text(changed, encoding="utf-8")
        rows.append(("name change", *run(data_dir, out_dir)))
        text = units.read_text(encoding="utf-8")
        changed, n = re.subn(r"(\n    name_ja: )([^\n]+)", r"\1\2隊", text, count=1)
        assert n == 1, "no name_ja found in units.yaml"
        units.write_text(changed, encoding="utf-8")
        rows.append(("name_ja change", *run(data_dir, out_dir)))
    print(f"{'run':<16} {'job s':>7} {'render s':>9} {'drawn':>6} {'reused':>7}")
    for name, job, render, drawn, reused in rows:
        print(f"{name:<16} {job:7.2f} {render:9.3f} {drawn:6d} {reused:7d}")


if __name__ == "__main__":
    main()
