"""The troubleshooting page quotes messages that readers paste; where the text comes from code this suite can run,
the quote is compared with what that code writes today, in both editions.

Each expected line is produced by the code itself (Python's multiprocessing, its codecs, torch's module), never
typed here, so a quote that drifts from the message, or a message that changes in a new Python or torch, fails.
"""

from __future__ import annotations

import multiprocessing.process
import multiprocessing.spawn
import re
from pathlib import Path

import pytest
import torch

from guide.page import Page
from guide_harness import DOCS, ROOT

PAGES = [DOCS / "troubleshooting.md", DOCS / "troubleshooting.zh.md"]


def text_lines(page: Path) -> list[str]:
    """Every line of the page's ```text blocks, right-stripped."""
    return [line.rstrip() for fence in Page.read(page).blocks("text") for line in fence.body.splitlines()]


def bootstrapping_message() -> list[str]:
    """The RuntimeError's lines as this Python's multiprocessing writes them, up to the freeze_support paragraph
    (Python 3.12 adds a last paragraph that older versions lack; the page says so)."""
    process = multiprocessing.process.current_process()
    process._inheriting = True
    try:
        with pytest.raises(RuntimeError) as raised:
            multiprocessing.spawn._check_not_importing_main()
    finally:
        del process._inheriting
    lines = [line.rstrip() for line in str(raised.value).splitlines()]
    end = next(i for i, line in enumerate(lines) if "is not going to be frozen" in line)
    return ["RuntimeError:", *lines[1 : end + 1]]


def encode_error(text: str, encoding: str) -> str:
    with pytest.raises(UnicodeEncodeError) as raised:
        text.encode(encoding)
    return f"UnicodeEncodeError: {raised.value}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_bootstrapping_error_is_quoted_as_python_writes_it(page):
    expected = bootstrapping_message()
    lines = text_lines(page)
    starts = [i for i, line in enumerate(lines) if line == expected[0]]
    assert any(lines[i : i + len(expected)] == expected for i in starts), (
        f"{page.relative_to(ROOT)}: no text block quotes multiprocessing's message as this Python writes it:\n"
        + "\n".join(expected)
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "text, encoding",
    [
        ("training done \u2713", "gbk"),  # console_encoding.py's line
        ("training done \u2713", "cp1252"),
        ("x" * 55 + "\U0001f525", "gbk"),  # maguowei/starred#44: an emoji at position 55
    ],
    ids=["check-mark-gbk", "check-mark-cp1252", "emoji-gbk"],
)
def test_encode_errors_are_quoted_as_the_codecs_write_them(page, text, encoding):
    assert encode_error(text, encoding) in text_lines(page)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_missing_attribute_is_quoted_as_torch_writes_it(page):
    # torch's module __getattr__ writes the message; asked for a name no torch has, then named 'accelerator'.
    with pytest.raises(AttributeError) as raised:
        torch.no_such_attribute_anywhere  # noqa: B018
    message = str(raised.value).replace("no_such_attribute_anywhere", "accelerator")
    assert f"AttributeError: {message}" in text_lines(page)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_found_no_nvidia_driver_is_torch_cuda_librarys_string(page):
    quoted = next(line for line in text_lines(page) if "Found no NVIDIA driver" in line)
    message = quoted.removeprefix("RuntimeError: ").encode()
    libraries = [p for p in (Path(torch.__file__).parent / "lib").glob("*c10_cuda*") if p.suffix in {".so", ".dll"}]
    if not libraries:
        pytest.skip(f"torch {torch.__version__} is a CPU build: it has no c10_cuda library to read the message from")
    assert any(message in library.read_bytes() for library in libraries), quoted


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "anchor",
    ["dataloader-workers-windows", "gbk-encode-errors", "torch-accelerator", "hybrid-laptop", "found-no-nvidia-driver"],
)
def test_the_sections_others_link_to_exist(page, anchor):
    # The doctor and the chooser link to these anchors (troubleshooting/#hybrid-laptop and the others).
    assert re.search(rf"^#+ .*\{{#{anchor}\}}$", page.read_text(encoding="utf-8"), re.M), anchor
