"""docs/hooks/guide/page.py: one parsed page (fences, headings, includes), and the rule that no new
regular expression over fences appears outside it."""

from __future__ import annotations

import ast

import pytest

from guide.directives import with_directives
from guide.page import Page
from guide.pages import pages
from guide_harness import ROOT

SAMPLE = """# Title {#top}

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
"""


def test_fences_with_their_language_attributes_lines_and_bodies():
    page = Page.parse(SAMPLE, "sample.md")
    assert [(f.line, f.end, f.language) for f in page.fences] == [
        (6, 9, "python"),
        (13, 15, "powershell"),
        (17, 21, "markdown"),
        (25, 27, "text"),
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
        (1, 1, "Title", "top"),
        (23, 2, "Next step", None),
    ]
    assert [(i.line, i.path, i.section) for i in page.includes] == [(26, "snippets/lenet.py", "model")]
    assert "print" not in page.outside_fences() and len(page.outside_fences().split("\n")) == 27


def test_lines_walks_the_page_outside_fences_with_each_fence_at_its_opening_line():
    page = Page.parse(SAMPLE, "sample.md")
    walked = list(page.lines())
    assert [(n, f.language) for n, _, f in walked if f] == [
        (6, "python"),
        (13, "powershell"),
        (17, "markdown"),
        (25, "text"),
    ]
    numbers = [n for n, _, _ in walked]
    inside = {n for f in page.fences for n in range(f.line + 1, f.end + 1)}
    assert numbers == [n for n in range(1, 28) if n not in inside], "every other line, in order, once"
    assert (7, 'print("ok")', None) not in walked and (8, "# not a heading", None) not in walked
    assert (5, "<!-- site-block: directml=yes -->", None) in walked and (23, "## Next step", None) in walked


def test_directives_come_with_their_fence():
    page = with_directives(Page.parse(SAMPLE, "sample.md"))
    assert page.fences[0].directives == {"directml": "yes"} and page.fences[1].directives == {}


def test_a_fence_left_open_runs_to_the_end_of_the_page():
    (fence,) = Page.parse("```python\nprint(1)\n", "open.md").fences
    assert not fence.closed and fence.end == 2
    assert fence.body == "print(1)\n"
    assert all(f.closed for f in Page.parse(SAMPLE).fences)


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_every_fence_on_every_page_closes(path):
    page = Page.read(path)
    assert all(f.closed for f in page.fences), [f.line for f in page.fences if not f.closed]


# --- no fence regex outside guide/page.py --------------------------------------------------------

# Every reader of fences asks guide.page; the model's own scanner is the only regular expression over
# fences in docs/hooks/, tests/ and .github/. (The last readers moved onto it in issue 29; none is excused.)
MODEL = ROOT / "docs/hooks/guide/page.py"
RE_CALLS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
FENCE_TEXT = ("```", "`{3", "~{3", "~~~")  # what a pattern that matches a code fence spells


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
        if any(spelling in text for spelling in FENCE_TEXT):
            found.append(node.lineno)
    return found


def test_no_fence_regex_outside_the_page_model():
    found = {}
    for folder in ("docs/hooks", "tests", ".github"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts or path == MODEL:
                continue
            lines = fence_regexes(path.read_text(encoding="utf-8"))
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    assert not found, f"a regex over fences: read fences through guide.page.Page instead: {found}"


def test_the_rule_finds_a_fence_regex():
    assert fence_regexes('import re\nX = re.compile(r"^```(\\w+)")\n') == [2]
    assert fence_regexes('import re\nX = re.findall(rf"~{{3,}}{name}", t)\n') == [2]
    assert fence_regexes('import re\nX = re.compile(r"^[ \\t]*(`{3,}|~{3,})")\n') == [2]
    assert fence_regexes('import re\nX = re.compile(r"^#+ ")\n') == []
    assert fence_regexes(MODEL.read_text(encoding="utf-8")), "the model's own scanner is one"


def test_the_page_machinery_has_no_import_cycle():
    """Each module of docs/hooks/guide imports only modules below it: the page model at the bottom
    imports nothing of the package (it once reached up to guide.directives inside a method)."""
    package = ROOT / "docs" / "hooks" / "guide"
    graph = {}
    for module in package.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("guide."):
                names.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                names |= {a.name.split(".")[1] for a in node.names if a.name.startswith("guide.")}
        graph[module.stem] = names - {module.stem}
    cycles = []

    def visit(name, path):
        for imported in sorted(graph.get(name, ())):
            if imported in path:
                cycles.append(" -> ".join([*path[path.index(imported) :], imported]))
            elif len(path) < len(graph):
                visit(imported, [*path, imported])

    for name in sorted(graph):
        visit(name, [name])
    assert not cycles, "import cycles in docs/hooks/guide: " + "; ".join(sorted(set(cycles)))
    assert graph["page"] == set(), "guide/page.py is the bottom floor: it imports nothing of the package"
