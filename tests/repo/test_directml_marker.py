"""The `directml` marker (tests/directml_policy.py): skipped with a reason without a DirectML GPU, a failure under
REQUIRE_DIRECTML=1 (the GPU runner), with a stand-in `torch_directml` so the result is the same on every machine.
What a test's setup does is checked in this process; what the plugin does to a whole run (its header, its exit
status, --collect-only) in a pytest run in a scratch folder."""

from __future__ import annotations

import os
import sys
import textwrap
from types import SimpleNamespace

import pytest

import directml_policy
import fake_directml
from guide_harness import TESTS, run_python

WARP = ["Microsoft Basic Render Driver"]
MARKED = SimpleNamespace(get_closest_marker=lambda name: name == "directml" or None)


@pytest.fixture
def adapters(monkeypatch):
    """Set what torch-directml sees (None: it does not import) and whether the run requires DirectML."""
    monkeypatch.delenv("DIRECTML_ALLOW_SOFTWARE_ADAPTER", raising=False)

    def set_up(names, require=False, **env):
        monkeypatch.setitem(sys.modules, "torch_directml", None if names is None else fake_directml.module(names))
        monkeypatch.setattr(directml_policy, "REQUIRE_DIRECTML", require)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        directml_policy.directml_status.cache_clear()

    yield set_up
    directml_policy.directml_status.cache_clear()


@pytest.mark.parametrize(
    "names, require, outcome, message",
    [
        (None, False, pytest.skip.Exception, "needs DirectML: torch-directml does not import (ModuleNotFoundError"),
        (None, True, pytest.fail.Exception, "REQUIRE_DIRECTML=1 but torch-directml does not import"),
        # Microsoft's WARP, Direct3D 12 on the CPU, as a GPU-less hosted runner may expose it: no DirectML GPU.
        (WARP, False, pytest.skip.Exception, "needs DirectML: torch-directml found only a software adapter (Microsoft"),
        (WARP, True, pytest.fail.Exception, "REQUIRE_DIRECTML=1 but torch-directml found only a software adapter"),
        ([*WARP, "Intel(R) UHD Graphics 620"], True, None, None),  # a GPU beside it counts
    ],
)
def test_a_marked_test_runs_only_on_a_directml_gpu(adapters, names, require, outcome, message):
    adapters(names, require)
    if outcome is None:
        assert directml_policy.pytest_runtest_setup(MARKED) is None
        return
    with pytest.raises(outcome) as stopped:
        directml_policy.pytest_runtest_setup(MARKED)
    assert str(stopped.value).startswith(message), stopped.value


def test_a_software_adapter_counts_when_opted_in(adapters):
    adapters(WARP, True, DIRECTML_ALLOW_SOFTWARE_ADAPTER="1")
    assert directml_policy.directml_status() == (True, "1 DirectML adapter(s)")
    assert directml_policy.pytest_runtest_setup(MARKED) is None


def test_software_adapter_only(adapters):
    for names, expected in ((WARP, True), ([*WARP, "AMD Radeon RX 580"], False), ([], False)):
        adapters(names)
        assert directml_policy.software_adapter_only() is expected, names


def test_every_run_says_what_torch_directml_sees(adapters):
    adapters([*WARP, "AMD Radeon RX 6700 XT"])
    assert directml_policy.pytest_report_header(None) == [
        "torch-directml: 2 DirectML adapter(s)",
        "  [0] Microsoft Basic Render Driver (software)",
        "  [1] AMD Radeon RX 6700 XT",
    ]
    adapters(WARP)
    assert "only a software adapter" in directml_policy.pytest_report_header(None)[0]


# --- the plugin in a whole run ------------------------------------------------------------------------------

TESTS_WITH_MARKER = textwrap.dedent("""
    import pytest

    def test_plain():
        assert 1 + 1 == 2

    @pytest.mark.directml
    def test_on_the_gpu():
        assert True
""")


@pytest.mark.parametrize(
    "tests, require, args, status, said",
    [
        (TESTS_WITH_MARKER, False, ["-rs"], 0, ["1 passed, 1 skipped", "torch-directml: torch-directml does not imp"]),
        (TESTS_WITH_MARKER, True, [], 1, ["1 passed, 1 error", "REQUIRE_DIRECTML=1 but torch-directml does not"]),
        # A run on the GPU runner in which no DirectML test ran (markers lost, tests deselected) fails too.
        ("def test_plain():\n    pass\n", True, [], 1, ["0 DirectML tests passed", "FAILED: REQUIRE_DIRECTML=1"]),
        # `pytest --collect-only` in the GPU job's environment runs no test: not a failure.
        (TESTS_WITH_MARKER, True, ["--collect-only", "-q"], 0, ["2 tests collected"]),
    ],
    ids=["skipped", "required", "none ran", "collect only"],
)
def test_a_run_without_directml(tmp_path, tests, require, args, status, said):
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["directml_policy"]\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    directml: needs DirectML\n", encoding="utf-8")
    (tmp_path / "test_sample.py").write_text(tests, encoding="utf-8")
    fake = fake_directml.install(tmp_path, import_error=fake_directml.NOT_INSTALLED)
    env = {"PYTHONPATH": os.pathsep.join([fake, str(TESTS)]), "REQUIRE_DIRECTML": "1" if require else ""}
    result = run_python(["-m", "pytest", "-p", "no:cacheprovider", *args, str(tmp_path)], cwd=tmp_path, **env)
    assert result.returncode == status, result.stdout[-2000:]
    for words in said:
        assert words in result.stdout, result.stdout[-2000:]
