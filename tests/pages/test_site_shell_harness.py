"""The harness's shell-block machinery, on any OS: extraction, site-block markers, scripts and the summary.

The blocks themselves run on Windows only (tests/pages/test_site_shell_blocks.py); what decides which block
runs, how, and what the end of a run says about it is checked here.
"""

from __future__ import annotations

import os
import re
import textwrap

import pytest

from guide.blocks import PYTHON_KEYS, PYTHON_LANGUAGES, SHELL_KEYS
from guide.directives import directives, fence_options
from guide.notebook import CELL_KEYS
from guide_harness import (
    DOCS,
    SHELL_LANGUAGES,
    TESTS,
    PageError,
    all_shell_blocks,
    cmd_script,
    pages,
    powershell_script,
    run_python,
    shell_blocks_of,
)

PAGE = textwrap.dedent("""\
    # A page

    === "PowerShell"

        ```powershell
        py -{{ pin.python }} -m venv .venv
        .venv\\Scripts\\Activate.ps1
        ```

    === "cmd"

        <!-- site-block: env=venv -->
        ```bat
        .venv\\Scripts\\activate.bat
        rem a comment
        python -c "print(1)"
        ```

    <!-- site-block: manual="installs Python (a GUI installer)" -->
    ```pwsh
    winget install Python.Python.3.12
    ```

    ```text
    not a command
    ```

    <!-- site-block: directml=yes requires=uv -->
    ```cmd
    uv run verify_directml.py
    ```
""")


def test_extraction_after_pins_and_de_indented():
    from guide import pins

    blocks = shell_blocks_of("page.md", pins.expand_pins(PAGE))
    assert [(b.line, b.language, b.shell) for b in blocks] == [
        (5, "powershell", "powershell"),
        (13, "bat", "cmd"),
        (20, "pwsh", "powershell"),
        (29, "cmd", "cmd"),
    ]
    assert blocks[0].code == "py -3.12 -m venv .venv\n.venv\\Scripts\\Activate.ps1"
    assert (blocks[0].manual, blocks[0].env, blocks[0].directml) == (None, "project", False)
    assert blocks[1].env == "venv" and blocks[1].code.startswith(".venv\\Scripts\\activate.bat\n")
    assert blocks[2].manual == "installs Python (a GUI installer)"
    assert blocks[3].directml and blocks[3].requires == ["uv"]


@pytest.mark.parametrize(
    "page, message",
    [
        ('<!-- site-block: manual="" -->\n```powershell\nx\n```\n', 'page.md:1: manual="..." (not empty)'),
        ("<!-- site-block: manual -->\n```powershell\nx\n```\n", 'page.md:1: manual="..." (not empty)'),
        ('<!-- site-block: skip="why" -->\n```bat\nx\n```\n', "page.md:1: unknown site-block key 'skip'"),
        ("<!-- site-block: env=conda -->\n```bat\nx\n```\n", "page.md:1: env=venv, not 'env=conda'"),
        ("<!-- site-block: directml=no -->\n```bat\nx\n```\n", "page.md:1: directml=yes, not 'directml=no'"),
        (
            "\n<!-- site-block: args=x -->\n```bat\nx\n```\n",
            "page.md:3: site-block key 'args' does not apply to a ```bat",
        ),
        (
            "<!-- install-check: historical -->\n```bat\nx\n```\n",
            "page.md:1: <!-- install-check: historical --> is not a",
        ),
        (
            "<!-- site-block: env=venv -->\nSome prose.\n\n```bat\nx\n```\n",
            "page.md:1: a site-block directive stands above text",
        ),
        (
            "```bat\nx\n```\n\n<!-- site-block: env=venv -->\n",
            "page.md:5: a site-block directive at the end of the page",
        ),
        (
            "<!-- site-block: env=venv -->\n<!-- site-block: env=venv -->\n```bat\nx\n```\n",
            "page.md:2: site-block key 'env' given twice",
        ),
        (
            '<!-- site-block: manual="unclosed -->\n```bat\nx\n```\n',
            "page.md:1: site-block directive: No closing quotation",
        ),
        ("```sh\nls\n```\n", "a ```sh block on a page for Windows readers"),
        ("```console\n$ ls\n```\n", "a ```console block"),
        ("```powershell\n\n```\n", "an empty powershell block"),
    ],
)
def test_markers_and_labels_that_cannot_be_honoured_are_refused(page, message):
    with pytest.raises(PageError, match=re.escape(message)):
        shell_blocks_of("page.md", page)


