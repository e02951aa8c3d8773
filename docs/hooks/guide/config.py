"""mkdocs.yml as MkDocs reads it, and snippet expansion with the site's own pymdownx.snippets settings.

The notebook builder and the tests expand ``--8<--`` lines here, the one way, so a page's code as the
tests see it and a notebook cell are what the site shows.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from guide import ROOT


def load_mkdocs_yml(text: str) -> dict:
    """mkdocs.yml as MkDocs reads it: safe YAML plus its ``!ENV`` tag (site_url and friends)."""
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

    return yaml.load(text, Loader=get_yaml_loader(yaml.SafeLoader))


@cache
def mkdocs_config(root: Path = ROOT) -> dict:
    return load_mkdocs_yml((root / "mkdocs.yml").read_text(encoding="utf-8"))


def snippets_config(root: Path = ROOT) -> dict:
    """mkdocs.yml's pymdownx.snippets settings, base_path resolved from ``root`` (where MkDocs runs)."""
    for extension in mkdocs_config(root)["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.snippets" in extension:
            settings = dict(extension["pymdownx.snippets"] or {})
            settings["base_path"] = [str(root / p) for p in settings.get("base_path", ["."])]
            return settings
    raise ValueError("mkdocs.yml does not enable pymdownx.snippets")


def expand(text: str, root: Path = ROOT) -> str:
    """Expand the --8<-- includes of ``text`` exactly as the site's pymdownx.snippets configuration does."""
    import markdown

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": snippets_config(root)}
    )
    return "\n".join(md.preprocessors["snippet"].run(text.split("\n")))
