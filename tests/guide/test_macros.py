"""docs/hooks/guide/macros.py: one placeholder grammar for {{ pin.X }}, {{ checked.X }} and {{ gpus.X ARG }},
one dispatch, and one error (page:line) for an unknown namespace or name."""

from __future__ import annotations

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
