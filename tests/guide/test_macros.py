"""docs/hooks/guide/macros.py: one placeholder grammar for {{ pin.X }}, {{ checked.X }} and {{ gpus.X ARG }},
one dispatch, and one error (page:line) for an unknown namespace or name."""

from __future__ import annotations

import re
import types

import pytest

from guide import checked, gpu_pages, macros, pins


def test_each_namespace_is_answered_by_its_module():
    text = "torch {{ pin.torch }}, checked {{ checked.amd-rocm-windows }}."
    expanded = macros.expand(text, "page.md")
    assert expanded == f"torch {pins.load_pins()['torch']}, checked {checked.checked_dates()['amd-rocm-windows']}."


def test_what_gpus_renders_is_expanded_in_turn(monkeypatch):
    monkeypatch.setattr(gpu_pages, "render", lambda text, language, url: f"[{language}] {{{{ pin.torch }}}}")
    assert macros.expand("{{ gpus.table }}", "setup.zh.md", "zh") == f"[zh] {pins.load_pins()['torch']}"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a\n\nInstall {{ pins.torch }}.", "page.md:3: unknown placeholder '{{ pins.torch }}': the namespaces are pin"),
        ("{{ chekced.amd-rocm-windows }}", "page.md:1: unknown placeholder '{{ chekced.amd-rocm-windows }}'"),
        ("\n{{ pin.torhc }}", "page.md:2: unknown pin 'torhc'"),
        ("{{ checked.amd-rocm-windws }}", "page.md:1: unknown checked date 'amd-rocm-windws'"),
        ("{{ gpus.no_such_table }}", "page.md:1: unknown placeholder '{{ gpus.no_such_table }}'"),
    ],
)
def test_an_unknown_namespace_or_name_is_one_error_with_page_and_line(text, message):
    with pytest.raises(macros.MacroError) as error:
        macros.expand(text, "page.md")
    assert str(error.value).startswith(message), error.value


def test_github_expressions_are_not_placeholders():
    text = "runs-on: ${{ matrix.os }}"
    assert macros.expand(text, "workflow.md") == text


def test_the_build_hook_fails_on_an_unknown_placeholder_with_page_and_line():
    """mkdocs.yml's hook file reaches guide.macros and stops the build with MkDocs' PluginError (in-process:
    this once took three one-page MkDocs builds)."""
    from mkdocs.exceptions import PluginError

    import site_hooks
    from guide.config import load_mkdocs_yml
    from guide_harness import ROOT

    config = load_mkdocs_yml((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "docs/hooks/site_hooks.py" in config["hooks"]
    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="index.md", src_path="index.md", url="index.html"))
    # Each message is macros.expand's (the test above); here, that the build stops on it, with page and line.
    with pytest.raises(PluginError, match=re.escape("index.md:3: unknown checked date 'amd-rocm-windws'")):
        site_hooks.on_page_markdown("# Home\n\n{{ checked.amd-rocm-windws }}", page, {}, None)


def test_one_module_holds_the_placeholder_grammar():
    """guide/placeholders.py is the one regular expression over {{ ... }}; every other module uses it."""
    from guide_harness import ROOT

    found = []
    for module in sorted((ROOT / "docs" / "hooks" / "guide").glob("*.py")):
        if module.name == "placeholders.py":
            continue
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), 1):
            if "re.compile(" in line and r"\{\{" in line:
                found.append(f"{module.name}:{number}")
    assert not found, f"a placeholder grammar of its own (use guide.placeholders): {found}"
