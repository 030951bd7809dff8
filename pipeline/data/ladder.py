"""The ladder record of a system: ``source_data/<system>/ladder.yaml``, what head-to-head play
proved of the system's policies on each playable scenario (``gunbai verify --ladder`` writes it;
the balance verdicts of ``gunbai verify --play`` read it and play each scenario's strongest
proven policy).

The module maker commits the file beside the data: a fresh clone's verdicts then come from the
proven policy without replaying the ladder. The record names the digest of the engine code it
was played with; a verdict from a record of other code says so (the proof may no longer hold).

Example (one scenario; the figures of every side are kept so that the README's table can be
written from the file)::

    format: 1
    system: ohw
    scenarios:
      ohw04:
        label: OHW4 Flank Attack
        seed: 1
        code: 3f0c…            # code_digest of the engine that played it
        proven: [random, greedy]
        pairs:
        - weaker: random
          stronger: greedy
          proven: true
          sides:
          - {name: Blue, games: 100, wins: 87, baseline_games: 100, baseline_wins: 20,
             low: 0.55, high: 0.77, stronger: true}
          - …

A policy is proven on a scenario when every pair from the bottom of the ladder up to it is
(:mod:`pipeline.play.ladder`: on each side at least 10 points more wins than the weaker policy,
the 95% interval of the difference above zero).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import Field

from pipeline.data.common import Id, Strict
from pipeline.data.yamlfile import YamlDocument

#: The record's file name in a system's data folder.
LADDER_FILE = "ladder.yaml"
#: The record's format (written as ``format:``).
FORMAT = 1

Share = Annotated[float, Field(ge=-1, le=1)]
Count = Annotated[int, Field(ge=0, le=10_000_000)]
Name = Annotated[str, Field(min_length=1, max_length=64)]


class RecordSide(Strict):
    """One side of one pair: the stronger policy's games and wins on this side against the
    weaker one, the weaker policy's against itself, and the 95% interval (``low``, ``high``) of
    the difference of the two win rates (shares, -1 to 1)."""

    name: str
    games: Count
    wins: Count
    baseline_games: Count
    baseline_wins: Count
    low: Share
    high: Share
    stronger: bool


class RecordPair(Strict):
    """An adjacent pair of the ladder as played: ``stronger`` proven over ``weaker`` when it is
    on both sides."""

    weaker: Name
    stronger: Name
    proven: bool
    sides: list[RecordSide]


class RecordScenario(Strict):
    """What the ladder proved on one scenario.

    Attributes:
        label: the scenario as the reports name it.
        seed: the ladder's seed.
        code: the digest of the engine code that played it (:func:`pipeline.verdicts.code_digest`).
        turn_cap: the player turns after which a game was cut off.
        proven: the policies proven, weakest first (the unbroken run of proven pairs from the
            bottom; the first is the bottom of the ladder, proven by definition).
        pairs: the pairs played, from the bottom (the climb stops at the first pair not proven).
    """

    label: str
    seed: int
    code: str
    turn_cap: Count
    proven: list[Name]
    pairs: list[RecordPair] = Field(default_factory=list)


class LadderFile(Strict):
    """The whole record of a system (module docstring)."""

    format: Annotated[int, Field(ge=FORMAT, le=FORMAT)]
    system: Id
    scenarios: dict[Id, RecordScenario] = Field(default_factory=dict)


class FileRecord:
    """The ladder records of the systems of a data folder, as :class:`pipeline.play.verdict.LadderRecord`.

    >>> FileRecord({}).proven("ohw", "ohw04")
    ()
    """

    def __init__(self, files: dict[str, LadderFile]) -> None:
        self.files = files

    @classmethod
    def read(cls, data_root: Path, systems: Sequence[str]) -> FileRecord:
        """The records of ``systems`` under ``data_root`` (a system without a ``ladder.yaml`` has
        none).

        Raises:
            DataError: a record is not valid YAML or not of the record's shape (file, line, value).
        """
        files: dict[str, LadderFile] = {}
        for name in systems:
            path = Path(data_root) / name / LADDER_FILE
            if path.exists():
                files[name] = YamlDocument.load(path).validate(LadderFile)
        return cls(files)

    def scenario(self, system: str, scenario: str) -> RecordScenario | None:
        """The record of one scenario, or None."""
        f = self.files.get(system)
        return f.scenarios.get(scenario) if f is not None else None

    def proven(self, system: str, scenario: str) -> Sequence[str]:
        """The policies proven on ``scenario``, weakest first (empty without a record)."""
        s = self.scenario(system, scenario)
        return tuple(s.proven) if s is not None else ()

    def digest(self) -> str:
        """SHA-256 of every record (its canonical dump)."""
        h = hashlib.sha256(b"gunbai ladder record\0")
        for name in sorted(self.files):
            h.update(f"{name}\0{self.files[name].model_dump_json()}\0".encode())
        return h.hexdigest()


def dump(record: LadderFile) -> str:
    """The record as the YAML text ``gunbai verify --ladder`` writes (keys in a fixed order,
    scenarios sorted: the same record, the same bytes)."""
    data = record.model_dump(mode="json")
    data["scenarios"] = {k: data["scenarios"][k] for k in sorted(data["scenarios"])}
    head = ("# The ladder record (gunbai verify --ladder): what head-to-head play proved of this system's\n"
            "# policies on each scenario. gunbai verify --play plays each scenario's strongest proven policy.\n")
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
