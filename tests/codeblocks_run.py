"""The site's Python blocks through pytest-codeblocks, run as the reader runs them (a plugin, loaded by conftest).

Before collection, this plugin writes every page of both editions as the reader sees it (guide.codeblocks:
snippets included, site-block keys as pytest-codeblocks marks) into tests/pages/expanded/ (not in git), and
pytest-codeblocks (``--codeblocks``, in pyproject.toml's addopts) collects one test per Python block there,
named tests/pages/expanded/en/PAGE.md::line N (zh/ for the Chinese edition; N: the expanded page's line).
pytest-codeblocks would ``exec`` a block inside the test process with
``__MODULE__`` set, not ``__name__``, so an ``if __name__ == "__main__":`` guard never runs: each Python
English block it collects runs here instead as a program (``__main__``) in a fresh folder, with its
``args(...)`` mark, snippets/ importable (the reader's project folder) and an ASCII console; each Chinese
block passes when it is its English page's block, in the same place with the same marks.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from pytest_codeblocks.main import extract_from_file

from fetch_fashion_mnist import FILES, SOURCE, unpack
from guide import ROOT
from guide.codeblocks import write_pages
from guide_harness import ASCII_CONSOLE, SNIPPETS, run_python
from run_requirements import skip_or_fail

PAGES = ROOT / "tests" / "pages" / "expanded"
SCRATCH = pytest.StashKey[Path]()


def _collects_pages(config) -> bool:
    """True when this run's paths hold tests/pages/expanded (a nested run of other files leaves it alone)."""
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path == PAGES or path in PAGES.parents or PAGES in path.parents:
            return True
    return False


def pytest_configure(config) -> None:
    if not config.getoption("codeblocks", False) or hasattr(config, "workerinput") or not _collects_pages(config):
        return  # not asked for, an xdist worker (the controller wrote the pages before it started), or not here
    write_pages(PAGES)


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        block = getattr(item, "obj", None)
        if type(item).__name__ != "TestBlock" or getattr(block, "syntax", None) != "python":
            continue
        if PAGES / "zh" in item.path.parents:
            item.runtest = lambda item=item: same_as_english(item)
        else:
            item.runtest = lambda item=item: run_block(item)


def python_blocks(page: Path) -> list:
    return [b for b in extract_from_file(page) if b.syntax == "python"]


def same_as_english(item) -> None:
    """A Chinese page's block passes when it is its English page's block (same place, code and marks),
    which runs as a program: the same minutes are not spent twice. Any difference fails it."""
    english = PAGES / "en" / item.path.relative_to(PAGES / "zh")
    english = english.with_name(english.name.replace(".zh.md", ".md"))
    place = [b.lineno for b in python_blocks(item.path)].index(item.obj.lineno)
    twins = python_blocks(english) if english.is_file() else []
    twin = twins[place] if place < len(twins) else None
    if twin is None or (twin.code, twin.marks) != (item.obj.code, item.obj.marks):
        where = f"en/{english.relative_to(PAGES / 'en').as_posix()}, Python block {place + 1}"
        raise AssertionError(
            f"{item.nodeid}: not the same block as {where} (code or marks): it would need a run of its own"
        )


def _scratch(config) -> Path:
    if SCRATCH not in config.stash:
        config.stash[SCRATCH] = Path(tempfile.mkdtemp(prefix="codeblocks-"))
    return config.stash[SCRATCH]


def fashion_mnist(config) -> str:
    """Real Fashion-MNIST unpacked once per process, for a block whose arguments name {fashion_mnist}."""
    root = _scratch(config) / "data"
    if not root.is_dir():
        if not all((SOURCE / f"{name}.gz").is_file() for name in FILES):
            skip_or_fail("data", f"Fashion-MNIST is missing ({SOURCE}): apt-get install dataset-fashion-mnist")
        unpack(SOURCE, root)
    return str(root)


def run_block(item) -> None:
    mark = item.get_closest_marker("args")
    args = [str(a) for a in mark.args] if mark else []
    if any("{fashion_mnist}" in a for a in args):
        data = fashion_mnist(item.config)
        args = [a.replace("{fashion_mnist}", data) for a in args]
    folder = Path(tempfile.mkdtemp(dir=_scratch(item.config)))
    script = folder / "block.py"
    script.write_text(item.obj.code, encoding="utf-8")
    result = run_python([str(script), *args], cwd=folder, PYTHONPATH=str(SNIPPETS), PYTHONIOENCODING=ASCII_CONSOLE)
    if result.returncode != 0:
        raise AssertionError(
            f"{item.nodeid} exited {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    shutil.rmtree(folder, ignore_errors=True)


def pytest_unconfigure(config) -> None:
    if SCRATCH in config.stash:
        shutil.rmtree(config.stash[SCRATCH], ignore_errors=True)
