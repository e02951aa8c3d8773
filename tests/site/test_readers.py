"""Readers with the GPUs, Windows and Pythons this guide is for (an RX 7900 XTX on Python 3.13, an Arc, an RX 580
on Windows 10, a 780M laptop, an RX 6700 XT in China, a GTX 1080, a UHD 620), through the
chooser.

Each reader opens the chooser with their GPU's name, Windows and Python, at 1280 and 390 px, in both editions.
Each time: the first command to run is within one screen of the answer's top; every command shown is the one
guide/recipes.py builds for that reader; and what the reader needs is typed here, not read from the data
(py -3.13 for a 3.13 reader on ROCm, gfx1103 in both brackets for the 780M, a CUDA build with Pascal
kernels for a GTX 1080), so a wrong row or a wrong rule fails here too.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path
from urllib.parse import urlencode

import pytest

from browser_support import skip_module_without_browser
from guide import gpu_names, recipes
from guide_harness import DOCS

skip_module_without_browser()

AMD_DRIVER = "https://www.amd.com/en/support/download/drivers.html"
INTEL_DRIVER = "https://www.intel.com/content/www/us/en/download/785597/intel-arc-iris-xe-graphics-windows.html"
# Intel's driver for 7th-10th gen graphics: its Arc & Iris Xe package does not cover them: a reader sent to it finds no driver for their GPU
INTEL_7TH_10TH = (
    "https://www.intel.com/content/www/us/en/download/776137/intel-7th-10th-gen-processor-graphics-windows.html"
)
NVIDIA_DRIVER = "https://www.nvidia.com/en-us/drivers/"
NVIDIA_COMPATIBILITY = "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html"

# (reader, name as typed, Windows, Python, tab label, what the commands must say, the driver page)
READERS = [
    (
        "r1 RX 7900 XTX, Python 3.13",
        "AMD Radeon RX 7900 XTX",
        "11",
        "3.13",
        "ROCm",
        [
            "py -3.13 -m venv .venv",
            '"torch[device-gfx1100]==2.14.0+rocm10.1.0"',
            '"torchvision[device-gfx1100]==0.29.0a0+rocm10.1.0"',
        ],
        AMD_DRIVER,
    ),
    (
        "r2a Arc A770",
        "Intel(R) Arc(TM) A770 Graphics",
        "11",
        "3.12",
        "XPU",
        ["py -3.12 -m venv .venv", "--index-url https://download.pytorch.org/whl/xpu"],
        INTEL_DRIVER,
    ),
    (
        "r3 RX 580, Windows 10",
        "Radeon RX 580 Series",
        "10",
        "3.12",
        "DirectML",
        ["py -3.12 -m venv .venv", "python -m pip install torch-directml"],
        AMD_DRIVER,
    ),
    (
        "r4 Ryzen 7840U, 780M",
        "AMD Radeon(TM) 780M",
        "11",
        "3.12",
        "ROCm",
        ['"torch[device-gfx1103]==', '"torchvision[device-gfx1103]=='],
        AMD_DRIVER,
    ),
    (
        "r5 RX 6700 XT, China",
        "AMD Radeon RX 6700 XT",
        "11",
        "3.12",
        "DirectML",
        ["python -m pip install torch-directml"],
        AMD_DRIVER,
    ),
    (
        "GTX 1080, Pascal",
        "NVIDIA GeForce GTX 1080",
        "11",
        "3.12",
        "CUDA",
        ["--index-url https://download.pytorch.org/whl/cu126"],
        NVIDIA_DRIVER,
    ),
    (
        "RX 7900 XTX, Windows 10, Python 3.13",
        "AMD Radeon RX 7900 XTX",
        "10",
        "3.13",
        "DirectML",
        ["py -3.12 -m venv .venv", "python -m pip install torch-directml"],
        AMD_DRIVER,
    ),
    ("Arc B390, no Python yet", "Intel(R) Arc(TM) B390 GPU", "11", "", "XPU", ["py -3.12 -m venv .venv"], INTEL_DRIVER),
    (
        "UHD 620, Windows 10",
        "Intel(R) UHD Graphics 620",
        "10",
        "3.12",
        "DirectML",
        ["python -m pip install torch-directml", "python verify_directml.py\n"],
        INTEL_7TH_10TH,
    ),
]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
# Stands in for docs/javascripts/backend_tabs.js (the chapters' script): records the label it is given.
RECORD_TAB = (
    # The chooser answers once its table is fetched, after backend_tabs.js has set its own guideSelectBackend:
    # the stand-in keeps its place (a setter that ignores the real script's).
    "window.__tabs = []; Object.defineProperty(window, 'guideSelectBackend', "
    "{get: () => (label) => window.__tabs.push(label), set: () => {}});"
    "window.__answers = []; document.addEventListener('chooser:answer', (e) => window.__answers.push(e.detail));"
)


def expected_commands(name: str, win: str, py: str, zh: bool) -> list[str]:
    gpu = gpu_names.answer(name).gpu()
    made = recipes.recipe(gpu, win, py or None)
    mirror = [made.mirror] if zh and made.mirror else []
    return [made.venv["powershell"], made.venv["cmd"], made.install, *mirror, "\n".join(made.checks)]


@pytest.fixture(
    scope="module",
    params=[(v, e) for v in VIEWPORTS for e in ("", "zh/")],
    ids=lambda p: f"{p[0]}-{p[1].strip('/') or 'en'}",
)
def reader_page(request, site, browser):
    viewport, edition = request.param
    phone = viewport == "phone"
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        is_mobile=phone,
        has_touch=phone,
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.add_init_script(RECORD_TAB)
    page = context.new_page()
    yield page, site[1] + edition, VIEWPORTS[viewport]["height"], bool(edition)
    context.close()


@pytest.mark.parametrize("reader, name, win, py, tab, needs, driver", READERS, ids=[r[0] for r in READERS])
def test_each_reader_gets_their_own_recipe_at_the_answer(reader_page, reader, name, win, py, tab, needs, driver):
    page, base, height, zh = reader_page
    page.goto(base + "choose/?" + urlencode({k: v for k, v in {"gpu": name, "win": win, "py": py}.items() if v}))
    recipe = page.locator("#chooser-recipe")
    recipe.wait_for()
    shown = recipe.locator(".chooser-code pre > code").evaluate_all("els => els.map(e => e.textContent)")
    # Every command, in order, is the one built for this GPU, Windows and Python
    assert shown == expected_commands(name, win, py, zh), reader
    joined = "\n".join(shown)
    for need in needs:
        assert need in joined, f"{reader}: {need!r} not in the commands shown"
    if "[device-" in joined:  # both brackets name the GPU's own target
        assert len(set(re.findall(r"\[device-(\w+)\]", joined))) == 1
    # The first command to run is within one screen of the answer's top
    top = page.locator("#chooser-answer").evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    first = recipe.locator(".chooser-code").first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    assert 0 < first - top < height, f"{reader}: the first command is {first - top:.0f} px below the answer"
    # ... and wraps to the screen: the gfx target of a long pip line is not off to the right
    install = recipe.locator(".chooser-code pre").nth(2)
    assert install.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"{reader}: the install line scrolls"
    # The driver's page, the scripts, the checks and the troubleshooting group are linked, in that order
    links = recipe.locator("a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert links[0] == driver
    # ... with its source and the date it was read there; and the route for blocked downloads (set-up's mirrors)
    said = recipe.locator("li").first.inner_text()
    assert re.search(r"(checked|核对于) 20\d\d-\d\d-\d\d", said), said
    assert any(h.endswith("setup/#china-mirrors") for h in links), links
    if driver == NVIDIA_DRIVER:  # a number no NVIDIA page read here gives for Windows says where it is from
        said = recipe.locator("li").first.inner_text()
        assert ("528.33" in said) == ("cu126" in joined), said
        assert ("528.33" not in said) or NVIDIA_COMPATIBILITY in links, links
    assert any(h.endswith("guide-scripts.zip") for h in links)
    for target in (
        "verification/#start-with-the-doctor",
        "verification/#check-training-too",
        "mnist-training/",
        "troubleshooting/#",
    ):
        assert any(target in h for h in links), f"{reader}: no link to {target}"
    # Later pages open on this reader's tab; the runs of readers have their place in the answer
    assert page.evaluate("window.__tabs.at(-1)") == tab
    assert page.locator("#chooser-answer #chooser-runs").count() == 1
    assert page.locator("#chooser-answer a[href*='setup/#other-back-ends']").count() == 1  # every step in detail
    assert page.evaluate("window.__answers.at(-1)") == {
        "gpu": gpu_names.answer(name).gpu().name,
        "win": win,
        "py": py,
        "path": gpu_names.answer(name).gpu().path[win],
    }
    # A Windows 10 reader learns, at the answer, that it is out of support (it was 28,000 px down the page)
    assert page.locator("#chooser-answer a[href='#windows-10']").count() == (win == "10")
    if zh and "torch-directml" in joined:  # the Chinese edition: the mirror form at the install step
        assert "-i https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple" in joined
    # The install line's copy button copies it whole, the GPU's target with it
    recipe.locator(".chooser-code button").nth(2).click()
    assert page.evaluate("navigator.clipboard.readText()").strip() == shown[2].strip(), reader


# `python NAME.py` on a page where NAME.py is not a reader's script: the project's own tools, and the
# troubleshooting page's stand-in for "your script".
NOT_READERS = {"script.py"}


def test_the_zip_holds_every_script_a_page_tells_the_reader_to_run(built_site):
    """Each `python NAME.py` of every page is in guide-scripts.zip, at its top (no folder around the scripts)."""
    told, shown = set(), set()
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        told |= set(re.findall(r"\bpython ([a-z_]+\.py)\b", text))
        # a troubleshooting example the page shows whole, to save from the page (title="NAME.py" over its include)
        shown |= set(re.findall(r'title="([a-z_]+\.py)"\n--8<-- "snippets/troubleshooting/\1"', text))
    names = set(zipfile.ZipFile(built_site.path / "guide-scripts.zip").namelist())
    assert {"doctor.py", "verify_directml.py", "report.py", "train_mnist.py"} <= told
    assert sorted(told - NOT_READERS - shown - names) == []
    assert all("/" not in n for n in names), sorted(names)


def _stand_in_mnist(fashion_root: Path, project: Path) -> None:
    """MNIST for a machine that cannot reach MNIST's servers: Fashion-MNIST's four files under MNIST's file names
    (data/MNIST/raw; the same IDX format and sizes, which the scripts check), so that the answer's `--download`
    finds them there and downloads nothing. Each label is moved on by one class: Fashion-MNIST's own label files
    under MNIST are refused by their checksums (mnist_data.py), as a reader's mix-up would be."""
    raw = project / "data" / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for source in (fashion_root / "FashionMNIST" / "raw").glob("*-ubyte"):
        data = source.read_bytes()
        if "labels" in source.name:
            data = data[:8] + bytes((label + 1) % 10 for label in data[8:])
        (raw / source.name).write_bytes(data)


