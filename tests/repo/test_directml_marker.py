"""The `directml` marker (tests/directml_policy.py): skipped with a reason without a DirectML GPU, a failure under
REQUIRE_DIRECTML=1 (the GPU runner), with a stand-in `torch_directml` so the result is the same on every machine.
Each hook is called in this process, with the plugin's record of the run set aside."""

from __future__ import annotations

import importlib.util
import sys
from types import SimpleNamespace

import pytest

import directml_policy
import fake_directml
from guide_harness import TESTS

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


# --- the plugin at the end of a run on the GPU runner -------------------------------------------------------


def report(outcome: str) -> SimpleNamespace:
    """A DirectML test's report at the end of its call."""
    return SimpleNamespace(
        keywords={"directml": 1}, nodeid="t.py::gpu", when="call", **{"skipped": False, "passed": False, outcome: True}
    )


@pytest.mark.parametrize(
    "outcomes, collect_only, failed, summary",
    [
        (["passed"], False, False, "1 DirectML tests passed, 0 skipped (REQUIRE_DIRECTML=1)"),
        (["passed", "skipped"], False, True, "1 DirectML tests passed, 1 skipped (FAILED: REQUIRE_DIRECTML=1 needs"),
        # None ran (markers lost, tests deselected): a failed run too.
        ([], False, True, "0 DirectML tests passed, 0 skipped (FAILED: REQUIRE_DIRECTML=1 needs all of them to run)"),
        # `pytest --collect-only` in the GPU job's environment runs no test: not a failure.
        ([], True, False, "0 DirectML tests passed, 0 skipped (REQUIRE_DIRECTML=1; --collect-only runs none)"),
    ],
)
def test_the_gpu_runners_run_fails_unless_all_its_directml_tests_ran(
    adapters, monkeypatch, outcomes, collect_only, failed, summary
):
    adapters(None, require=True)
    option = SimpleNamespace(keyword="", markexpr="", collectonly=collect_only)
    session = SimpleNamespace(config=SimpleNamespace(option=option), testscollected=2, exitstatus=pytest.ExitCode.OK)
    for name, value in (("_directml_skips", []), ("_directml_passed", []), ("_session", [session])):
        monkeypatch.setattr(directml_policy, name, value)  # this run's own record stays as it is
    for outcome in outcomes:
        directml_policy.pytest_runtest_logreport(report(outcome))
    directml_policy.pytest_sessionfinish(session, pytest.ExitCode.OK)
    lines = []
    reporter = SimpleNamespace(write_sep=lambda *args: None, write_line=lines.append)
    directml_policy.pytest_terminal_summary(reporter, session.exitstatus, session.config)
    assert session.exitstatus == (pytest.ExitCode.TESTS_FAILED if failed else pytest.ExitCode.OK)
    assert len(lines) == 1 and lines[0].startswith(summary), lines


def test_every_run_loads_the_policy_and_reads_require_directml(monkeypatch):
    assert '"directml_policy"' in (TESTS / "conftest.py").read_text(encoding="utf-8")
    monkeypatch.setenv("REQUIRE_DIRECTML", "1")
    spec = importlib.util.spec_from_file_location("policy_under_test", TESTS / "directml_policy.py")
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    assert fresh.REQUIRE_DIRECTML is True
