"""The README's commands are the ones CI runs, and they use the pinned dependency groups."""

from __future__ import annotations

import re
import tomllib

from guide_harness import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands(language: str) -> list[str]:
    return [c.strip() for c in re.findall(rf"```{language}\n(.*?)```", README, re.S)]


def test_readme_has_three_commands_per_platform():
    sh, powershell = commands("sh"), commands("powershell")
    assert len(sh) == 3 and len(powershell) == 3
    for serve, test, current in (sh, powershell):
        assert "--group docs" in serve and "mkdocs serve" in serve
        assert "--group test " in test and test.rstrip("}").rstrip().endswith("pytest")
        # Current torch: the snippet and site-block tests, in a venv of their own.
        assert "--group test-current" in current and ".venv-current" in current
        assert current.rstrip("}").rstrip().endswith("pytest tests/snippets tests/test_site_blocks.py")


def test_ci_runs_the_readme_test_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for test_command in commands("sh")[1:]:
        assert any(line.startswith(test_command + " ||") or line == test_command for line in ci.splitlines()), (
            f".ci/run must call the README's test command verbatim: {test_command}"
        )


def test_groups_named_by_the_readme_exist():
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    for command in commands("sh") + commands("powershell"):
        for group in re.findall(r"--group ([\w-]+)", command):
            assert group in groups
