"""Each reader's own recipe: the commands for one GPU of gpus.yml, one Windows and one Python.

The build computes every answer of the chooser here (table()), and guide/gpu_pages.py writes them into the
chooser's page as data: the driver, Python and the environment, the install command built for this GPU (its
gfx extra, its CUDA build), the scripts, the doctor, the DirectML check, the training check and the training.
docs/javascripts/chooser.js only looks answers up. What a command pins comes from
docs/hooks/data/vendor_index.yml (the vendors' own sources, each dated) and pyproject.toml; what a GPU needs
comes from gpus.yml. tests/guide/test_recipes.py checks each property over the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from guide import DOCS, gpus, pins

VENDOR_INDEX = DOCS / "hooks" / "data" / "vendor_index.yml"
# What the chooser asks the reader for: the Python they have. 3.10 stays askable because torch-directml has
# wheels for it; PyTorch's own back-ends send a 3.10 reader to a newer Python (gpus.BACKENDS).
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
MIRROR = "https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple"  # docs/setup.zh.md#china-network


@cache
def vendor_index() -> dict:
    import yaml

    return yaml.safe_load(VENDOR_INDEX.read_text(encoding="utf-8"))


def _minor(version: str) -> int:
    return int(version.split(".")[1])


@cache
def guide_python() -> str:
    """The guide's Python ({{ pin.python }}, pyproject.toml), read once."""
    return pins.load_pins()["python"]


def python_range(backend: str) -> tuple[str, str]:
    """The Pythons a back-end has wheels for; where its source names none (TheRock), PyTorch's own range."""
    return gpus.BACKENDS[backend]["python"] or gpus.BACKENDS["cpu"]["python"]


def python_for(backend: str, wanted: str | None) -> tuple[str, bool]:
    """The Python to create the environment with, and whether it is the reader's own.

    The reader's version where the back-end has wheels for it; otherwise the guide's Python
    ({{ pin.python }}) when the back-end supports it, else the newest it supports.
    """
    low, high = python_range(backend)
    inside = lambda v: _minor(low) <= _minor(v) <= _minor(high)  # noqa: E731
    if wanted and inside(wanted):
        return wanted, True
    guide = guide_python()
    return (guide if inside(guide) else high), False


def fits(cc: str, architectures: list[str]) -> bool:
    """Whether a GPU of compute capability ``cc`` runs a build with kernels for ``architectures``."""
    major, minor = map(int, cc.split("."))
    return any(int(a.split(".")[0]) == major and int(a.split(".")[1]) <= minor for a in architectures)


def cuda_build(gpu) -> str:
    """cu130 where its kernels cover the GPU, else the legacy cu126 (Maxwell, Pascal, Volta)."""
    archs = vendor_index()["published"]["pytorch-cuda"]["architectures"]
    for build in ("cu130", "cu126"):
        if fits(gpu.cuda_cc, archs[build]):
            return build
    raise ValueError(f"{gpu.name}: no PyTorch CUDA build has kernels for compute capability {gpu.cuda_cc}")


def install_key(gpu, backend: str) -> str:
    """Which install command a GPU gets on a back-end: "rocm:gfx1103", "cuda:cu126", "directml"."""
    if backend == "rocm":
        return f"rocm:{gpu.gfx}"
    if backend == "cuda":
        return f"cuda:{cuda_build(gpu)}"
    return backend


ROCM_LINES = ("rocm", "rocm-7.14")  # vendor_index.yml's AMD commands, newest first


def command_name(key: str) -> str | None:
    """vendor_index.yml's command for an install key: "rocm" (ROCm 10.1) or, for a gfx target only the 7.14.1
    file has Windows wheels for, "rocm-7.14"; "cu130", "xpu"; None for PyPI's (DirectML, CPU)."""
    backend, _, arg = key.partition(":")
    if backend in {"directml", "cpu"}:
        return None
    if backend == "cuda":
        return arg
    if backend != "rocm":
        return backend
    data = vendor_index()
    targets = {name: data["published"][data["commands"][name]["published"]]["windows_targets"] for name in ROCM_LINES}
    # A target neither file has gets the newest line's command, which tests/guide/test_recipes.py reports.
    return next((name for name in ROCM_LINES if arg in targets[name]), ROCM_LINES[0])


def published_name(key: str) -> str | None:
    """The vendor source (vendor_index.yml ``published:``) that an install key's command pins from."""
    name = command_name(key)
    return vendor_index()["commands"][name]["published"] if name else None


