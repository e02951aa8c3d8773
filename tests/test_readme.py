"""The README's commands are the ones CI runs, and they use the pinned dependency groups."""

from __future__ import annotations

import re
import tomllib

from guide_harness import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands(language: str) -> list[str]:
    return [c.strip() for c in re.findall(rf"```{language}\n(.*?)```", README, re.S)]


def test_readme_has_two_commands_per_platform():
    sh, powershell = commands("sh"), commands("powershell")
    assert len(sh) == 2 and len(powershell) == 2
    for serve, test in (sh, powershell):
        assert "--group docs" in serve and "mkdocs serve" in serve
        assert "--group test" in test and "pytest" in test


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = commands("sh")[1]
    assert test_command in ci.splitlines(), ".ci/run must call the README's test command verbatim"


def test_groups_named_by_the_readme_exist():
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    for command in commands("sh") + commands("powershell"):
        for group in re.findall(r"--group (\w+)", command):
            assert group in groups
