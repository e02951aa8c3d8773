"""No POSIX-only call reaches a Windows leg unguarded: code written and run on Linux only fails on the first
Windows run (dpkg-query called wherever node is on PATH; a test that started a bash-only script).

Every call in tests/ and .github/ to a POSIX-only tool (bash, sh, dpkg-query, apt-get, sudo, a /usr/... or
/bin/... program), every Linux venv layout (``venv / "bin"``, ``venv / "lib"``) and every call of a script that
itself runs only on Linux (one that refuses Windows in one line) must be
guarded for the platform: its module is skipped on Windows with a reason (``pytestmark``), its test has a
platform ``skipif`` mark, it sits under an ``if`` on os.name / sys.platform / shutil.which, or its function
returns before it when the tool is missing. A Windows job of a workflow may not use bash or apt either,
unless its step is conditioned on ``runner.os``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from guide_harness import ROOT

POSIX_TOOLS = {"bash", "sh", "dpkg-query", "dpkg", "apt-get", "apt", "apt-cache", "sudo", "chmod"}
CALLS = re.compile(r"^(subprocess\.(run|Popen|call|check_call|check_output)|os\.(system|exec\w*|spawn\w*))$")
PLATFORM = re.compile(r"os\.name|sys\.platform|platform\.system|shutil\.which|\bis None\b|^not \w+$")
LAYOUT_PARTS = {"bin", "lib"}


def python_files() -> list[Path]:
    files = [*(ROOT / "tests").rglob("*.py"), *(ROOT / ".github").rglob("*.py")]
    return sorted(p for p in files if "node_modules" not in p.parts)


def _parents(tree: ast.AST) -> dict:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _platform_names(tree: ast.Module) -> set[str]:
    """Module-level names that hold a platform test (ON_WINDOWS = os.name == "nt") or a platform skipif mark."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and PLATFORM.search(ast.unparse(node.value)):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _is_platform_test(node: ast.AST, names: set[str]) -> bool:
    text = ast.unparse(node)
    return bool(PLATFORM.search(text)) or any(re.search(rf"\b{n}\b", text) for n in names)


def _skipif(decorator: ast.AST, names: set[str]) -> bool:
    text = ast.unparse(decorator)
    return ("skipif" in text and _is_platform_test(decorator, names)) or text in names


def module_guard(tree: ast.Module, names: set[str]) -> str | None:
    """Why the whole module is guarded: a Windows skip with a reason, or a one-line refusal of Windows."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            text = ast.unparse(node.value)
            if "skipif" in text and PLATFORM.search(text) and "reason=" in text:
                return "pytestmark"
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and re.search(r"os\.name|sys\.platform", ast.unparse(node.test)):
            if any(isinstance(n, ast.Raise) and "SystemExit" in ast.unparse(n) for n in ast.walk(node)):
                return "refuses Windows"
    return None


def _resolve(node: ast.AST, scope: list[ast.stmt]) -> str | None:
    """A command's program: a string, or a name assigned a string or shutil.which("tool") in ``scope``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.split()[0] if node.value.split() else None
    if isinstance(node, ast.Name):
        for statement in scope:
            for sub in ast.walk(statement):
                if isinstance(sub, ast.Assign) and any(getattr(t, "id", "") == node.id for t in sub.targets):
                    value = sub.value
                    if isinstance(value, ast.Call) and ast.unparse(value.func) == "shutil.which" and value.args:
                        return _resolve(value.args[0], [])
                    if isinstance(value, ast.Call) and value.args:  # Path("/usr/bin/x")
                        value = value.args[0]
                    return _resolve(value, [])
    return None


def _posix_program(program: str | None) -> bool:
    return bool(program) and (Path(program).name in POSIX_TOOLS or program.startswith(("/usr/", "/bin/")))