# (GPU, Windows, Python): a DirectML reader, whose DirectML check runs only where torch-directml is, and a ROCm
# reader, whose answer runs the checks with the CPU fallback, as on any back-end but DirectML. Their answers
# share every command but the DirectML check's; each distinct command runs once (the training epoch is most of
# the test's minutes), each in the project folder of the first answer that gives it.
RUN_READERS = [("Intel(R) UHD Graphics 620", "10", "3.12"), ("AMD Radeon RX 9070 XT", "11", "3.14")]


def _answer(site, browser, name: str, win: str, py: str) -> tuple[list[str], str, list[str]]:
    """The answer's steps, its zip's link and its commands, as the chooser shows them."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site[1] + "choose/?" + urlencode({"gpu": name, "win": win, "py": py}))
    recipe = page.locator("#chooser-recipe")
    recipe.wait_for()
    steps = recipe.locator(":scope > li").evaluate_all("els => els.map(e => e.innerText)")
    href = recipe.locator("a[href$='guide-scripts.zip']").evaluate("a => a.href")
    commands = recipe.locator(".chooser-code pre > code").last.inner_text().splitlines()
    context.close()
    return steps, href, commands


def test_the_answers_run_as_written(site, browser, tmp_path, fashion_mnist_root):
    """Each answer's zip, downloaded from its link, unpacked as the answer says into a fresh project folder; then
    the answer's commands, in its order, with this environment's Python standing in for the reader's .venv."""
    ran, not_here = set(), []
    for number, (name, win, py) in enumerate(RUN_READERS):
        steps, href, commands = _answer(site, browser, name, win, py)
        # Set-up's order: driver, environment, install, scripts, then the checks
        assert [i for i, s in enumerate(steps) if "guide-scripts.zip" in s] == [3], (name, steps)
        assert "Unpack it into the project folder, so that doctor.py sits beside .venv" in steps[3], name
        project = tmp_path / str(number) / "dml-guide"
        project.mkdir(parents=True)
        with urllib.request.urlopen(href) as response:
            zipfile.ZipFile(io.BytesIO(response.read())).extractall(project)
        assert [c.split()[:2] for c in commands][:1] == [["python", "doctor.py"]], name
        assert all((project / c.split()[1]).is_file() for c in commands), (name, commands)
        _stand_in_mnist(fashion_mnist_root, project)
        for command in commands:
            words = command.split()
            if command in ran:
                continue
            if words[1] == "verify_directml.py" and "--allow-fallback" not in words:
                if importlib.util.find_spec("torch_directml") is None:
                    not_here.append(command)
                    continue
            done = subprocess.run(
                [sys.executable, *words[1:]], cwd=project, capture_output=True, text=True, timeout=600,
                env={k: v for k, v in os.environ.items() if k != "TORCH_DEVICE"},
            )  # fmt: skip
            output = f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
            assert done.returncode == 0, f"{name}: {command}: exit {done.returncode}\n{output}"
            ran.add(command)
            if words[1] == "train_mnist.py":
                assert (project / "checkpoints" / "lenet-mnist.pt").is_file(), name
    assert any(c.startswith("python train_mnist.py") for c in ran), ran
    # Without torch-directml, only the DirectML reader's DirectML check is left: its run on a DirectML adapter
    # is tests/snippets/test_verify_directml.py's (marked directml, required on the GPU runner).
    assert not_here in ([], ["python verify_directml.py"]), not_here
