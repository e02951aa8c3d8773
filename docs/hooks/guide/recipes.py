"""Each reader's own recipe: the commands for one GPU of gpus.yml, one Windows and one Python.

The chooser (docs/choose.md, docs/javascripts/chooser.js) shows them at its answer: the driver, Python and
the environment, the install command built for this GPU (its gfx extra, its CUDA build), the scripts, the
doctor, the training check and the training. What a command pins comes from docs/hooks/data/vendor_index.yml
(the vendors' own sources, each dated) and pyproject.toml; what a GPU needs comes from gpus.yml.
tests/guide/test_recipes.py goes over every GPU x Windows x Python and checks each recipe against that data.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from guide import DOCS, gpus, pins

VENDOR_INDEX = DOCS / "hooks" / "data" / "vendor_index.yml"
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")  # what the chooser offers
MIRROR = "https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple"  # docs/setup.zh.md#china-network


@cache
def vendor_index() -> dict:
    import yaml

    return yaml.safe_load(VENDOR_INDEX.read_text(encoding="utf-8"))


def _minor(version: str) -> int:
    return int(version.split(".")[1])


def python_for(backend: str, wanted: str | None) -> tuple[str, bool]:
    """The Python to create the environment with, and whether it is the reader's own.

    The reader's version where the back-end has wheels for it; otherwise the guide's Python
    ({{ pin.python }}) when the back-end supports it, else the newest it supports.
    """
    low, high = gpus.BACKENDS[backend]["python"] or ("3.10", "3.14")
    inside = lambda v: _minor(low) <= _minor(v) <= _minor(high)  # noqa: E731
    if wanted and inside(wanted):
        return wanted, True
    guide_python = pins.load_pins()["python"]
    return (guide_python if inside(guide_python) else high), False


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


def install_command(key: str) -> str:
    """The command for an install key (see install_key)."""
    backend, _, arg = key.partition(":")
    commands = vendor_index()["commands"]
    if backend == "directml":
        return "python -m pip install torch-directml"
    if backend == "cpu":
        p = pins.load_pins()
        return f"python -m pip install torch=={p['current.torch']} torchvision=={p['current.torchvision']}"
    entry = commands["rocm" if backend == "rocm" else arg if backend == "cuda" else backend]
    requirements = " ".join(f'"{r.format(gfx=arg)}"' if "=" in r or "[" in r else r for r in entry["requirements"])
    if backend == "rocm":
        return f"python -m pip install --index-url {entry['index']} {requirements}"
    return f"python -m pip install {requirements} --index-url {entry['index']}"


def mirror_command(key: str) -> str | None:
    """The same command through the TUNA PyPI mirror, where the command installs from PyPI; else None."""
    if key.partition(":")[0] in {"directml", "cpu"}:
        return f"{install_command(key)} -i {MIRROR}"
    return None


def unsettled(key: str) -> str | None:
    """What no reachable source settles about the command's pins (vendor_index.yml ``unsettled:``)."""
    backend, _, arg = key.partition(":")
    data = vendor_index()
    name = {"rocm": "amd-rocm", "xpu": "pytorch-xpu", "cuda": "pytorch-cuda"}.get(backend)
    return data["unsettled"].get(name) if name else None


def venv_commands(python: str) -> dict[str, str]:
    return {
        "powershell": f"py -{python} -m venv .venv\n.venv\\Scripts\\Activate.ps1",
        "cmd": f"py -{python} -m venv .venv\n.venv\\Scripts\\activate.bat",
    }


CHECKS = ("python doctor.py", "python verify_training.py", "python train_mnist.py --download --epochs 1")


@dataclass(frozen=True)
class Recipe:
    gpu: str
    windows: str
    backend: str
    fallback: str
    python: str
    own_python: bool
    venv: dict
    install: str
    mirror: str | None
    checks: tuple[str, ...] = CHECKS


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
        chosen,
        own,
        venv_commands(chosen),
        install_command(key),
        mirror_command(key),
    )
