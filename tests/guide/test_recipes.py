"""Every GPU of gpus.yml x Windows 10 / 11 x each Python the chooser offers: the recipe it builds fits the data.

The rules here are restated from the vendors' data (docs/hooks/data/vendor_index.yml) and the GPU's own row,
not from guide/recipes.py: a wrong row (a gfx target AMD ships no Windows build for, a compute capability the
chosen CUDA build has no kernels for) or a wrong rule (a Python outside the path's range, cu130 for a Pascal
card) turns a case red.
"""

from __future__ import annotations

import re

import pytest

from guide import gpus, recipes

DATA = recipes.vendor_index()
AMD = DATA["published"]["amd-rocm"]
CUDA_ARCHS = DATA["published"]["pytorch-cuda"]["architectures"]
AMD_PYTHONS = DATA["published"]["amd-python"]["pythons"]
CASES = [(g, w, p) for g in gpus.load() if not g.ambiguous for w in ("11", "10") for p in (*recipes.PYTHONS, None)]


def _minor(v: str) -> int:
    return int(v.split(".")[1])


def problems(gpu, windows, python, made) -> list[str]:
    """What is wrong with the recipe ``made`` for this reader (an empty list: nothing)."""
    found = []
    backend = gpu.path[windows]
    if made.backend != backend:
        found.append(f"back-end {made.backend}, the row says {backend}")
    low, high = gpus.BACKENDS[backend]["python"]
    if not _minor(low) <= _minor(made.python) <= _minor(high):
        found.append(f"Python {made.python} outside {backend}'s {low}-{high}")
    if backend == "rocm" and made.python not in AMD_PYTHONS:
        found.append(f"Python {made.python} is not one AMD's install page offers ({AMD_PYTHONS})")
    if python and _minor(low) <= _minor(python) <= _minor(high) and made.python != python:
        found.append(f"the reader has {python}, which {backend} supports, and is given {made.python}")
    if f"py -{made.python} -m venv .venv" not in made.venv["powershell"]:
        found.append(f"the environment is not made with py -{made.python}")
    extras = set(re.findall(r"\[device-([a-z0-9]+)\]", made.install))
    if backend == "rocm":
        if extras != {gpu.gfx}:
            found.append(f"ROCm extras {sorted(extras)} for a {gpu.gfx} GPU")
        if gpu.gfx not in AMD["windows_targets"]:
            found.append(f"{gpu.gfx} has no Windows command in AMD's file ({AMD['source']})")
    elif extras:
        found.append(f"[device-...] extras on the {backend} path")
    build = re.search(r"download\.pytorch\.org/whl/(cu\d+)", made.install)
    if backend == "cuda":
        if not build:
            found.append("no CUDA index in the command")
        elif not recipes.fits(gpu.cuda_cc, CUDA_ARCHS[build.group(1)]):
            found.append(f"{build.group(1)} has no kernels for compute capability {gpu.cuda_cc}")
    elif build:
        found.append(f"a CUDA index on the {backend} path")
    if backend == "xpu" and "download.pytorch.org/whl/xpu" not in made.install:
        found.append("no XPU index in the command")
    if backend == "directml" and "torch-directml" not in made.install:
        found.append("no torch-directml in the command")
    if windows not in gpus.BACKENDS[backend]["windows"]:
        found.append(f"{backend} does not run on Windows {windows}")
    return found


@pytest.mark.parametrize("gpu, windows, python", CASES, ids=[f"{g.name}-win{w}-py{p}" for g, w, p in CASES])
def test_every_recipe_fits_its_gpu_windows_and_python(gpu, windows, python):
    assert problems(gpu, windows, python, recipes.recipe(gpu, windows, python)) == []


def test_the_cases_cover_every_back_end():
    assert {g.path[w] for g, w, _ in CASES} == {"rocm", "xpu", "directml", "cuda", "cpu"}
    assert len(CASES) > 1000


def _gpu(name):
    return next(g for g in gpus.load() if g.name == name)


def test_the_check_catches_a_wrong_row_and_a_wrong_rule(monkeypatch):
    """The blocker (gfx1100 wheels for a gfx1103 GPU), cu130 for Pascal, py -3.12 for a 3.13 reader."""
    apu = _gpu("AMD Radeon 780M Graphics")
    wrong_extra = recipes.recipe(apu, "11", "3.12").install.replace("gfx1103", "gfx1100")
    made = recipes.recipe(apu, "11", "3.12")
    assert problems(apu, "11", "3.12", type(made)(**{**made.__dict__, "install": wrong_extra}))
    pascal = _gpu("NVIDIA GeForce GTX 1080")
    monkeypatch.setattr(recipes, "cuda_build", lambda gpu: "cu130")
    assert problems(pascal, "11", "3.12", recipes.recipe(pascal, "11", "3.12")) == [
        "cu130 has no kernels for compute capability 6.1"
    ]
    monkeypatch.undo()
    xtx = _gpu("AMD Radeon RX 7900 XTX")
    monkeypatch.setattr(recipes, "python_for", lambda backend, wanted: ("3.12", False))
    assert any("given 3.12" in p for p in problems(xtx, "11", "3.13", recipes.recipe(xtx, "11", "3.13")))


def test_a_row_whose_gfx_amd_ships_no_windows_build_for_is_caught():
    rx6700 = _gpu("AMD Radeon RX 6700 XT")  # gfx1031: TheRock's nightlies only, no AMD Windows command
    fake = type(rx6700)(**{**rx6700.__dict__, "path": {"11": "rocm", "10": "directml"}})
    assert any("no Windows command" in p for p in problems(fake, "11", "3.12", recipes.recipe(fake, "11", "3.12")))
