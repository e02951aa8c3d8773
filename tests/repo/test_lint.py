"""ruff, pinned in pyproject.toml, lints and formats the project: what readers copy (snippets/) at 76
columns, the project's own code (tests/, docs/hooks/, .github/) at 120 (their folders' ruff.toml). Node's own
parser checks the JavaScript the site serves and the Node tests.

Its line length (pyproject.toml's [tool.ruff]) is what a code block shows without scrolling at the
site's desktop width, so a snippet line that would scroll fails here.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from guide_harness import ROOT

pytest.importorskip("ruff", reason="ruff is in the test group: pip install --group test")


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("args", [("check", ".", "--output-format", "concise"), ("format", "--check", ".")])
def test_ruff(args):
    result = ruff(*args)
    assert result.returncode == 0, result.stdout + result.stderr


JAVASCRIPT = sorted([*(ROOT / "docs").rglob("*.js"), *(ROOT / "tests" / "js").rglob("*.js")])


@pytest.mark.parametrize("path", JAVASCRIPT, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_javascript_parses(path):
    """A syntax error in a page's script stops that script in every reader's browser, and only a browser test
    of that page would say so: `node --check` parses each file without running it."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the README's test command needs Node.js 20 or newer")
    result = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


# A string literal split across lines into a short fragment ("finished " "epoch: "): readers copy
# snippets/, and a sentence in pieces reads badly and hides from a search of the code. A long message
# may still be two whole lines' worth of literal; a part shorter than this is a fragment.
FRAGMENT = 16


def _literal_text(token: str) -> str:
    """The characters between a string literal's quotes (its prefix, quotes and escapes left as written)."""
    body = token.lstrip("rRbBuUfF")
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    return body[len(quote) : len(body) - len(quote)]


# Python 3.12 (PEP 701) tokenizes an f-string as FSTRING_START, its parts and FSTRING_END, not as one
# STRING: getattr keeps 3.11, which has no such token, on the plain path.
FSTRING_START = getattr(tokenize, "FSTRING_START", None)
FSTRING_END = getattr(tokenize, "FSTRING_END", None)


def _literals(source: str):
    """The source's tokens, each f-string (nested ones inside it too) given as one STRING token."""
    lines = source.splitlines(keepends=True)
    depth, start = 0, None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if FSTRING_START is not None and token.type == FSTRING_START:
            depth += 1
            start = token if depth == 1 else start
        elif depth and token.type == FSTRING_END:
            depth -= 1
            if depth == 0:
                (row, col), (end_row, end_col) = start.start, token.end
                text = "".join(lines[row - 1 : end_row])
                text = text[col : len(text) - len(lines[end_row - 1]) + end_col]
                yield tokenize.TokenInfo(tokenize.STRING, text, start.start, token.end, start.line)
        elif not depth:
            yield token


def implicit_concatenations(source: str) -> list[tuple[int, list[str]]]:
    """Each run of string literals Python joins implicitly ("a" "b"), as (first line, the parts' texts).

    A run of raw strings only is a regular expression written one commented alternative a line
    (snippets/troubleshooting/pick_adapter.py), not a sentence: it is left out."""
    runs: list[tuple[int, list[str]]] = []
    current: list[tokenize.TokenInfo] = []
    for token in _literals(source):
        if token.type == tokenize.STRING:
            current.append(token)
        elif token.type in (tokenize.NL, tokenize.COMMENT):
            continue  # a run may span lines inside brackets, with comments between
        else:
            if len(current) > 1 and not all(t.string[:1] in "rR" for t in current):
                runs.append((current[0].start[0], [_literal_text(t.string) for t in current]))
            current = []
    return runs


def split_fragments(root: Path) -> list[str]:
    """'file:line: parts' for every implicit concatenation under ``root`` with a part under FRAGMENT."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for line, parts in implicit_concatenations(path.read_text(encoding="utf-8")):
            if any(len(part.strip()) < FRAGMENT for part in parts):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {' + '.join(map(repr, parts))}")
    return found


def test_the_fragment_check_finds_split_strings():
    source = (
        'print(\n    "finished "\n    "epoch: " f"{n}"\n)\n'
        'x = ("a whole sentence of some length, "  # note\n    "and its whole second half, too")\n'
        'y = "one" + "two"\nz = (r"\\bUHD\\b"  # Intel\n    r"|Basic")\n'
    )
    assert implicit_concatenations(source) == [
        (2, ["finished ", "epoch: ", "{n}"]),
        (5, ["a whole sentence of some length, ", "and its whole second half, too"]),
    ]


def test_the_fragment_check_reads_an_f_string_as_one_literal():
    """On 3.12 an f-string is many tokens; a nested one and its braces stay inside the one part."""
    source = 'a = (f"done {f\'{n}\'} of {total:>{w}}"\n     "tail")\nb = f"{x}" f"{y}"\n'
    assert implicit_concatenations(source) == [(1, ["done {f'{n}'} of {total:>{w}}", "tail"]), (3, ["{x}", "{y}"])]


def test_no_string_in_snippets_is_split_into_a_fragment():
    found = split_fragments(ROOT / "snippets")
    assert found == [], "rejoin these sentences (reflow the lines, or shorten the sentence):\n" + "\n".join(found)


# A test file a newcomer reads whole (issue 29): split by what it tests, as test_doctor_windows.py and
# test_doctor_report.py are split off test_doctor.py, once it grows past this.
MAX_TEST_FILE_LINES = 600


def long_test_files(root: Path = ROOT / "tests") -> dict[str, int]:
    """Every test file under ``root`` over MAX_TEST_FILE_LINES lines, with its length."""
    found = {}
    for path in sorted(root.rglob("test_*.py")):
        if "node_modules" in path.parts:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_TEST_FILE_LINES:
            found[path.relative_to(root).as_posix()] = lines
    return found


def test_no_test_file_is_over_600_lines():
    assert not long_test_files(), f"split these by what they test: {long_test_files()}"


def test_the_length_check_finds_a_long_file(tmp_path):
    (tmp_path / "test_long.py").write_text("x = 1\n" * (MAX_TEST_FILE_LINES + 1), encoding="utf-8")
    (tmp_path / "test_short.py").write_text("x = 1\n" * MAX_TEST_FILE_LINES, encoding="utf-8")
    assert long_test_files(tmp_path) == {"test_long.py": MAX_TEST_FILE_LINES + 1}
