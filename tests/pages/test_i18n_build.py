"""The Chinese edition in the built site: both editions in one strict build, English at its old URLs, Chinese
under zh/, a language switch that stays on the same page, rendered notebook pages, and Chinese search (jieba +
a separator with U+200B; what it finds: tests/site/test_site_browser.py and test_search_chinese.py). The
sources' parity: tests/pages/test_i18n.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from urllib.parse import urljoin

import pytest

from guide_harness import (
    DOCS,
    language_of,
    mkdocs_config,
    pages,
    translation_of,
)
from site_server import base_path

# ------------------------------------------------------------------------------------------- the build


@pytest.fixture(scope="module")
def site(built_site):
    """The run's one built site (tests/conftest.py; tests/site/test_site_build.py checks its build is clean)."""
    return built_site.path


def _built(page: Path) -> str:
    """Site path of a page: setup.md -> setup/index.html, setup.zh.md -> zh/setup/index.html."""
    stem = page.relative_to(DOCS).as_posix().rsplit(".", 1)[0]
    language = language_of(page)
    if language != "en":
        stem = stem.removesuffix(f".{language}")
    stem = "" if stem == "index" else f"{stem}/"
    return (f"{language}/" if language != "en" else "") + stem + "index.html"


NOTEBOOK_PAGES = [DOCS / "train-mnist-notebook.ipynb", DOCS / "train-mnist-notebook.zh.ipynb"]


@pytest.mark.parametrize("page", pages() + NOTEBOOK_PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_each_page_is_built_in_its_language(site, page):
    built = site / _built(page)
    assert built.is_file(), f"{page.relative_to(DOCS)} is not at {_built(page)}"
    text = built.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html>"), f"{_built(page)} is not an HTML page"
    assert f'<html lang="{language_of(page)}"' in text
    if language_of(page) == "zh":  # Material's English strings that its zh translation lacks, in Chinese
        assert 'title="Permanent link"' not in text and "Made with" not in text, f"{_built(page)} has English chrome"
        assert 'title="永久链接"' in text or "headerlink" not in text
        assert "本站使用" in text


@pytest.mark.parametrize("page", pages() + NOTEBOOK_PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_language_switch_stays_on_the_same_page(site, page):
    built = _built(page)
    text = (site / built).read_text(encoding="utf-8")
    switches = dict(
        (lang, href) for href, lang in re.findall(r'<a href="([^"]*)" hreflang="(\w+)" class="md-select__link"', text)
    )
    assert set(switches) == {"en", "zh"}, switches
    english = page if language_of(page) == "en" else page.with_name(page.name.replace(".zh.", "."))
    for language, href in switches.items():
        if href.startswith("/"):
            base = base_path()
            assert href.startswith(base), (href, base)
            target = href.removeprefix(base)
        else:
            target = urljoin("/" + built, href).lstrip("/")
        target = PurePosixPath(target.split("#")[0])
        target = str(target / "index.html") if not target.suffix else str(target)
        expected = _built(english if language == "en" else translation_of(english, language))
        assert target.removeprefix("./") == expected or (target == "index.html" and expected == "index.html"), (
            f"{built}: the {language} link {href!r} leads to {target}, not {expected}"
        )


def test_notebooks_come_with_their_download(site):
    assert (site / "train-mnist-notebook" / "train-mnist-notebook.ipynb").is_file()
    assert (site / "zh" / "train-mnist-notebook" / "train-mnist-notebook.zh.ipynb").is_file()
    page = (site / "zh" / "train-mnist-notebook" / "index.html").read_text(encoding="utf-8")
    assert 'href="train-mnist-notebook.zh.ipynb"' in page, "the Chinese notebook page must offer its own download"


CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# -------------------------------------------------------------------------------------------- search


def _search_config() -> dict:
    for plugin in mkdocs_config()["plugins"]:
        if isinstance(plugin, dict) and "search" in plugin:
            return plugin["search"] or {}
    return {}


def test_configured_search_separator_splits_on_u200b():
    """Material's search joins the words jieba finds with U+200B; a separator without it glues them together."""
    separator = _search_config().get("separator")
    if separator is None:
        pytest.skip("no separator configured: Material's per-language default applies")
    assert re.search(separator, "\u200b"), f"the search separator {separator!r} does not split on \\u200b"


@pytest.fixture(scope="module")
def search_index(site) -> dict:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))


def test_chinese_text_is_segmented_in_the_index(search_index):
    chinese = [doc for doc in search_index["docs"] if doc["location"].startswith("zh/")]
    assert len(chinese) > 30
    assert all("\u200b" in doc["text"] for doc in chinese if CJK.search(doc["text"])), "jieba did not segment"
    assert {"en", "zh"} <= set(search_index["config"]["lang"]), search_index["config"]["lang"]
