"""Every Python block on the site runs as a program, exactly as the page shows it.

Each page is expanded with pymdownx.snippets as MkDocs expands it, its blocks are read through the page
model (guide.page, by guide.blocks), and each Python block runs as ``__main__`` in a fresh folder, one
test per block, named page:line; ``<!-- site-block: directml=yes -->`` above it gives the directml mark. Sibling snippet files are importable, as they are in the reader's project folder.
"""

from __future__ import annotations

import pytest

from guide_harness import (
    ASCII_CONSOLE,
    SNIPPETS,
    all_site_blocks,
    run_python,
)

BLOCKS = all_site_blocks()


def _param(block):
    marks = [pytest.mark.directml] if block.directml else []
    return pytest.param(block, id=block.test_id, marks=marks)


def test_the_site_has_python_blocks():
    assert len(BLOCKS) >= 2, "the harness found almost no Python blocks: is it reading the pages?"


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_site_block_runs_as_program(block, tmp_path, request):
    script = tmp_path / "block.py"
    script.write_text(block.code, encoding="utf-8")
    args = block.args
    if any("{fashion_mnist}" in a for a in args):
        root = str(request.getfixturevalue("fashion_mnist_root"))
        args = [a.replace("{fashion_mnist}", root) for a in args]
    result = run_python([str(script), *args], cwd=tmp_path, PYTHONPATH=str(SNIPPETS), PYTHONIOENCODING=ASCII_CONSOLE)
    assert result.returncode == 0, (
        f"{block.test_id} ({block.info}) exited {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
