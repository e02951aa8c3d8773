"""`mkdocs build --strict` succeeds with zero warnings, and the built site holds the snippets' code."""

from __future__ import annotations

import re

import pytest


def test_build_is_clean(built_site):
    """The run's one build (tests/conftest.py's built_site) passed --strict with no warning line."""
    _, result = built_site
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # MkDocs logs warnings as "WARNING -  ..." lines; strict turns them into a failure too.
    assert not re.search(r"^\s*WARNING\b", output, re.M), output


def test_the_build_says_when_material_ends(built_site):
    """Every build says that Material for MkDocs reaches end of life on 2027-05-05, with Zensical as its
    successor (docs/contributing/testing.md#material-end-of-life): one line from the site's hooks, printed even where
    Material's own banner is turned off (NO_MKDOCS_2_WARNING) or not shown (Material prints it only when
    the command is `mkdocs`)."""
    _, result = built_site
    output = result.stdout + result.stderr
    lines = [line for line in output.splitlines() if "2027-05-05" in line]
    assert len(lines) == 1 and "Zensical" in lines[0] and "Material for MkDocs" in lines[0], output[:3000]


def doctor_sections() -> set[str]:
    """Every page section snippets/doctor.py can print: trouble("anchor") calls, the anchors assigned to
    `anchor` and those of LOADER_ERRORS (as troubleshooting/#anchor), and literal "page/#anchor" paths."""
    import ast

    from guide_harness import SNIPPETS, load_snippet

    tree = ast.parse((SNIPPETS / "doctor.py").read_text(encoding="utf-8"))
    anchors = {anchor for *_, anchor in load_snippet("doctor").LOADER_ERRORS if anchor}
    sections = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "trouble":
            anchors |= {arg.value for arg in node.args if isinstance(arg, ast.Constant)}
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "anchor" for t in node.targets):
            values = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
            anchors |= {v.value for v in values if isinstance(v, ast.Constant) and v.value}
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"[a-z]+/(#[\w-]+)?", node.value)
        ):
            sections.add(node.value)
    return sections | {f"troubleshooting/#{anchor}" for anchor in anchors}


def test_every_section_the_doctor_prints_exists_in_both_editions(built_site):
    """The doctor prints "troubleshooting/#anchor": that heading must exist on the built page, English and
    Chinese (whose headings keep the English anchors)."""
    site, _ = built_site
    sections = doctor_sections()
    assert len(sections) >= 10 and "verification/#choose-the-device-in-your-own-scripts" in sections, sections
    missing = []
    for section in sorted(sections):
        page, _, anchor = section.partition("#")
        for edition in ("", "zh/"):
            built = site / edition / page / "index.html"
            text = built.read_text(encoding="utf-8") if built.exists() else ""
            if not text or (anchor and f'id="{anchor}"' not in text):
                missing.append(f"{edition}{section}")
    assert not missing, f"the doctor points at sections the site lacks: {missing}"


def test_notebook_headings_have_the_same_descriptive_ids_in_both_editions(built_site):
    """The renderer derives heading ids from the text: the Chinese notebook's "接下来" got an empty id and
    others 1, 2, 5. Both editions' headings carry the anchors of docs/hooks/train_mnist_notebook*.md, and
    every link on the page to one of its own anchors (the table of contents) finds its heading."""
    site, _ = built_site
    ids = {}
    for edition in ("", "zh/"):
        page = (site / edition / "train-mnist-notebook" / "index.html").read_text(encoding="utf-8")
        ids[edition] = re.findall(r'<h[1-6] id="([^"]*)"', page)
        article = page[page.index('class="jupyter-wrapper"') :]
        assert ids[edition] == re.findall(r'<h[1-6] id="([^"]*)"', article), f"{edition}: headings outside the notebook"
        links = set(re.findall(r'href="#([^"]*)"', page))
        assert links <= set(ids[edition]), (
            f"{edition}notebook: links to no heading: {sorted(links - set(ids[edition]))}"
        )
    assert ids[""] == ids["zh/"] and len(ids[""]) >= 8, ids
    assert all(re.fullmatch(r"[a-z0-9-]*[a-z][a-z0-9-]*", i) and len(i) > 3 for i in ids[""]), ids[""]


# Chinese text as the browser draws it: a line break between two CJK characters (Han or Chinese
# punctuation) shows as a space in Chromium (docs/hooks/guide/cjk_join.py removes them at build time).
CJK_RANGE = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u2018\u2019\u201c\u201d\u2014\u2026"
)
CJK_BREAK = re.compile(f"[{CJK_RANGE}][ \t]*\n\\s*[{CJK_RANGE}]")
CODE_OR_SCRIPT = re.compile(r"<(pre|code|script|style|textarea)\b.*?</\1>", re.S)
INLINE_TAG = re.compile(r"</?(?:a|strong|em|b|i|span|abbr|sup|sub|mark|small|del|ins|u)\b[^>]*>")


# Full-width punctuation carries its own spacing: whitespace after a closing or pausing mark shows as a gap
# ("解决： 按上一节": 321 on the zh pages, each read as a typo), before inline code too.
FULL_WIDTH_GAP = re.compile(r"[，。；：、？！）」』》”]\s+(?=[^\s<]|<code/>)")


@pytest.mark.parametrize(
    "pattern, what",
    [(CJK_BREAK, "line breaks between Chinese characters"), (FULL_WIDTH_GAP, "spaces after full-width punctuation")],
    ids=["line break inside a sentence", "space after full-width punctuation"],
)
def test_chinese_pages_read_as_chinese(built_site, pattern, what):
    site, _ = built_site
    pages = sorted((site / "zh").rglob("index.html"))
    assert len(pages) >= 10, pages
    found = []
    for page in pages:
        text = INLINE_TAG.sub("", CODE_OR_SCRIPT.sub("<code/>", page.read_text(encoding="utf-8")))
        found += [f"{page.relative_to(site)}: {text[m.start() - 8 : m.end() + 8]!r}" for m in pattern.finditer(text)]
    assert not found, f"{len(found)} {what}:\n" + "\n".join(found[:20])
