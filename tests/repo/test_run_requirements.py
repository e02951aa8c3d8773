"""The run's switches (tests/run_requirements.py): CI=true alone requires nothing; REQUIRE_BROWSER / REQUIRE_DATA
make a missing need fail each test that needs it, and never stop the run at collection (GitHub sets CI=true in
every step). Checked in this process: the one door every need goes through, and that no test or fixture skips
for a missing need by itself (check_mnist_files' fixture once did, so REQUIRE_DATA=1 let its tests skip)."""

from __future__ import annotations

import ast
import re

import pytest

import browser_support
from guide_harness import ROOT
from run_requirements import NEEDS, skip_or_fail


@pytest.mark.parametrize("need", list(NEEDS))
@pytest.mark.parametrize("env", [{}, {"CI": "true", "GITHUB_ACTIONS": "true"}], ids=["local", "CI=true"])
def test_a_missing_need_is_a_skip_unless_its_own_variable_requires_it(monkeypatch, need, env):
    for name in NEEDS.values():
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(pytest.skip.Exception, match="^it is missing$"):
        skip_or_fail(need, "it is missing")
    monkeypatch.setenv(NEEDS[need], "1")
    with pytest.raises(pytest.fail.Exception, match=f"^{NEEDS[need]}=1 but it is missing$"):
        skip_or_fail(need, "it is missing")


def test_a_required_browser_fails_each_test_and_collection_goes_on(monkeypatch):
    monkeypatch.setattr(browser_support, "MISSING", "no Chromium at /none")
    monkeypatch.delenv("REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        browser_support.skip_module_without_browser()
    assert skipped.value.allow_module_level
    monkeypatch.setenv("REQUIRE_BROWSER", "1")
    browser_support.skip_module_without_browser()  # the module is collected: no collection error stops the run
    with pytest.raises(pytest.fail.Exception, match="^REQUIRE_BROWSER=1 but the browser tests cannot run: no Chrom"):
        browser_support._check_browser()  # each test's fixture fails instead


# What a skip for a missing need names: the data, the browser and what it needs.
NEED_WORDS = re.compile(r"Fashion-MNIST|fashion-mnist|Chromium|Playwright|axe-core")


def test_no_test_skips_for_a_missing_need_by_itself():
    """A pytest.skip of its own for missing data or a missing browser skips under REQUIRE_DATA=1 / REQUIRE_BROWSER=1
    too: it goes through skip_or_fail. (browser_support's module-level skip runs only where it is not required.)"""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in {"pytest.skip", "skip"}:
                if NEED_WORDS.search(ast.unparse(node)):
                    found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    assert not found, f"skip through run_requirements.skip_or_fail instead: {found}"
