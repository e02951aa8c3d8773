"""What a run must have: the project's own switches, never ``CI``.

GitHub sets ``CI=true`` in every step of every job, hosted and self-hosted (the runner's
ProcessInvoker), so ``CI`` cannot say what a run needs. Each need has a variable of its own, set by
what installs it: ``.ci/run`` installs Chromium, axe-core and Debian's Fashion-MNIST and sets
``REQUIRE_BROWSER=1`` and ``REQUIRE_DATA=1``; a workflow that fetches Fashion-MNIST sets
``REQUIRE_DATA=1``; the GPU runner sets ``REQUIRE_DIRECTML=1`` (tests/directml_policy.py). Unset, a
missing need is a skip with its reason; set to 1, it is a failure of each test that needs it (never a
collection error, which would stop the whole run).
"""

from __future__ import annotations

import os

import pytest

NEEDS = {
    "browser": "REQUIRE_BROWSER",
    "data": "REQUIRE_DATA",
    "directml": "REQUIRE_DIRECTML",
}


def required(need: str) -> bool:
    """True when this run must have ``need`` (its variable is 1)."""
    return os.environ.get(NEEDS[need]) == "1"


def skip_or_fail(need: str, why: str) -> None:
    """Skip the current test for ``why``; fail it instead when the run requires ``need``."""
    if required(need):
        pytest.fail(f"{NEEDS[need]}=1 but {why}", pytrace=False)
    pytest.skip(why)
