"""Facts the pages state about the vendors' own output and downloads, in both editions, against their sources.

Each test reads the page's source: what a reader copies or compares with their screen (the message torch
prints, the driver package for their GPU) must be the current one, with the older form named as older.
"""

from __future__ import annotations

import re

import pytest

from guide import recipes
from guide.page import Page
from guide_harness import DOCS

EDITIONS = ["", ".zh"]


def _section(text: str, anchor: str) -> str:
    """The source of the section whose heading carries ``{#anchor}``, up to the next heading of any level."""
    start = re.search(r"^#+ .*\{ ?#" + re.escape(anchor) + r" ?\}$", text, re.M)
    assert start, anchor
    end = re.search(r"^#+ ", text[start.end() :], re.M)
    return text[start.end() : start.end() + end.start() if end else None]


def current_rocm_message(section: str) -> list[str]:
    """What is wrong with the quoted HIP message: current torch's ROCm builds link ROCm's HIP docs
    (c10/cuda/CUDAMiscFunctions.cpp, USE_ROCM); NVIDIA's page is what older builds printed."""
    quoted = Page.parse(section).blocks("text")[0].body  # the first text block
    problems = []
    if "https://rocm.docs.amd.com/projects/HIP/en/latest/index.html" not in quoted:
        problems.append("the quoted message does not link ROCm's HIP docs")
    if "docs.nvidia.com" in quoted:
        problems.append("the quoted message links NVIDIA's page, which only older builds print")
    return problems


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_hip_message_is_the_one_current_torch_prints(edition):
    text = (DOCS / f"troubleshooting{edition}.md").read_text(encoding="utf-8")
    section = _section(text, "rocm-integrated-gpu-first")
    assert current_rocm_message(section) == []
    assert "device kernel image is invalid" in section and "CUDA error: device kernel image is invalid" in section
    old = "```text\nSearch for `hipErrorInvalidImage' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__HIPRT__TYPES.html\n```"
    assert len(current_rocm_message(old)) == 2  # the check sees the message as the page quoted it before


def missing_intel_packages(step: str) -> list[str]:
    """Intel's driver packages (vendor_index.yml, one per generation since Intel's 2025-09 split) that set-up's
    driver step does not link; the Arc package named "Iris Xe" too, as it was before the split."""
    drivers = recipes.vendor_index()["drivers"]
    missing = [name for name in drivers if name.startswith("intel-") and drivers[name]["url"] not in step]
    arc = drivers["intel-arc"]["url"]
    if re.search(r"\[[^\]]*Iris Xe[^\]]*\]\(" + re.escape(arc), step):
        missing.append("intel-arc is labelled Iris Xe")
    return missing


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_links_each_intel_driver_package(edition):
    text = (DOCS / f"setup{edition}.md").read_text(encoding="utf-8")
    step = (
        _section(text, "2-create-the-environment-and-install-torch-directml")
        if edition
        else text.split("## 2. Create the environment and install torch-directml", 1)[1].split("\n## ", 1)[0]
    )
    assert missing_intel_packages(step) == []
    arc = recipes.vendor_index()["drivers"]["intel-arc"]["url"]
    before = f"Intel's from [Intel Arc & Iris Xe Graphics]({arc}) (Arc, Iris Xe and Core Ultra graphics)"
    assert "intel-11th-14th" in missing_intel_packages(
        before
    ) and "intel-arc is labelled Iris Xe" in missing_intel_packages(before)


@pytest.mark.parametrize("edition", EDITIONS)
def test_windows_10_note_gives_the_consumer_esu_end_microsoft_gives_now(edition):
    """Microsoft's page moved the consumer ESU's end from 2026-10-13 to 2027-10-12 (sources.yml windows-10-esu)."""
    text = (DOCS / f"why-directml{edition}.md").read_text(encoding="utf-8")
    assert "{{ checked.windows-10-esu }}" in text
    assert ("October 12, 2027" if not edition else "2027 年 10 月 12 日") in text
