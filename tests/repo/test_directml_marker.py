"""The `directml` marker: skipped with a reason without DirectML, a failed run under REQUIRE_DIRECTML=1.

Each case runs pytest in a scratch folder with this project's DirectML plugin (tests/directml_policy.py) and a stand-in
`torch_directml` that fails to import, so the result is the same on every machine.
"""

from __future__ import annotations

import os
import sys
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
    assert lines[start + 1 : start + 3] == [
        "  [0] Microsoft Basic Render Driver (software)",
        "  [1] AMD Radeon RX 6700 XT",
    ]


def run_with_adapters(tmp_path, names, **env):
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["directml_policy"]\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    directml: needs DirectML\n", encoding="utf-8")
    (tmp_path / "test_sample.py").write_text(TESTS_WITH_MARKER, encoding="utf-8")
    fake = fake_directml.install(tmp_path, names)
    env = {"PYTHONPATH": os.pathsep.join([fake, str(TESTS)]), **env}
    return run_python(["-m", "pytest", "-p", "no:cacheprovider", "-rs", str(tmp_path)], cwd=tmp_path, **env)


WARP = ["Microsoft Basic Render Driver"]


def test_a_software_adapter_alone_is_no_directml_gpu(tmp_path, monkeypatch):
    monkeypatch.delenv("DIRECTML_ALLOW_SOFTWARE_ADAPTER", raising=False)
    result = run_with_adapters(tmp_path, WARP)
    assert result.returncode == 0, result.stdout[-2000:]
    assert "1 passed, 1 skipped" in result.stdout
    assert (
        "needs DirectML: torch-directml found only a software adapter (Microsoft Basic Render Driver" in result.stdout
    )
    # The header still says what was found.
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("torch-directml: "))
    assert "only a software adapter" in lines[start]
    assert lines[start + 1] == "  [0] Microsoft Basic Render Driver (software)"


def test_a_software_adapter_alone_fails_where_directml_is_required(tmp_path, monkeypatch):
    monkeypatch.delenv("DIRECTML_ALLOW_SOFTWARE_ADAPTER", raising=False)
    result = run_with_adapters(tmp_path, WARP, REQUIRE_DIRECTML="1")
    assert result.returncode == 1, result.stdout[-2000:]
    assert "REQUIRE_DIRECTML=1 but torch-directml found only a software adapter" in result.stdout


def test_a_software_adapter_counts_when_opted_in(tmp_path):
    result = run_with_adapters(tmp_path, WARP, DIRECTML_ALLOW_SOFTWARE_ADAPTER="1")
    assert result.returncode == 0, result.stdout[-2000:]
    assert "2 passed" in result.stdout and "torch-directml: 1 DirectML adapter(s)" in result.stdout


def test_a_gpu_beside_the_software_adapter_counts(tmp_path, monkeypatch):
    monkeypatch.delenv("DIRECTML_ALLOW_SOFTWARE_ADAPTER", raising=False)
    result = run_with_adapters(tmp_path, [*WARP, "Intel(R) UHD Graphics 620"])
    assert result.returncode == 0, result.stdout[-2000:]
    assert "2 passed" in result.stdout


def test_software_adapter_only_in_process(monkeypatch):
    import directml_policy

    for names, expected in ((WARP, True), ([*WARP, "AMD Radeon RX 580"], False), ([], False)):
        monkeypatch.setitem(sys.modules, "torch_directml", fake_directml.module(names))
        monkeypatch.delenv("DIRECTML_ALLOW_SOFTWARE_ADAPTER", raising=False)
        directml_policy.directml_status.cache_clear()
        try:
            assert directml_policy.software_adapter_only() is expected, names
        finally:
            directml_policy.directml_status.cache_clear()


def test_collecting_only_is_no_failed_directml_run(tmp_path):
    # `pytest --collect-only` under REQUIRE_DIRECTML=1 (the GPU job's environment) runs no test: not a failure.
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["directml_policy"]\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    directml: needs DirectML\n", encoding="utf-8")
    (tmp_path / "test_sample.py").write_text(TESTS_WITH_MARKER, encoding="utf-8")
    fake = fake_directml.install(tmp_path, import_error=fake_directml.NOT_INSTALLED)
    env = {"PYTHONPATH": os.pathsep.join([fake, str(TESTS)]), "REQUIRE_DIRECTML": "1"}
    result = run_python(
        ["-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", str(tmp_path)], cwd=tmp_path, **env
    )
    assert result.returncode == 0, result.stdout
    assert "2 tests collected" in result.stdout
