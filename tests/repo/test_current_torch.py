"""--current-torch (README's second test command) leaves out the tests marked any_torch, and only those."""

from __future__ import annotations

import re
import subprocess
import sys

from guide_harness import ROOT

MODULE = "tests/snippets/troubleshooting/test_pick_adapter.py"  # marked any_torch as a whole
BESIDE = "tests/snippets/migration/test_old_api_errors.py"  # not marked


def collected(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", *args, MODULE, BESIDE],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_current_torch_deselects_the_any_torch_tests_only():
    whole, current = collected(), collected("--current-torch")
    assert MODULE in whole and BESIDE in whole
    assert MODULE not in current and BESIDE in current
    count = len(re.findall(rf"^{re.escape(MODULE)}::", whole, re.M))
    assert re.search(rf"\({count} deselected\)", current), current.splitlines()[-1]
