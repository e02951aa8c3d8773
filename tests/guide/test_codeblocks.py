"""guide.codeblocks and tests/codeblocks_run.py: pytest-codeblocks collects every Python block of both
editions, as the page model reads them, and a block that fails as a program fails its test."""

from __future__ import annotations

import os
import shlex
import subprocess
import types

import pytest
from pytest_codeblocks.main import extract_from_file

from guide.blocks import site_blocks
from guide.codeblocks import marked_source, marks, write_pages
from guide.pages import language_of, pages
from guide_harness import ROOT, run_python


def test_marks_are_pytest_codeblocks_comments():
    assert marks({}) == []
    assert marks({"directml": "yes", "args": '--data-dir "{fashion_mnist}" --epochs 1'}) == [
        "<!--pytest.mark.directml-->",
        "<!--pytest.mark.args('--data-dir', '{fashion_mnist}', '--epochs', '1')-->",
    ]


def test_a_marked_fence_keeps_its_indent_and_loses_its_title():
    source = '!!! note\n\n    <!-- site-block: args="--steps 5" -->\n    ```python title="a.py"\n    x = 1\n    ```\n'
    assert marked_source(source, "a.md").splitlines()[3:5] == [
        "    <!--pytest.mark.args('--steps', '5')-->",
        "    ```python",
    ]


def options(block) -> dict[str, str]:
    keys = {"args": shlex.join(block.args)} if block.args else {}
    return {**keys, "directml": "yes"} if block.directml else keys


def test_pytest_codeblocks_collects_every_python_block_of_both_editions(tmp_path):
    """Per page: the blocks pytest-codeblocks reads from the written page are the page model's blocks, with
    the same code, arguments and DirectML mark, in order."""
    written = {p.relative_to(tmp_path).as_posix(): p for p in write_pages(tmp_path)}
    assert "en/setup.md" in written and "zh/setup.zh.md" in written
    problems, total = [], 0
    for page in pages():
        name = f"{language_of(page)}/{page.relative_to(ROOT / 'docs').as_posix()}"
        expected = site_blocks(page)
        found = [b for b in extract_from_file(written[name]) if b.syntax == "python"]
        total += len(found)
        got = [(b.code, b.marks) for b in found]
        want = [(b.code, [m[4:-3] for m in marks(options(b))]) for b in expected]
        if got != want:
            problems.append(f"{name}: pytest-codeblocks reads {len(found)} blocks, the page model {len(expected)}")
    assert not problems, "\n".join(problems)
    assert total >= 60, f"only {total} Python blocks in both editions: is it reading the pages?"


PATHS = ("tests", ".github/scripts", "snippets", "docs/hooks")  # pyproject.toml's pythonpath, for -p


def run_pages(tmp_path, code: str) -> subprocess.CompletedProcess:
    page = tmp_path / "page.md"
    page.write_text(f"# A page\n\n```python\n{code}```\n", encoding="utf-8")
    args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "codeblocks_run", "--codeblocks", str(page)]
    return run_python(args, cwd=ROOT, timeout=120, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in PATHS))


def test_a_broken_block_fails_and_a_good_one_passes(tmp_path):
    broken = run_pages(tmp_path, "import lenet\nlenet.no_such_name\n")
    assert broken.returncode == 1 and "1 failed" in broken.stdout, broken.stdout[-2000:]
    assert "AttributeError" in broken.stdout and "no_such_name" in broken.stdout
    good = run_pages(tmp_path, "import lenet\nprint(lenet.__name__)\n")
    assert good.returncode == 0 and "1 passed" in good.stdout, good.stdout[-2000:]


def test_a_main_guard_runs(tmp_path):
    """pytest-codeblocks' own exec never runs `if __name__ == "__main__":`; the plugin runs the block as a program."""
    result = run_pages(tmp_path, 'if __name__ == "__main__":\n    raise SystemExit(3)\n')
    assert result.returncode == 1 and "exited 3" in result.stdout, result.stdout[-2000:]


def test_a_chinese_block_that_differs_from_its_english_block_fails(tmp_path, monkeypatch):
    import codeblocks_run

    monkeypatch.setattr(codeblocks_run, "PAGES", tmp_path)
    (tmp_path / "en").mkdir()
    (tmp_path / "zh").mkdir()
    (tmp_path / "en" / "a.md").write_text("```python\nprint(1)\n```\n", encoding="utf-8")
    chinese = tmp_path / "zh" / "a.zh.md"
    for code, fails in [("print(1)\n", False), ("print(2)\n", True)]:
        chinese.write_text(f"# 页\n\n```python\n{code}```\n", encoding="utf-8")
        (block,) = codeblocks_run.python_blocks(chinese)
        item = types.SimpleNamespace(path=chinese, obj=block, nodeid="zh/a.zh.md::line 3")
        if fails:
            with pytest.raises(AssertionError, match="not the same block as en/a.md, Python block 1"):
                codeblocks_run.same_as_english(item)
        else:
            codeblocks_run.same_as_english(item)


def test_writing_again_leaves_unchanged_pages_alone_and_removes_a_gone_page(tmp_path):
    """.ci/run's two runs share the checkout: the second writer must not pull a page from under the first."""
    first = write_pages(tmp_path)
    stamps = {page: page.stat().st_mtime_ns for page in first}
    gone = tmp_path / "en" / "gone.md"
    gone.write_text("# gone\n", encoding="utf-8")
    assert write_pages(tmp_path) == first
    assert {page: page.stat().st_mtime_ns for page in first} == stamps
    assert not gone.exists() and not list(tmp_path.rglob("*.tmp"))
