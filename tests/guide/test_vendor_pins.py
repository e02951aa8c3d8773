"""Every vendor-index pin, on the chooser and on the pages, against what the vendor's own sources publish.

docs/hooks/data/vendor_index.yml keeps, for each vendor index, the versions its own source lists (with the
source and the date it was read). A pin must match one of them under PEP 440, as pip reads it
(``packaging``): ``==0.29+rocm10.1.0`` does not match ``0.29.0a0+rocm10.1.0``. A pin no reachable source
settles (the PyTorch indexes, whose wheel lists cannot be read from here) is said so in ``unsettled:``.
What only a resolution can settle, the Freshness workflow's "Vendor indexes" job resolves on Windows.
"""

from __future__ import annotations

import re
import shlex

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import resolve_vendor_commands
from guide import recipes

DATA = recipes.vendor_index()
PUBLISHED = {entry["index"]: entry for entry in DATA["published"].values() if "index" in entry}
VENDOR_URL = re.compile(r"--index-url\s+(https://(?:(?:stable\.)?repo\.amd\.com|download\.pytorch\.org)/\S+)")


def pin_problems(command: str) -> list[str]:
    """What in an install command does not match what its index's own source publishes."""
    words = shlex.split(command, posix=True)
    index = words[words.index("--index-url") + 1]
    published = PUBLISHED.get(index)
    requirements = [
        Requirement(w)
        for w in words[words.index("install") + 1 :]
        if not w.startswith("-") and w != index and not w.startswith("https://")
    ]
    found = []
    for requirement in requirements:
        if published is None:  # PyTorch's indexes: nothing reachable lists their wheels
            if requirement.specifier:
                found.append(f"{requirement}: pinned on an index whose wheels no stored source lists")
            continue
        versions = published["versions"].get(requirement.name, [])
        if not any(requirement.specifier.contains(Version(v), prereleases=True) for v in versions):
            found.append(f"{requirement}: matches none of {versions} ({published['source']})")
        for extra in requirement.extras:
            if extra.removeprefix("device-") not in published["windows_targets"]:
                found.append(f"{requirement}: [{extra}] has no Windows command in {published['source']}")
    return found


# Every vendor-index command of the chooser and of the pages, once each: the Freshness workflow's own list.
COMMANDS = resolve_vendor_commands.commands()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.where)
def test_each_command_pins_what_the_vendor_publishes(command):
    assert pin_problems(command.text) == []


def test_there_are_commands_of_each_vendor_index():
    chooser = [c.text for c in COMMANDS if c.where == "the chooser"]
    assert {VENDOR_URL.search(c).group(1) for c in chooser} == {
        "https://stable.repo.amd.com/rocm/whl-next/",
        "https://repo.amd.com/rocm/whl-multi-arch/",  # AMD's stable 7.14.1 line, for gfx1030
        "https://download.pytorch.org/whl/xpu",
        "https://download.pytorch.org/whl/cu130",
        "https://download.pytorch.org/whl/cu126",
    }
    assert len(chooser) >= 10  # one per AMD gfx target with a GPU, three PyTorch indexes
    assert any(c.where != "the chooser" for c in COMMANDS), "no page command of its own"


@pytest.mark.parametrize(
    "pin, problem",
    [
        ('"torchvision[device-gfx1100]==0.29+rocm10.1.0"', "matches none"),  # the known bug
        ('"torch[device-gfx1031]==2.14.0+rocm10.1.0"', "no Windows command"),  # an RX 6700 XT target
        ('"torchaudio==2.11.0+rocm10.1.0"', "matches none"),
        ('"torch[device-gfx1030]==2.12.0+rocm7.14.1"', "no Windows command"),  # 7.14.1's pin on the 10.1 index
    ],
)
def test_the_check_catches(pin, problem):
    command = f"python -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ {pin}"
    assert any(problem in p for p in pin_problems(command))


def test_a_pin_on_an_unlisted_index_is_caught():
    command = "python -m pip install torch==2.15.0 --index-url https://download.pytorch.org/whl/xpu"
    assert pin_problems(command) == ["torch==2.15.0: pinned on an index whose wheels no stored source lists"]


def test_each_published_entry_has_its_source_and_date():
    for name, entry in DATA["published"].items():
        assert entry["source"].startswith("https://") and entry["checked"], name
    assert set(DATA["unsettled"]) <= set(DATA["published"])