def hits(tree: ast.Module, linux_scripts: set[str], parents: dict) -> list[ast.AST]:
    """The POSIX-only calls and layouts in a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and CALLS.match(ast.unparse(node.func)) and node.args:
            command = node.args[0]
            first = command.elts[0] if isinstance(command, (ast.List, ast.Tuple)) and command.elts else command
            scope = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
            if _posix_program(_resolve(first, scope)):
                found.append(node)
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Constant)
            and node.right.value in LAYOUT_PARTS
            and "venv" in ast.unparse(node.left).lower()
        ):
            found.append(node)
        elif (
            isinstance(node, ast.Constant)
            and node.value in linux_scripts
            and isinstance(parents.get(node), (ast.BinOp, ast.List, ast.Tuple, ast.Call))
        ):
            found.append(node)  # a path to the script, or an argument of a call
    return found


def guarded(node: ast.AST, parents: dict, names: set[str], depth: int = 0) -> bool:
    child, parent = node, parents.get(node)
    while parent is not None:
        if (
            isinstance(parent, (ast.If, ast.IfExp, ast.While))
            and child is not parent.test
            and _is_platform_test(parent.test, names)
        ):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_skipif(d, names) for d in parent.decorator_list):
                return True
            if not parent.name.startswith("test_") and depth < 4:
                # a helper: guarded where every call of it in the module is
                calls = [
                    n
                    for n in parents
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == parent.name
                ]
                if calls and all(guarded(c, parents, names, depth + 1) for c in calls):
                    return True
            for statement in parent.body:  # an early return or skip before it, when the tool is missing
                if statement.lineno >= node.lineno:
                    break
                if (
                    isinstance(statement, ast.If)
                    and _is_platform_test(statement.test, names)
                    and any(isinstance(n, (ast.Return, ast.Raise)) or "skip" in ast.unparse(n) for n in statement.body)
                ):
                    return True
        child, parent = parent, parents.get(parent)
    return False


def unguarded(path: Path, linux_scripts: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _platform_names(tree)
    if module_guard(tree, names):
        return []
    parents = _parents(tree)
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    return [
        f"{where}:{n.lineno}: {ast.unparse(n)[:90]}"
        for n in hits(tree, linux_scripts - {path.name}, parents)
        if not guarded(n, parents, names)
    ]


def linux_only_scripts() -> set[str]:
    """File names of the scripts that refuse Windows themselves: calling one is a POSIX-only call."""
    found = set()
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not path.name.startswith("test_") and module_guard(tree, _platform_names(tree)) == "refuses Windows":
            found.add(path.name)
    return found


def test_every_posix_only_call_in_tests_and_github_is_guarded():
    scripts = linux_only_scripts()
    problems = [line for path in python_files() for line in unguarded(path, scripts)]
    assert problems == [], (
        "guard these for Windows (skipif with a reason, or an os.name/shutil.which check):\n" + "\n".join(problems)
    )


WINDOWS_STEP = re.compile(r"\b(bash|apt-get|dpkg-query|sudo)\b|/usr/bin/|\.venv/bin/")


def workflow_problems(workflow: dict) -> list[str]:
    problems = []
    for name, job in (workflow.get("jobs") or {}).items():
        labels = " ".join(
            map(str, job.get("runs-on") if isinstance(job.get("runs-on"), list) else [job.get("runs-on")])
        )
        if "windows" not in labels.lower():
            continue
        shell = str(((job.get("defaults") or {}).get("run") or {}).get("shell", ""))
        for step in job.get("steps") or []:
            if "runner.os" in str(step.get("if", "")):
                continue
            text = f"{step.get('shell', shell)}\n{step.get('run', '')}"
            if re.search(r"^(bash|sh)\b", str(step.get("shell", shell))) or (
                "run" in step and WINDOWS_STEP.search(text)
            ):
                problems.append(f"job {name}: step {step.get('name') or step.get('run', '')[:40]!r} is POSIX-only")
    return problems


@pytest.mark.parametrize("path", sorted((ROOT / ".github" / "workflows").glob("*.yml")), ids=lambda p: p.name)
def test_no_windows_job_calls_a_posix_only_tool(path):
    assert workflow_problems(yaml.safe_load(path.read_text(encoding="utf-8"))) == []
