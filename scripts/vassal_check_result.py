#!/usr/bin/env python3
"""vassal_check_result.py TRANSCRIPT EXIT-CODE OUT.json: the machine-readable result of a
``scripts/vassal-check-build`` run, read from what it printed (its transcript).

The transcript has one line per run, in one of two shapes (``vassal-check-all``'s, then the
script's own for extensions on other bases and earlier releases' setups)::

    CLEAN         15s  genpei/samurai_battles.vmod
    PROBLEMS       -s  ohw/ohw.vmod + OHW 1.vsav  -- errorLog: ERROR ... (+2 more)
    BASE-ONLY  bases/ccnapoleonics/genpei/genpei.vmdx on ccnapoleonics.vmod: genpei.vmdx + GP19.vsav
        | problems (1):
        |     chat: ...

and a closing line ``vassal-check: C of T runs clean ...; Ns``. The JSON written (sorted keys,
two-space indent, UTF-8; written to a temporary file and renamed, so a reader never sees half
of it)::

    {"format": 1, "exit": 0, "clean": 55, "total": 55, "seconds": 641,
     "summary": "vassal-check: 55 of 55 runs clean ...",
     "runs": [{"verdict": "CLEAN", "seconds": 15, "label": "genpei/samurai_battles.vmod",
               "system": "genpei", "problems": []}, ...]}

``seconds`` of a run is null where the checker gives none (the later reports of one batch);
``system`` is the first folder of the label (``bases/…`` runs: ``genpei``). Only the standard
library: the script runs with the machine's ``python3``. ``gunbai report`` reads the file
(:mod:`pipeline.report`).
"""

from __future__ import annotations

import json
import os
import re
import sys

FORMAT = 1
VERDICTS = r"CLEAN|PROBLEMS|NOT-OPENED|TIMEOUT|ERROR|BASE-ONLY|EXIT-\d+"
#: vassal-check-all: verdict, seconds (or -), label, and the first problem after "  -- "
ALL_LINE = re.compile(rf"^(?P<verdict>{VERDICTS})\s+(?P<secs>\d+|-)s  (?P<label>.*?)(?:  -- (?P<first>.*))?$")
#: vassal-check-build's own lines (no seconds), and the ERROR lines of both without seconds
OWN_LINE = re.compile(rf"^(?P<verdict>{VERDICTS})\s+(?P<label>\S.*)$")
CLOSING = re.compile(r"^vassal-check: (?P<clean>\d+) of (?P<total>\d+) runs clean.*; (?P<secs>\d+)s$")


def system_of(label: str) -> str:
    """The game system a run's label is about: its first folder (``bases/…``: genpei, the only
    system built for other base modules; the earlier releases' setups: genpei)."""
    head = label.split("/", 1)[0] if "/" in label else ""
    if head == "bases" or label.startswith("earlier release"):
        return "genpei"
    return head


def parse(text: str) -> tuple[list[dict], dict]:
    """``(runs, closing)`` of a transcript: one dict per run line (verdict, seconds, label,
    system, problems), and the closing line's figures (empty when it is missing)."""
    runs: list[dict] = []
    closing: dict = {}
    for line in text.splitlines():
        if line.startswith("    | ") and runs:
            body = line[6:].strip()
            if body and not body.startswith(("problems (", "result:")):
                runs[-1]["problems"].append(body)
            continue
        m = CLOSING.match(line)
        if m:
            closing = {"clean": int(m["clean"]), "total": int(m["total"]), "seconds": int(m["secs"]), "summary": line}
            continue
        m = ALL_LINE.match(line)
        if m:
            first = [m["first"]] if m["first"] else []
            runs.append({"verdict": m["verdict"], "seconds": None if m["secs"] == "-" else int(m["secs"]),
                         "label": m["label"].strip(), "problems": first})
        elif (m := OWN_LINE.match(line)) is not None:
            runs.append({"verdict": m["verdict"], "seconds": None, "label": m["label"].strip(), "problems": []})
        else:
            continue
        runs[-1]["system"] = system_of(runs[-1]["label"])
    return runs, closing


def write(transcript: str, exit_code: int, out_path: str) -> None:
    """Write the result file of ``transcript`` (its text) and the script's ``exit_code``."""
    runs, closing = parse(transcript)
    doc = {"format": FORMAT, "exit": exit_code, "runs": runs,
           "clean": closing.get("clean", sum(r["verdict"] in ("CLEAN", "BASE-ONLY") for r in runs)),
           "total": closing.get("total", len(runs)), "seconds": closing.get("seconds"), "summary": closing.get("summary", "")}
    tmp = f"{out_path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, out_path)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: vassal_check_result.py TRANSCRIPT EXIT-CODE OUT.json")
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        write(f.read(), int(sys.argv[2]), sys.argv[3])
