"""The Chinese edition: every page has its translation, the two never drift apart, and the site serves both.

Parity, for each English page docs/PAGE.md against docs/PAGE.zh.md (and the notebooks):
  the same snippet includes in the same order, the same Python blocks (pytest-codeblocks runs both editions':
  tests/codeblocks_run.py), the same code and command blocks,
  headings with the same levels and anchors, the same admonitions, tables, tab sets, {{ pin.X }} names,
  test markers and links, and no English prose paragraph left on the Chinese page.
A code block whose text is translated on purpose (a file tree with descriptions) is marked
``<!-- site-block: i18n=translated -->`` on the Chinese page; it must keep its line count, and a shell block
so marked may differ only in its comment lines (its commands are the English page's, which the suite runs).
Sanctioned differences, each explicit: a stretch between ``<!-- site-block: edition=zh -->`` and
``<!-- site-block: edition=end -->`` is the Chinese edition's own (left out of the comparison; its shell
blocks run from the Chinese page, guide.blocks), and tab labels listed in guide.i18n.TAB_TITLES are
translated. Everything else drifts (DRIFTS below shows each kind failing).

The built site's two editions: tests/pages/test_i18n_build.py.
"""

from __future__ import annotations

import re
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from guide.directives import directives, with_directives, without_edition_content
from guide.i18n import TAB_TITLES
from guide.page import Page
from guide_harness import (
    DOCS,
    INCLUDE_LINE,
    ROOT,
    english_pages,
    language_of,
    mkdocs_config,
    page_source,
    pages,
    site_blocks,
    snippets_config,
    translation_of,
)

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
PIN = re.compile(r"\{\{\s*pin\.([A-Za-z0-9_.-]+)\s*\}\}")
TAB = re.compile(r'^[ \t]*===\+? "([^"]+)"', re.M)
URL = re.compile(r"https?://\S+")
LINK_URL = re.compile(r"\]\((https?://[^)\s]+)\)")  # the address of a Markdown link
# Words that stay English in Chinese text: names of products, tools, formats and people.
PROPER_NAMES = set(
    """
    amd intel nvidia microsoft radeon arc geforce rtx gtx quadro iris uhd hd xe core ultra ryzen vega
    windows linux ubuntu wsl directx directml torch pytorch torchvision numpy python pycharm powershell cmd
    conda venv uv pip pypi jupyter notebook vs code github actions learn rocm therock cuda xpu hip zluda
    mnist fashion lenet lecun adam adamw sgd lstm gru amp autocast ultralytics yolov zalandoresearch
    api readme onnx ml gpu cpu npu apu dml privateuseone ok tuna aliyun ustc md cpython jetbrains
    """.split()
)


# ---------------------------------------------------------------------------------------------- pages


PAIRS = [(page, translation_of(page, "zh")) for page in english_pages()]


def test_every_page_has_its_translation_and_back():
    files = [p.relative_to(DOCS) for p in DOCS.rglob("*") if p.suffix in {".md", ".ipynb"}]
    files = [p for p in files if "hooks" not in p.parts]
    chinese = {p.as_posix() for p in files if language_of(p) == "zh"}
    expected = {translation_of(p, "zh").as_posix() for p in files if language_of(p) == "en"}
    assert not expected - chinese, f"English pages without a Chinese page: {sorted(expected - chinese)}"
    assert not chinese - expected, f"Chinese pages without an English page: {sorted(chinese - expected)}"
    assert len(PAIRS) >= 9


# --------------------------------------------------------------------------------- structure of a page


def _markdown() -> markdown.Markdown:
    """The site's Markdown extensions, as mkdocs.yml configures them."""
    extensions, configs = [], {}
    for entry in mkdocs_config()["markdown_extensions"]:
        name, config = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        extensions.append(name)
        configs[name] = dict(config or {})
    configs["pymdownx.snippets"] = snippets_config()
    return markdown.Markdown(extensions=extensions, extension_configs=configs)


