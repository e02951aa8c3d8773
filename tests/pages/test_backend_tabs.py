"""The back-end tabs that follow the reader from page to page (docs/javascripts/backend_tabs.js).

Set-up, PyCharm, verification and training have one content tab per back-end, labelled exactly as the
chooser selects them ("DirectML", "ROCm", "XPU", "CUDA", "CPU") in both editions. What a ROCm or XPU tab
says must not undo that set-up: no command in it installs torch-directml or torch-directml's torch (it
would replace AMD's or Intel's build), and none of them sends the reader to the DirectML fix that
force-reinstalls torch-directml (setup.md#when-another-package-upgrades-torch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from guide_harness import ROOT

DOCS = ROOT / "docs"
BACKENDS = ("DirectML", "ROCm", "XPU", "CUDA", "CPU")
PAGES = ("setup", "pycharm", "verification", "mnist-training")
EDITIONS = ("", ".zh")
OPENER = re.compile(r'^(?P<indent>[ \t]*)=== "(?P<label>[^"]+)"[ \t]*$')
# pip install (pip3, python -m pip, uv pip) and what follows it on the line, in a fence or in inline code
INSTALL = re.compile(r"\b(?:pip3?|uv pip)\s+install\b(?P<args>[^`\n]*)")
DIRECTML_TORCH = re.compile(r"(?<![\w-])torch\s*==\s*(?:\{\{\s*pin\.torch\s*\}\}|2\.4\.1)(?![\w.])")
DIRECTML_FIX = "when-another-package-upgrades-torch"


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
        for following in lines[number + 1:]:
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
        tab.siblings = tuple(t.label for t in same[first:last + 1])
    return found


def _adjacent(lines: list[str], before: Tab, after: Tab, indent: int) -> bool:
    between = lines[before.line:after.line - 1]
    return all(not line.strip() or len(line) - len(line.lstrip()) > indent for line in between)


def undoing_problems(tab: Tab) -> list[str]:
    """What in a ROCm or XPU tab would put torch-directml's torch in that environment."""
    problems = []
    for match in INSTALL.finditer(tab.body):
        args = match["args"]
        if re.search(r"(?<![\w-])torch-directml\b", args) or DIRECTML_TORCH.search(args):
            problems.append(f"{tab.page}:{tab.line} {tab.label} tab installs DirectML's torch: {match.group(0)!r}")
    if DIRECTML_FIX in tab.body:
        problems.append(f"{tab.page}:{tab.line} {tab.label} tab links the DirectML fix #{DIRECTML_FIX}")
    return problems


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
            f"{page}{edition}.md: a back-end tab set is {labels}; labels are {BACKENDS}, DirectML first")
    assert any("ROCm" in labels and "XPU" in labels for labels in sets), f"{page}{edition}.md: no ROCm and XPU tabs"


def test_no_back_end_label_is_spelled_otherwise():
    # "AMD ROCm on Windows", "Intel XPU", "CPU-only": the chooser selects by the exact label
    near = re.compile(r"rocm|xpu|cuda|cpu|directml", re.I)
    odd = {f"{t.page}:{t.line} {t.label!r}" for t in ALL_TABS if near.search(t.label) and t.label not in BACKENDS}
    assert not odd, sorted(odd)


@pytest.mark.parametrize("tab", [t for t in ALL_TABS if t.label in ("ROCm", "XPU")],
                         ids=lambda t: f"{t.page}:{t.line}:{t.label}")
def test_rocm_and_xpu_tabs_never_install_directmls_torch(tab):
    assert undoing_problems(tab) == []


def test_there_are_rocm_and_xpu_tabs_to_check():
    checked = {t.page for t in ALL_TABS if t.label in ("ROCm", "XPU")}
    assert {f"{p}{e}.md" for p in PAGES for e in EDITIONS} <= checked, sorted(checked)


@pytest.mark.parametrize("text", [
    '=== "ROCm"\n\n    ```powershell\n    python -m pip install torch-directml\n    ```\n',
    '=== "XPU"\n\n    Then `pip install --force-reinstall torch-directml`.\n',
    '=== "ROCm"\n\n    ```powershell\n    python -m pip install torch=={{ pin.torch }} torchvision\n    ```\n',
    '=== "XPU"\n\n    See [the fix](setup.md#when-another-package-upgrades-torch).\n',
    '=== "DirectML"\n\n    ok\n\n=== "ROCm"\n\n    === "PowerShell"\n\n        ```powershell\n'
    '        uv pip install torch==2.4.1\n        ```\n',
])
def test_the_check_finds_directmls_torch_in_a_rocm_or_xpu_tab(text):
    [tab] = [t for t in tabs_of("page.md", text) if t.label in ("ROCm", "XPU")]
    assert undoing_problems(tab), text


def test_the_check_lets_a_warning_pass():
    text = ('=== "ROCm"\n\n    Do not install torch-directml here: it would replace AMD\'s torch with torch 2.4.1.\n\n'
            '    ```powershell\n    python -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ '
            '"torch[device-gfx1100]==2.14.0+rocm10.1.0"\n    ```\n')
    [tab] = tabs_of("page.md", text)
    assert undoing_problems(tab) == []


def test_sets_are_read_as_material_groups_them():
    text = ('=== "DirectML"\n\n    === "PowerShell"\n\n        a\n\n    === "cmd"\n\n        b\n\n'
            '=== "ROCm"\n\n    c\n\nProse between.\n\n=== "PowerShell"\n\n    d\n')
    labels = {(t.label, t.siblings) for t in tabs_of("page.md", text)}
    assert ("DirectML", ("DirectML", "ROCm")) in labels and ("ROCm", ("DirectML", "ROCm")) in labels
    assert ("cmd", ("PowerShell", "cmd")) in labels
    assert ("PowerShell", ("PowerShell",)) in labels  # the last set stands alone
