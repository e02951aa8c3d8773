"""The back-end tabs that follow the reader from page to page (docs/javascripts/backend_tabs.js).

Set-up, PyCharm, verification and training have one content tab per back-end, labelled exactly as the
chooser selects them ("DirectML", "ROCm", "XPU", "CUDA", "CPU") in both editions. What a ROCm or XPU tab
says must not undo that set-up: no command in it installs torch-directml or torch-directml's torch (it
would replace AMD's or Intel's build), and none of them sends the reader to the DirectML fix that
force-reinstalls torch-directml (setup.md#when-another-package-upgrades-torch).

Outside the back-end tabs every reader reads along: there, each such command (or link) must say whom it
is for: its section's heading names DirectML or torch-directml, or the word DirectML (not the package's
name, which the command carries) is in the section's first paragraph or in the prose that leads to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from guide.page import Page
from guide_harness import DOCS

BACKENDS = ("DirectML", "ROCm", "XPU", "CUDA", "CPU")
PAGES = ("setup", "pycharm", "verification", "mnist-training")
EDITIONS = ("", ".zh")
OPENER = re.compile(r'^(?P<indent>[ \t]*)=== "(?P<label>[^"]+)"[ \t]*$')
# pip install (pip3, python -m pip, uv pip) and what follows it on the line, in a fence or in inline code
INSTALL = re.compile(r"\b(?:pip3?|uv pip)\s+install\b(?P<args>[^`\n]*)")
DIRECTML_TORCH = re.compile(r"(?<![\w-])torch\s*==\s*(?:\{\{\s*pin\.torch\s*\}\}|2\.4\.1)(?![\w.])")
DIRECTML_FIX = "when-another-package-upgrades-torch"
# DirectML, the back-end, as a word: not inside torch-directml, torch_directml or pytorch-directml
DIRECTML_WORD = re.compile(r"(?<![\w-])DirectML(?![\w-])", re.I)


@dataclass
class Tab:
    page: str
    line: int  # the opener's line, from 1
    label: str
    body: str  # everything inside it, nested tabs included
    siblings: tuple[str, ...]  # the labels of its set, in order


def tabs_of(name: str, text: str) -> list[Tab]:
    """Every content tab of a page (pymdownx.tabbed: `=== "label"`, its body indented below it)."""
    lines = text.splitlines()
    found: list[Tab] = []
    for number, line in enumerate(lines):
        match = OPENER.match(line)
        if not match:
            continue
        indent = len(match["indent"])
        body = []
        for following in lines[number + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        found.append(Tab(name, number + 1, match["label"], "\n".join(body), ()))
    # a set: consecutive openers at one indent with only their bodies between them
    for tab in found:
        indent = len(lines[tab.line - 1]) - len(lines[tab.line - 1].lstrip())
        same = [t for t in found if len(lines[t.line - 1]) - len(lines[t.line - 1].lstrip()) == indent]
        start = same.index(tab)
        first = start
        while first > 0 and _adjacent(lines, same[first - 1], same[first], indent):
            first -= 1
        last = start
        while last + 1 < len(same) and _adjacent(lines, same[last], same[last + 1], indent):
            last += 1
        tab.siblings = tuple(t.label for t in same[first : last + 1])
    return found


def _adjacent(lines: list[str], before: Tab, after: Tab, indent: int) -> bool:
    between = lines[before.line : after.line - 1]
    return all(not line.strip() or len(line) - len(line.lstrip()) > indent for line in between)


def undoing_problems(tab: Tab) -> list[str]:
    """What in a ROCm or XPU tab would put torch-directml's torch in that environment, or send the reader there."""
    return [
        f"{tab.page}:{tab.line} {tab.label} tab installs or links DirectML's torch: {c!r}"
        for c in directml_commands(tab.body)
    ]


def directml_commands(line: str) -> list[str]:
    """What on this line would install torch-directml's torch, or send the reader to its fix."""
    found = [
        m.group(0)
        for m in INSTALL.finditer(line)
        if re.search(r"(?<![\w-])torch-directml\b", m["args"]) or DIRECTML_TORCH.search(m["args"])
    ]
    return found + ([DIRECTML_FIX] if DIRECTML_FIX in line else [])


def _paragraph(lines: list[str], index: int) -> tuple[int, int]:
    """The blank-line-separated lines around lines[index]: (first, end), end exclusive."""
    first = end = index
    while first > 0 and lines[first - 1].strip():
        first -= 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return first, end


