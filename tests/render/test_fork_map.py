"""fork_map: makers run in long-lived forked children, results in the order given, the first
failing maker's error re-raised, a child that dies reported instead of hanging."""

from __future__ import annotations

import os
import signal

import pytest

from pipeline.render import parallel


@pytest.fixture
def two_workers():
    parallel.set_workers(2)
    try:
        yield
    finally:
        parallel.set_workers(None)


def test_results_in_the_order_given_from_two_children(two_workers):
    # 7 makers on 2 children: each child serves several, and each result says which process made it
    out = parallel.fork_map({f"m{i}": (lambda i=i: f"{i}:{os.getpid()}".encode()) for i in range(7)})
    assert list(out) == [f"m{i}" for i in range(7)]
    assert [v.split(b":")[0] for v in out.values()] == [str(i).encode() for i in range(7)]
    pids = {v.split(b":")[1] for v in out.values()}
    assert str(os.getpid()).encode() not in pids  # none ran in the parent
    assert 1 <= len(pids) <= 2  # children are reused: at most one per worker, not one per maker


def test_first_failing_maker_in_order_is_raised(two_workers):
    def fail(msg: str):
        def make() -> bytes:
            raise ValueError(msg)
        return make

    with pytest.raises(ValueError, match="second"):
        parallel.fork_map({"a": lambda: b"ok", "b": fail("second"), "c": fail("third"), "d": lambda: b"ok"})


def test_a_killed_child_is_an_error_not_a_hang(two_workers):
    def die() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b""

    with pytest.raises(RuntimeError, match="ended without a result"):
        parallel.fork_map({"a": lambda: b"ok", "b": die, "c": lambda: b"ok", "d": lambda: b"ok"})


def test_one_worker_runs_here(tmp_path):
    parallel.set_workers(1)
    try:
        assert parallel.fork_map({"a": lambda: str(os.getpid()).encode()}) == {"a": str(os.getpid()).encode()}
    finally:
        parallel.set_workers(None)
