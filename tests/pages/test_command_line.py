"""The scripts' command-line contract (docs/contributing/testing.md#the-command-line-contract).

Exit 0 when done, 1 when the script ran and could not do its job (one 'error: ...' line), 2 for a wrong
command line (argparse's own status); ``raise SystemExit(main())`` under the main guard (the reader's scripts:
``script_guard.run(main)``, their door); the data options
and the argument validators defined once, in mnist_data.py; one name per behaviour.
"""

from __future__ import annotations

import ast
import contextlib
import io

import pytest

from generated_cases import SCRIPTS, parser_of
from guide_harness import (
    DOCS,
    ROOT,
    SNIPPETS,
    TESTS,
    load_snippet,
    run_python,
)

SCRIPT_FOLDERS = (SNIPPETS, TESTS / "browser", DOCS / "hooks", ROOT / ".github")
VALIDATORS = {"positive_int", "non_negative_int", "positive_float", "add_data_options"}
DATA_OPTIONS = {"--dataset", "--data-dir", "--download"}


def scripts() -> list:
    """Every file with a main guard (a module that only names "__main__", as script_guard.py does, is none)."""
    found = []
    for folder in SCRIPT_FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "__main__" in text and main_guard(ast.parse(text)) is not None:
                found.append(path)
    return found


def main_guard(tree: ast.Module) -> ast.If | None:
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            return node
    return None


# The reader's scripts go through their door (snippets/script_guard.py): `script_guard.run(main)` under the main
# guard, and one sys.exit, where `import script_guard` fails (the door is not there to say it).
DOOR_IDIOM = "script_guard.run(main)"


def _door_import_exits(tree: ast.Module) -> set[int]:
    """The lines of sys.exit calls inside `try: import script_guard / except ImportError:`."""
    lines = set()
    for node in tree.body:
        if isinstance(node, ast.Try) and any(ast.unparse(n) == "import script_guard" for n in node.body):
            lines |= {n.lineno for handler in node.handlers for n in ast.walk(handler) if isinstance(n, ast.Call)}
    return lines


def exit_idiom_problems(source: str, door: bool = False) -> list[str]:
    tree = ast.parse(source)
    problems = []
    guard = main_guard(tree)
    idiom = DOOR_IDIOM if door else "raise SystemExit(main())"
    if guard is None or [ast.unparse(s) for s in guard.body] != [idiom]:
        problems.append(f"the main guard is not exactly `{idiom}`")
    allowed = _door_import_exits(tree) if door else set()
    problems += [
        f"line {node.lineno}: sys.exit(...)"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "sys.exit" and node.lineno not in allowed
    ]
    return problems


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_one_exit_idiom(script):
    door = script.parent == SNIPPETS
    problems = exit_idiom_problems(script.read_text(encoding="utf-8"), door=door)
    assert not problems, f"{script.relative_to(ROOT)}: {problems}"


NO_COMMAND_LINE = {ROOT / ".github" / "runner" / "job_started_hook.py"}  # the runner starts it, with no arguments