def _prose(paragraph: list[str]) -> bool:
    """Not a tab opener, a site-block comment or a fence left blank (Page.outside_fences)."""
    text = "\n".join(paragraph).strip()
    return bool(text) and not text.startswith(("===", "<!--"))


def unaddressed_commands(name: str, text: str) -> list[str]:
    """Every DirectML install or fix outside the back-end tabs that does not say it is DirectML's."""
    page = Page.parse(text, name)
    prose = page.outside_fences().splitlines()  # fences blanked: the line numbers stay
    lines = text.splitlines()
    tabbed = set()  # lines inside a back-end tab: the tab says whose it is (ROCm's and XPU's: the rule above)
    for tab in tabs_of(name, text):
        if tab.label in BACKENDS:
            tabbed.update(range(tab.line, tab.line + len(tab.body.splitlines()) + 1))
    problems = []
    for number, line in enumerate(lines, 1):
        commands = directml_commands(line)
        if not commands or number in tabbed:
            continue
        heading = next((h for h in reversed(page.headings) if h.line < number), None)
        start = heading.line if heading else 0  # the section's lines begin after its heading (index = line)
        said = [heading.text if heading else ""]
        firsts = [i for i in range(start, number) if _prose([prose[i]])]
        if firsts:  # the section's first paragraph
            said.append("\n".join(prose[slice(*_paragraph(prose, firsts[0]))]))
        # the prose that leads to it: its own paragraph, and the nearest prose paragraph above it
        index = number - 1
        if prose[index].strip():
            said.append("\n".join(prose[slice(*_paragraph(prose, index))]))
            index = _paragraph(prose, index)[0] - 1
        while index >= start:
            first, end = _paragraph(prose, index)
            if _prose(prose[first:end]):
                said.append("\n".join(prose[first:end]))
                break
            index = first - 1
        if not ("directml" in said[0].lower() or any(DIRECTML_WORD.search(part) for part in said[1:])):
            problems.append(f"{name}:{number} says to no reader in particular: {commands[0]!r}")
    return problems


ALL_PAGES = sorted(DOCS.rglob("*.md"))


