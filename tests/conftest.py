"""Suite-wide test settings.

Hypothesis runs under the ``gunbai`` profile: no per-example deadline and no "too slow" health
check, so that a property test never fails because the machine is busy (issue 29, item 8: a
200 ms deadline failed ``test_split_levels_agrees_with_peeling`` once on a loaded machine).
Test modules may still set ``max_examples``; they inherit the rest from this profile.
"""

import os
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import HealthCheck, settings

settings.register_profile("gunbai", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gunbai")


# ---------------------------------------------------------------------------------------------
# One build of the shipped data for the whole run, shared by every test process (issue 30,
# item 4). `make test` runs pytest-xdist workers (`-n auto`); a fixture that builds everything
# once per module (or per process) would build it once per worker and per test file. Under
# xdist the folder is in the run's shared temporary folder (the parent of each worker's
# basetemp, fresh for each run), and a file lock lets the first worker build while the others
# wait; without xdist it is in the run's own basetemp. The build is never written to after:
# tests that change a build make their own.
SHIPPED_DATA = Path(__file__).resolve().parents[1] / "source_data"


def shared_temp(tmp_path_factory) -> Path:
    """A temporary folder every worker of this pytest run shares (the run's basetemp alone
    without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shipped_build(tmp_path_factory) -> Path:
    """The output folder of ``gunbai build`` on the shipped data (one sub-folder per system),
    built once per test run; read only."""
    from pipeline.build import build_all

    root = shared_temp(tmp_path_factory)
    out, done = root / "shipped-build", root / "shipped-build.done"
    with FileLock(str(root / "shipped-build.lock")):
        if not done.exists():
            build_all(SHIPPED_DATA, out, progress=False)
            done.write_text("built\n", encoding="utf-8")
    return out
