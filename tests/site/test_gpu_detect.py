"""The GPU the browser names, proposed on the home page and on choose/ (docs/javascripts/gpu/propose.js and
gpu/detect.js), in Chromium with WebGL's renderer string and WebGPU's adapter stubbed by real ones.

Each renderer string was seen on a real Windows machine and is quoted from the page next to it. How each string
is read (name, vendor, device ID; masked and software renderers) is tests/js/gpu_detect.test.js's, on every
string; here, one of each kind through the page: a name with its table entry, one without, one with its ID. The proposal and the table entry each must lead to are typed
here. A masked or software renderer must ask, never propose; the reader can always refuse.
"""

from __future__ import annotations

import json
import re

import pytest

from browser_support import COLOUR_RULES, axe_violations, open_built, skip_module_without_browser

skip_module_without_browser()

# (renderer, where it was seen, the name proposed, the chooser's table entry once the reader uses it, the PCI
# device ID the page reads from it)
FOUND = [
    (
        "ANGLE (Radeon RX 580 Series Direct3D11 vs_5_0 ps_5_0)",
        "https://github.com/pmndrs/detect-gpu/blob/aaae5b5af0240c45b8d51f9a9d8ddea160509f98/test/data.ts",
        "Radeon RX 580 Series",
        "Radeon RX 580",
        None,
    ),
    (
        "ANGLE (Intel, Intel(R) HD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)",
        "https://github.com/iTwin/itwinjs-core/pull/2673",
        "Intel(R) HD Graphics 620",
        None,  # read by the chooser as it reads a typed name; its row is the chooser tests' concern
        None,
    ),
    (
        "ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Laptop GPU (0x00002520) Direct3D11 vs_5_0 ps_5_0, D3D11)",
        "https://github.com/pmndrs/detect-gpu/issues/121",
        "NVIDIA GeForce RTX 3060 Laptop GPU",
        None,
        "2520",
    ),
]
MASKED = "ANGLE (NVIDIA, NVIDIA GeForce GTX 980 Direct3D11 vs_5_0 ps_5_0), or similar"  # Firefox 92+ (gecko-dev's
# dom/canvas/test/webgl-mochitest/test_renderer_strings.html)
SOFTWARE = "ANGLE (Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)"  # pmndrs/detect-gpu test/data.ts
# What this Chromium itself reports without a GPU: no stub at all.
NVIDIA_WEBGPU = {"vendor": "nvidia", "architecture": "ampere", "device": "", "description": ""}

STUB = """
(() => {
  const RENDERER = %s, ADAPTERS = %s;
  const getParameter = WebGLRenderingContext.prototype.getParameter;
  WebGLRenderingContext.prototype.getParameter = function (p) {
    return p === 0x9246 && RENDERER !== null ? RENDERER : getParameter.call(this, p);
  };
  // An adapter takes a moment to come, as a real one does: the page's other scripts have run by then.
  const later = (value) => new Promise((resolve) => setTimeout(() => resolve(value), 50));
  const gpu = { requestAdapter: ({ powerPreference }) => later(ADAPTERS[powerPreference] ? { info: ADAPTERS[powerPreference] } : null) };
  Object.defineProperty(Navigator.prototype, "gpu", { get: () => gpu, configurable: true });
})();
"""


@pytest.fixture
def opened(site, browser):
    """opened(url, renderer, adapters): the page at url in a fresh context whose browser reports renderer
    (None: this Chromium's own) and the WebGPU adapters {powerPreference: info}."""
    _, base = site
    contexts = []

    def open_page(url: str, renderer: str | None, adapters: dict | None = None):
        context = browser.new_context()
        contexts.append(context)
        context.add_init_script(script=STUB % (json.dumps(renderer), json.dumps(adapters or {})))
        page = context.new_page()
        open_built(page, base + url)
        return page

    yield open_page
    for context in contexts:
        context.close()


def box_text(page, field: str) -> str:
    page.wait_for_function(f"document.getElementById('{field}-detect').textContent !== ''")
    return page.locator(f"#{field}-detect").inner_text()


@pytest.mark.parametrize("renderer, source, name, entry, device_id", FOUND, ids=[f[2] for f in FOUND])
def test_a_real_renderer_is_proposed_and_used_only_when_the_reader_says_so(
    opened, renderer, source, name, entry, device_id
):
    page = opened("choose/", renderer)
    text = box_text(page, "chooser-gpu")
    assert f"Detected: {name} \u2014 is this your GPU?" in text, f"{renderer!r} (seen at {source}): {text!r}"
    assert page.input_value("#chooser-gpu") == "" and page.locator("#chooser-answer").inner_text() == ""
    page.evaluate("""() => document.getElementById('chooser-gpu').addEventListener('guide:gpu-detected',
        (e) => { window.usedReading = e.detail; })""")
    page.get_by_role("button", name="Use it").click()
    assert page.input_value("#chooser-gpu") == name
    used = page.evaluate("window.usedReading")
    assert used["name"] == name and used["deviceId"] == device_id, used
    answer = page.locator("#chooser-answer").inner_text()
    assert answer, "the chooser answers the name it was given"
    if entry:
        assert answer.startswith(entry + " \u2014"), answer[:80]
    assert page.locator("#chooser-gpu-detect").inner_text() == ""


