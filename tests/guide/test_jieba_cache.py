"""jieba's dictionary cache (docs/hooks/guide/i18n.py: on_config, cache_name).

jieba loads any ``jieba.cache`` in the temporary folder for its default dictionary, whoever wrote it. CI on
2026-12-02 built an index in which "检查点" was two words, 检查 | 点, and the Chinese search test for 检查点
failed (tests/site/test_site_browser.py); a cache without that word, planted here, gives the same split
without the hook. The build must read only a cache of its own dictionary.
"""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from guide.i18n import cache_name
from guide_harness import ROOT, clean_env

jieba = pytest.importorskip("jieba")
DICTIONARY = Path(jieba.__file__).with_name("dict.txt")

# MkDocs' own start of a build, without the build: every plugin's and hook's on_startup and on_config in
# their priorities' order, Material's search plugin loading jieba's dictionary among them.
PROBE = """
import jieba
from mkdocs.config import load_config
config = load_config("mkdocs.yml")
config.plugins.on_startup(command="build", dirty=False)
config.plugins.on_config(config)
print(" | ".join(jieba.lcut("能扛住崩溃的检查点")))
"""


def _foreign_cache(folder: Path) -> None:
    """A jieba.cache as another program might leave it: jieba's dictionary less one word, 检查点."""
    with DICTIONARY.open("rb") as lines:
        words, total = jieba.Tokenizer.gen_pfdict(lines)
    del words["检查点"]
    (folder / "jieba.cache").write_bytes(marshal.dumps((words, total)))


def test_the_build_ignores_another_programs_jieba_cache(tmp_path):
    _foreign_cache(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean_env(TMPDIR=str(tmp_path), PYTHONIOENCODING="utf-8"),  # Chinese out of a GBK or cp1252 console
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "能 | 扛 | 住 | 崩溃 | 的 | 检查点"
    # the build's own cache, beside the foreign one, for the next build to read
    assert (tmp_path / cache_name(DICTIONARY)).is_file()


def test_the_cache_name_follows_the_dictionarys_contents(tmp_path):
    one, other = tmp_path / "one.txt", tmp_path / "other.txt"
    one.write_text("检查点 10 n\n", encoding="utf-8")
    other.write_text("检查 10 v\n", encoding="utf-8")
    assert cache_name(one) != cache_name(other)
    assert cache_name(one) == cache_name(one)
    assert cache_name(DICTIONARY) != "jieba.cache"
