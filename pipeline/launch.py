"""The ``gunbai`` entry point: answers a ``gunbai build``, ``counters``, ``cards`` or ``sheets``
that has nothing to do before importing the command line library, the drawing engine or any
game system.

``gunbai build`` (or a job) with only ``--data``, ``--out``, ``--system``, ``--jobs`` or
``--quiet`` looks at each system's stamp (:mod:`pipeline.stamp`, standard library only; a job
takes its own stamp or the build's). When every system is unchanged it prints the usual lines
and exits 0 in a fraction of a second. In every other case
(something changed, another command, ``--help``, anything it does not recognise, a bad
environment) it hands over to the full command line (:mod:`pipeline.cli`), which does the work
and reports problems.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: The commands besides ``build`` the fast path answers (:data:`pipeline.stamp.JOBS`).
_JOBS = ("counters", "cards", "sheets")
#: ``gunbai build`` options the fast path understands (option → takes a value).
_OPTIONS = {"--data": True, "--out": True, "--system": True, "--jobs": True, "-j": True, "--quiet": False, "-q": False}


def _parse(args: list[str]) -> dict[str, str | None] | None:
    opts: dict[str, str | None] = {"--data": "source_data", "--out": "build", "--system": None}
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if name not in _OPTIONS:
            return None
        if _OPTIONS[name]:
            if not eq:
                if i + 1 >= len(args):
                    return None
                value = args[i + 1]
                i += 1
            opts[name] = value
        elif eq:
            return None
        i += 1
    return opts


def fast_build(args: list[str], job: str | None = None) -> list[str] | None:
    """The lines ``gunbai build ARGS`` (``job``: ``gunbai counters ARGS``, ``cards``,
    ``sheets``) prints when every system it would build is unchanged since its last build (or
    run of the job), or None when there is work to do (or anything to report)."""
    from pipeline import stamp

    opts = _parse(args)
    if opts is None:
        return None
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch and not (epoch.isascii() and epoch.isdigit() and len(epoch) <= 12):
        return None
    data, out = Path(str(opts["--data"])), Path(str(opts["--out"]))
    if not data.is_dir():
        return None
    folders = sorted(d.name for d in data.iterdir() if d.is_dir() and not d.name.startswith((".", "_")))
    if any(f not in stamp.SYSTEMS for f in folders):
        return None
    chosen = [opts["--system"]] if opts["--system"] else [s for s in stamp.SYSTEMS if s in folders]
    if not chosen or any(s not in folders for s in chosen):
        return None
    lines = []
    for system in chosen:
        if job is not None:
            if not stamp.job_fresh(data / str(system), out / str(system), str(system), job):
                return None
            lines.append(stamp.job_line(str(system), job))
            continue
        last = stamp.fresh(data / str(system), out / str(system), str(system), stamp.BUILD_OPTIONS)
        if last is None:
            return None
        lines.append(stamp.skipped_line(str(system), last))
    return lines


def main() -> None:
    """Console entry point (``gunbai``). Ctrl-C at any moment (even while modules are still
    being imported) exits 130 with one line saying what was kept; SIGTERM likewise, exit 143."""
    from pipeline.errors import Terminated, handle_sigterm

    handle_sigterm()
    try:
        args = sys.argv[1:]
        if args[:1] and args[0] in ("build", *_JOBS):
            try:
                lines = fast_build(args[1:], None if args[0] == "build" else args[0])
            except OSError:
                lines = None
            if lines is not None:
                sys.stdout.write("".join(line + "\n" for line in lines))
                sys.stdout.flush()
                return
        from pipeline.cli import main as cli_main
    except KeyboardInterrupt as exc:
        terminated = isinstance(exc, Terminated)
        sys.stderr.write(f"gunbai: {'terminated' if terminated else 'interrupted'}; nothing was written\n")
        sys.exit(143 if terminated else 130)
    cli_main()


if __name__ == "__main__":  # pragma: no cover
    main()
