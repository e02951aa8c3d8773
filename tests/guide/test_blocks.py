"""docs/hooks/guide/blocks.py: a page's Python blocks as pytest-codeblocks collects them (tests/codeblocks_run.py), read
through the page model (guide.page) with the site-block directives, and nothing else (pytest-codeblocks'
comments are refused, so a mark cannot be lost)."""

from __future__ import annotations

import re

import pytest

from guide.blocks import site_blocks
from guide.directives import PageError

INCLUDE = '--8<-- "snippets/lenet.py:model"'


def blocks_of(tmp_path, text: str):
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return site_blocks(page)


def test_python_blocks_with_their_line_info_expanded_code_args_and_directml(tmp_path):
    text = (
        f'Prose.\n\n<!-- site-block: directml=yes args="--epochs 1" -->\n```python title="a.py"\n{INCLUDE}\n```\n\n'
        f"!!! note\n\n    ~~~ {{ .py }}\n    {INCLUDE}\n    ~~~\n\n```text\nnot python\n```\n"
    )
    first, second = blocks_of(tmp_path, text)
    assert (first.test_id, first.info, first.args, first.directml) == (
        "page.md:4",
        'python title="a.py"',
        ["--epochs", "1"],
        True,
    )
    assert "class LeNet" in first.code and "--8<--" not in first.code, "the snippet, expanded"
    assert (second.line, second.args, second.directml) == (10, [], False)
    assert second.code == first.code, "an indented ~~~ fence is a Python block too, de-indented"


@pytest.mark.parametrize(
    "text, message",
    [
        (
            f"<!--pytest.mark.directml-->\n```python\n{INCLUDE}\n```\n",
            "page.md:1: <!-- pytest.mark.directml --> is pytest-codeblocks' syntax",
        ),
        (
            f"```python\n{INCLUDE}\n```\n\n<!--pytest-codeblocks:cont-->\n```python\n{INCLUDE}\n```\n",
            "page.md:5: <!-- pytest-codeblocks:cont --> is pytest-codeblocks' syntax",
        ),
        (
            f'<!-- site-block: manual="why not" -->\n```python\n{INCLUDE}\n```\n',
            "page.md:2: site-block key 'manual' does not apply to a ```python block",
        ),
        (f"```python\n{INCLUDE}\n", "page.md:1: a ```python fence that never closes"),
    ],
    ids=["pytest-codeblocks mark", "pytest-codeblocks cont", "a shell block's key", "never closed"],
)
def test_what_the_harness_cannot_honour_is_refused(tmp_path, text, message):
    with pytest.raises(PageError, match=re.escape(message)):
        blocks_of(tmp_path, text)
