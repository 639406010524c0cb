"""A pytest plugin for the mutation audit (``tools/mutation/README.md``), loaded with
``-p mutclear``: every test meets chkobba's module-level caches empty.

mutmut runs each mutant in a process forked from one that already ran the suite with the
unmutated code, so the kernels, deal plans, shuffle steps and capture groups that code
cached would hide mutants in the code that fills them (31 false survivors in the deal
plan alone). It also registers the ``mut`` hypothesis profile (``HYPOTHESIS_PROFILE=mut``:
fewer examples, for hundreds of runs) and, with ``MUT_SKIP_REF=1``, leaves out the
suite's slowest test (the fast core against the reference rules on 100,000 positions),
to be run by hand on the survivors instead.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "mut", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

_REFERENCE = "test_legal_moves_and_apply_agree_with_the_reference_on_100kplay_positions"


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
        playout._SHUFFLES,
        playout._ROUNDS,
        plays._LOOKUPS,
        shuffle._STEPS,
        state._FRESH,
    ):
        cache.clear()
    plays._RECENT = (None, None)
    captures.sum_groups.cache_clear()
    actions = sys.modules.get("chkobba.actions")
    if actions is not None:  # the bound of the capture ids, per profile
        actions._max_capture_options.cache_clear()
    _clear_bot_caches()


def _clear_bot_caches() -> None:
    """The bots' caches of estimates and rollout tables (for the audit of ``bots/``)."""
    evaluation = sys.modules.get("chkobba.bots.evaluation")
    if evaluation is not None:
        for function in (evaluation._majority, evaluation._bermila, evaluation._ways):
            function.cache_clear()
        evaluation._SPLITS.clear()
        evaluation._BERMILAS.clear()
    policy_rollout = sys.modules.get("chkobba.bots._policy_rollout")
    if policy_rollout is not None:
        policy_rollout._TABLES.clear()


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if os.environ.get("MUT_SKIP_REF") != "1":
        return
    left_out = [item for item in items if item.name == _REFERENCE]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item.name != _REFERENCE]