@pytest.mark.parametrize("path", ALL_PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_directml_install_outside_the_tabs_says_it_is_directmls(path):
    assert unaddressed_commands(path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "text, problems",
    [
        # a card every reader reads: red
        (
            "## Your path\n\n-   **2. Set up**\n\n    Python 3.12, then `python -m pip install torch-directml` in it.\n",
            1,
        ),
        # a mirror's example under a heading of its own: red, in a shell tab too
        (
            '## Use a mirror\n\nInstall from a mirror:\n\n=== "PowerShell"\n\n    ```powershell\n'
            "    python -m pip install torch-directml -i https://mirror/simple\n    ```\n",
            1,
        ),
        ("## Fix it\n\nSee [the fix](setup.md#when-another-package-upgrades-torch).\n", 1),
        # said in the lead-in, the section's first paragraph, or the heading: green
        (
            "## Use a mirror\n\nThe DirectML environment's install:\n\n```powershell\npip install torch-directml\n```\n",
            0,
        ),
        ("## Fix it\n\nThis section is for DirectML.\n\nMore.\n\n```powershell\npip install torch-directml\n```\n", 0),
        ("## Install torch-directml\n\n```powershell\npip install torch-directml\n```\n", 0),
        ("## 换源\n\n下面是 DirectML 环境的安装命令：\n\n```powershell\npip install torch-directml\n```\n", 0),
        # inside a back-end tab the tab says it
        ('## Set up\n\n=== "DirectML"\n\n    ```powershell\n    pip install torch-directml\n    ```\n', 0),
    ],
)
def test_the_outside_rule_finds_a_command_said_to_no_one(text, problems):
    assert len(unaddressed_commands("page.md", text)) == problems, unaddressed_commands("page.md", text)


def page_text(page: str, edition: str) -> str:
    return (DOCS / f"{page}{edition}.md").read_text(encoding="utf-8")


ALL_TABS = [t for page in sorted(DOCS.glob("*.md")) for t in tabs_of(page.name, page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("edition", EDITIONS, ids=["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_each_chapter_has_back_end_tabs_with_the_choosers_labels(page, edition):
    tabs = tabs_of(page, page_text(page, edition))
    sets = {t.siblings for t in tabs if set(t.siblings) & set(BACKENDS)}
    assert sets, f"{page}{edition}.md has no back-end tabs"
    for labels in sets:
        assert labels[0] == "DirectML" and set(labels) <= set(BACKENDS), (
            f"{page}{edition}.md: a back-end tab set is {labels}; labels are {BACKENDS}, DirectML first"
        )
    assert any("ROCm" in labels and "XPU" in labels for labels in sets), f"{page}{edition}.md: no ROCm and XPU tabs"


def test_no_back_end_label_is_spelled_otherwise():
    # "AMD ROCm on Windows", "Intel XPU", "CPU-only": the chooser selects by the exact label
    near = re.compile(r"rocm|xpu|cuda|cpu|directml", re.I)
    odd = {f"{t.page}:{t.line} {t.label!r}" for t in ALL_TABS if near.search(t.label) and t.label not in BACKENDS}
    assert not odd, sorted(odd)


@pytest.mark.parametrize(
    "tab", [t for t in ALL_TABS if t.label in ("ROCm", "XPU")], ids=lambda t: f"{t.page}:{t.line}:{t.label}"
)
def test_rocm_and_xpu_tabs_never_install_directmls_torch(tab):
    assert undoing_problems(tab) == []


@pytest.mark.parametrize(
    "text",
    [
        '=== "ROCm"\n\n    ```powershell\n    python -m pip install torch-directml\n    ```\n',
        '=== "XPU"\n\n    Then `pip install --force-reinstall torch-directml`.\n',
        '=== "ROCm"\n\n    ```powershell\n    python -m pip install torch=={{ pin.torch }} torchvision\n    ```\n',
        '=== "XPU"\n\n    See [the fix](setup.md#when-another-package-upgrades-torch).\n',
        '=== "DirectML"\n\n    ok\n\n=== "ROCm"\n\n    === "PowerShell"\n\n        ```powershell\n'
        "        uv pip install torch==2.4.1\n        ```\n",
    ],
)
def test_the_check_finds_directmls_torch_in_a_rocm_or_xpu_tab(text):
    [tab] = [t for t in tabs_of("page.md", text) if t.label in ("ROCm", "XPU")]
    assert undoing_problems(tab), text


def test_the_check_lets_a_warning_pass():
    text = (
        '=== "ROCm"\n\n    Do not install torch-directml here: it would replace AMD\'s torch with torch 2.4.1.\n\n'
        "    ```powershell\n    python -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "
        '"torch[device-gfx1100]==2.14.0+rocm10.1.0"\n    ```\n'
    )
    [tab] = tabs_of("page.md", text)
    assert undoing_problems(tab) == []


def test_sets_are_read_as_material_groups_them():
    text = (
        '=== "DirectML"\n\n    === "PowerShell"\n\n        a\n\n    === "cmd"\n\n        b\n\n'
        '=== "ROCm"\n\n    c\n\nProse between.\n\n=== "PowerShell"\n\n    d\n'
    )
    labels = {(t.label, t.siblings) for t in tabs_of("page.md", text)}
    assert ("DirectML", ("DirectML", "ROCm")) in labels and ("ROCm", ("DirectML", "ROCm")) in labels
    assert ("cmd", ("PowerShell", "cmd")) in labels
    assert ("PowerShell", ("PowerShell",)) in labels  # the last set stands alone


def home_cards(edition: str) -> dict[str, str]:
    """The home page's grid cards (Material's list form: `-   **N. Title**`), by their number."""
    text = page_text("index", edition)
    grid = text.split('<div class="grid cards" markdown>', 1)[1].split("</div>", 1)[0]
    cards = re.split(r"^-   \*\*(\d)\.", grid, flags=re.M)[1:]
    return dict(zip(cards[::2], cards[1::2], strict=True))


@pytest.mark.parametrize("edition", EDITIONS, ids=["en", "zh"])
def test_the_home_pages_set_up_card_routes_by_back_end(edition):
    cards = home_cards(edition)
    setup = cards["2"]
    assert "(setup.md#2-create-the-environment-and-install-torch-directml)" in setup, setup
    assert "(setup.md#other-back-ends-amd-rocm-intel-xpu-nvidia-cuda-cpu)" in setup, setup
    assert all(backend in setup for backend in BACKENDS), setup
    assert "--allow-fallback" in cards["3"], cards["3"]  # verify: the flag the other back-ends run it with
