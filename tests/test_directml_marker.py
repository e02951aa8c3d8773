"""The `directml` marker: skipped with a reason without DirectML, a failed run under REQUIRE_DIRECTML=1.

Each case runs pytest in a scratch folder with this project's DirectML plugin (tests/directml_policy.py) and a stand-in
`torch_directml` that fails to import, so the result is the same on every machine.
"""

from __future__ import annotations

import os
import textwrap

import pytest

import fake_directml
from guide_harness import TESTS, run_python

TESTS_WITH_MARKER = textwrap.dedent("""
    import pytest

    def test_plain():
        assert 1 + 1 == 2

    @pytest.mark.directml
    def test_on_the_gpu():
        assert True
""")


def run_pytest(tmp_path, require: bool, test_source: str = TESTS_WITH_MARKER):
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["directml_policy"]\n', encoding="utf-8")
    fake = fake_directml.install(tmp_path, import_error=fake_directml.NOT_INSTALLED)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    directml: needs DirectML\n", encoding="utf-8")
    (tmp_path / "test_sample.py").write_text(test_source, encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join([fake, str(TESTS)])}
    if require:
        env["REQUIRE_DIRECTML"] = "1"
    return run_python(["-m", "pytest", "-p", "no:cacheprovider", "-rs", str(tmp_path)], cwd=tmp_path, **env)


@pytest.fixture(autouse=True)
def _not_inherited(monkeypatch):
    monkeypatch.delenv("REQUIRE_DIRECTML", raising=False)


def test_without_directml_the_marked_test_is_skipped_with_its_reason(tmp_path):
    result = run_pytest(tmp_path, require=False)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 1 skipped" in result.stdout
    assert "needs DirectML: torch-directml does not import (ModuleNotFoundError" in result.stdout


def test_required_directml_turns_the_skip_into_a_failure(tmp_path):
    result = run_pytest(tmp_path, require=True)
    assert result.returncode == 1, result.stdout
    assert "REQUIRE_DIRECTML=1 but torch-directml does not import" in result.stdout
    assert "1 passed, 1 error" in result.stdout


def test_required_directml_fails_a_run_without_directml_tests(tmp_path):
    result = run_pytest(tmp_path, require=True, test_source="def test_plain():\n    assert True\n")
    assert result.returncode == 1, result.stdout
    assert "0 DirectML tests passed" in result.stdout and "FAILED: REQUIRE_DIRECTML=1" in result.stdout


def test_every_run_says_what_torch_directml_sees(tmp_path):
    result = run_pytest(tmp_path, require=False)
    assert "torch-directml: torch-directml does not import (ModuleNotFoundError" in result.stdout
    fake = fake_directml.install(tmp_path, ["Microsoft Basic Render Driver", "AMD Radeon RX 6700 XT"])
    env = {"PYTHONPATH": os.pathsep.join([fake, str(TESTS)])}
    result = run_python(["-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)], cwd=tmp_path, **env)
    assert result.returncode == 0, result.stdout[-2000:]
    lines = result.stdout.splitlines()
    start = lines.index("torch-directml: 2 DirectML adapter(s)")
    assert lines[start + 1: start + 3] == ["  [0] Microsoft Basic Render Driver", "  [1] AMD Radeon RX 6700 XT"]
