"""tests/run_summary.py, the plugin that ends every run: it counts the site's builds and fails a run that
builds more than site_server.MAX_BUILDS times. And tests/conftest.py's collection hook: the tiers it marks, and
what --current-torch leaves out."""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

import run_summary
import site_server
from guide_harness import ROOT

TESTS = ROOT / "tests"


def summary(monkeypatch, builds: int) -> tuple[pytest.ExitCode, list[str]]:
    """The end of a run that built the site ``builds`` times: its exit status and the summary's lines."""
    monkeypatch.setattr(site_server, "BUILDS", [(Path(f"site-{n}"), {}) for n in range(builds)])
    session = SimpleNamespace(config=SimpleNamespace(), exitstatus=pytest.ExitCode.OK)
    run_summary.pytest_sessionfinish(session, pytest.ExitCode.OK)
    lines = []
    reporter = SimpleNamespace(stats={}, write_sep=lambda *a, **k: None, write_line=lambda t, **k: lines.append(t))
    run_summary.pytest_terminal_summary(reporter, session.exitstatus, session.config)
    return session.exitstatus, lines


def test_a_run_with_a_third_build_fails(monkeypatch):
    status, lines = summary(monkeypatch, 3)
    assert status == pytest.ExitCode.TESTS_FAILED
    assert any(line.startswith("error: the site was built 3 times, at most 2 allowed") for line in lines), lines


def test_two_builds_pass_and_are_counted(monkeypatch):
    status, lines = summary(monkeypatch, 2)
    assert status == pytest.ExitCode.OK and "full builds of the site: 2 (at most 2)" in lines, lines


def _builds_mkdocs(node: ast.Call) -> bool:
    strings = [a.value for a in ast.walk(node) if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return "mkdocs" in strings and "build" in strings


def test_only_site_server_builds_this_checkouts_site():
    """Every test that needs the built site asks for built_site; a test may build only a copy of the
    site's sources in its tmp_path (cwd=tmp_path), which is not the run's site and is not counted."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" in path.parts or path == TESTS / "site_server.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _builds_mkdocs(node):
                cwd = next((k.value for k in node.keywords if k.arg == "cwd"), None)
                if not (isinstance(cwd, ast.Name) and cwd.id == "tmp_path"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"full builds outside tests/site_server.py (use the built_site fixture): {found}"


def load_conftest():
    spec = importlib.util.spec_from_file_location("tiers_under_test", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    return conftest


def test_the_quick_tier_leaves_out_the_site_build_chromium_training_pypi_and_the_ci_checks():
    """The README's quick command selects by the marks tests/conftest.py sets from what a test asks for: a test
    that needs the built site or Chromium (directly or through a fixture that does) is `browser`, one in
    tests/repo or tests/scripts is `ci`, one that trains on real Fashion-MNIST is `train`, one that asks PyPI is
    `network`, and any other is `quick`, whatever folder it sits in."""
    conftest = load_conftest()
    tests = ROOT / "tests"

    def marks(folder: str, *fixtures: str, args: tuple = ()) -> list[str]:
        item = SimpleNamespace(path=tests / folder / "test_x.py", fixturenames=list(fixtures))
        item.iter_markers = lambda name: [SimpleNamespace(args=args)] if name == "args" and args else []
        return conftest.tier_marks(item)

    assert marks("guide", "built_site", "tmp_path") == ["browser"]  # a machinery check on the built pages
    assert marks("site", "site", "browser", "built_site") == ["browser"]  # `site` depends on built_site
    assert marks("site") == ["quick"]  # a test of tests/site that needs neither
    assert marks("repo", "tmp_path") == ["ci"] and marks("scripts") == ["ci"]
    assert marks("snippets", "fashion_mnist_root", "tmp_path") == ["train"]  # epochs on real data
    assert marks("snippets", "tmp_path") == ["quick"]
    assert marks("pages", "pypi_index") == ["network"]
    assert marks("pages", args=("--data-dir", "{fashion_mnist}")) == ["train"]  # a page block run with the data
    assert marks("pages", args=("--epochs", "1")) == ["quick"]
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert {m.split(":")[0] for m in markers["markers"]} >= {"browser", "ci", "train", "network", "quick"}
    quick = "-m pytest -n auto -m quick"
    assert quick in (ROOT / "README.md").read_text(encoding="utf-8")


def test_current_torch_deselects_the_any_torch_tests_only():
    """--current-torch (the README's current-torch command) leaves out the tests marked any_torch, and only those;
    the whole-suite command keeps them."""
    conftest = load_conftest()

    def item(name: str, *marks: str) -> SimpleNamespace:
        return SimpleNamespace(
            name=name,
            path=TESTS / "snippets" / "test_x.py",
            fixturenames=[],
            iter_markers=lambda _: [],
            add_marker=lambda _: None,
            get_closest_marker=lambda mark: SimpleNamespace(name=mark) if mark in marks else None,
        )

    for current, kept, left_out in ((True, ["b"], ["a", "c"]), (False, ["a", "b", "c"], [])):
        deselected, items = [], [item("a", "any_torch"), item("b", "slow"), item("c", "any_torch")]
        config = SimpleNamespace(
            getoption=lambda option, on=current: on and option == "--current-torch",
            hook=SimpleNamespace(pytest_deselected=lambda items, into=deselected: into.extend(items)),
        )
        conftest.pytest_collection_modifyitems(config, items)
        assert ([i.name for i in items], [i.name for i in deselected]) == (kept, left_out)
