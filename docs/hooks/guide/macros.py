"""``{{ NAMESPACE.NAME [ARG] }}`` on a page: one grammar, one dispatch, one error for an unknown name.

The namespaces and who answers them: ``pin`` (guide.pins, pyproject.toml's versions), ``checked``
(guide.checked, docs/hooks/data/'s dates) and ``gpus`` (guide.gpu_pages, tables rendered from gpus.yml;
what it renders may quote pins and dates, and is expanded in turn). A namespace that is none of these
(``{{ pins.torch }}``, a typo) fails the build with the page and line, as an unknown name in a known
namespace does; GitHub's ``${{ ... }}`` in a quoted workflow is not a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from guide import checked, gpu_pages, pins
from guide.placeholders import PLACEHOLDER


class MacroError(ValueError):
    pass


def expand(markdown: str, where: str, language: str = "en", script_url: str = "javascripts/chooser.js") -> str:
    """``markdown`` with every placeholder replaced; MacroError names the first bad one as 'where:line: ...'."""
    tables: dict[str, object] = {}  # each namespace's table, read once per page when first asked for
    namespaces: dict[str, Callable[[str], str]] = {
        "pin": lambda text: pins.expand_pins(text, tables.setdefault("pin", pins.load_pins())),
        "checked": lambda text: checked.expand_checked(text, tables.setdefault("checked", checked.checked_dates())),
        "gpus": lambda text: expand(gpu_pages.render(text, language, script_url), where, language, script_url),
    }

    def replace(match: re.Match[str]) -> str:
        line = markdown.count("\n", 0, match.start()) + 1
        namespace = namespaces.get(match.group(1))
        try:
            if namespace is None:
                raise MacroError(f"unknown placeholder {match.group(0)!r}: the namespaces are {', '.join(namespaces)}")
            text = namespace(match.group(0))
            if text == match.group(0):  # a name its namespace's own grammar does not take
                raise MacroError(f"unknown placeholder {match.group(0)!r}")
            return text
        except MacroError as error:
            raise MacroError(
                error.args[0] if error.args[0].startswith(f"{where}:") else f"{where}:{line}: {error}"
            ) from None
        except (KeyError, ValueError, gpu_pages.GpuPageError, gpu_pages.gpus.GpuDataError) as error:
            message = error.args[0] if isinstance(error, KeyError) else str(error)
            raise MacroError(f"{where}:{line}: {message}") from None

    return PLACEHOLDER.sub(replace, markdown)


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    from mkdocs.exceptions import PluginError
    from mkdocs.utils import get_relative_url

    if "{{" not in markdown:
        return markdown
    language = "zh" if page.file.src_uri.endswith(".zh.md") else "en"
    try:
        return expand(markdown, page.file.src_path, language, get_relative_url("javascripts/chooser.js", page.file.url))
    except MacroError as error:
        raise PluginError(str(error)) from None
