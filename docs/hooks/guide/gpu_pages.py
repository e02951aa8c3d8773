"""The pages' GPU facts, rendered at build time from the one table (guide/gpus.py): ``{{ gpus.NAME ARG }}``.

    {{ gpus.chooser }}          the chooser's form, its data and its script (docs/choose.md)
    {{ gpus.table }}            every GPU, as a plain table (what the page shows without JavaScript)
    {{ gpus.paths }}            one section per path, with the set-up page's own commands for it
    {{ gpus.decision_table }}   why-directml.md's "which one for your GPU", one row per group of GPUs
    {{ gpus.backend_gpus B }}   the gfx targets and GPUs for which back-end B is on the vendor's list
    {{ gpus.gfx_list }}         the glossary's list: each gfx target and its GPUs
    {{ gpus.card GFX }}         the GPUs of one gfx target
    {{ gpus.gfx_examples }}     the set-up page's gfx targets for AMD's command, but for the example's
    {{ gpus.choices SLUG }}     the processors behind an ambiguous name (amd-radeon-tm-graphics), each with its GPU
    {{ gpus.detect FIELD }}     the box that proposes the GPU the browser names, for the input with id FIELD (home page)

The install commands in {{ gpus.paths }} are read from docs/setup.md (setup.zh.md for the Chinese edition)
at build time, fence by fence, so the chooser shows exactly what the set-up page shows. An unknown NAME
fails the build. The parts: gpu_tables (the tables), gpu_answers (the chooser's answers and the paths),
gpu_chooser (the chooser), gpu_site (the site's files), gpu_text (the words, from text/gpu_pages.LANG.yml).
"""

from __future__ import annotations

from guide import gpus
from guide.gpu_answers import paths
from guide.gpu_chooser import choices, chooser, chooser_data, detect
from guide.gpu_site import on_post_build, write_search_names
from guide.gpu_tables import backend_gpus, card, decision_table, gfx_examples, gfx_list, table
from guide.gpu_text import FAMILY_ZH, RECIPE_TEXT, TEXT, GpuPageError, family_label
from guide.placeholders import substitute

# The names other modules and the tests read here: this module is the pages' one door to the GPU tables.
__all__ = [
    "FAMILY_ZH",
    "RECIPE_TEXT",
    "TEXT",
    "GpuPageError",
    "backend_gpus",
    "card",
    "chooser",
    "chooser_data",
    "choices",
    "decision_table",
    "detect",
    "family_label",
    "gfx_examples",
    "gfx_list",
    "gpus",
    "on_post_build",
    "paths",
    "render",
    "table",
    "write_search_names",
    "on_page_markdown",
]


def render(markdown: str, language: str, script_url: str = "javascripts/chooser.js") -> str:
    """``markdown`` with every {{ gpus.NAME ARG }} rendered for ``language`` ('en' or 'zh')."""

    def replace(name: str, arg: str | None) -> str:
        if name == "chooser":
            return chooser(language, script_url)
        renderers = {
            "table": table,
            "paths": paths,
            "decision_table": decision_table,
            "gfx_list": gfx_list,
            "gfx_examples": gfx_examples,
        }
        with_arg = {"backend_gpus": backend_gpus, "card": card, "choices": choices}
        if name == "detect" and arg is not None:
            return detect(language, arg, script_url)
        if name in renderers and arg is None:
            return renderers[name](language)
        if name in with_arg and arg is not None:
            return with_arg[name](language, arg)
        placeholder = f"{{{{ gpus.{name}{' ' + arg if arg else ''} }}}}"
        raise GpuPageError(f"unknown placeholder {placeholder!r} (see docs/hooks/guide/gpu_pages.py)")

    return substitute(markdown, "gpus", replace)


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    from mkdocs.exceptions import PluginError
    from mkdocs.utils import get_relative_url

    if "{{" not in markdown or "gpus." not in markdown:
        return markdown
    language = "zh" if page.file.src_uri.endswith(".zh.md") else "en"
    try:
        return render(markdown, language, get_relative_url("javascripts/chooser.js", page.file.url))
    except (GpuPageError, gpus.GpuDataError) as error:
        raise PluginError(f"{page.file.src_path}: {error}") from None
