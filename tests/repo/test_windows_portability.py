"""The suite runs on Windows too: no test may assume POSIX paths, `python3`, POSIX signals or LF bytes.

A static audit of every file under tests/. Each rule is a function that returns the offending lines, so
the same code checks the real files and deliberately broken lines (to prove that each rule can fail).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guide_harness import TESTS

# A relative path written with "/" inside a string that an assertion compares with program output:
# on Windows the scripts print "checkpoints\lenet-fashion-mnist.pt".
SLASH_PATH = re.compile(r"""["'][^"'\n]*?(?<![\w:/.-])([\w.-]+/)+[\w.-]+\.(pt|py|xml|txt|json|gz|csv)\b[^"'\n]*["']""")
# ...in a check of what a program printed.
OUTPUT_CHECK = re.compile(
    r"assert_refused|assert_one_line_error|needle|\bin\s+(\w+\.)?(out|err|stdout|stderr|output)\b"
)
# `python3` as the program to start: Windows has `python` and `py`, no `python3` (except the Store stub).
PYTHON3_COMMAND = re.compile(r"""(\[\s*|\bargs=\s*|^\s*)["']python3\b|["']python3 -|\bshutil\.which\(\s*["']python3""")
# POSIX-only process and signal APIs.
POSIX_ONLY = re.compile(
    r"\bsignal\.SIG(?!INT\b|TERM\b|ABRT\b|BREAK\b|FPE\b|ILL\b|SEGV\b)[A-Z]+\b|\bos\.(kill|killpg|fork|setsid|getuid|"
    r"geteuid)\(|\bpreexec_fn\b|\bstart_new_session\b|\bsignal\.alarm\("
)
# Bytes of a text file decoded by hand skip newline translation: CRLF checkouts then differ.
LF_BYTES = re.compile(r"\.read_bytes\(\)\.decode\(|\.split\(b?[\"']\\n[\"']\)\s*==|check_output\((?![^)]*text=True)")


def slash_path_problems(lines: list[str]) -> list[int]:
    found = []
    for number, line in enumerate(lines, 1):
        code = line.split("#", 1)[0]
        if OUTPUT_CHECK.search(code) and SLASH_PATH.search(code) and "://" not in code:
            found.append(number)
    return found


def python3_problems(lines: list[str]) -> list[int]:
    return [n for n, line in enumerate(lines, 1) if PYTHON3_COMMAND.search(line.split("#", 1)[0])]


def posix_problems(lines: list[str]) -> list[int]:
    # Allowed where the same line checks for the API first: `-signal.SIGKILL if hasattr(signal, "SIGKILL")`.
    return [n for n, line in enumerate(lines, 1) if POSIX_ONLY.search(line.split("#", 1)[0]) and "hasattr(" not in line]


def lf_problems(lines: list[str]) -> list[int]:
    return [n for n, line in enumerate(lines, 1) if LF_BYTES.search(line.split("#", 1)[0])]


RULES = {
    "slash path": slash_path_problems,
    "python3": python3_problems,
    "POSIX only": posix_problems,
    "LF bytes": lf_problems,
}
SOURCES = sorted(p for p in TESTS.rglob("*.py") if p.name != Path(__file__).name)
# Modules whose POSIX calls no Windows run reaches, each with the reason.
POSIX_MODULES = {"warm_python.py": "it forks only where warm_python.usable() finds Linux; elsewhere nothing calls it"}


@pytest.mark.parametrize("rule", list(RULES))
def test_the_tests_are_portable_to_windows(rule):
    problems = []
    for path in SOURCES:
        if rule == "POSIX only" and path.name in POSIX_MODULES:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        problems += [f"{path.relative_to(TESTS).as_posix()}:{n}: {lines[n - 1].strip()}" for n in RULES[rule](lines)]
    assert not problems, f"{rule}:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "rule, line",
    [
        ("slash path", '        assert_refused(code, err, "checkpoints/lenet-fashion-mnist.pt", message)'),
        ("slash path", '    assert "saved checkpoints/x.pt" in out'),
        ("python3", '    subprocess.run(["python3", "-m", "pytest"])'),
        ("python3", '    command = "python3 -m venv .venv"'),
        ("POSIX only", "    os.kill(process.pid, signal.SIGKILL)"),
        ("POSIX only", "    assert process.returncode == -signal.SIGKILL"),
        ("POSIX only", "    subprocess.Popen(args, start_new_session=True)"),
        ("LF bytes", '    text = path.read_bytes().decode("utf-8")'),
    ],
)
def test_each_rule_catches_its_problem(rule, line):
    assert RULES[rule]([line]) == [1]
