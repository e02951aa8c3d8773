"""The reader's back-end follows them (docs/javascripts/backend_tabs.js), in Chromium.

The chooser calls window.guideSelectBackend(label) with the reader's back-end; from then on set-up,
PyCharm and verification open on that back-end's tab, through Material's own linked-tabs storage.
"""

from __future__ import annotations

import pytest

from browser_support import open_built, skip_module_without_browser

skip_module_without_browser()

CHAPTERS = ("setup/", "pycharm/", "verification/")
BACKENDS = ["DirectML", "ROCm", "XPU", "CUDA", "CPU"]

# The label checked in each back-end tab set of the page (a set that has a "ROCm" tab).
CHECKED = """() => [...document.querySelectorAll('article .tabbed-set')]
  .map(set => [...set.querySelectorAll(':scope > .tabbed-labels > label')])
  .filter(labels => labels.some(l => l.innerText.trim() === 'ROCm'))
  .map(labels => labels.find(l => document.getElementById(l.htmlFor).checked).innerText.trim())"""


def checked_tabs(page, url: str) -> list[str]:
    open_built(page, url)
    return page.evaluate(CHECKED)


@pytest.mark.parametrize("edition", ["", "zh/"], ids=["en", "zh"])
def test_choosing_rocm_opens_the_rocm_tab_on_every_chapter(site, context, edition):
    _, base = site
    page = context.new_page()
    # A reader who has chosen nothing sees DirectML first: the check below is not true by default.
    assert set(checked_tabs(page, base + edition + "setup/")) == {"DirectML"}
    open_built(page, base + edition + "choose/")
    assert page.evaluate("() => window.guideSelectBackend('ROCm')") is True
    for chapter in CHAPTERS:
        checked = checked_tabs(page, base + edition + chapter)
        assert checked and set(checked) == {"ROCm"}, f"{edition}{chapter}: {checked}"
    page.close()


def test_the_choice_replaces_the_last_one_and_keeps_the_shell(site, context):
    _, base = site
    page = context.new_page()
    open_built(page, base + "verification/")
    page.locator("article .tabbed-labels label", has_text="cmd").first.click()  # the reader's shell
    assert page.evaluate("() => window.guideSelectBackend('XPU')") is True
    assert set(page.evaluate(CHECKED)) == {"XPU"}  # this page switches at once
    assert page.evaluate("() => window.guideSelectBackend('CUDA')") is True
    assert page.evaluate("() => window.guideSelectBackend('Intel XPU')") is False  # not a tab's label
    open_built(page, base + "setup/")
    assert set(page.evaluate(CHECKED)) == {"CUDA"}
    cmd = page.evaluate("""() => [...document.querySelectorAll('article .tabbed-set')]
      .map(set => [...set.querySelectorAll(':scope > .tabbed-labels > label')])
      .filter(labels => labels.some(l => l.innerText.trim() === 'cmd'))
      .map(labels => labels.find(l => document.getElementById(l.htmlFor).checked).innerText.trim())""")
    assert cmd and set(cmd) == {"cmd"}, cmd
    page.close()