def install_command(key: str) -> str:
    """The command for an install key (see install_key)."""
    backend, _, arg = key.partition(":")
    if backend == "directml":
        return "python -m pip install torch-directml"
    if backend == "cpu":
        p = pins.load_pins()
        return f"python -m pip install torch=={p['current.torch']} torchvision=={p['current.torchvision']}"
    entry = vendor_index()["commands"][command_name(key)]
    requirements = " ".join(f'"{r.format(gfx=arg)}"' if "=" in r or "[" in r else r for r in entry["requirements"])
    if backend == "rocm":
        return f"python -m pip install --index-url {entry['index']} {requirements}"
    return f"python -m pip install {requirements} --index-url {entry['index']}"


# SJTUG's copy of PyTorch's own indexes (download.pytorch.org/whl/NAME at mirror.sjtu.edu.cn/pytorch-wheels/NAME),
# with its sources and limits in docs/setup.zh.md#china-mirrors; AMD's index has no copy found (offline install).
PYTORCH_INDEX = "https://download.pytorch.org/whl/"
PYTORCH_MIRROR = "https://mirror.sjtu.edu.cn/pytorch-wheels/"


def mirror_kind(key: str) -> str | None:
    """Where a reader in China gets the same packages: "pypi" (TUNA's PyPI mirror), "pytorch" (SJTUG's copy of
    PyTorch's index), or None (AMD's index: no copy found)."""
    backend = key.partition(":")[0]
    if backend in {"directml", "cpu"}:
        return "pypi"
    if PYTORCH_INDEX in install_command(key):
        return "pytorch"
    return None


def mirror_command(key: str) -> str | None:
    """The same command through the copy mirror_kind names; else None."""
    kind = mirror_kind(key)
    if kind == "pypi":
        return f"{install_command(key)} -i {MIRROR}"
    if kind == "pytorch":
        return install_command(key).replace(PYTORCH_INDEX, PYTORCH_MIRROR)
    return None


def unsettled(key: str) -> str | None:
    """What no reachable source settles about the command's pins (vendor_index.yml ``unsettled:``)."""
    name = published_name(key)
    return vendor_index()["unsettled"].get(name) if name else None


def venv_commands(python: str) -> dict[str, str]:
    return {
        "powershell": f"py -{python} -m venv .venv\n.venv\\Scripts\\Activate.ps1",
        "cmd": f"py -{python} -m venv .venv\n.venv\\Scripts\\activate.bat",
    }


def checks(backend: str) -> tuple[str, ...]:
    """What a reader runs once the scripts are there, in the order of verification.md (set-up's back-end tabs
    run the same verification and training): the doctor, the DirectML check (which reports the fallback's
    device on any other back-end), the training check, the training."""
    verify = "python verify_directml.py" + ("" if backend == "directml" else " --allow-fallback")
    return ("python doctor.py", verify, "python verify_training.py", "python train_mnist.py --download --epochs 1")


def driver_key(gpu, backend: str) -> str:
    """vendor_index.yml's driver entry for a GPU on a back-end: "nvidia:cu126" for a CUDA build (its minimum
    driver), the GPU's own package where its vendor has one per generation (Intel), else the vendor's."""
    if backend == "cpu" or gpu.vendor in {"qualcomm", "microsoft"}:
        return "microsoft"
    if backend == "cuda":
        return f"nvidia:{cuda_build(gpu)}"
    return gpu.driver or gpu.vendor


@dataclass(frozen=True)
class Recipe:
    gpu: str
    windows: str
    backend: str
    fallback: str
    asked: str  # the reader's Python, "" when they have none yet
    python: str
    own_python: bool
    venv: dict
    install_key: str
    install: str
    mirror: str | None
    driver: str
    checks: tuple[str, ...]


def recipe(gpu, windows: str, python: str | None) -> Recipe:
    """The recipe the chooser gives a reader of ``gpu`` on Windows ``windows`` with Python ``python``."""
    backend = gpu.path[windows]
    chosen, own = python_for(backend, python)
    key = install_key(gpu, backend)
    return Recipe(
        gpu.name,
        windows,
        backend,
        gpu.fallback[windows],
        python or "",
        chosen,
        own,
        venv_commands(chosen),
        key,
        install_command(key),
        mirror_command(key),
        driver_key(gpu, backend),
        checks(backend),
    )


@cache
def table() -> dict[tuple[str, str, str], Recipe]:
    """Every answer the chooser can give: (GPU name, Windows, Python or "") for each GPU of the table that is
    not a question, each Windows and each Python the chooser offers (and none): the one place the rules run."""
    return {
        (g.name, w, p): recipe(g, w, p or None)
        for g in gpus.load()
        if not g.ambiguous
        for w in gpus.WINDOWS
        for p in ("", *PYTHONS)
    }
