"""The README's commands are the ones CI runs, and they use the pinned dependency groups."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import yaml

import readme_commands
from guide.page import Page
from guide_harness import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands(language: str) -> list[str]:
    return [f.body.strip() for f in Page.parse(README, "README.md").blocks(language)]


def test_readme_has_three_commands_per_platform():
    sh, powershell = commands("sh"), commands("powershell")
    assert len(sh) == 3 and len(powershell) == 3
    for serve, test, current in (sh, powershell):
        assert "--group docs" in serve and "mkdocs serve" in serve
        # The whole suite: in workers on Linux and macOS (.ci/run's machine); in one process in PowerShell.
        ending = (
            "pytest -n auto && node --test tests/js/" if test is sh[1] else "pytest }; if ($?) { node --test tests/js/"
        )
        assert "--group test " in test and test.rstrip("}").rstrip().endswith(ending)
        # Current torch: the snippet and site-block tests, in a venv of their own, less the tests marked
        # any_torch (their result cannot depend on torch's version): the whole-suite command runs those.
        assert "--group test-current" in current and ".venv-current" in current
        assert current.rstrip("}").rstrip().endswith("pytest --current-torch tests/snippets tests/pages/expanded/en")
        assert "any_torch" not in test and "--current-torch" not in test


def test_ci_runs_the_readme_test_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for test_command in commands("sh")[1:]:
        assert any(line.startswith(test_command + " ||") or line == test_command for line in ci.splitlines()), (
            f".ci/run must call the README's test command verbatim: {test_command}"
        )


# --- the Windows workflow runs the README's PowerShell commands, read from README.md ----------------------


WINDOWS = ROOT / ".github" / "workflows" / "windows.yml"


def test_the_runner_reads_the_same_commands_as_this_file():
    found = readme_commands.commands(README)
    order = ["serve", "test", "current"]
    assert [found[label]["powershell"] for label in order] == commands("powershell")
    assert [found[label]["sh"] for label in order] == commands("sh")
    assert readme_commands.readme_command("test") == commands("powershell")[1]


def test_the_windows_workflow_runs_both_readme_commands_in_both_powershells():
    job = yaml.safe_load(WINDOWS.read_text(encoding="utf-8"))["jobs"]["readme"]
    runs = [str(step.get("run", "")) for step in job["steps"]]
    assert set(job["strategy"]["matrix"]["shell"]) == {"pwsh", "powershell"}
    assert job["env"]["README_SHELL"] == "${{ matrix.shell }}"
    serve = [
        i
        for i, r in enumerate(runs)
        if "python .github/scripts/readme_commands.py serve --shell $env:README_SHELL" in r
    ]
    test = [
        i
        for i, r in enumerate(runs)
        if "python .github/scripts/readme_commands.py run test --shell $env:README_SHELL" in r
    ]
    assert serve and test and serve[0] < test[0]


def test_the_windows_workflow_does_not_retype_the_commands():
    """Read at run time, never copied: no piece of a README command appears in the workflow."""
    workflow = WINDOWS.read_text(encoding="utf-8")
    for command in commands("powershell"):
        for piece in command.split(";"):
            piece = piece.strip().removeprefix("if ($?) {").removesuffix("}").strip()
            assert piece not in workflow, f"the workflow retypes {piece!r}; run it from README.md"


WINDOWS_INLINE = re.compile(r"\(Windows: `([^`]+)`\)")


def windows_wording_problems(text: str) -> list[str]:
    """The README's Windows words: the Python its commands call, PowerShell's variable syntax, chains that stop."""
    problems = []
    windows = [c["powershell"] for c in readme_commands.commands(README).values()]
    versions = {m for c in windows for m in re.findall(r"\bpy -(3\.\d+)", c)}
    for named in re.findall(r"You need Python ([^(]+?) \(", text):
        for version in re.findall(r"3\.\d+", named):
            if version not in versions:
                problems.append(
                    f"the README asks for Python {version}, but its Windows commands call py -{sorted(versions)}"
                )
    if "FASHION_MNIST_DIR" in text and "$env:FASHION_MNIST_DIR" not in text:
        problems.append("FASHION_MNIST_DIR without its PowerShell form ($env:FASHION_MNIST_DIR = ...)")
    for inline in WINDOWS_INLINE.findall(text):
        for rest in inline.split(";")[1:]:
            if not rest.strip().startswith("if ($?)"):
                problems.append(
                    f"`{inline}`: a step after `;` runs even when the one before failed: `; if ($?) {{ ... }}`"
                )
    return problems


MAINTAINING = (ROOT / "docs" / "contributing" / "maintaining.md").read_text(encoding="utf-8")


def test_the_readme_windows_wording():
    """The README and the maintainers' page it sends readers to (its commands moved there)."""
    assert windows_wording_problems(README) == []
    assert windows_wording_problems(MAINTAINING) == []


