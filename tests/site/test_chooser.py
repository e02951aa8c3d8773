"""The chooser (docs/choose.md) in a browser: real adapter names in, the answers written here out.

The expected answer of each name is typed in this file, not read from docs/hooks/data/gpus.yml, so a
wrong entry in the table fails a test. Each name comes with the place it was seen.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from browser_support import skip_module_without_browser
from guide import gpu_names, gpus

skip_module_without_browser()

ROCM, XPU, DML = "AMD PyTorch on Windows (ROCm)", "PyTorch XPU", "torch-directml (this guide)"
CUDA, CPU = "PyTorch CUDA", "the CPU"
SEL = "https://github.com/AMD-Ecosystem/ai-ecosystem/blob/main/docs/frameworks/include/gpu-selector-pytorch.rst"
REL = "https://github.com/ROCm/TheRock/blob/main/RELEASES.md#supported-python-device--install-extras"
TUBA = "https://github.com/luolangaga/tubatoolsPlugin/pull/"  # Windows-reported CPU / GPU names

# (name as seen, where it was seen, the table entry the chooser must show, path on Windows 11, on Windows 10)
NAMES = [
    ("AMD Radeon RX 9070 XT", SEL, "AMD Radeon RX 9070 XT", ROCM, DML),
    ("AMD Radeon RX 9060 XT", SEL, "AMD Radeon RX 9060 XT", ROCM, DML),
    ("AMD Radeon RX 7900 XTX", SEL, "AMD Radeon RX 7900 XTX", ROCM, DML),
    ("gigabyte 7900xtx", "https://github.com/vosen/ZLUDA/issues/140", "AMD Radeon RX 7900 XTX", ROCM, DML),
    ("AMD Radeon RX 7700 XT", SEL, "AMD Radeon RX 7700 XT", ROCM, DML),
    (
        "AMD RX 7800 XT",
        "https://github.com/royshil/obs-backgroundremoval/issues/564",
        "AMD Radeon RX 7800 XT",
        ROCM,
        DML,
    ),
    (
        "AMD Radeon RX7600 XT",
        "https://github.com/ROCm/rocm-install-on-windows/pull/86",
        "AMD Radeon RX 7600 XT",
        ROCM,
        DML,
    ),
    ("AMD Radeon PRO W7800", SEL, "AMD Radeon PRO W7800", ROCM, DML),
    ("AMD Radeon 780M Graphics", TUBA + "488", "AMD Radeon 780M Graphics", ROCM, DML),
    ("AMD Radeon 780M", TUBA + "433", "AMD Radeon 780M Graphics", ROCM, DML),
    (
        "AMD Radeon(TM) 880M Graphics",
        "https://github.com/lzhoang2801/OpCore-Simplify/issues/626",
        "AMD Radeon 880M Graphics",
        ROCM,
        DML,
    ),
    ("AMD Radeon(TM) 610M", TUBA + "622", "AMD Radeon 610M", DML, DML),
    ("Radeon 680M", "https://github.com/hacksider/Deep-Live-Cam/issues/908", "AMD Radeon 680M", DML, DML),
    ("RX 6900 XT", REL, "AMD Radeon RX 6900 XT", ROCM, DML),
    (
        "AMD Radeon RX 6800",
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu/issues/477",
        "AMD Radeon RX 6800",
        ROCM,
        DML,
    ),
    ("RX 6750 XT", REL, "AMD Radeon RX 6750 XT", DML, DML),
    ("amd radeon rx 6700 xt", "https://github.com/microsoft/DirectML/issues/716", "AMD Radeon RX 6700 XT", DML, DML),
    ("6700XT", "https://github.com/microsoft/DirectML/issues/716", "AMD Radeon RX 6700 XT", DML, DML),
    (
        "RX 6600XT",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/1648",
        "AMD Radeon RX 6600 XT",
        DML,
        DML,
    ),
    ("RX 6600", REL, "AMD Radeon RX 6600", DML, DML),
    ("Radeon RX 6500 XT", "https://github.com/microsoft/DirectML/issues/235", "AMD Radeon RX 6500 XT", DML, DML),
    (
        "RX 5700 XT",
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu/issues/475",
        "AMD Radeon RX 5700 XT",
        DML,
        DML,
    ),
    (
        "Vega 64",
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu-forge/issues/104",
        "AMD Radeon RX Vega 64",
        DML,
        DML,
    ),
    ("RX580 8gb", "https://github.com/vladmandic/sdnext/issues/1047", "Radeon RX 580", DML, DML),
    ("RX570 4gb", "https://github.com/vladmandic/sdnext/issues/1047", "Radeon RX 570", DML, DML),
    ("Radeon RX 560X", "https://github.com/microsoft/DirectML/issues/716", "Radeon RX 560X", DML, DML),
    ("Radeon (TM) RX 550X", "https://github.com/microsoft/tensorflow-directml/issues/41", "Radeon RX 550X", DML, DML),
    ("Radeon RX 580 2048SP", "https://github.com/microsoft/DirectML/issues/716", "Radeon RX 580 2048SP", DML, DML),
    (
        "Intel(R) Arc(TM) Graphics",
        "https://github.com/zzc0721/torch-performance-test-data/issues/36",
        "Intel(R) Arc(TM) Graphics",
        XPU,
        DML,
    ),
    (
        "Intel arc b580 xpu",
        "https://github.com/karpathy/autoresearch/pull/355",
        "Intel(R) Arc(TM) B580 Graphics",
        XPU,
        DML,
    ),
    ("Arc A770", "https://github.com/intel/ipex-llm/issues/9768", "Intel(R) Arc(TM) A770 Graphics", XPU, DML),
    ("Iris Xe", "https://github.com/intel/ipex-llm/issues/9768", "Intel(R) Iris(R) Xe Graphics", DML, DML),
    (
        "Intel(R) UHD Graphics 620",
        "https://github.com/microsoft/tensorflow-directml/issues/41",
        "Intel(R) UHD Graphics 620",
        DML,
        DML,
    ),
    (
        "Intel(R) HD Graphics 630",
        "https://github.com/microsoft/onnxruntime/issues/14994",
        "Intel(R) Graphics",  # Kaby Lake's: the device table's, answered by the family's first row
        DML,
        DML,
    ),
    (
        "NVIDIA GeForce GTX 1050",
        "https://github.com/microsoft/onnxruntime/issues/14994",
        "NVIDIA GeForce GTX 1080",  # compute capability 6.1, as the device table gives it
        CUDA,
        CUDA,
    ),
    # The 2026 GPUs the chooser missed (issue 31)
    ("AMD Radeon AI PRO R9700", SEL, "AMD Radeon AI PRO R9700", ROCM, DML),
    (
        "AMD Radeon(TM) 8065S Graphics",
        "https://github.com/unslothai/unsloth/pull/7290",
        "AMD Radeon 8065S Graphics",
        ROCM,
        DML,
    ),
    (
        "AMD Radeon RX 7650 GRE",
        "https://github.com/unslothai/unsloth/blob/main/install.ps1",
        "AMD Radeon RX 7650 GRE",
        ROCM,
        DML,
    ),
    (
        "AMD Radeon RX 6750 GRE 10GB",
        "https://llvm.org/docs/AMDGPUUsage.html#processors",
        "AMD Radeon RX 6750 GRE",
        DML,
        DML,
    ),
    (
        "Intel(R) Arc(TM) Pro B60 Graphics",
        "https://github.com/wildersa/ComfyUI-Intel-Arc-XPU/releases",
        "Intel(R) Arc(TM) Pro B60 Graphics",
        XPU,
        DML,
    ),
    (
        "Intel(R) Arc(TM) B390 GPU",
        "https://docs.pytorch.org/docs/stable/notes/get_start_xpu.html",
        "Intel(R) Arc(TM) B390 GPU",
        XPU,
        DML,
    ),
    ("AMD Radeon RX 9070", SEL, "AMD Radeon RX 9070", ROCM, DML),
    (
        "AMD Radeon PRO W6800",
        "https://github.com/AMD-Ecosystem/ai-ecosystem/blob/main/docs/frameworks/pytorch/include/rocm7.14.1-pip-install.rst",
        "AMD Radeon PRO W6800",
        ROCM,
        DML,
    ),
    ("AMD Radeon RX 7900 XT", SEL, "AMD Radeon RX 7900 XT", ROCM, DML),
    ("AMD Radeon RX 7600", SEL, "AMD Radeon RX 7600", ROCM, DML),
    ("RX 6800 XT", REL, "AMD Radeon RX 6800 XT", ROCM, DML),
    ("RX 6700 XT", REL, "AMD Radeon RX 6700 XT", DML, DML),
    ("Radeon RX 570 Series", "https://github.com/vladmandic/sdnext/issues/1047", "Radeon RX 570", DML, DML),
]


@pytest.fixture(scope="module")
def page(site, browser):
    _, base = site
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "choose/")
    page.wait_for_function("window.guideChooserReady === true")  # match.js's table is fetched
    yield page
    context.close()


def answer_for(page, name: str, win: str = "11") -> str:
    page.check(f"input[name=win][value='{win}']")
    page.fill("#chooser-gpu", name)
    return page.locator("#chooser-answer").inner_text()


def test_at_least_40_real_names():
    assert len(NAMES) >= 40 and all(source.startswith("https://") for _, source, *_ in NAMES)


@pytest.mark.parametrize("name, source, entry, path11, path10", NAMES, ids=[n[0] for n in NAMES])
def test_the_chooser_answers_each_real_name(page, name, source, entry, path11, path10):
    text = answer_for(page, name, "11")
    if " in the vendors' tables: its answer is the " in text.split("\n", 1)[0]:
        text = text.split("\n", 1)[1].lstrip()  # a device of the vendors' tables: its family's answer follows
    assert text.startswith(entry + " \u2014"), f"{name!r} (seen at {source}) shows {text[:80]!r}"
    assert f"Your path on Windows 11: {path11}." in text, text
    assert f"Your path on Windows 10: {path10}." in answer_for(page, name, "10")


@pytest.mark.parametrize(
    "name, says, choice, answer",
    [
        # every Ryzen's iGPU may say this (tubatoolsPlugin#622)
        ("AMD Radeon(TM) Graphics", "dxdiag", "AMD Radeon 780M Graphics", ""),
        # AMD names two chips' iGPU "840M": gfx1152 and gfx1153 (its ROCm 10.0 notes; GPUOpen device_info), as
        # unslothai/unsloth's install.ps1 saw it
        ("AMD Radeon(TM) 840M Graphics", "Ryzen AI 5 435", "AMD Radeon 840M Graphics (gfx1153)", "device-gfx1153"),
    ],
)
def test_an_ambiguous_name_asks_which_processor(page, name, says, choice, answer):
    text = answer_for(page, name)
    assert "Which processor is it?" in text and "doctor.py" in text and says in text, text
    with page.expect_navigation():
        page.get_by_role("link", name=choice).click()
    page.wait_for_function("window.guideChooserReady === true")  # the new page's table
    text = page.locator("#chooser-answer").inner_text()
    assert f"Your path on Windows 11: {ROCM}." in text and answer in text, text


def test_the_url_round_trips(site, browser):
    _, base = site
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "choose/")
    page.fill("#chooser-gpu", "AMD Radeon RX 9070 XT")
    page.check("input[name=win][value='11']")
    page.select_option("#chooser-py", "3.13")
    query = parse_qs(urlsplit(page.url).query)
    assert query == {"gpu": ["AMD Radeon RX 9070 XT"], "win": ["11"], "py": ["3.13"]}
    # the readers' runs box fills after a fetch (chooser_runs.js): read each answer once it has
    page.wait_for_selector("#chooser-runs strong")
    first = page.locator("#chooser-answer").inner_text()
    shared = context.new_page()
    shared.goto(page.url)
    assert shared.input_value("#chooser-gpu") == "AMD Radeon RX 9070 XT"
    assert shared.input_value("#chooser-py") == "3.13"
    shared.wait_for_selector("#chooser-runs strong")
    assert shared.locator("#chooser-answer").inner_text() == first
    # Python 3.13 and torch-directml, the fallback: the answer says so
    assert "needs Python 3.8 \u2013 3.12; yours is 3.13" in first
    context.close()


@pytest.mark.parametrize("edition", ["", "zh/"])
def test_without_javascript_a_phone_reaches_every_gpu(site, browser, edition):
    _, base = site
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(base + edition + "choose/?gpu=6700XT")
    assert not page.locator("#chooser").is_visible()
    # Entries off screen are not laid out (content-visibility, extra.css) but their text is there: the
    # browser's find (Ctrl+F) reaches it, and scrolls the entry into view.
    entries = page.locator(".gpu-table li").evaluate_all("els => els.map(e => e.textContent)")
    assert sum(e.startswith("AMD Radeon RX 6700 XT") for e in entries) == 1 and len(entries) > 100
    # One entry per GPU, wrapped to the screen: nothing cut off at 390 px (the table was 6 columns wide)
    opening = "（" if edition == "zh/" else " ("  # the aliases' bracket, full-width in Chinese
    entry = page.locator(".gpu-table li", has_text="AMD Radeon RX 6700 XT" + opening)
    entry.scroll_into_view_if_needed()
    box = entry.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # Nothing of the page's text runs past the screen (code blocks scroll inside themselves; Material's language
    # menu, open without JavaScript, is not the page's)
    wide = page.evaluate("""() => [...document.querySelectorAll('article *')].filter(e => !e.closest('pre')
        && e.getBoundingClientRect().right > 391).map(e => e.tagName + ' ' + e.textContent.slice(0, 40))""")
    assert wide == []
    # Each entry links its path's commands on this page, which show without JavaScript
    href = page.locator(".gpu-table li", has_text=f"AMD Radeon RX 7900 XTX{opening}").locator(
        "a[href='#path-rocm-gfx1100']"
    )
    assert href.count() == 1 and page.locator("#path-rocm-gfx1100").is_visible()
    assert page.locator(".chooser-path").count() == 5 and page.locator(".chooser-path:visible").count() == 5
    # At the top, where the answer would be, the page says where the answer is
    assert page.locator(".chooser-nojs a[href='#every-gpu']").is_visible()
    context.close()


def test_the_chinese_edition_answers_in_chinese(site, browser):
    _, base = site
    context = browser.new_context()
    page = context.new_page()
    # Each answer once match.js's table has come (the chooser fetches it after the page loads).
    page.goto(base + "zh/choose/?gpu=AMD+Radeon+RX+9070+XT&win=11")
    page.wait_for_function("window.guideChooserReady === true")
    text = page.locator("#chooser-answer").inner_text()
    assert "Windows 11 上的路线：AMD 的 Windows 版 PyTorch（ROCm）" in text
    page.goto(base + "zh/choose/?gpu=RX+6600&win=10")
    page.wait_for_function("window.guideChooserReady === true")
    assert "Windows 10 上的路线：torch-directml（本指南）" in page.locator("#chooser-answer").inner_text()
    context.close()


def test_the_home_page_starts_with_the_choice(site, browser):
    _, base = site
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    for edition in ("", "zh/"):
        page.goto(base + edition)
        first = page.locator("article.md-content__inner > :not(h1):not(a)").first
        assert first.evaluate("e => e.tagName") == "FORM"
        page.fill("#home-gpu", "6700XT")
        with page.expect_navigation():
            page.locator(".home-chooser button").click()
        assert urlsplit(page.url).path.endswith(edition + "choose/") and "gpu=6700XT" in page.url
    context.close()


def _typed_variants() -> list[str]:
    """Names a reader may type for every row: each name and alias, in lower case without (TM)/(R), with a
    memory size after it, without spaces, with its model number made longer, and the names this file names."""
    names = list(dict.fromkeys(n for n, *_ in NAMES))
    for gpu in gpus.load():
        for name in (gpu.name, *gpu.aliases):
            bare = name.replace("(TM)", "").replace("(R)", "")
            names += [name, bare.lower(), name + " 8GB", bare.replace(" ", "")]
            number = re.search(r"(?<![0-9])[0-9]{2,4}(?![0-9])", name)
            if number:
                n = number.group(0)
                names += [name.replace(n, "6" + n, 1), name.replace(n, n + "0", 1)]
    names += ["AMD Radeon RX 6550M", "NVIDIA Foo 9999", "Intel(R) Foo 9999 Graphics", "7900", "790", "RTX 2080 Ti"]
    return list(dict.fromkeys(names))


def test_the_page_reads_a_name_as_python_does(page):
    """The page's chooser and Python (guide/gpu_names.py, through match_cli.js in Node) give the same answer for
    every name of the table and its variants (over 1,000 names): both run match.js, on one joined table."""
    names = _typed_variants()
    shown = page.evaluate("names => names.map(n => window.guideChooserMatch(n))", names)
    built = gpu_names.answers(names)
    wrong = [
        f"{name!r}: page {got}, Python {built[name]}"
        for name, got in zip(names, shown, strict=True)
        if got != ([built[name].guide] if built[name].status == "one" else list(built[name].choices))
    ]
    assert len(names) > 1000 and wrong == []


@pytest.mark.parametrize(
    "name, device, target, entry, path11",
    [
        # Laptop GPUs that the guide has no row for, answered by their chip's family through the device table
        ("AMD Radeon RX 7900M", "AMD Radeon RX 7900M", "gfx1100", "AMD Radeon RX 7900 XTX", ROCM),
        ("AMD Radeon RX 6800M", "AMD Radeon RX 6800M", "gfx1031", "AMD Radeon RX 6750 XT", DML),
        ("NVIDIA GeForce MX450", "NVIDIA GeForce MX450", "sm_75", "NVIDIA GeForce RTX 20 series", CUDA),
    ],
)
def test_a_device_of_the_vendors_tables_gets_its_familys_answer(page, name, device, target, entry, path11):
    text = answer_for(page, name)
    assert text.startswith(f"{device} ({target}) has the same "), text[:160]
    assert f"of the {entry} in the vendors' tables" in text.split("\n", 1)[0], text[:160]
    assert f"Your path on Windows 11: {path11}." in text, text


@pytest.mark.parametrize("name", ["Matrox G200", "NVIDIA Foo 9999"])
def test_a_name_of_no_row_is_unknown_on_the_page(page, name):
    text = answer_for(page, name)
    assert text.startswith("No GPU of the table matches \u201c" + name + "\u201d") and "gfx803" not in text, text
    assert "dxdiag" in text, text  # how to find out