def test_the_reader_can_refuse(opened):
    page = opened("choose/", FOUND[0][0])
    box_text(page, "chooser-gpu")
    page.get_by_role("button", name="No, type it").click()
    assert page.locator("#chooser-gpu-detect").inner_text() == ""
    assert page.input_value("#chooser-gpu") == "" and page.locator("#chooser-answer").inner_text() == ""
    assert page.evaluate("document.activeElement.id") == "chooser-gpu"
    box = page.locator("#chooser-gpu-detect")  # a screen reader hears the proposal as it comes
    assert box.get_attribute("aria-live") == "polite" and box.get_attribute("role") == "status"


@pytest.mark.parametrize(
    "url, renderer, adapters, says",
    [
        ("choose/", MASKED, None, "Your browser does not say which GPU this is"),
        ("choose/", SOFTWARE, None, "a software renderer, Microsoft Basic Render Driver"),
        ("choose/", None, None, "a software renderer, SwiftShader Device (Subzero)"),  # this machine's Chromium, no GPU
        # WebGL masked, WebGPU names only the vendor
        ("choose/", MASKED, {"high-performance": NVIDIA_WEBGPU}, "names only the vendor (NVIDIA ampere)"),
        ("zh/choose/", SOFTWARE, None, "软件渲染器 Microsoft Basic Render Driver"),
    ],
    ids=["firefox-stand-in", "warp", "this-chromium", "webgpu-vendor", "zh-warp"],
)
def test_a_hidden_gpu_is_asked_for_never_guessed(opened, url, renderer, adapters, says):
    page = opened(url, renderer, adapters)
    text = box_text(page, "chooser-gpu")
    assert says in text and ("任务管理器" if url.startswith("zh/") else "Task Manager") in text, text
    assert page.get_by_role("button", name=re.compile("Use it|就用它")).count() == 0
    assert page.input_value("#chooser-gpu") == ""


def test_a_hybrid_laptop_is_asked_which_gpu(opened):
    # WebGL names the Intel iGPU while an NVIDIA GPU sits unused, as Chrome did on the laptop of
    # rawprogress/fable-cities#1; here WebGPU's high-performance adapter is that NVIDIA GPU, unnamed
    page = opened("choose/", FOUND[1][0], {"high-performance": NVIDIA_WEBGPU})
    text = box_text(page, "chooser-gpu")
    assert "sees more than one GPU: Intel(R) HD Graphics 620; NVIDIA ampere GPU, name not given" in text, text
    assert page.input_value("#chooser-gpu") == ""


def test_a_shared_link_is_not_overridden(opened):
    page = opened("choose/?gpu=6700XT", FOUND[0][0])
    page.wait_for_timeout(500)
    assert page.locator("#chooser-gpu-detect").inner_text() == ""
    assert page.input_value("#chooser-gpu") == "6700XT"


@pytest.mark.parametrize("edition, detected, use", [("", "Detected:", "Use it"), ("zh/", "检测到：", "就用它")])
def test_the_home_page_proposes_in_its_language(opened, edition, detected, use):
    page = opened(edition, FOUND[2][0])
    text = box_text(page, "home-gpu")
    assert text.startswith(detected) and "NVIDIA GeForce RTX 3060 Laptop GPU" in text, text
    page.get_by_role("button", name=use).click()
    assert page.input_value("#home-gpu") == "NVIDIA GeForce RTX 3060 Laptop GPU"
    assert page.evaluate("document.activeElement.id") == "home-gpu"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_in_the_proposal(opened, scheme):
    """The proposal with its buttons, as the reader sees it, on both pages (the whole site's axe run in
    tests/site/test_site_browser.py sees the box only as this machine's software renderer leaves it)."""
    report = []
    for url, field in [("choose/", "chooser-gpu"), ("zh/", "home-gpu")]:
        page = opened(url, FOUND[1][0], {"high-performance": NVIDIA_WEBGPU})
        page.emulate_media(color_scheme=scheme)
        box_text(page, field)
        report += axe_violations(page, f"{url} [{scheme}]", None if scheme == "light" else COLOUR_RULES)
    assert not report, "\n".join(report)