class _Structure(HTMLParser):
    """Headings, admonitions, tables, links and prose blocks of a rendered page."""

    BLOCKS = {"p", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "summary", "dt", "dd"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings, self.admonitions, self.tables, self.links, self.prose = [], [], [], [], []
        self._blocks: list[list[str]] = []
        self._code = 0
        self._table: list[int] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            self.headings.append((tag, attrs.get("id")))
        if (tag == "div" and "admonition" in classes) or tag == "details":
            self.admonitions.append((tag, " ".join(c for c in classes if c != "admonition")))
        if tag == "table":
            self._table = []
        if tag == "tr" and self._table is not None:
            self._table.append(0)
        if tag in {"td", "th"} and self._table:
            self._table[-1] += 1
        if tag == "a" and "headerlink" not in classes and attrs.get("href") and not self._code:
            self.links.append(attrs["href"])
        if tag in {"code", "pre"}:
            self._code += 1
        if tag in self.BLOCKS:
            self._blocks.append([])

    def handle_endtag(self, tag):
        if tag in {"code", "pre"}:
            self._code -= 1
        if tag == "table" and self._table is not None:
            self.tables.append((len(self._table), max(self._table, default=0)))
            self._table = None
        if tag in self.BLOCKS and self._blocks:
            text = " ".join(self._blocks.pop()).strip()
            if text:
                self.prose.append(text)

    def handle_data(self, data):
        if self._blocks and not self._code:
            self._blocks[-1].append(data)


FILENAME = re.compile(r'<span class="filename">[^<]*</span>')  # a code block's title: a file name, not prose


def structure(page: Path, text: str | None = None) -> _Structure:
    from mkdocs.utils.meta import get_data

    body, _front_matter = get_data(page_source(page) if text is None else text)  # front matter off first
    parser = _Structure()
    parser.feed(FILENAME.sub("", _markdown().convert(body)))
    return parser


SHELL_COMMENT = re.compile(r"^\s*(?:#|rem\b|::)", re.I)  # a comment line of PowerShell or cmd
SHELL_FENCES = {"powershell", "pwsh", "ps1", "bat", "cmd"}


def commands_of(body: str) -> list[str]:
    """A shell block's lines less its comments (a blank line stays, so the shapes still line up)."""
    return [line for line in body.splitlines() if not SHELL_COMMENT.match(line)]


def fences(text: str, where: str) -> list[tuple[str, str, bool]]:
    """(language, dedented body, marked as translated) of every fenced block, in order (guide.page)."""
    page = with_directives(Page.parse(text, where))
    return [
        (f.language, textwrap.dedent(f.body.removesuffix("\n")), f.directives.get("i18n") == "translated")
        for f in page.fences
    ]


def markers(text: str, where: str) -> list:
    """A page's test markers in order: its site-block directives (less i18n=, the Chinese page's own)."""
    site_block = [{k: v for k, v in d.options.items() if k != "i18n"} for d in directives(text, where)]
    return [options for options in site_block if options]


def includes(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in (INCLUDE_LINE.match(line) for line in text.splitlines()) if m]


def english_prose(text: str) -> list[str]:
    """The English words of a prose block that has no Chinese in it (names and identifiers left out)."""
    if CJK.search(text) or re.fullmatch(r"\{\{\s*gpus\.[^}]*\}\}", text):  # rendered per edition (guide/gpu_pages.py)
        return []
    words = re.findall(r"[A-Za-z][A-Za-z']+", URL.sub(" ", text))
    return [w for w in words if w.lower().strip("'") not in PROPER_NAMES]


def parity_problems(english: Path, chinese: Path) -> list[str]:
    """Every way in which ``chinese`` is not a faithful copy of ``english``; empty when they agree."""
    problems = []
    # Each edition's own stretches (<!-- site-block: edition=X -->) are left out: the rest must mirror.
    own = lambda text, page, language: without_edition_content(text, page.name, language)  # noqa: E731
    en_text, zh_text = own(page_source(english), english, "en"), own(page_source(chinese), chinese, "zh")
    en_raw = own(english.read_text(encoding="utf-8"), english, "en")
    zh_raw = own(chinese.read_text(encoding="utf-8"), chinese, "zh")

    def same(what, a, b):
        if a != b:
            problems.append(f"{what} differ:\n  en: {a}\n  zh: {b}")

    same("snippet includes (in order)", includes(en_text), includes(zh_text))
    same("{{ pin.X }} names", sorted(set(PIN.findall(en_raw))), sorted(set(PIN.findall(zh_raw))))
    same("test markers (site-block)", markers(en_raw, english.name), markers(zh_raw, chinese.name))
    titles = TAB_TITLES.get("zh", {})
    same(
        "tab sets (titles in order; guide.i18n.TAB_TITLES translates)",
        [titles.get(title, title) for title in TAB.findall(en_raw)],
        TAB.findall(zh_raw),
    )

    en_fences, zh_fences = fences(en_text, english.name), fences(zh_text, chinese.name)
    same("code block languages", [f[0] for f in en_fences], [f[0] for f in zh_fences])
    # The counts may differ (reported just above): the blocks the two have in common are compared.
    for number, (en, zh) in enumerate(zip(en_fences, zh_fences, strict=False), 1):
        if zh[2]:  # translated on purpose: same shape, and a shell block's commands unchanged
            same(f"code block {number} line count", en[1].count("\n"), zh[1].count("\n"))
            if en[0] in SHELL_FENCES:
                same(
                    f"code block {number}'s commands (only comment lines may be translated)",
                    commands_of(en[1]),
                    commands_of(zh[1]),
                )
        elif en[1] != zh[1]:
            problems.append(f"code block {number} ({en[0]}) differs:\n--- en\n{en[1]}\n--- zh\n{zh[1]}")

    en_blocks = [(b.code, b.args, b.directml) for b in site_blocks(english)]
    zh_blocks = [(b.code, b.args, b.directml) for b in site_blocks(chinese)]
    if en_blocks != zh_blocks:
        problems.append("the Python blocks (code, arguments, directml=) differ from the English page's")

    en, zh = structure(english, en_text), structure(chinese, zh_text)
    same("headings (level, anchor)", en.headings, zh.headings)
    same("admonitions (kind, type)", en.admonitions, zh.admonitions)
    same("tables (rows, columns)", en.tables, zh.tables)
    same(
        "external links (sources)",
        sorted({link for link in en.links if "://" in link}),
        sorted({link for link in zh.links if "://" in link}),
    )
    same(
        "links to pages of the guide",
        sorted({link for link in en.links if "://" not in link}),
        sorted({link for link in zh.links if "://" not in link}),
    )
    for block in zh.prose:
        words = english_prose(block)
        if len(words) >= 2:
            problems.append(f"English prose left untranslated: {block[:160]!r}")
    return problems


@pytest.mark.parametrize("pair", PAIRS, ids=lambda pair: pair[0].relative_to(DOCS).as_posix())
def test_chinese_page_mirrors_the_english_page(pair):
    english, chinese = pair
    if not chinese.exists():
        pytest.fail(f"{chinese.relative_to(ROOT)} is missing", pytrace=False)
    problems = parity_problems(english, chinese)
    assert not problems, f"{chinese.relative_to(ROOT)} has drifted from {english.relative_to(ROOT)}:\n" + "\n".join(
        problems
    )


# ----------------------------------------------------------------- the parity check fails on drifted copies


DRIFTS = {
    "an include dropped": lambda t: t.replace('--8<-- "snippets/choose_device.py"', "", 1),
    "a heading added": lambda t: t + "\n## 新的一节 {#a-new-section}\n\n新的内容。\n",
    "an anchor changed": lambda t: t.replace("{#run-it}", "{#run}", 1),
    "an admonition dropped": lambda t: t.replace('!!! note "', '!!! tip "', 1),
    "a table row lost": lambda t: re.sub(r"^\| `there is no adapter N[^\n]*\n", "", t, count=1, flags=re.M),
    "a command changed": lambda t: t.replace("python verify_directml.py\n", "python verify.py\n", 1),
    "a link changed": lambda t: t.replace("](#choose-the-device-in-your-own-scripts)", "](#choose)", 1),
    "an English paragraph left": lambda t: t + "\nThis paragraph was never translated into Chinese.\n",
    "a pin typed by hand": lambda t: t.replace("{{ pin.python }}", "3.12", 1),
    "a site-block directive dropped": lambda t: t.replace("    <!-- site-block: directml=yes -->\n", "", 1),
}


# Drifts that hide behind the sanctioned ways of differing: each must still fail.
CAMOUFLAGED_DRIFTS = {
    "a command changed in a block whose comments are translated": lambda t: t.replace(
        "    python train_mnist.py --resume\n", "    python train_mnist.py --resum\n", 1
    ),
    "a command line added to a block whose comments are translated": lambda t: t.replace(
        "    # 中断了", "    python train_mnist.py\n    # 中断了", 1
    ),
    "a tab label translated that TAB_TITLES does not list": lambda t: t.replace(
        '=== "PowerShell"', '=== "PowerShell（推荐）"', 1
    ),
    "an English heading dropped after an edition's own stretch": lambda t: re.sub(
        r"^### 运行 \{#run-it\}\n",
        "<!-- site-block: edition=zh -->\n国内网络。\n<!-- site-block: edition=end -->\n",
        t,
        count=1,
        flags=re.M,
    ),
}

# The Chinese edition's own content, each kind the sanctioned way: the parity check lets it pass.
OWN_SECTION = """
<!-- site-block: edition=zh -->
## 国内网络 {#china-network}

!!! tip "国内用户"
    镜像见[配置环境](setup.md)，另见 [TUNA](https://mirrors.tuna.tsinghua.edu.cn/help/pypi/)。

| 问题 | 办法 |
| --- | --- |
| 下载慢 | 换源 |

=== "PowerShell"

    <!-- site-block: manual="changes the reader's settings" -->
    ```powershell
    $env:PYTHONUTF8 = "1"
    ```
<!-- site-block: edition=end -->
"""


@pytest.mark.parametrize(
    "page, drift",
    [("verification", drift) for drift in DRIFTS] + [("mnist-training", drift) for drift in CAMOUFLAGED_DRIFTS],
    ids=str,
)
def test_parity_check_fails_on_a_drifted_copy(page, drift, tmp_path):
    # The real pages agree: test_chinese_page_mirrors_the_english_page.
    english = DOCS / f"{page}.md"
    chinese = translation_of(english, "zh")
    original = chinese.read_text(encoding="utf-8")
    changed = {**DRIFTS, **CAMOUFLAGED_DRIFTS}[drift](original)
    assert changed != original, f"the drift {drift!r} did not apply: the test page changed shape"
    drifted = tmp_path / chinese.name
    drifted.write_text(changed, encoding="utf-8")
    assert parity_problems(english, drifted), f"the parity check missed: {drift}"


def test_the_chinese_editions_own_section_passes_and_only_when_marked(tmp_path):
    english = DOCS / "verification.md"
    chinese = translation_of(english, "zh")
    page = tmp_path / chinese.name
    page.write_text(chinese.read_text(encoding="utf-8") + OWN_SECTION, encoding="utf-8")
    assert not parity_problems(english, page), parity_problems(english, page)
    unmarked = OWN_SECTION.replace("<!-- site-block: edition=zh -->\n", "").replace(
        "<!-- site-block: edition=end -->\n", ""
    )
    page.write_text(chinese.read_text(encoding="utf-8") + unmarked, encoding="utf-8")
    problems = "\n".join(parity_problems(english, page))
    for kind in (
        "headings",
        "admonitions",
        "tables",
        "tab sets",
        "code block languages",
        "test markers",
        "external links",
    ):
        assert kind in problems, f"unmarked, the section's {kind} must drift: {problems[:600]}"


@pytest.mark.parametrize(
    "broken, message",
    [
        ("<!-- site-block: edition=zh -->\n## 国内 {#cn}\n", "never closed"),
        ("<!-- site-block: edition=end -->\n", "without an edition"),
        (
            "<!-- site-block: edition=zh -->\n<!-- site-block: edition=zh -->\n<!-- site-block: edition=end -->\n",
            "inside the",
        ),
        ("<!-- site-block: edition=en -->\n英文。\n<!-- site-block: edition=end -->\n", "on a page of the zh edition"),
        (
            "<!-- site-block: edition=zh -->\n```python\nprint(1)\n```\n<!-- site-block: edition=end -->\n",
            "Python block",
        ),
        ('<!-- site-block: edition=zh -->\n--8<-- "snippets/lenet.py"\n<!-- site-block: edition=end -->\n', "include"),
        ('<!-- site-block: edition=zh manual="x y z" -->\n<!-- site-block: edition=end -->\n', "stands alone"),
    ],
)
def test_a_malformed_edition_stretch_is_refused(broken, message, tmp_path):
    from guide.directives import PageError

    english = DOCS / "verification.md"
    page = tmp_path / "verification.zh.md"
    page.write_text(translation_of(english, "zh").read_text(encoding="utf-8") + "\n" + broken, encoding="utf-8")
    with pytest.raises(PageError, match=message):
        parity_problems(english, page)


def test_the_edition_stretches_shell_blocks_are_run_from_the_chinese_page():
    """A command only the Chinese page shows is a command the suite runs (or lists as manual, with why):
    guide.blocks.all_shell_blocks takes the edition stretches' blocks by construction; here, that it finds some."""
    from guide.blocks import edition_shell_blocks

    own = [block for page in pages() if language_of(page) == "zh" for block in edition_shell_blocks(page)]
    assert own, "no Chinese page has shell blocks of its own (setup.zh.md's China-network section has)"


# --------------------------------------------------------------------------------------------- notebook


def test_chinese_notebook_has_the_english_code_cells_and_chinese_prose():
    import nbformat

    from guide import notebook as builder

    english = nbformat.read(builder.NOTEBOOK, as_version=4)
    chinese = nbformat.read(builder.TRANSLATED["zh"][1], as_version=4)
    code = lambda nb: [(c.source, c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code"]  # noqa: E731
    assert code(chinese) == code(english)
    assert [c.cell_type for c in chinese.cells] == [c.cell_type for c in english.cells]
    for cell in chinese.cells:
        if cell.cell_type == "markdown":
            assert CJK.search(cell.source), f"a notebook cell without Chinese: {cell.source[:120]!r}"
    en_source, zh_source = (
        builder.SOURCE.read_text(encoding="utf-8"),
        builder.TRANSLATED["zh"][0].read_text(encoding="utf-8"),
    )
    assert includes(en_source) == includes(zh_source)
    assert sorted(set(LINK_URL.findall(en_source))) == sorted(set(LINK_URL.findall(zh_source)))