# Who reads the site-block directives above which fences, and the keys each reader accepts there.
PAGE_READERS = [
    (PYTHON_LANGUAGES, PYTHON_KEYS),  # the Python blocks (guide.blocks.site_blocks)
    (set(SHELL_LANGUAGES), SHELL_KEYS),  # the shell blocks (guide.blocks.shell_blocks); install-check among them
    ({"text"}, {"install-check", "i18n"}),  # tests/pages/test_install_commands.py, tests/pages/test_i18n.py
]
NOTEBOOK_READERS = [({"python"}, CELL_KEYS)]  # the notebook's cells (guide.notebook)
NOTEBOOK_SOURCES = sorted((DOCS / "hooks").glob("*.md"))


@pytest.mark.parametrize("page", pages() + NOTEBOOK_SOURCES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_site_block_directive_is_read(page):
    """Every directive of every page (both editions) and notebook source parses, its keys are known and
    accepted by the reader of its fence, and no directive stands above a fence that nothing reads."""
    name = page.relative_to(DOCS).as_posix()
    text = page.read_text(encoding="utf-8")
    read = set()
    for languages, keys in NOTEBOOK_READERS if page in NOTEBOOK_SOURCES else PAGE_READERS:
        read |= set(fence_options(text, name, languages, keys))
    unread = [f"{name}:{d.fence_line} (```{d.language})" for d in directives(text, name) if d.fence_line not in read]
    assert not unread, f"site-block directives above fences that nothing reads: {unread}"


def test_powershell_script_stops_at_the_first_failing_line():
    block = shell_blocks_of(
        "page.md", "```powershell\npy -3.12 -m venv .venv\n# why\n.venv\\Scripts\\Activate.ps1\n```\n"
    )[0]
    assert powershell_script(block).split("\r\n") == [
        "py -3.12 -m venv .venv",
        "if (-not $?) { exit 1 }",
        "# why",
        ".venv\\Scripts\\Activate.ps1",
        "if (-not $?) { exit 1 }",
        "exit 0",
        "",
    ]


def test_cmd_script_calls_batch_files_and_stops_at_the_first_failing_line():
    block = shell_blocks_of("page.md", "```bat\n.venv\\Scripts\\activate.bat\nrem why\npython -m pip check\n```\n")[0]
    assert cmd_script(block).split("\r\n") == [
        "call .venv\\Scripts\\activate.bat",
        "if %errorlevel% neq 0 exit /b %errorlevel%",
        "rem why",
        "python -m pip check",
        "if %errorlevel% neq 0 exit /b %errorlevel%",
        "exit /b 0",
        "",
    ]
    # `if errorlevel 1` is true for 1 and above only: a crash's negative NTSTATUS code would pass.
    assert "if errorlevel" not in cmd_script(block)


# What no CI job can do by itself: ask for input, change the machine, need an initialised shell or a token.
UNATTENDED_NEVER = re.compile(
    r"Read-Host|\bconda (activate|init)\b|Restart-Service|New-LocalUser|config\.cmd|TOKEN\b|winget install|"
    r"Set-ExecutionPolicy|--device dml:[1-9]|C:\\actions-runner",
    re.I,
)


def test_every_shell_block_on_every_page_runs_on_windows_or_says_why_not():
    """The rule of the site: a block a reader copies has run on Windows, or its page says why it cannot."""
    # Every page's every shell fence is a block (guide.blocks.shell_blocks_of: one per fence of the page model,
    # a fence it cannot take is a PageError), every include expanded (check_paths: a missing file raises).
    blocks = all_shell_blocks()
    for block in blocks:
        assert block.manual is None or len(block.manual.split()) >= 3, f"{block.test_id}: say why, in words"
        unattended = UNATTENDED_NEVER.search(block.code)
        assert block.manual or not unattended, (
            f"{block.test_id}: `{unattended.group(0) if unattended else ''}` cannot run unattended: "
            f'mark the block <!-- site-block: manual="why" -->'
        )
        other_torch = OTHER_TORCH.search(block.code)
        assert block.manual or block.env == "venv" or not other_torch, (
            f"{block.test_id}: `{other_torch.group(0) if other_torch else ''}` installs another torch: run it in a "
            f"fresh environment (<!-- site-block: env=venv -->), never in the suite's own"
        )
    runnable = [b for b in blocks if not b.manual]
    assert len(runnable) >= len(blocks) // 2, "most of the site's commands must run unattended"


# An install from another index than PyPI (AMD's, PyTorch's XPU/CUDA/CPU builds) replaces the torch that
# torch-directml pins: in the suite's own environment it would break every test after it.
OTHER_TORCH = re.compile(r"pip3? install\b[^\n]*--index-url\b|pip3? install\b[^\n]*\btorch==(?!2\.4\.1\b)", re.I)


@pytest.mark.parametrize(
    "rule, code",
    [
        ("unattended", "conda activate dml"),
        ("unattended", "$p = Read-Host -AsSecureString"),
        ("unattended", "winget install Python.Python.3.12"),
        ("unattended", "python train_mnist.py --device dml:1"),
        ("other torch", "pip3 install torch torchvision --index-url https://download.pytorch.org/whl/xpu"),
        (
            "other torch",
            'python -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "torch[device-gfx1100]==2.14.0+rocm10.1.0"',
        ),
        ("other torch", "python -m pip install torch==2.14.1 torchvision==0.29.1"),
    ],
)
def test_the_rules_catch(rule, code):
    assert {"unattended": UNATTENDED_NEVER, "other torch": OTHER_TORCH}[rule].search(code)
    assert not OTHER_TORCH.search("python -m pip install torch-directml")


SUMMARY_TESTS = textwrap.dedent("""
    import os
    import pytest

    @pytest.mark.parametrize("where, shell, outcome", [
        ("setup.md:29", "pwsh", "pass"),
        ("setup.md:29", "powershell", "fail"),
        ("setup.md:72", "pwsh", "manual: needs conda init"),
        ("setup.md:72", "powershell", "manual: needs conda init"),
        ("setup.md:81", "cmd", "skip: shell blocks run on Windows only"),
    ], ids=["setup.md:29:pwsh", "setup.md:29:powershell", "setup.md:72:pwsh", "setup.md:72:powershell",
            "setup.md:81:cmd"])  # as the real file names them: page:line:shell
    def test_site_shell_block_runs(where, shell, outcome):
        if outcome.startswith(("manual", "skip")):
            pytest.skip(outcome.removeprefix("skip: "))
        assert outcome == "pass"
""")


def test_the_end_of_run_summary_counts_and_lists_them(tmp_path):
    # This project's summary plugin (tests/run_summary.py), as tests/conftest.py loads it.
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["run_summary"]\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    directml: needs DirectML\n", encoding="utf-8")
    (tmp_path / "test_site_shell_blocks.py").write_text(SUMMARY_TESTS, encoding="utf-8")
    result = run_python(
        ["-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        PYTHONPATH=os.pathsep.join([str(TESTS), str(DOCS / "hooks")]),
    )  # run_summary reads guide
    out = result.stdout
    assert result.returncode == 1, out[-3000:]  # the failed block fails the run
    summary = out[out.index("site shell blocks") :]
    assert (
        "2 shell block runs (1 passed, 1 failed), 1 blocks not run unattended (marked manual on their page), "
        "1 runs skipped, 0 errors" in summary
    )
    assert "  manual setup.md:72 [pwsh,powershell] (needs conda init)" in summary
    assert "  skipped 1: shell blocks run on Windows only" in summary


# verify_directml.py without --allow-fallback exits 1 where there is no DirectML adapter: such a block needs one.
NEEDS_DIRECTML = re.compile(r"verify_directml\.py(?![^\n]*--allow-fallback)")


def directml_marking_problems(blocks) -> list[str]:
    return [
        f"{b.test_id}: runs verify_directml.py without --allow-fallback: mark it <!-- site-block: directml=yes -->"
        for b in blocks
        if NEEDS_DIRECTML.search(b.code) and not b.directml and not b.manual
    ]


def test_blocks_that_need_directml_are_marked():
    assert directml_marking_problems(all_shell_blocks()) == []


def test_the_directml_marking_rule_catches():
    unmarked = shell_blocks_of("page.md", "```powershell\npython verify_directml.py\n```\n")
    fallback = shell_blocks_of("page.md", "```powershell\npython verify_directml.py --allow-fallback\n```\n")
    assert directml_marking_problems(unmarked) != [] and directml_marking_problems(fallback) == []