@pytest.mark.parametrize(
    "script",
    [s for s in scripts() if not s.is_relative_to(SNIPPETS) and s not in NO_COMMAND_LINE],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_every_project_script_answers_help(script):
    """Run as the README runs it (no PYTHONPATH: pytest's pythonpath does not reach a script), --help
    prints the usage and exits 0. The snippets are run as scripts by their own tests; the runner's
    hook takes no command line."""
    result = run_python([str(script), "--help"], cwd=ROOT, timeout=120)
    where = script.relative_to(ROOT).as_posix()
    assert result.returncode == 0 and "Traceback" not in result.stderr, f"{where}:\n{result.stderr[-600:]}"
    assert "usage:" in result.stdout, f"{where}: no usage line:\n{result.stdout[:300]}"


def test_exit_idiom_check():
    good = "def main():\n    return 0\n\nif __name__ == '__main__':\n    raise SystemExit(main())\n"
    assert exit_idiom_problems(good) == []
    assert exit_idiom_problems(good.replace("raise SystemExit(main())", "sys.exit(main())"))
    assert exit_idiom_problems(good + "\ndef f():\n    sys.exit(1)\n")
    # A reader's script: its door, and the one sys.exit where the door cannot be imported.
    door = 'try:\n    import script_guard\nexcept ImportError:\n    sys.exit("error: x")\n'
    good = door + 'if __name__ == "__main__":\n    script_guard.run(main)\n'
    assert exit_idiom_problems(good, door=True) == []
    assert exit_idiom_problems(good.replace("script_guard.run(main)", "raise SystemExit(main())"), door=True)
    assert exit_idiom_problems(good + "sys.exit(1)\n", door=True) == ["line 7: sys.exit(...)"]


def definitions(source: str) -> tuple[set[str], set[str]]:
    """(functions defined, option strings passed to add_argument) in a file."""
    tree = ast.parse(source)
    functions = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    options = {
        arg.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"
        for arg in node.args
        if isinstance(arg, ast.Constant)
    }
    return functions, options


def test_data_options_and_validators_are_defined_once():
    problems = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        if path.name == "mnist_data.py":
            continue
        functions, options = definitions(path.read_text(encoding="utf-8"))
        problems += [f"{path.name} defines {name}()" for name in functions & VALIDATORS]
        problems += [f"{path.name} adds {option} itself" for option in options & DATA_OPTIONS]
    assert not problems, "use mnist_data's add_data_options() and validators: " + "; ".join(problems)
    functions, options = definitions((SNIPPETS / "mnist_data.py").read_text(encoding="utf-8"))
    assert VALIDATORS <= functions and DATA_OPTIONS <= options


def test_one_body_per_name():
    """Functions that share a name share a behaviour: every load_directml() is the same code."""
    bodies: dict[str, set[str]] = {}
    for path in sorted(SNIPPETS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and "directml" in node.name:
                bodies.setdefault(node.name, set()).add(ast.dump(node))
    differing = sorted(name for name, versions in bodies.items() if len(versions) > 1)
    assert not differing, f"one name, several behaviours: {differing}"


def exit_code(module, *argv: str) -> int:
    """What ``python MODULE.py ARGV`` exits with, run in-process (argparse's exits included)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return module.main(list(argv))
        except SystemExit as stop:
            return stop.code


# The reader's scripts with a command line (generated_cases finds each one's parser), and the troubleshooting page's.
ARGPARSE_SCRIPTS = [s for s in SCRIPTS if parser_of(s)] + [
    "troubleshooting/pick_adapter",
    "troubleshooting/find_cpu_fallbacks",
]


@pytest.mark.parametrize(
    "name, argv",
    [(name, ["--no-such-option"]) for name in ARGPARSE_SCRIPTS]
    + [
        ("train_mnist", ["--epochs", "0"]),
        ("train_mnist_notebook", ["--limit-train", "-5"]),
        ("benchmark_data_loading", ["--num-workers", "-1"]),
        ("benchmark_devices", ["--lr", "0"]),
        ("mnist_data", ["--dataset", "cifar"]),
    ],
)
def test_a_wrong_command_line_exits_2(name, argv):
    assert exit_code(load_snippet(name), *argv) == 2


def test_a_refusal_of_this_machine_exits_1(tmp_path, monkeypatch):
    """The command line was right; the machine or the files said no."""
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    choose_device = load_snippet("choose_device")
    monkeypatch.setattr(choose_device, "_directml_if_installed", lambda: None)
    assert exit_code(choose_device, "--device", "dml") == 1
    pick_adapter = load_snippet("troubleshooting/pick_adapter")
    monkeypatch.setattr(pick_adapter, "load_directml", lambda: None)  # the example list: three adapters
    assert exit_code(pick_adapter, "--adapter", "7") == 1
    for name in ("mnist_data", "train_mnist"):
        assert exit_code(load_snippet(name), "--data-dir", str(tmp_path / "none")) == 1


@pytest.mark.parametrize("argv", [["--runs", "6", "--need", "7"], ["--runs", "0"], ["--need", "0"]])
def test_the_page_speed_benchmark_refuses_a_count_it_cannot_meet(argv):
    """--need N of --runs: checked before anything is built or audited (one usage line, exit 2)."""
    result = run_python([str(TESTS / "browser" / "lighthouse.py"), *argv], cwd=ROOT, timeout=120)
    assert result.returncode == 2 and "--need between 1 and --runs" in result.stderr, result.stderr[-400:]
    assert "Traceback" not in result.stderr
