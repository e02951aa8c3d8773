"""The one table of GPUs (docs/hooks/data/gpus.yml): load it and validate it.

Every GPU fact the pages show comes from that file: the chooser (docs/choose.md), the tables of
why-directml.md, the glossary's gfx list, the gfx examples on the set-up page (guide/gpu_pages.py
renders them). Reading a GPU's name is match.js's alone (docs/javascripts/gpu/match.js; Python asks it through
guide/gpu_names.py). A wrong key, a missing ``source:`` or ``checked:``, a status or back-end that is not
listed here, a path that the GPU's own support list does not back: GpuDataError with file:entry.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from guide import ROOT

DATA = ROOT / "docs" / "hooks" / "data" / "gpus.yml"

# The back-ends a GPU can have on Windows: the Windows versions each runs on, the Pythons it has
# wheels for (None: not said). PyTorch's own indexes (XPU, CUDA, CPU): 3.11 - 3.14, since torch 2.15 has no
# Python 3.10 wheels (pytorch/pytorch#197242; vendor_index.yml's newest_for_python, measured) and the
# XPU and CUDA commands pin no version, so on 3.10 pip would quietly take an older torch.
BACKENDS = {
    "directml": {"windows": ("10", "11"), "python": ("3.8", "3.12")},
    "rocm": {"windows": ("11",), "python": ("3.11", "3.14")},
    "therock": {"windows": ("11",), "python": None},
    "xpu": {"windows": ("11",), "python": ("3.11", "3.14")},
    "cuda": {"windows": ("10", "11"), "python": ("3.11", "3.14")},
    "cpu": {"windows": ("10", "11"), "python": ("3.11", "3.14")},
}
# Where each back-end fact above comes from, and when it was checked there.
BACKEND_SOURCES = {
    "directml": ("https://pypi.org/project/torch-directml/#files", "2026-12-01"),
    "rocm": (
        "https://github.com/AMD-Ecosystem/ai-ecosystem/blob/main/docs/frameworks/pytorch/install.rst",
        "2026-12-01",
    ),
    "therock": ("https://github.com/ROCm/TheRock/blob/main/RELEASES.md", "2026-12-01"),
    "xpu": ("https://github.com/pytorch/pytorch/issues/197242", "2026-12-05"),
    "cuda": ("https://github.com/pytorch/pytorch/issues/197242", "2026-12-05"),
    "cpu": ("https://github.com/pytorch/pytorch/issues/197242", "2026-12-05"),
}
# supported: on the vendor's list; prototype: the vendor's own label; nightly: development builds only;
# build-only: TheRock's "Build Passing" and no more; unlisted: the same chip, but not on the vendor's list;
# maintenance: torch-directml (maintenance mode); unsupported: does not run; same-target: not on the vendor's
# list by name, but the vendor ships a build for its gfx target (the note says which listed GPU shares it).
STATUSES = ("supported", "prototype", "nightly", "build-only", "same-target", "unlisted", "maintenance", "unsupported")
USABLE = {"supported", "prototype", "nightly", "maintenance", "same-target"}  # a status a recommended path may have
VENDORS = ("amd", "intel", "nvidia", "qualcomm", "microsoft")
KINDS = ("dedicated", "integrated", "software")
WINDOWS = ("11", "10")

GPU_KEYS = {
    "name",
    "aliases",
    "vendor",
    "family",
    "kind",
    "group",
    "gfx",
    "gfx_source",
    "gfx_checked",
    "cuda_cc",
    "cuda_cc_source",
    "support",
    "path",
    "fallback",
    "choices",
    "question",
    "question_zh",
    "driver",
}
CUDA_CC = re.compile(r"^[0-9]{1,2}\.[0-9]$")  # an NVIDIA compute capability, "8.6"
REQUIRED = {"name", "vendor", "family", "kind", "group", "support", "path", "fallback"}
SUPPORT_KEYS = {"backend", "status", "note", "note_zh", "source", "checked"}
CHOICE_KEYS = {"label", "label_zh", "gpu"}
GFX = re.compile(r"^gfx[0-9]{2,4}[0-9a-f]?$")
URL = re.compile(r"^https://\S+$")


class GpuDataError(ValueError):
    """The table is wrong somewhere; the message starts with file:entry."""


@dataclass(frozen=True)
class Support:
    backend: str
    status: str
    source: str
    checked: str
    note: str = ""
    note_zh: str = ""

    @property
    def windows(self) -> tuple[str, ...]:
        return BACKENDS[self.backend]["windows"]


@dataclass(frozen=True)
class Choice:
    label: str
    label_zh: str
    gpu: str


@dataclass(frozen=True, eq=False)  # one entry is one object: hashable by identity
class Gpu:
    name: str
    vendor: str
    family: str
    kind: str
    group: str
    support: tuple[Support, ...]
    path: dict
    fallback: dict
    aliases: tuple[str, ...] = ()
    gfx: str | None = None
    gfx_source: str | None = None
    gfx_checked: str | None = None
    choices: tuple[Choice, ...] = field(default_factory=tuple)
    cuda_cc: str | None = None
    cuda_cc_source: str | None = None
    question: str = ""
    question_zh: str = ""
    driver: str | None = None  # vendor_index.yml's driver package, where the vendor has one per generation

    @property
    def ambiguous(self) -> bool:
        return bool(self.choices)

    def backend(self, name: str) -> Support | None:
        return next((s for s in self.support if s.backend == name), None)


def _date(value, where: str) -> str:
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return value
    raise GpuDataError(f"{where}: checked date {value!r} is not YYYY-MM-DD")


def _url(value, where: str) -> str:
    if not isinstance(value, str) or not URL.match(value):
        raise GpuDataError(f"{where}: source {value!r} is not an https:// URL")
    return value


def _keys(entry, allowed: set[str], required: set[str], where: str) -> None:
    if not isinstance(entry, dict):
        raise GpuDataError(f"{where}: expected a mapping, got {type(entry).__name__}")
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise GpuDataError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(entry))
    if missing:
        raise GpuDataError(f"{where}: missing {missing[0]!r}")


def _support(entry, where: str) -> Support:
    _keys(entry, SUPPORT_KEYS, {"backend", "status", "source", "checked"}, where)
    if entry["backend"] not in BACKENDS or entry["backend"] == "cpu":
        raise GpuDataError(
            f"{where}: unknown back-end {entry['backend']!r} "
            f"(back-ends: {', '.join(b for b in BACKENDS if b != 'cpu')})"
        )
    if entry["status"] not in STATUSES:
        raise GpuDataError(f"{where}: bad status {entry['status']!r} (statuses: {', '.join(STATUSES)})")
    if bool(entry.get("note")) != bool(entry.get("note_zh")):
        raise GpuDataError(f"{where}: a note needs both editions (note and note_zh)")
    return Support(
        entry["backend"],
        entry["status"],
        _url(entry["source"], where),
        _date(entry["checked"], where),
        entry.get("note", ""),
        entry.get("note_zh", ""),
    )


def _by_windows(value, what: str, where: str) -> dict:
    if not isinstance(value, dict) or set(map(str, value)) != set(WINDOWS):
        raise GpuDataError(f'{where}: {what} needs one back-end for "11" and one for "10"')
    result = {str(k): v for k, v in value.items()}
    for version, backend in result.items():
        if backend not in BACKENDS:
            raise GpuDataError(f"{where}: {what} {version}: unknown back-end {backend!r}")
    return result


def _gpu(entry, where: str) -> Gpu:
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        where = f"{where} ({entry['name']})"
    _keys(entry, GPU_KEYS, REQUIRED, where)
    if not isinstance(entry["name"], str) or not entry["name"].strip():
        raise GpuDataError(f"{where}: name must be the adapter's name as Windows shows it")
    if entry["vendor"] not in VENDORS:
        raise GpuDataError(f"{where}: unknown vendor {entry['vendor']!r} (vendors: {', '.join(VENDORS)})")
    if entry["kind"] not in KINDS:
        raise GpuDataError(f"{where}: unknown kind {entry['kind']!r} (kinds: {', '.join(KINDS)})")
    gfx = entry.get("gfx")
    if gfx is not None:
        if not GFX.match(str(gfx)):
            raise GpuDataError(f"{where}: gfx {gfx!r} is not a gfx target such as gfx1100")
        if "gfx_source" not in entry or "gfx_checked" not in entry:
            raise GpuDataError(f"{where}: gfx {gfx} needs its gfx_source and gfx_checked date")
        _url(entry["gfx_source"], where)
        _date(entry["gfx_checked"], where)
    elif entry["vendor"] == "amd" and not entry.get("choices") and entry.get("support"):
        if any(s.get("backend") in {"rocm", "therock"} for s in entry["support"]):
            raise GpuDataError(f"{where}: an AMD GPU with a ROCm back-end needs its gfx target")
    cc = entry.get("cuda_cc")
    if cc is not None and (not CUDA_CC.match(str(cc)) or "cuda_cc_source" not in entry):
        raise GpuDataError(
            f'{where}: cuda_cc {cc!r} must be a compute capability such as "8.6", with its cuda_cc_source'
        )
    if cc is not None:
        _url(entry["cuda_cc_source"], where)
    if cc is None and any(s.get("backend") == "cuda" for s in entry.get("support") or []):
        raise GpuDataError(f"{where}: a GPU with a CUDA back-end needs its cuda_cc (compute capability)")
    if (entry["vendor"] == "intel") != str(entry.get("driver", "")).startswith("intel-"):
        raise GpuDataError(f"{where}: an Intel GPU names its driver package (driver: intel-...), and only an Intel GPU")
    if entry.get("choices") and not (entry.get("question") and entry.get("question_zh")):
        raise GpuDataError(f"{where}: a name with choices needs its question (question and question_zh)")
    support = tuple(_support(s, f"{where} support {i}") for i, s in enumerate(entry["support"] or [], 1))
    if len({s.backend for s in support}) != len(support):
        raise GpuDataError(f"{where}: a back-end is listed twice")
    path = _by_windows(entry["path"], "path", where)
    fallback = _by_windows(entry["fallback"], "fallback", where)
    for what, chosen in (("path", path), ("fallback", fallback)):
        for version, backend in chosen.items():
            if backend == "cpu":
                continue
            fact = next((s for s in support if s.backend == backend), None)
            if fact is None or fact.status not in USABLE:
                raise GpuDataError(
                    f"{where}: {what} {version} is {backend}, which its support list does not "
                    f"back with a usable status ({', '.join(sorted(USABLE))})"
                )
            if version not in fact.windows:
                raise GpuDataError(f"{where}: {what} {version} is {backend}, which does not run on Windows {version}")
    choices = []
    for i, choice in enumerate(entry.get("choices") or [], 1):
        _keys(choice, CHOICE_KEYS, CHOICE_KEYS, f"{where} choice {i}")
        choices.append(Choice(choice["label"], choice["label_zh"], choice["gpu"]))
    return Gpu(
        name=entry["name"],
        vendor=entry["vendor"],
        family=str(entry["family"]),
        kind=entry["kind"],
        group=str(entry["group"]),
        support=support,
        path=path,
        fallback=fallback,
        aliases=tuple(entry.get("aliases") or ()),
        gfx=gfx,
        gfx_source=entry.get("gfx_source"),
        gfx_checked=_date(entry["gfx_checked"], where) if gfx else None,
        choices=tuple(choices),
        cuda_cc=str(cc) if cc is not None else None,
        cuda_cc_source=entry.get("cuda_cc_source"),
        question=entry.get("question", ""),
        question_zh=entry.get("question_zh", ""),
        driver=entry.get("driver"),
    )


def parse(text: str, file: str = "gpus.yml") -> list[Gpu]:
    """The GPUs of ``text`` (gpus.yml's YAML), validated; GpuDataError names file:entry."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise GpuDataError(f"{file}: not YAML: {error}") from None
    if not isinstance(data, dict) or set(data) != {"gpus"} or not isinstance(data["gpus"], list):
        raise GpuDataError(f"{file}: expected one key, gpus: a list of GPUs")
    gpus = [_gpu(entry, f"{file}:{i}") for i, entry in enumerate(data["gpus"], 1)]
    # Two rows that one name would find are refused by tests/guide/test_gpus.py, which asks match.js.
    seen: dict[str, str] = {}
    for gpu in gpus:
        for name in (gpu.name, *gpu.aliases):
            if name in seen and seen[name] != gpu.name:
                raise GpuDataError(f"{file}: {gpu.name!r} and {seen[name]!r} both have the name {name!r}")
            seen[name] = gpu.name
    names = {g.name for g in gpus}
    for gpu in gpus:
        for choice in gpu.choices:
            if choice.gpu not in names:
                raise GpuDataError(f"{file}: {gpu.name!r}: choice {choice.label!r} names no GPU ({choice.gpu!r})")
    return gpus


@cache
def load(path: Path = DATA) -> tuple[Gpu, ...]:
    return tuple(parse(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()))
