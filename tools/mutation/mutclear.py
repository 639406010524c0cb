"""A pytest plugin for the mutation audit (``tools/mutation/README.md``), loaded with
``-p mutclear``: every test meets chkobba's module-level caches empty, and no test runs
the library in another process.

mutmut runs each mutant in a process forked from one that already ran the suite with the
unmutated code, so the kernels, deal plans, shuffle steps and capture groups that code
cached would hide mutants in the code that fills them (31 false survivors in the deal
plan alone). It also registers the ``mut`` hypothesis profile (``HYPOTHESIS_PROFILE=mut``:
fewer examples, for hundreds of runs) and, with ``MUT_SKIP_REF=1``, leaves out the
suite's slowest test (the fast core against the reference rules on 100,000 positions),
to be run by hand on the survivors instead.

A mutant is switched on in the process that runs the test only: a subprocess, a worker
process or a Dask worker runs the unmutated code, so a test that starts one cannot catch
the mutant. Such tests carry the ``out_of_process`` marker, and the plugin always
deselects them. So that a test that should carry it and does not is caught rather than
silently seeing no mutant, starting a process during a test's setup, call or teardown
fails while the plugin is loaded: ``subprocess.Popen`` (behind ``subprocess.run``),
``multiprocessing``'s ``Process.start`` (behind ``ProcessPoolExecutor``), ``os.fork``,
``os.forkpty`` (behind ``pty.fork``) and ``os.system`` raise ``RuntimeError("<test id>
starts another process: mark it out_of_process")``. Threads are unaffected, and so are the
programs in ``_NOT_CHKOBBA`` (``git``, ``ps``), which never run chkobba.
"""

from __future__ import annotations

import multiprocessing.process
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "mut", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

_REFERENCE = "test_legal_moves_and_apply_agree_with_the_reference_on_100kplay_positions"

_MARKER = "out_of_process"

#: Programs a test may start while the plugin is loaded: they never run chkobba's code
#: (``benchmarks/estimate_ab.py`` reads an old revision with ``git show``; a test of
#: ``chkobba simulate``'s workers lists them with ``ps``).
_NOT_CHKOBBA = frozenset({"git", "ps"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{_MARKER}: runs the library in another process (a subprocess, worker processes, "
        "a Dask cluster), where a mutation audit's mutant is not seen",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    kernel = sys.modules.get("chkobba._kernel")
    if kernel is None:  # nothing imported yet, nothing cached
        return
    import chkobba._playout as playout
    import chkobba._plays as plays
    import chkobba._shuffle as shuffle
    import chkobba.captures as captures
    import chkobba.state as state

    for cache in (
        kernel._KERNELS,
        kernel._PLANS,
        kernel._EMPTY_HANDS,
        kernel._REFILLS,
        playout._SHUFFLES,
        playout._ROUNDS,
        plays._LOOKUPS,
        shuffle._STEPS,
        state._FRESH,
    ):
        cache.clear()
    kernel._last = None  # the last profile's kernel, which kernel() returns before _KERNELS
    plays._RECENT = (None, None)
    captures.sum_groups.cache_clear()
    actions = sys.modules.get("chkobba.actions")
    if actions is not None:  # the bound of the capture ids, per profile
        actions._max_capture_options.cache_clear()
    checks = sys.modules.get("chkobba.checks")
    if checks is not None:  # the deal scores found sound, which check_state skips
        checks._SOUND.clear()
    _clear_bot_caches()


def _clear_bot_caches() -> None:
    """The bots' caches of estimates and rollout tables (for the audit of ``bots/``)."""
    evaluation = sys.modules.get("chkobba.bots.evaluation")
    if evaluation is not None:
        for function in (evaluation._majority, evaluation._bermila, evaluation._dealt_ways):
            function.cache_clear()
        evaluation._SPLITS.clear()
        evaluation._BERMILAS.clear()
    policy_rollout = sys.modules.get("chkobba.bots._policy_rollout")
    if policy_rollout is not None:
        policy_rollout._TABLES.clear()


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    skip_reference = os.environ.get("MUT_SKIP_REF") == "1"

    def left_out(item: pytest.Item) -> bool:
        if item.get_closest_marker(_MARKER) is not None:
            return True
        return skip_reference and item.name == _REFERENCE

    deselected = [item for item in items if left_out(item)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not left_out(item)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Starting a process fails during the test's setup, call and teardown."""
    with _no_processes(item.nodeid):
        yield


def _program(args: Any, executable: Any = None) -> str:
    """The name of the program that ``subprocess.Popen(args, executable=...)`` starts."""
    if executable is not None:
        first = executable
    elif isinstance(args, (str, bytes)):
        first = (os.fsdecode(args).split() or [""])[0]
    elif isinstance(args, os.PathLike):
        first = args
    else:
        first = next(iter(args), "")
    return os.path.basename(os.fsdecode(first))


@contextmanager
def _no_processes(test: str) -> Iterator[None]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{test} starts another process: mark it {_MARKER}")

    real_popen = subprocess.Popen.__init__

    def popen(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        command = kwargs["args"] if "args" in kwargs else args[0] if args else ""
        program = _program(command, kwargs.get("executable"))
        if kwargs.get("shell") or program not in _NOT_CHKOBBA:
            refuse()
        real_popen(self, *args, **kwargs)

    patches: list[tuple[Any, str, Callable[..., Any]]] = [
        (subprocess.Popen, "__init__", popen),
        (multiprocessing.process.BaseProcess, "start", refuse),
    ]
    patches += [(os, name, refuse) for name in ("fork", "forkpty", "system") if hasattr(os, name)]
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches]
    for owner, name, replacement in patches:
        setattr(owner, name, replacement)
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)
