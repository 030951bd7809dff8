"""The ``gunbai`` command line (Typer).

Commands::

    gunbai build     [--data source_data] [--out build]   # verify, render, write modules
    gunbai verify    [--data source_data] [SCENARIO.yaml…] [--explain RULE]
    gunbai counters  [--data source_data] [--out build]   # counter images only
    gunbai cards     [--data source_data] [--out build]   # reference cards only
    gunbai lint      PATH…                                 # check .vmod/.vmdx/.vsav files
    gunbai schema    [--out source_data/genpei/schema]     # JSON Schema of the data files

Every command exits 0 on success and 1 on a problem, printing one line per problem.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.errors import GunbaiError

app = typer.Typer(
    help="gunbai: samurai-era wargame data in, verified scenarios and VASSAL modules, counters and cards out.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)

DataOpt = Annotated[Path, typer.Option("--data", help="The canonical data folder (one sub-folder per game system).")]
OutOpt = Annotated[Path, typer.Option("--out", help="Where outputs go (one sub-folder per game system).")]


def _fail(exc: GunbaiError) -> None:
    for line in str(exc).splitlines():
        err.print(line, markup=False)
    raise typer.Exit(1)


@app.command()
def build(
    data: DataOpt = Path("source_data"),
    out_dir: OutOpt = Path("build"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Verify every scenario, render counters and cards, and write the VASSAL modules."""
    from pipeline.build import build_all

    try:
        results = build_all(data, out_dir, progress=not quiet)
    except GunbaiError as exc:
        _fail(exc)
    for r in results:
        out.print(r.summary(), markup=False)


@app.command()
def verify(
    scenarios: Annotated[list[Path] | None, typer.Argument(help="Scenario files to check (default: every scenario of every system).")] = None,
    data: DataOpt = Path("source_data"),
    explain: Annotated[str | None, typer.Option("--explain", help="Print the rule with this id and its source.")] = None,
) -> None:
    """Check scenarios against the rules: one line per problem, exit 1 when any."""
    from pipeline.build import verify_all
    from pipeline.systems.genpei import verify as gv

    if explain is not None:
        try:
            out.print(gv.explain(explain), markup=False)
        except KeyError:
            err.print(f"no rule {explain!r}; rules: {', '.join(sorted(gv.RULES))}", markup=False)
            raise typer.Exit(1) from None
        return
    try:
        findings, count = verify_all(data, scenarios)
    except GunbaiError as exc:
        _fail(exc)
    for f in findings:
        err.print(str(f), markup=False)
    if findings:
        err.print(f"{len(findings)} problem(s) in {count} scenario(s)", markup=False)
        raise typer.Exit(1)
    out.print(f"{count} scenario(s) legal", markup=False)


def _render(data: Path, out_dir: Path, what: str) -> None:
    from pipeline.build import render_only

    try:
        for line in render_only(data, out_dir, what=what):
            out.print(line, markup=False)
    except GunbaiError as exc:
        _fail(exc)


@app.command()
def counters(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build")) -> None:
    """Render every counter image (PNG) of every system into OUT/<system>/images/."""
    _render(data, out_dir, "counters")


@app.command()
def cards(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build")) -> None:
    """Render every reference card (PNG) of every system into OUT/<system>/cards/."""
    _render(data, out_dir, "cards")


@app.command()
def lint(paths: Annotated[list[Path], typer.Argument(help=".vmod, .vmdx or .vsav files.")]) -> None:
    """Check VASSAL files for what makes VASSAL fail or misbehave; exit 1 on any error."""
    from pipeline.vassal.lint import lint as lint_file

    errors = 0
    for path in paths:
        try:
            findings = lint_file(path)
        except GunbaiError as exc:
            err.print(f"error {path}: {exc}", markup=False)
            errors += 1
            continue
        for f in findings:
            err.print(f"{f.severity} {path}:{f.entry}:{f.element_path}: {f.message}", markup=False)
            errors += f.severity == "error"
        if not findings:
            out.print(f"{path}: ok", markup=False)
    if errors:
        raise typer.Exit(1)


@app.command()
def schema(out_dir: Annotated[Path, typer.Option("--out")] = Path("source_data/genpei/schema")) -> None:
    """Write the JSON Schema of each data file, for editors that complete and check YAML."""
    from pipeline.schema import write_schemas

    for path in write_schemas(out_dir):
        out.print(str(path), markup=False)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
