"""docs/hooks/guide/page.py: one parsed page (fences, headings, includes), and the rule that no new
regular expression over fences appears outside it."""

from __future__ import annotations

import ast
import re

import pytest

from guide import page as page_model
from guide.directives import directives
from guide.page import Page
from guide_harness import ROOT
from guide.pages import pages

SAMPLE = '''# Title {#top}

Text.

<!-- site-block: directml=yes -->
```python title="verify.py" linenums="1"
print("ok")
# not a heading
```

!!! note

    ~~~ { .powershell }
    py -m pip install torch
    ~~~

````markdown
```python
inside a longer fence
```
````

## Next step

```text
--8<-- "snippets/lenet.py:model"
```
'''


def test_fences_with_their_language_attributes_lines_and_bodies():
    page = Page.parse(SAMPLE, "sample.md")
    assert [(f.line, f.end, f.language) for f in page.fences] == [
        (6, 9, "python"), (13, 15, "powershell"), (17, 21, "markdown"), (25, 27, "text"),
    ]
    python, powershell, markdown, _ = page.fences
    assert python.attributes == {"title": "verify.py", "linenums": "1"} and python.marker == "```"
    assert python.body == 'print("ok")\n# not a heading\n'
    assert powershell.indent == "    " and powershell.marker == "~~~"
    assert powershell.body == "py -m pip install torch\n"
    assert markdown.body == "```python\ninside a longer fence\n```\n", "a shorter fence inside closes nothing"
    assert [f.line for f in page.blocks("python")] == [6] and len(page.blocks()) == 4


def test_headings_anchors_and_includes_outside_fences_only():
    page = Page.parse(SAMPLE, "sample.md")
    assert [(h.line, h.level, h.text, h.anchor) for h in page.headings] == [
        (1, 1, "Title", "top"), (23, 2, "Next step", None),
    ]
    assert [(i.line, i.path, i.section) for i in page.includes] == [(26, "snippets/lenet.py", "model")]
    assert "print" not in page.outside_fences() and len(page.outside_fences().split("\n")) == 27


def test_directives_come_with_their_fence():
    page = Page.parse(SAMPLE, "sample.md", with_directives=True)
    assert page.fences[0].directives == {"directml": "yes"} and page.fences[1].directives == {}


def test_a_fence_left_open_runs_to_the_end_of_the_page():
    (fence,) = Page.parse("```python\nprint(1)\n", "open.md").fences
    assert not fence.closed or fence.end == 2
    assert fence.body == "print(1)\n"


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_it_sees_every_fence_the_directives_scanner_sees(path):
    """On every page of both editions: the fences that carry directives are fences of the model, with the
    same language, and the model finds each page's fences in open-close pairs."""
    text = path.read_text(encoding="utf-8")
    page = Page.parse(text, path.name)
    by_line = {f.line: f for f in page.fences}
    for directive in directives(text, path.name):
        assert directive.fence_line in by_line, f"{path.name}:{directive.fence_line}"
        assert by_line[directive.fence_line].language == directive.language
    assert all(f.closed for f in page.fences), [f.line for f in page.fences if not f.closed]


# --- no new fence regex outside guide/page.py ------------------------------------------------------

# The fence regexes there were when the model came (review 2026-12-code, section 2): each file and how many.
# Move a reader onto guide.page and lower its count here; the test fails on a count that grew, on a new
# file, and on a count left higher than the file has (so the list only shrinks).
TO_MOVE = {
    "docs/hooks/guide/directives.py": 1,
    "docs/hooks/guide/blocks.py": 2,
    "docs/hooks/guide/notebook.py": 1,
    "tests/repo/test_readme.py": 1,
    "tests/repo/test_runner_hook.py": 1,
    "tests/tools/readme_commands.py": 1,
    "tests/guide/test_gpus.py": 1,
    "tests/pages/test_install_commands.py": 1,
    "tests/pages/test_site_shell_harness.py": 1,
}
RE_CALLS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
THIS_RULE = ROOT / "tests/guide/test_page.py"  # FENCE_TEXT below finds fence regexes, reads no fence
FENCE_TEXT = re.compile(r"```|`\{3|~\{3|~~~")


def fence_regexes(source: str) -> list[int]:
    """Lines of the re.X(...) calls whose pattern is a literal that matches a code fence."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.func.attr in RE_CALLS):
            continue
        pattern = node.args[0]
        parts = [pattern] if isinstance(pattern, ast.Constant) else getattr(pattern, "values", [])
        text = "".join(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str))
        if FENCE_TEXT.search(text):
            found.append(node.lineno)
    return found


def test_no_new_fence_regex_outside_the_page_model():
    counts = {}
    for folder in ("docs/hooks", "tests", ".github"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts or path in (ROOT / "docs/hooks/guide/page.py", THIS_RULE):
                continue
            lines = fence_regexes(path.read_text(encoding="utf-8"))
            if lines:
                counts[path.relative_to(ROOT).as_posix()] = len(lines)
    grown = {f: n for f, n in counts.items() if n > TO_MOVE.get(f, 0)}
    assert not grown, f"a new regex over fences: read fences through guide.page.Page instead: {grown}"
    moved = {f: n for f, n in TO_MOVE.items() if counts.get(f, 0) < n}
    assert not moved, f"fewer fence regexes than TO_MOVE says (lower it there): {moved}"


def test_the_rule_finds_a_fence_regex():
    assert fence_regexes('import re\nX = re.compile(r"^```(\\w+)")\n') == [2]
    assert fence_regexes('import re\nX = re.findall(rf"~{{3,}}{name}", t)\n') == [2]
    assert fence_regexes('import re\nX = re.compile(r"^#+ ")\n') == []
    assert page_model.OPEN.match("```python")  # the model's own is allowed
