"""Every install command on the site resolves, for its target, against the real package index.

Commands in a fence preceded by ``<!-- site-block: install-check=historical -->`` are the opposite: old recipes
shown as history, which must no longer install.

Commands in a fence preceded by ``<!-- site-block: install-check=vendor-index -->`` install from a vendor's own
index (AMD's ROCm wheels, PyTorch's XPU and CUDA indexes), which these machines cannot reach: their
form is checked instead (the tests' names say "not resolved").

The commands are read from the *expanded* page (after {{ pin.X }} substitution), so a command
added to the page is tested without touching this file. Each is resolved with
``pip install --dry-run --report`` for the platform of the tab it sits in: Windows (win_amd64,
CPython 3.12) or, under the "WSL2 / Linux" tab, Linux (manylinux, CPython 3.12). Nothing is
installed: pip reads only package metadata (``--use-feature=fast-deps`` reads it with HTTP range
requests, so the 200 MB torch wheel is not downloaded; PyPI's own metadata files are used where the
index serves them).

Why the small wrapper around pip: ``--platform`` and ``--python-version`` choose wheels, but pip
evaluates environment markers (``sys_platform == "win32"``, ``platform_system == "Linux"``) against
the interpreter that runs pip (pypa/pip#11664). torch's Linux-only CUDA dependencies would then be
required on "Windows" and the resolution would fail. The wrapper makes pip's marker environment the
target's. Without the network these tests fail; they never skip.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from guide import pins
from guide.blocks import SHELL_KEYS
from guide.directives import fence_options
from guide.page import Page
from guide_harness import DOCS, page_source, pages
from measure_environments import PIP_WRAPPER, WINDOWS_MARKERS  # the same marker trick, for Windows

PYPROJECT = DOCS.parent / "pyproject.toml"
# The fences whose install lines are read, and their site-block keys: the shell blocks' own (install-check
# among them) and, on a Chinese page's text block, i18n.
INSTALL_LANGUAGES = {"powershell", "bat", "text"}
INSTALL_KEYS = SHELL_KEYS | {"i18n"}
PINS = pins.load_pins()

# The interpreter and platform each tab's commands are meant for.
TARGETS = {
    "windows": {"platforms": ["win_amd64"], "markers": WINDOWS_MARKERS},  # resolve() sets the Python
    "linux": {
        # pip does not widen manylinux_2_28 to the older manylinux tags, so name them.
        "platforms": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
        "markers": {
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": "x86_64",
            "os_name": "posix",
        },
    },
}
WHEEL_TAGS = {"windows": ("win_amd64", "none-any"), "linux": ("manylinux", "none-any")}

# A line that installs packages: pip install, python -m pip install, py -m pip install, uv pip install.
INSTALL = re.compile(r"^(?:(?:\S*python[\d.]*(?:\.exe)?|py(?: -[\d.]+)?) -m )?(?:uv )?pip3? install (?P<args>.+)$")
# Options that do not change what gets resolved; any other option fails the test until handled here.
HARMLESS_OPTIONS = {"--force-reinstall", "--upgrade", "-U", "--no-cache-dir", "--group"}
# -i/--index-url: the same packages from a mirror of PyPI. The tests resolve against PyPI itself (the
# mirrors are unreachable from CI); each mirror a page names must be one of these, and the page must
# link the mirror's own help page, which documents the URL.
INDEX_OPTIONS = {"-i", "--index-url"}
MIRRORS = {"https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple": "https://mirrors.tuna.tsinghua.edu.cn/help/pypi/"}
# pip download --no-deps -d DIR -i URL pkg==X ...: the mirror check on the set-up page.
DOWNLOAD = re.compile(r"^(?:(?:\S*python[\d.]*(?:\.exe)?|py(?: -[\d.]+)?) -m )?pip3? download (?P<args>.+)$")
CONFIG_INDEX = re.compile(
    r"^(?:(?:\S*python[\d.]*(?:\.exe)?|py(?: -[\d.]+)?) -m )?pip3? config set global\.index-url (?P<url>\S+)$"
)
TAB = re.compile(r'^(?P<indent>[ \t]*)===\+? "(?P<title>[^"]+)"')


@dataclass(frozen=True)
class InstallCommand:
    line: int
    text: str
    target: str  # "windows" or "linux"
    requirements: tuple[str, ...]
    historical: bool = False
    page: str = "page.md"
    index: str | None = None  # -i URL: a mirror of PyPI
    vendor_index: bool = False

    @property
    def test_id(self) -> str:
        return f"{self.page}:{self.line}:{self.target}"


def dependency_group(name: str) -> tuple[str, ...]:
    """The requirements of a pyproject.toml dependency group, include-group entries expanded."""
    import tomllib

    groups = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["dependency-groups"]

    def expand_group(group: str) -> list[str]:
        result = []
        for entry in groups[group]:
            result.extend(expand_group(entry["include-group"]) if isinstance(entry, dict) else [entry])
        return result

    return tuple(expand_group(name))


def install_commands(markdown: str, where: str = "page.md") -> list[InstallCommand]:
    """The install lines of powershell/bat/text fences, each with the target of its enclosing tabs."""
    options = fence_options(markdown, where, INSTALL_LANGUAGES, INSTALL_KEYS)
    lines = markdown.splitlines()
    commands = []
    for fence in Page.parse(markdown, where).blocks("powershell", "bat", "text"):
        index, end = fence.line - 1, fence.end - 1  # the opening and closing lines, from 0
        tabs = _enclosing_tabs(lines, index, len(fence.indent))
        target = "linux" if "WSL2 / Linux" in tabs else "windows"
        check = options.get(fence.line, {}).get("install-check")
        historical = check == "historical"
        if check == "vendor-index":
            commands += [replace(c, page=where) for c in _vendor_commands(lines, index + 1, end, target)]
            continue
        for number in range(index + 1, end):
            match = INSTALL.match(lines[number].strip())
            if match:
                command = _command(number + 1, lines[number].strip(), match["args"], target)
                commands.append(replace(command, historical=historical, page=where))
    return commands


def _vendor_commands(lines: list[str], start: int, end: int, target: str) -> list[InstallCommand]:
    """Install commands of a vendor-index fence, continuation lines (` in PowerShell, ^ in cmd) joined."""
    commands, pending, first = [], "", 0
    for number in range(start, end):
        text = lines[number].strip()
        if not pending:
            first = number + 1
        pending = f"{pending} {text}".strip()
        if pending.endswith((" `", " ^")):
            pending = pending[:-2]
            continue
        match = INSTALL.match(pending)
        assert match, f"line {first}: a vendor-index fence holds only install commands: {pending}"
        commands.append(InstallCommand(first, pending, target, tuple(shlex.split(match["args"])), vendor_index=True))
        pending = ""
    assert not pending, f"line {first}: the command ends in a continuation character"
    return commands


def _enclosing_tabs(lines: list[str], fence_index: int, indent: int) -> list[str]:
    titles = []
    for line in reversed(lines[:fence_index]):
        tab = TAB.match(line)
        if tab and len(tab["indent"]) < indent:
            titles.append(tab["title"])
            indent = len(tab["indent"])
        elif line.strip() and not line.startswith((" ", "\t")) and indent == 0:
            break
    return titles


def _command(line: int, text: str, args: str, target: str) -> InstallCommand:
    words = shlex.split(args)
    index = None
    for option in INDEX_OPTIONS & set(words):
        position = words.index(option)
        index = words[position + 1]
        del words[position : position + 2]
    unknown = [w for w in words if w.startswith("-") and w not in HARMLESS_OPTIONS]
    assert not unknown, f"line {line}: teach this test what {unknown} means before using it: {text}"
    requirements = []
    for position, word in enumerate(words):
        if word.startswith("-"):
            continue
        if position and words[position - 1] == "--group":
            requirements.extend(dependency_group(word))  # pip install --group NAME, from pyproject.toml
        else:
            requirements.append(word)
    return InstallCommand(line, text, target, tuple(requirements), index=index)


# Pinned packages that PyPI has as a source distribution only. pip cannot resolve an sdist for another
# platform (--platform needs --only-binary=:all:), so resolve() leaves them out, and
# test_sdist_only_pins_exist_on_pypi checks their pins against PyPI's file list instead.
SDIST_ONLY = {"jieba": "pure Python; Material's search segments Chinese with it (docs group)"}


def _name(requirement: str) -> str:
    return re.split(r"[\s=<>!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


@cache
def resolve(
    index: str, target: str, python: str, requirements: tuple[str, ...]
) -> tuple[subprocess.CompletedProcess, dict | None]:
    """pip's dry-run resolution of ``requirements`` on ``index`` for ``target`` and CPython ``python``."""
    requirements = tuple(r for r in requirements if _name(r) not in SDIST_ONLY)
    config = TARGETS[target]
    markers = {
        **config["markers"],
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }
    handle, name = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    report = Path(name)
    report.unlink()  # pip writes it only when the resolution succeeds
    platforms = [arg for p in config["platforms"] for arg in ("--platform", p)]
    base = [
        sys.executable, "-c", PIP_WRAPPER, json.dumps(markers),
        # --isolated: ignore this machine's pip configuration (local wheel stores, constraints).
        "install", "--isolated", "--index-url", index, "--dry-run", "--ignore-installed",
        "--only-binary=:all:", *platforms, "--python-version", python, "--implementation", "cp",
        "--quiet", "--report", str(report), "--no-cache-dir",
    ]  # fmt: skip
    result = subprocess.run(
        [*base, "--use-feature=fast-deps", *requirements], capture_output=True, text=True, timeout=300
    )
    if result.returncode != 0 and "fast-deps" in result.stderr and "invalid choice" in result.stderr:
        # A pip without the fast-deps feature: resolve the plain way (downloads whole wheels).
        result = subprocess.run([*base, *requirements], capture_output=True, text=True, timeout=600)
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
    report.unlink(missing_ok=True)
    return result, data


def installed(report: dict) -> dict[str, dict]:
    return {item["metadata"]["name"].lower().replace("_", "-"): item for item in report["install"]}


ALL_COMMANDS = [c for page in pages() for c in install_commands(page_source(page), page.relative_to(DOCS).as_posix())]
VENDOR_COMMANDS = [c for c in ALL_COMMANDS if c.vendor_index]
ALL_COMMANDS = [c for c in ALL_COMMANDS if not c.vendor_index]
COMMANDS = [c for c in ALL_COMMANDS if not c.historical]
OLD_FORK = [c for c in ALL_COMMANDS if c.historical and c.requirements == ("pytorch-directml",)]
# Commands that ask for the same requirements on the same target, resolved once (both editions repeat each).
RESOLUTIONS: dict[tuple[str, tuple[str, ...]], list[InstallCommand]] = {}
for each in COMMANDS:
    RESOLUTIONS.setdefault((each.target, each.requirements), []).append(each)


def test_the_site_has_install_commands_for_both_targets():
    setup = [c.target for c in COMMANDS if c.page == "setup.md"]
    assert setup.count("windows") >= 3 and setup.count("linux") >= 1, COMMANDS
    assert {c.page for c in COMMANDS} >= {"setup.md", "troubleshooting.md", "contributing/gpu-runner.md"}


@pytest.mark.parametrize("key", RESOLUTIONS, ids=lambda k: f"{RESOLUTIONS[k][0].test_id}+{len(RESOLUTIONS[k]) - 1}")
def test_install_commands_resolve_for_their_target(key, pypi_index):
    target, requirements = key
    texts = sorted({c.text for c in RESOLUTIONS[key]})
    result, report = resolve(pypi_index, target, PINS["python"], requirements)
    assert result.returncode == 0, f"{texts} do not resolve for {target}:\n{result.stderr[-3000:]}"
    packages = installed(report)
    if any(r.startswith("torch-directml") for r in requirements):
        assert "torch-directml" in packages, sorted(packages)
    # A command that names its own torch (the CPU-only set-up: current torch) gets exactly that one;
    # every other command gets torch-directml's pins.
    named = dict(r.split("==", 1) for r in requirements if "==" in r and ";" not in r)
    for name in ("torch-directml", "torch", "torchvision"):
        if name in packages:
            expected = named.get(name, PINS[name])
            assert packages[name]["metadata"]["version"] == expected, (name, packages[name]["metadata"]["version"])
    for name, item in packages.items():
        wheel = item["download_info"]["url"].rsplit("/", 1)[-1]
        assert wheel.endswith(".whl") and any(tag in wheel for tag in WHEEL_TAGS[target]), (name, wheel)
    if "torch-directml" in packages:
        # The page says torch-directml pins torch and torchvision: read it from the package's own metadata.
        requires = packages["torch-directml"]["metadata"]["requires_dist"]
        assert f"torch=={PINS['torch']}" in requires and f"torchvision=={PINS['torchvision']}" in requires, requires
        # The page warns that in WSL2 torch's Linux wheel pulls in NVIDIA's CUDA libraries; on Windows none come.
        nvidia = sorted(name for name in packages if name.startswith("nvidia-"))
        assert ("nvidia-cudnn-cu12" in nvidia and "triton" in packages) if target == "linux" else not nvidia, nvidia
    if key == ("windows", ("torch-directml",)):
        # The page says Python 3.13 cannot install torch-directml (3.12 just did: the index was reachable).
        newer, _ = resolve(pypi_index, "windows", "3.13", requirements)
        assert newer.returncode != 0
        message = "Could not find a version that satisfies the requirement torch-directml (from versions: none)"
        assert message in newer.stderr, newer.stderr[-3000:]


def test_the_old_fork_no_longer_installs(pypi_index):
    """The migration page says the 2021 recipe's fork no longer installs: pytorch-directml is yanked."""
    assert OLD_FORK, "the migration page's historical recipe installs pytorch-directml"
    result, _ = resolve(pypi_index, "windows", "3.8", OLD_FORK[0].requirements)
    assert result.returncode != 0, "pytorch-directml installs again: update the migration page"
    assert "pytorch-directml" in result.stderr


# ---- vendor indexes (not reachable from here): the form of each command, not a resolution ----

AMD_INDEX = re.compile(r"^https://stable\.repo\.amd\.com/rocm/whl(?:-next)?/$")
AMD_PACKAGE = re.compile(
    r"^(?P<name>torch|torchvision|torchaudio)(?:\[device-(?P<device>gfx[0-9a-f]+|all)\])?"
    r"==(?P<version>[\d.]+(?:(?:a|b|rc)\d+)?)\+rocm(?P<rocm>[\d.]+)$"  # AMD pins pre-releases too: 0.29.0a0
)
PYTORCH_INDEX = re.compile(r"^https://download\.pytorch\.org/whl/(?P<build>xpu|cu\d{3}|cpu)$")
# Copies of PyTorch's index in China (setup.md#china-mirrors), each with the page that documents it: the set-up
# page must link that page beside the command.
PYTORCH_INDEX_MIRRORS = {
    re.compile(r"^https://mirror\.sjtu\.edu\.cn/pytorch-wheels/(?:xpu|cu\d{3})$"): (
        "https://github.com/sjtug/mirror-requests/issues/385"
    ),
    re.compile(r"^https://mirrors\.nju\.edu\.cn/pytorch/whl/(?:xpu|cu\d{3})$"): "https://mirrors.nju.edu.cn/",
}
# Options a vendor command may carry besides --index-url, with the value each takes.
VENDOR_OPTIONS = {"--timeout": re.compile(r"^\d+$")}


def vendor_command_problems(command: InstallCommand) -> list[str]:
    """What is wrong with the form of a vendor-index install command (an empty list: nothing)."""
    words = list(command.requirements)
    if "--index-url" not in words:
        return ["no --index-url: a vendor command names the vendor's index"]
    position = words.index("--index-url")
    index_url = words[position + 1] if position + 1 < len(words) else ""
    packages = words[:position] + words[position + 2 :]
    problems = []
    for option, value in VENDOR_OPTIONS.items():
        if option in packages:
            at = packages.index(option)
            given = packages[at + 1] if at + 1 < len(packages) else ""
            if not value.match(given):
                problems.append(f"{option} needs a value like {value.pattern}: {given!r}")
            del packages[at : at + 2]
    problems += [f"unexpected option {w}" for w in packages if w.startswith("-")]
    if AMD_INDEX.match(index_url):
        found = [AMD_PACKAGE.match(w) for w in packages]
        problems += [
            f"not an AMD ROCm wheel pin (NAME[device-gfxNNNN]==VERSION+rocmX.Y.Z): {w}"
            for w, m in zip(packages, found, strict=True)
            if not m
        ]
        found = [m for m in found if m]
        devices = {m["device"] for m in found if m["name"] in {"torch", "torchvision"}}
        if len(devices) != 1 or None in devices:
            problems.append(f"torch and torchvision must name the same device target: {sorted(map(str, devices))}")
        if not {"torch", "torchvision"} <= {m["name"] for m in found}:
            problems.append(f"does not install torch and torchvision: {packages}")
        return problems
    if not PYTORCH_INDEX.match(index_url) and not mirror_source(index_url):
        problems.append(f"not a PyTorch or AMD index URL: {index_url!r}")
    if not {"torch", "torchvision"} <= set(packages):
        problems.append(f"does not install torch and torchvision: {packages}")
    return problems


def mirror_source(index_url: str) -> str | None:
    """The page documenting a copy of PyTorch's index in China, or None if the URL is none of them."""
    return next((source for pattern, source in PYTORCH_INDEX_MIRRORS.items() if pattern.match(index_url)), None)


def test_each_mirror_of_pytorchs_index_links_its_source():
    used = [(c, mirror_source(c.requirements[c.requirements.index("--index-url") + 1])) for c in VENDOR_COMMANDS]
    used = [(c, source) for c, source in used if source]
    assert used, "no command installs from a copy of PyTorch's index (setup.md#china-mirrors)"
    for command, source in used:
        assert source in page_source(DOCS / command.page), f"{command.test_id}: link {source}"


@pytest.mark.parametrize("command", VENDOR_COMMANDS, ids=lambda c: c.test_id)
def test_vendor_index_command_form_not_resolved(command):
    assert vendor_command_problems(command) == [], command.text


def test_the_setup_page_has_a_vendor_command_for_each_backend():
    texts = [c.text for c in VENDOR_COMMANDS if c.page == "setup.md"]
    rocm = [t for t in texts if "stable.repo.amd.com" in t]
    assert any("torch[device-" in t and "torchvision[device-" in t for t in rocm), texts
    assert any(t.endswith("/whl/xpu") for t in texts), texts
    assert any(re.search(r"/whl/cu\d{3}$", t) for t in texts), texts


@pytest.mark.parametrize(
    "text, problem",
    [
        (
            "pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.4",
            "not a PyTorch or AMD index URL",
        ),
        (
            "pip install torch --index-url https://download.pytorch.org/whl/xpu",
            "does not install torch and torchvision",
        ),
        (
            "pip install torch torchvision --index-url https://mirror.sjtu.edu.cn/pytorch-wheels/rocm6.4",
            "not a PyTorch or AMD index URL",
        ),
        (
            "pip install --timeout x torch torchvision --index-url https://download.pytorch.org/whl/xpu",
            "--timeout needs a value",
        ),
        ("pip install torch torchvision", "no --index-url"),
        (
            'pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "torch[device-gfx1100]==2.14.0+rocm10.1.0" "torchvision[device-gfx1201]==0.29+rocm10.1.0"',
            "the same device target",
        ),
        (
            'pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "torch==2.14.0" "torchvision[device-gfx1100]==0.29+rocm10.1.0"',
            "not an AMD ROCm wheel pin",
        ),
        (
            'pip install --pre --index-url https://stable.repo.amd.com/rocm/whl-next/ "torch[device-gfx1100]==2.14.0+rocm10.1.0" "torchvision[device-gfx1100]==0.29+rocm10.1.0"',
            "unexpected option",
        ),
    ],
)
def test_vendor_form_check_catches(text, problem):
    markdown = f"<!-- site-block: install-check=vendor-index -->\n```powershell\n{text}\n```\n"
    (command,) = install_commands(markdown)
    assert any(problem in p for p in vendor_command_problems(command)), vendor_command_problems(command)


def test_vendor_fence_joins_continuation_lines():
    markdown = (
        "<!-- site-block: install-check=vendor-index -->\n```bat\npip install --no-cache-dir ^\n"
        "    https://repo.radeon.com/rocm/windows/rocm-rel-7.2.1/rocm-7.2.1.tar.gz\n```\n"
    )
    (command,) = install_commands(markdown)
    assert command.vendor_index and command.line == 3
    assert command.requirements == (
        "--no-cache-dir",
        "https://repo.radeon.com/rocm/windows/rocm-rel-7.2.1/rocm-7.2.1.tar.gz",
    )


@pytest.mark.parametrize(
    "markdown, expected",
    [
        (
            '=== "PowerShell"\n\n    ```powershell\n    python -m pip install torch-directml\n    ```\n',
            [("windows", ("torch-directml",))],
        ),
        (
            '=== "WSL2 / Linux"\n\n    ```text\n    pip install --force-reinstall torch-directml\n    ```\n',
            [("linux", ("torch-directml",))],
        ),
        (
            '=== "uv"\n\n    === "cmd"\n\n        ```bat\n        uv pip install "torch==2.4.1"\n        ```\n',
            [("windows", ("torch==2.4.1",))],
        ),
        ("```text\npip check\n```\n\n```python\npip install x\n```\n", []),
    ],
)
def test_install_line_extraction(markdown, expected):
    assert [(c.target, c.requirements) for c in install_commands(markdown)] == expected


# ------------------------------------------------------------------------------- PyPI mirrors


def mirror_lines(markdown: str) -> list[tuple[str, str]]:
    """(kind, line) of every pip download / pip config set global.index-url line in a code block."""
    found = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if DOWNLOAD.match(stripped):
            found.append(("download", stripped))
        elif CONFIG_INDEX.match(stripped):
            found.append(("config", stripped))
    return found


MIRROR_LINES = [
    (page.relative_to(DOCS).as_posix(), kind, line)
    for page in pages()
    for kind, line in mirror_lines(page_source(page))
]


def test_the_set_up_page_shows_a_mirror_three_ways():
    """-i for one command, pip config set for all of them, pip download --no-deps to check the mirror."""
    setup = [(kind, line) for page, kind, line in MIRROR_LINES if page == "setup.md"]
    assert {kind for kind, _ in setup} == {"download", "config"}, setup
    assert any(c.index for c in COMMANDS if c.page == "setup.md"), "no install command with -i on setup.md"


# Every use of a PyPI mirror: install commands with -i and pip config set global.index-url lines.
MIRROR_USES = sorted(
    {(c.page, c.index) for c in COMMANDS if c.index}
    | {(page, CONFIG_INDEX.match(line)["url"]) for page, kind, line in MIRROR_LINES if kind == "config"}
)


@pytest.mark.parametrize("page, url", MIRROR_USES)
def test_each_pypi_mirror_is_documented_where_it_is_used(page, url):
    assert url in MIRRORS, f"{page}: add {url} and its help page to MIRRORS first"
    assert MIRRORS[url] in page_source(DOCS / page), f"{page} uses {url} without linking {MIRRORS[url]}"


@pytest.mark.parametrize("entry", [e for e in MIRROR_LINES if e[1] == "download"], ids=lambda e: f"{e[0]}:{e[2][:40]}")
def test_mirror_check_downloads_exactly_the_pinned_wheels(entry):
    page, _, line = entry
    words = shlex.split(DOWNLOAD.match(line)["args"])
    assert "--no-deps" in words, f"{line}: without --no-deps pip downloads every dependency too"
    options_with_values = {"-d", "--dest", *INDEX_OPTIONS}
    assert words[words.index("-i") + 1] in MIRRORS if "-i" in words else True
    requirements, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in options_with_values:
            skip = True
        elif not word.startswith("-"):
            requirements.append(word)
    pinned = dict(r.split("==", 1) for r in requirements)
    # Exactly the versions test_install_commands_resolve_for_their_target sees torch-directml resolve to on PyPI.
    assert pinned == {name: PINS[name] for name in ("torch-directml", "torch", "torchvision")}, line


@pytest.mark.parametrize("name", sorted(SDIST_ONLY))
def test_sdist_only_pins_exist_on_pypi(name, pypi_index):
    """A package resolve() leaves out: its pin exists on PyPI, as the source distribution it only has."""
    import urllib.request

    pinned = [r for r in dependency_group("test") if _name(r) == name]
    assert len(pinned) == 1 and "==" in pinned[0], pinned
    version = pinned[0].split("==", 1)[1].split(";")[0].strip()
    request = urllib.request.Request(f"{pypi_index}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        files = [f["filename"] for f in json.load(response)["files"]]
    assert f"{name}-{version}.tar.gz" in files, files[-5:]
    assert not any(f.endswith(".whl") for f in files), f"{name} has wheels now: take it out of SDIST_ONLY"