@pytest.mark.parametrize(
    "old, new",
    [
        ("You need Python 3.12 (", "You need Python 3.11 or 3.12 ("),
        ('(PowerShell: `$env:FASHION_MNIST_DIR = "DIR"`,', "(PowerShell: `set it`,"),
        (
            "; if ($?) { .venv\\Scripts\\python .github\\locks\\lock.py }",
            "; .venv\\Scripts\\python .github\\locks\\lock.py",
        ),
    ],
)
def test_the_windows_wording_rule_catches(old, new):
    text = README if old in README else MAINTAINING
    assert old in text
    assert windows_wording_problems(text.replace(old, new)) != []


def test_git_ignores_the_data_and_the_ide_settings():
    # gpu-runner.md's own-PC recipe downloads Fashion-MNIST into data\; PyCharm writes .idea\.
    paths = ["data/FashionMNIST/raw/train-images-idx3-ubyte", ".idea/workspace.xml"]
    result = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    assert result.stdout.split() == paths, result.stdout + result.stderr


# --- which Python runs which: the README says it, .ci/run runs it ------------------------------------------


def _python_of(command: str) -> str:
    return re.match(r"(python3\.\d+) -m venv ", command).group(1)


def test_the_readme_names_the_python_of_each_test_command():
    """The whole suite on 3.12 (the README's first Python, site.yml's), the current-torch run on 3.11."""
    serve, test, current = commands("sh")
    assert (_python_of(serve), _python_of(test), _python_of(current)) == ("python3.12", "python3.12", "python3.11")
    assert "You need Python 3.12 (`python3.12`" in README
    assert "the whole suite on 3.12, as the Site workflow runs it" in README
    assert "current-torch run on 3.11 on Linux (`python3.11`" in README
    site = yaml.safe_load((ROOT / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8"))
    setup = [s for s in site["jobs"]["build"]["steps"] if str(s.get("uses", "")).startswith("actions/setup-python@")]
    assert setup[0]["with"]["python-version"] == "3.12"


def test_ci_finds_each_python_the_readme_calls_before_anything_else():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "source .ci/pythons.sh" in ci
    for command in commands("sh")[1:]:
        version = _python_of(command).removeprefix("python")
        line = f"use_python {version} || exit 1"
        assert line in ci, f".ci/run must find Python {version} first"
        assert ci.index(line) < next(i for i, text in enumerate(ci) if "apt-get" in text)


needs_bash = pytest.mark.skipif(os.name == "nt" or not shutil.which("bash"), reason=".ci/run is a Linux bash script")


def _use_python(version: str, path: str) -> subprocess.CompletedProcess:
    env = {"PATH": path, "HOME": os.environ.get("HOME", "/tmp")}
    return subprocess.run(
        [
            "bash",
            "-c",
            f"set -euo pipefail; source .ci/pythons.sh; use_python {version}; "
            f"python{version} -c 'import sys; print(sys.version_info[:2])'",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@needs_bash
def test_a_missing_python_stops_ci_in_one_line(tmp_path):
    result = _use_python("3.99", f"{tmp_path}{os.pathsep}/usr/bin{os.pathsep}/bin")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "ci: Python 3.99 not found: the README's test commands call python3.99 (install it, e.g. pyenv install 3.99)"
    ]
