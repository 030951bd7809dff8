"""The README's ladder table from the ladder records (``source_data/<system>/ladder.yaml``).

    .venv/bin/python scripts/ladder_table.py [--data source_data]

One row per scenario, pair and side: the games of the stronger policy against the weaker on that
side and of the weaker against itself, both win rates, the difference with its 95% Newcombe
interval, and whether that side shows the stronger policy; then per scenario the strongest
policy proven.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.data.ladder import FileRecord  # noqa: E402
from pipeline.systems.base import SYSTEMS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("source_data"))
    args = ap.parse_args()
    record = FileRecord.read(args.data, list(SYSTEMS))
    print("| scenario | pair (S > W) | side | games S v W / W v W | S wins | W wins | difference, points (95% CI) | side shows S stronger |")
    print("|---|---|---|---|---|---|---|---|")
    tops = []
    for system in SYSTEMS:
        f = record.files.get(system)
        if f is None:
            continue
        for sc in f.scenarios.values():
            for p in sc.pairs:
                for s in p.sides:
                    sw, ww = s.wins / s.games, s.baseline_wins / s.baseline_games
                    print(f"| {sc.label} | {p.stronger} > {p.weaker} | {s.name} | {s.games} / {s.baseline_games} | {sw:.0%} | {ww:.0%} | "
                          f"{100 * (sw - ww):+.0f} ({100 * s.low:+.0f} to {100 * s.high:+.0f}) | {'yes' if s.stronger else 'no'} |")
            tops.append((sc.label, sc.proven, sc.pairs[-1] if sc.pairs else None))
    print()
    print("| scenario | policies proven | the pair above not proven |")
    print("|---|---|---|")
    for label, proven, last in tops:
        above = f"{last.stronger} > {last.weaker}" if last is not None and not last.proven else "—"
        print(f"| {label} | {' < '.join(proven)} | {above} |")


if __name__ == "__main__":
    main()
