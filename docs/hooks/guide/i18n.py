"""MkDocs events for the Chinese edition: notebook pages stay notebooks, and jieba stays quiet and exact.

jieba (Material's search segments Chinese with it) announces on stderr how it loads its dictionary at
every build; that is not a warning, so it is silenced here. jieba also caches its dictionary in the
system's temporary folder as ``jieba.cache`` and, for its default dictionary, loads whatever file has that
name, whoever wrote it: a cache left by another program split the index differently and moved search
results (CI on 2026-12-02: "检查点" was indexed as 检查 | 点). The build's cache is named after the
dictionary's own contents instead (``cache_name``), so only that dictionary's cache is ever read.

mkdocs-jupyter wraps each ``*.ipynb`` in a ``NotebookFile`` (in ``on_files``) so that MkDocs treats it as
a page. mkdocs-static-i18n runs its own ``on_files`` last (priority -100) and rebuilds every file as a plain
``File`` with its language's destination (``zh/...``): the wrapper is lost and the notebook would be
copied to ``.../index.html`` as raw JSON. This hook runs after both and wraps the notebooks again,
keeping the destination and URL that mkdocs-static-i18n computed. mkdocs-static-i18n treats a notebook
as an asset and gives it no language alternates, so the language switcher would drop the reader on
the other edition's home page; the hook adds them (``PAGE.ipynb`` <-> ``PAGE.zh.ipynb``), and puts the
notebook pages back into the plugin's list of pages for its sitemap.
(tests/pages/test_i18n.py builds the site and checks that both notebook pages are rendered HTML.)
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

# Content-tab labels that a translated page gives in its own language (tests/pages/test_i18n.py maps the English
# page's labels through this table before comparing). A label not listed stays as the English page has it;
# Material links tabs by label (content.tabs.link), and each edition's pages use the same labels.
# The back-end tabs ("DirectML", "ROCm", "XPU", "CUDA", "CPU") are not translated: the chooser selects them by
# label in either edition (docs/javascripts/backend_tabs.js).
TAB_TITLES = {
    "zh": {},
}


# The heading links' title, which Python-Markdown's toc extension writes in English for every page
# (mkdocs.yml: toc permalink); a Chinese page gets the Chinese one.
PERMALINK_TITLE = {"zh": ('title="Permanent link"', 'title="永久链接"')}


def on_page_content(html, page, config, files):  # MkDocs hook signature
    """A Chinese page's heading links titled in Chinese."""
    from guide.cjk_join import is_chinese

    if not is_chinese(page):
        return html
    english, chinese = PERMALINK_TITLE["zh"]
    return html.replace(english, chinese)


def on_startup(command, dirty):
    try:
        import jieba
    except ModuleNotFoundError:  # search then indexes Chinese without segmenting it; the tests catch that
        return
    jieba.setLogLevel(logging.WARNING)


def on_config(config):  # MkDocs hook signature; site_hooks runs it before Material's search plugin's
    """jieba's cache named after the dictionary the search plugin will load (mkdocs.yml: search jieba_dict)."""
    try:
        import jieba
    except ModuleNotFoundError:
        return config
    search = config.plugins.get("material/search")
    chosen = search.config.jieba_dict if search is not None else None
    dictionary = Path(chosen) if chosen else Path(jieba.__file__).with_name("dict.txt")
    jieba.dt.cache_file = cache_name(dictionary)
    return config


def cache_name(dictionary: Path) -> str:
    """The file name jieba caches ``dictionary`` under: its contents' digest (another cache never matches)."""
    return f"jieba-{hashlib.sha256(dictionary.read_bytes()).hexdigest()[:16]}.cache"


@event_priority(-110)  # after mkdocs-static-i18n's on_files (-100)
def on_files(files, config):
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return files
    from mkdocs_jupyter.plugin import NotebookFile

    plain = [f for f in files if f.src_uri.endswith(".ipynb") and not isinstance(f, NotebookFile)]
    for file in plain:
        if not jupyter.should_include(file):
            continue
        _add_alternates(file, config)
        notebook = NotebookFile(file, **config)
        # NotebookFile recomputes these from the source name (train-mnist-notebook.zh/...): keep i18n's.
        notebook.dest_path = file.dest_path
        notebook.abs_dest_path = file.abs_dest_path
        notebook.url = file.url
        files.remove(file)
        files.append(notebook)
    i18n = config.plugins.get("i18n")
    if plain and i18n is not None and hasattr(i18n, "i18n_files_per_language"):
        # The plugin's sitemap lists the pages it saw in its own on_files, before the notebooks were pages again.
        i18n.i18n_files_per_language[i18n.current_language] = files.documentation_pages()
    return files


def _add_alternates(file, config) -> None:
    """Point the language switcher of a notebook page at the same notebook in the other languages."""
    i18n = config.plugins.get("i18n")
    if i18n is None or not hasattr(file, "alternates"):
        return
    default, current = i18n.default_language, i18n.current_language
    base = file.norm_src_uri  # the source name without its language: train-mnist-notebook.ipynb
    # The page's URL without the current language's folder: train-mnist-notebook/
    path = file.url if current == default else file.url.removeprefix(f"{current}/")
    for language in i18n.build_languages:
        source = base if language == default else base.removesuffix(".ipynb") + f".{language}.ipynb"
        if language in file.alternates or not (Path(config.docs_dir) / source).is_file():
            continue
        other = File(source, config.docs_dir, config.site_dir, config.use_directory_urls)
        other.url = path if language == default else f"{language}/{path}"
        file.alternates[language] = other


@event_priority(10)  # before mkdocs-jupyter's on_post_build (0), which evicts the cache entries this build did not use
def on_post_build(config):
    """Keep every notebook's cached rendering, not only the current language's.

    mkdocs-static-i18n builds each language as a build of its own, and after each one mkdocs-jupyter deletes
    the cache entries that build did not use: the English build deletes the Chinese notebook's entry and the
    Chinese build the English one's, so every `mkdocs build` converted both notebooks again (about 14 % of
    the build's time, measured with cProfile).
    """
    jupyter = config.plugins.get("mkdocs-jupyter")
    used = getattr(jupyter, "_used_cache_paths", None)
    if jupyter is None or used is None or not jupyter.config.get("cache"):
        return
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    for notebook in Path(config.docs_dir).rglob("*.ipynb"):
        if jupyter.should_include(
            File(
                notebook.relative_to(config.docs_dir).as_posix(),
                config.docs_dir,
                config.site_dir,
                config.use_directory_urls,
            )
        ):
            key = _compute_cache_key(str(notebook), jupyter.config, jupyter.config["execute"])
            used.add(_get_cache_path(jupyter.config["cache_dir"], key))
