"""A 404 page per edition (docs/overrides/404.html): the English one at the site root, the Chinese one
at zh/404.html.

mkdocs-static-i18n builds each language as a build of its own, and each build writes the theme's
404.html to the site root, so the Chinese build's page replaced the English one and English readers got
a Chinese 404. Here the English build's page is kept for the root and the Chinese build's is written
to zh/404.html. GitHub Pages serves the root's 404.html for every missing URL of the site; that page
sends /zh/ URLs on to zh/404.html. The language menu of a 404 page has no page to keep the reader on
(the i18n plugin pointed it at the last page built, the notebook): it links each edition's home page.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

_ENGLISH: dict[str, str] = {}
LANGUAGE_LINK = re.compile(r'<a href="[^"]*" hreflang="(\w+)" class="md-select__link">')


def site_root(config) -> str:
    """The path the site lives under ('/' or '/repo/'), as MkDocs writes a 404 page's links."""
    path = urlsplit(config.site_url or "/").path or "/"
    path = path if path.endswith("/") else path + "/"
    return path.removesuffix("zh/") if path.endswith("/zh/") else path


def home_links(html: str, root: str) -> str:
    """The language menu's links to each edition's home page."""
    return LANGUAGE_LINK.sub(
        lambda m: (
            f'<a href="{root}{"" if m.group(1) == "en" else m.group(1) + "/"}" hreflang="{m.group(1)}" '
            'class="md-select__link">'
        ),
        html,
    )


def on_post_template(output, template_name, config):  # MkDocs hook signature
    if template_name != "404.html":
        return output
    root = site_root(config)
    output = home_links(output, root)
    language = config.theme.get("language") or "en"
    if language == "en":
        _ENGLISH[config.site_dir] = output
        return output
    target = Path(config.site_dir) / language / "404.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(output, encoding="utf-8")
    return _ENGLISH.get(config.site_dir, output)
