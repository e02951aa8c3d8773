"""Every answer of the chooser (guide/recipes.py's table(): each GPU of gpus.yml x Windows 10 / 11 x each Python
the chooser offers, and none) fits the data: one test per property over the whole table, listing every failure.

The rules here are restated from the vendors' data (docs/hooks/data/vendor_index.yml) and the GPU's own row,
not from guide/recipes.py: a wrong row (a gfx target AMD ships no Windows build for, a compute capability the
chosen CUDA build has no kernels for) or a wrong rule (a Python outside the path's range, cu130 for a Pascal
card) turns a property red. The table is computed once, in this process; the page ships exactly it
(test_the_page_ships_the_table).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from guide import DOCS, gpu_pages, gpus, recipes

DATA = recipes.vendor_index()
AMD = DATA["published"]["amd-rocm"]
# AMD's lines, newest first: ROCm 10.1, then the stable 7.14.1 one (torch 2.12) for a target 10.1 dropped.
AMD_LINES = [DATA["published"][DATA["commands"][name]["published"]] for name in ("rocm", "rocm-7.14")]
CUDA_ARCHS = DATA["published"]["pytorch-cuda"]["architectures"]
AMD_PYTHONS = DATA["published"]["amd-python"]["pythons"]
ROWS = {g.name: g for g in gpus.load()}


def _minor(v: str) -> int:
    return int(v.split(".")[1])


def _range(backend: str) -> tuple[str, str]:
    return gpus.BACKENDS[backend]["python"] or gpus.BACKENDS["cpu"]["python"]


# Each property: what is wrong with one answer (None: nothing). gpu is the row, made the recipe.
def back_end(gpu, made):
    if made.backend != gpu.path[made.windows] or made.fallback != gpu.fallback[made.windows]:
        return f"back-end {made.backend} / {made.fallback}, the row says {gpu.path[made.windows]} / {gpu.fallback[made.windows]}"
    if made.windows not in gpus.BACKENDS[made.backend]["windows"]:
        return f"{made.backend} does not run on Windows {made.windows}"


def python_in_range(gpu, made):
    low, high = _range(made.backend)
    if not _minor(low) <= _minor(made.python) <= _minor(high):
        return f"Python {made.python} outside {made.backend}'s {low}-{high}"
    if made.backend == "rocm" and made.python not in AMD_PYTHONS:
        return f"Python {made.python} is not one AMD's install page offers ({AMD_PYTHONS})"


NEWEST_FOR_PYTHON = DATA["published"]["pypi-torch"]["newest_for_python"]  # measured on the Python package index


def pytorch_index_python_gets_the_newest_torch(gpu, made):
    """PyTorch's own indexes (XPU, CUDA, CPU): the environment's Python has wheels of the newest torch, so the
    unpinned XPU and CUDA commands do not quietly install an older one (Python 3.10 stops at torch 2.14)."""
    if made.backend not in {"xpu", "cuda", "cpu"}:
        return None
    newest = max(NEWEST_FOR_PYTHON.values(), key=lambda v: tuple(map(int, v.split("."))))
    if NEWEST_FOR_PYTHON.get(made.python) != newest:
        return f"Python {made.python} gets torch {NEWEST_FOR_PYTHON.get(made.python, '(not measured)')}, not {newest}"


def readers_python_kept(gpu, made):
    low, high = _range(made.backend)
    if made.asked and _minor(low) <= _minor(made.asked) <= _minor(high) and made.python != made.asked:
        return f"the reader has {made.asked}, which {made.backend} supports, and is given {made.python}"
    if made.own_python != (made.python == made.asked):
        return f"own_python is {made.own_python} for {made.python} asked {made.asked!r}"


def venv_with_that_python(gpu, made):
    for shell, activate in (("powershell", "Activate.ps1"), ("cmd", "activate.bat")):
        if made.venv[shell] != f"py -{made.python} -m venv .venv\n.venv\\Scripts\\{activate}":
            return f"the {shell} environment is not made with py -{made.python}: {made.venv[shell]!r}"


def rocm_wheels_for_its_target(gpu, made):
    extras = set(re.findall(r"\[device-([a-z0-9]+)\]", made.install))
    if made.backend != "rocm":
        return f"[device-...] extras on the {made.backend} path" if extras else None
    if extras != {gpu.gfx}:
        return f"ROCm extras {sorted(extras)} for a {gpu.gfx} GPU"
    line = next((line for line in AMD_LINES if gpu.gfx in line["windows_targets"]), None)
    if line is None:
        return f"{gpu.gfx} has no Windows command in AMD's files ({', '.join(a['source'] for a in AMD_LINES)})"
    if f"--index-url {line['index']} " not in made.install or f"=={line['versions']['torch'][0]}" not in made.install:
        return f"not the newest AMD line with Windows wheels for {gpu.gfx} ({line['source']}): {made.install}"


def cuda_build_has_its_kernels(gpu, made):
    build = re.search(r"download\.pytorch\.org/whl/(cu\d+)", made.install)
    if made.backend != "cuda":
        return f"a CUDA index on the {made.backend} path" if build else None
    if not build:
        return "no CUDA index in the command"
    if not recipes.fits(gpu.cuda_cc, CUDA_ARCHS[build.group(1)]):
        return f"{build.group(1)} has no kernels for compute capability {gpu.cuda_cc}"
    if made.driver != f"nvidia:{build.group(1)}":
        return f"driver {made.driver} for the {build.group(1)} build"


def install_is_the_back_ends(gpu, made):
    wanted = {"xpu": "download.pytorch.org/whl/xpu", "directml": "install torch-directml", "cpu": "install torch=="}
    if made.backend in wanted and wanted[made.backend] not in made.install:
        return f"no {wanted[made.backend]!r} in {made.install!r}"
    # China's copies: TUNA's PyPI for PyPI's packages, SJTUG's copy of PyTorch's index for XPU and CUDA, none for
    # AMD's index (setup.zh.md#china-mirrors)
    copy = {"directml": " -i https://mirrors.tuna", "cpu": " -i https://mirrors.tuna"}
    copy |= {"xpu": "mirror.sjtu.edu.cn/pytorch-wheels/xpu", "cuda": "mirror.sjtu.edu.cn/pytorch-wheels/cu"}
    if made.backend in copy and (made.mirror is None or copy[made.backend] not in made.mirror):
        return f"no {copy[made.backend]!r} in the China form {made.mirror!r}"
    if made.backend not in copy and made.mirror is not None:
        return f"a China form {made.mirror!r} for an install from {made.backend}'s index, which has no copy"


def checks_in_verifications_order(gpu, made):
    verify = "python verify_directml.py" + ("" if made.backend == "directml" else " --allow-fallback")
    wanted = ("python doctor.py", verify, "python verify_training.py", "python train_mnist.py --download --epochs 1")
    if made.checks != wanted:
        return f"checks {made.checks}"


def driver_of_its_generation(gpu, made):
    drivers = DATA["drivers"]
    name = made.driver.partition(":")[0]
    if name not in drivers:
        return f"driver {made.driver!r} is not in vendor_index.yml"
    wanted = (
        "microsoft"
        if made.backend == "cpu" or gpu.vendor in {"qualcomm", "microsoft"}
        else "nvidia"
        if made.backend == "cuda"
        else gpu.driver or gpu.vendor
    )
    if name != wanted:
        return f"driver {name}, the row's vendor and generation say {wanted}"


PROPERTIES = [
    back_end,
    python_in_range,
    pytorch_index_python_gets_the_newest_torch,
    readers_python_kept,
    venv_with_that_python,
    rocm_wheels_for_its_target,
    cuda_build_has_its_kernels,
    install_is_the_back_ends,
    checks_in_verifications_order,
    driver_of_its_generation,
]


def failures(prop, table) -> list[str]:
    found = []
    for (name, windows, python), made in table.items():
        problem = prop(ROWS[name], made)
        if problem:
            found.append(f"{name}, Windows {windows}, Python {python or 'none'}: {problem}")
    return found


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.__name__)
def test_every_answer_has_the_property(prop):
    assert failures(prop, recipes.table()) == []


def test_the_table_covers_every_gpu_windows_python_and_back_end():
    table = recipes.table()
    rows = [g for g in gpus.load() if not g.ambiguous]
    assert len(table) == len(rows) * 2 * (len(recipes.PYTHONS) + 1) > 1300
    assert {made.backend for made in table.values()} == {"rocm", "xpu", "directml", "cuda", "cpu"}


def _with(table, key, **change):
    return {**table, key: dataclasses.replace(table[key], **change)}


def test_each_property_catches_its_fault():
    """A wrong row or a wrong rule, each in one answer, turns exactly its property red."""
    table = recipes.table()
    apu = ("AMD Radeon 780M Graphics", "11", "3.12")
    pascal = ("NVIDIA GeForce GTX 1080", "11", "3.12")
    xtx = ("AMD Radeon RX 7900 XTX", "11", "3.13")
    uhd = ("Intel(R) UHD Graphics 620", "10", "3.12")
    rx6800 = ("AMD Radeon RX 6800", "11", "3.12")  # gfx1030: AMD's 7.14.1 line, not 10.1's index
    on_101 = table[rx6800].install.replace("https://repo.amd.com/rocm/whl-multi-arch/", AMD["index"])
    faults = [
        (rocm_wheels_for_its_target, _with(table, apu, install=table[apu].install.replace("gfx1103", "gfx1100"))),
        (rocm_wheels_for_its_target, _with(table, rx6800, install=on_101)),
        (cuda_build_has_its_kernels, _with(table, pascal, install=table[pascal].install.replace("cu126", "cu130"))),
        (readers_python_kept, _with(table, xtx, python="3.12", own_python=False)),
        (driver_of_its_generation, _with(table, uhd, driver="intel-arc")),
        (checks_in_verifications_order, _with(table, uhd, checks=table[uhd].checks[::2])),
        (back_end, _with(table, uhd, backend="xpu")),
        (pytorch_index_python_gets_the_newest_torch, _with(table, pascal, python="3.10")),
    ]
    for prop, broken in faults:
        assert len(failures(prop, broken)) == 1, prop.__name__


def test_a_row_whose_gfx_amd_ships_no_windows_build_for_is_caught():
    rx6700 = ROWS["AMD Radeon RX 6700 XT"]  # gfx1031: TheRock's nightlies only, no AMD Windows command
    fake = dataclasses.replace(rx6700, path={"11": "rocm", "10": "directml"})
    made = recipes.recipe(fake, "11", "3.12")
    assert "no Windows command" in rocm_wheels_for_its_target(fake, made)


def _code(nodes, ids) -> list[str]:
    """The code blocks of an answer's nodes, in order (the steps' too)."""
    found = []
    for node in (nodes[i] for i in ids):
        for inner in node[1] if node[0] == "step" else [node]:
            if inner[0] == "code":
                found.append(inner[1])
    return found


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_page_ships_the_table(language):
    """Each answer of the chooser's data (what chooser.js renders) shows exactly its recipe's commands, in order."""
    data = gpu_pages.chooser_data(language)
    wrong = []
    for entry in data["gpus"]:
        for windows, by_python in entry.get("answers", {}).items():
            for python, ids in by_python.items():
                made = recipes.table()[(entry["name"], windows, python)]
                mirror = [made.mirror] if language == "zh" and made.mirror else []
                wanted = [made.venv["powershell"], made.venv["cmd"], made.install, *mirror, "\n".join(made.checks)]
                if _code(data["nodes"], ids) != wanted:
                    wrong.append(f"{entry['name']}, Windows {windows}, Python {python or 'none'}")
    assert wrong == []


# A GPU rule written in the chooser's script: a gfx target, a CUDA build, a Python version, a piece of a command.
RULE = re.compile(r"gfx[0-9]|\bcu1[0-9]{2}\b|\bsm_[0-9]|\b3\.[0-9]{1,2}\b|pip install|--index-url|\bpy -|\.venv")


@pytest.mark.parametrize("script", ["chooser.js", "gpu/match.js"])
def test_the_chooser_script_holds_no_gpu_rule(script):
    """docs/javascripts/chooser.js only looks answers up, and match.js only reads names: every rule runs here, at
    build time, and every GPU fact is in the tables."""
    text = (DOCS / "javascripts" / script).read_text(encoding="utf-8")
    assert [m.group(0) for m in RULE.finditer(text)] == []
    assert RULE.search('const range = data.backends[path].python || ["3.10", "3.14"];')
    assert RULE.search("`py -${python} -m venv .venv`") and RULE.search('"nvidia:" + "cu126"')
