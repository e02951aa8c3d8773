"""Nothing a script prints may be non-ASCII: readers run them in GBK (Chinese Windows) or cp1252 consoles.

A character such a console cannot encode raises UnicodeEncodeError inside print() when the output is
redirected or piped, and a Chinese console turns others into mojibake. Two guards:
- statically, every file in snippets/ is ASCII, so no literal the scripts print can be anything else;
- at run time, the harness runs every snippet and every site block with PYTHONIOENCODING=ascii, so text
  that reaches stdout or stderr from anywhere else (a library message, a computed character) fails the test.
"""

from __future__ import annotations

import pytest

from guide_harness import ROOT, SNIPPETS, run_snippet

SNIPPET_FILES = sorted(p for p in SNIPPETS.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_snippet_file_is_ascii(path):
    text = path.read_text(encoding="utf-8")
    bad = [(number, line) for number, line in enumerate(text.splitlines(), 1) if not line.isascii()]
    assert not bad, f"{path.relative_to(ROOT)} has non-ASCII text (a GBK console may fail on it): {bad[:3]}"


def test_snippets_run_with_an_ascii_console(tmp_path):
    """run_snippet() gives a script an ASCII stdout: printing anything else fails, as it can in a GBK console."""
    script = tmp_path / "prints.py"
    script.write_text('print("ratio: 3.0\\u00d7 as fast")\n', encoding="utf-8")
    result = run_snippet(str(script), cwd=tmp_path)  # an absolute path: SNIPPETS / path is that path
    assert result.returncode != 0 and "UnicodeEncodeError" in result.stderr, result.stderr
    script.write_text('print("ratio: 3.0x as fast")\n', encoding="utf-8")
    assert run_snippet(str(script), cwd=tmp_path).returncode == 0
