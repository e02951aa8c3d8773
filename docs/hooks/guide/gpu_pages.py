"""The pages' GPU facts, rendered at build time from the one table (guide/gpus.py): ``{{ gpus.NAME ARG }}``.

    {{ gpus.chooser }}          the chooser's form, its data and its script (docs/choose.md)
    {{ gpus.table }}            every GPU, as a plain table (what the page shows without JavaScript)
    {{ gpus.paths }}            one section per path, with the set-up page's own commands for it
    {{ gpus.decision_table }}   why-directml.md's "which one for your GPU", one row per group of GPUs
    {{ gpus.backend_gpus B }}   the gfx targets and GPUs for which back-end B is on the vendor's list
    {{ gpus.gfx_list }}         the glossary's list: each gfx target and its GPUs
    {{ gpus.card GFX }}         the GPUs of one gfx target
    {{ gpus.gfx_examples }}     the set-up page's gfx targets for AMD's command, but for the example's
    {{ gpus.choices KEY }}      the processors behind an ambiguous name ("graphics", "840mgraphics"), each with its GPU

The install commands in {{ gpus.paths }} are read from docs/setup.md (setup.zh.md for the Chinese edition)
at build time, fence by fence, so the chooser shows exactly what the set-up page shows. An unknown NAME
fails the build.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
from pathlib import Path

from guide import ROOT, gpu_names, gpus, pins, recipes
from guide.placeholders import substitute

PATH_ORDER = ("rocm", "xpu", "directml", "therock", "cuda", "cpu")

TEXT = {
    "en": {
        "backend": {
            "directml": "torch-directml (this guide)",
            "rocm": "AMD PyTorch on Windows (ROCm)",
            "therock": "TheRock nightly packages",
            "xpu": "PyTorch XPU",
            "cuda": "PyTorch CUDA",
            "cpu": "the CPU",
        },
        "status": {
            "supported": "on the vendor's list",
            "prototype": "Prototype (PyTorch's label)",
            "nightly": "nightly builds",
            "build-only": "Build Passing only",
            "unlisted": "not on the vendor's list",
            "maintenance": "maintenance mode",
            "same-target": "not on the vendor's list by name; the vendor builds for its gfx target",
            "unsupported": "not supported",
        },
        "head": ["GPU (as Windows names it)", "Vendor, family", "gfx", "Windows 11", "Windows 10", "Back-ends"],
        "decision_head": ["Your GPU", "gfx", "Windows 11", "Windows 10", "Other options"],
        "else": "otherwise",
        "others": "the others",
        "sep": "; ",
        "colon": ": ",
        "paren": " ({})",
        "ask": "depends on the processor: see [below](#amd-radeontm-graphics)",
        "none": "—",
        "also": "also typed",
        "python": "Python",
        "windows": "Windows",
        "from_setup": "The commands of [Set up the environment]({link}), from that page:",
        "therock": "TheRock's install command is on its [release page]({url}) (the nightly index); "
        "this guide does not test it. Create the environment first, and verify afterwards:",
        "cpu_note": "No GPU back-end fits: PyTorch on the CPU.",
        "checked": "Statuses checked {dates} at the linked sources.",
        "on_list": "on the vendor's list",
        "ui": {
            "gpu": "Your GPU, as Windows names it",
            "win": "Windows",
            "py": "Your Python",
            "py_any": "not installed yet",
            "placeholder": "e.g. AMD Radeon RX 6700 XT",
        },
    },
    "zh": {
        "backend": {
            "directml": "torch-directml（本指南）",
            "rocm": "AMD 的 Windows 版 PyTorch（ROCm）",
            "therock": "TheRock nightly（每日构建）包",
            "xpu": "PyTorch XPU",
            "cuda": "PyTorch CUDA",
            "cpu": "CPU",
        },
        "status": {
            "supported": "在厂商列表中",
            "prototype": "Prototype（PyTorch 的标注）",
            "nightly": "nightly 版",
            "build-only": "仅 Build Passing",
            "unlisted": "不在厂商列表中",
            "same-target": "不在厂商列表中（按名称），但厂商为它的 gfx 目标提供构建",
            "maintenance": "维护模式",
            "unsupported": "不支持",
        },
        "head": ["显卡（Windows 显示的名称）", "厂商、系列", "gfx", "Windows 11", "Windows 10", "后端"],
        "decision_head": ["你的显卡", "gfx", "Windows 11", "Windows 10", "其他选择"],
        "else": "否则",
        "others": "其余",
        "sep": "；",
        "colon": "：",
        "paren": "（{}）",
        "ask": "取决于处理器：见[下文](#amd-radeontm-graphics)",
        "none": "—",
        "also": "也写作",
        "python": "Python",
        "windows": "Windows",
        "from_setup": "[配置环境]({link})页面上的命令，直接取自该页：",
        "therock": "TheRock 的安装命令在它的[发布页]({url})上（nightly 索引）；本指南不测试它。先创建环境，装完再验证：",
        "cpu_note": "没有合适的 GPU 后端：在 CPU 上运行 PyTorch。",
        "checked": "以下状态于 {dates} 对照所链接的来源核对。",
        "on_list": "在厂商列表中",
        "ui": {
            "gpu": "你的显卡（Windows 显示的名称）",
            "win": "Windows",
            "py": "你的 Python",
            "py_any": "还没装",
            "placeholder": "例如 AMD Radeon RX 6700 XT",
        },
    },
}
# gpus.yml's family labels that hold English words, in Chinese; every other label gets Chinese punctuation only
# (family_label(); tests/guide/test_gpus.py fails on a label with an English word that is not here).
FAMILY_ZH = {
    "Adreno (Snapdragon X, Windows on ARM)": "Adreno（Snapdragon X，ARM 版 Windows）",
    "Arc A-series (Alchemist)": "Arc A 系列（Alchemist）",
    "Arc B-series (Battlemage)": "Arc B 系列（Battlemage）",
    "Arc Pro A-series (Alchemist)": "Arc Pro A 系列（Alchemist）",
    "Arc Pro B-series (Battlemage)": "Arc Pro B 系列（Battlemage）",
    "Core Ultra 200S and others": "Core Ultra 200S 等",
    "Core Ultra series 3 (Panther Lake)": "Core Ultra 第 3 代（Panther Lake）",
    "GCN (older APU)": "GCN（较老的 APU）",
    "GeForce (any)": "GeForce（任意型号）",
    "HD / UHD / Iris Plus (older Core)": "HD / UHD / Iris Plus（较老的 Core 处理器）",
    "Iris Xe (11th - 14th gen Core)": "Iris Xe（第 11 – 14 代 Core）",
    "RTX A-series (Ampere)": "RTX A 系列（Ampere）",
    "RDNA 2 (Ryzen 7000 / 9000 desktop)": "RDNA 2（Ryzen 7000 / 9000 台式机）",
    "RDNA 3.5 (Ryzen AI 300 and 400)": "RDNA 3.5（Ryzen AI 300 和 400）",
    "Ryzen APU (any)": "Ryzen APU（任意型号）",
    "software adapter (no GPU driver)": "软件适配器（没有显卡驱动）",
}


def family_label(family: str, language: str) -> str:
    """A GPU's family label in the page's language: FAMILY_ZH's, or the label with Chinese brackets and commas."""
    if language != "zh":
        return family
    return FAMILY_ZH.get(family) or family.replace(" (", "（").replace(")", "）").replace(", ", "，")


SETUP_ANCHOR = {"directml": "setup.md#2-create-the-environment-and-install-torch-directml"}
OTHER_BACKENDS = "setup.md#other-back-ends-amd-rocm-intel-xpu-nvidia-cuda-cpu"
# The labels of the linked content tabs on the later pages (docs/javascripts/backend_tabs.js).
TAB_LABEL = {"directml": "DirectML", "rocm": "ROCm", "xpu": "XPU", "cuda": "CUDA", "cpu": "CPU", "therock": "ROCm"}
# Each path's group of the troubleshooting page.
TROUBLE = {
    "directml": "troubleshooting.md#installation",
    "cpu": "troubleshooting.md#installation",
    "rocm": "troubleshooting.md#amd-rocm-and-intel-xpu-on-windows",
    "therock": "troubleshooting.md#amd-rocm-and-intel-xpu-on-windows",
    "xpu": "troubleshooting.md#xpu-not-available",
    "cuda": "troubleshooting.md#torch-not-compiled-with-cuda",
}
SCRIPTS_ZIP = "guide-scripts.zip"  # at the site's root, built with the site (on_post_build)
# Every script of snippets/'s top level: each one a page tells the reader to run (doctor.py, verify_directml.py,
# verify_training.py, train_mnist.py, report.py, the benchmarks, check_mnist_files.py ...) and those they import.
# The troubleshooting and migration examples stay on their pages. gpu_devices.json, the table of GPU devices
# (docs/hooks/data/devices/build.py), goes with them: doctor.py names the reader's GPU from it.
SCRIPTS = tuple(sorted([*(p.name for p in (ROOT / "snippets").glob("*.py")), "gpu_devices.json"]))


RECIPE_TEXT = {
    "en": {
        "steps": "Your recipe",
        "jump": "Your commands, in order:",
        "driver": "Install the current {driver}",
        "min_none": "the vendor's page names no minimum version",
        "min": "{min} or newer for this build",
        "min_quoted": ": NVIDIA's release notes as others quote them; NVIDIA's [compatibility page]({source}) says 525 or newer",
        "python_own": "Create the environment with your Python {p}",
        "python_other": "{b} needs Python {a} – {z}; yours is {p}: install {v} beside it ([how]({how})), then create the environment with it",
        "python_none": "Install Python {v} ([how]({how})), then create the environment with it",
        "policy": "PowerShell says running scripts is disabled? [The one-line fix]({policy}).",
        "install": "Install PyTorch for this GPU",
        "install_rocm": "AMD's wheels for {gfx}",
        "install_cuda": {
            "cu130": "the CUDA 13.0 build (Turing and newer)",
            "cu126": "the CUDA 12.6 build: the last with kernels for Maxwell, Pascal and Volta (PyTorch 2.14)",
        },
        "unsettled": {
            "amd-rocm": "AMD's two stored revisions of its command file disagree on torchvision (0.29 or 0.29.0a0); this is the 0.29.0a0 one, which AMD's other notes list.",
            "pytorch-xpu": "PyTorch pins no version here: pip takes the newest on its XPU index.",
            "pytorch-cuda": "PyTorch pins no version here: pip takes the newest on that CUDA index.",
        },
        "mirror": "",
        "no_mirror": "",
        "scripts": "Get the scripts: [{zip}]({zip_href}) (every script of this guide, built with this site). Unpack it into the project folder, so that doctor.py sits beside .venv (Windows' Extract All: choose the project folder as the destination), or save them one by one ([set-up, step 5]({step5})).",
        "checks": "In the project folder, with the environment active: the doctor, the DirectML check, the training check, then train:",
        "mirrors": "Downloads slow or blocked (in China, for example)? [Mirrors and offline routes]({mirrors}).",
        "verify": "the DirectML check",
        "doctor": "the doctor",
        "training_check": "the training check",
        "training": "training",
        "trouble": "Something failed? [Troubleshooting: {b}]({href})",
        "fallback": "If {b} fails: {f} ([its commands](#path-{fb}-commands)).",
        "setup": "Every step in detail: [Set up the environment]({href}).",
        "ps": "PowerShell",
        "cmd": "cmd",
        "copy": "Copy",
        "copied": "Copied",
        "nojs": "With JavaScript off, find your GPU in [Every GPU](#every-gpu) (Ctrl+F), then its path's commands below.",
        "for_gfx": "For {gfx}: {cards}",
        "for_cuda": "For compute capability {archs}",
        "win10": "Windows 10 has been out of support since October 14, 2025: [what that means here](#windows-10).",
        "none": "No GPU of the table matches \u201c{name}\u201d. See the name Windows gives it with this guide's doctor.py or dxdiag, or look it up under Every GPU below.",
        "which": "Which one is it?",
        "like": "{name} ({target}) is the same chip as the {like} in the vendors' tables: its answer is the {like}'s, below.",
        "nopath": "{name} ({target}) is in the vendors' tables, but the guide has no path for it: see Every GPU below.",
        "how": "Not sure? Task Manager's Performance tab or dxdiag names it; this guide's doctor.py prints a link with the GPU's name.",
        "path": "Your path on Windows {w}: **{b}**. ",
        "fallback_short": "If it fails: {f}.",
        "same": "No other GPU back-end.",
        "title": "**{name}** \u2014 {family}",
        "comma": ", ",
        "colon": ":",
        "open": " (",
        "close": ")",
        "stop": ".",
        "py": " {b} needs Python {a} \u2013 {z}; yours is {p}: install {v} beside it.",
        "facts": "This GPU's back-ends",
        "sep": "; ",
        "driver_checked": "[the source]({source}), checked {checked}",
    },
    "zh": {
        "steps": "你的步骤",
        "jump": "你的命令，按顺序：",
        "driver": "安装最新的 {driver}",
        "min_none": "厂商页面没有写最低版本",
        "min": "这个构建需要 {min} 或更新",
        "min_quoted": "：这是别人引用的 NVIDIA 发行说明中的数字；NVIDIA 的[兼容性页面]({source})只写了 525 或更新",
        "python_own": "用你的 Python {p} 创建环境",
        "python_other": "{b} 需要 Python {a} – {z}；你的是 {p}：另装一个 {v} 与之并存（[怎么装]({how})），再用它创建环境",
        "python_none": "安装 Python {v}（[怎么装]({how})），再用它创建环境",
        "policy": "PowerShell 提示禁止运行脚本？[一行命令解决]({policy})。",
        "install": "为这块显卡安装 PyTorch",
        "install_rocm": "AMD 为 {gfx} 提供的 wheel",
        "install_cuda": {
            "cu130": "CUDA 13.0 构建，适用于 Turing 及更新的显卡",
            "cu126": "CUDA 12.6 构建：最后一个带 Maxwell、Pascal、Volta kernel 的构建（PyTorch 2.14）",
        },
        "unsettled": {
            "amd-rocm": "AMD 命令文件的两个存档版本对 torchvision 写法不一（0.29 或 0.29.0a0）；这里用 0.29.0a0，AMD 的其他说明也列这个版本。",
            "pytorch-xpu": "PyTorch 这里不锁定版本：pip 取其 XPU 索引上的最新版。",
            "pytorch-cuda": "PyTorch 这里不锁定版本：pip 取该 CUDA 索引上的最新版。",
        },
        "mirror": "国内网络：同一条命令走清华 PyPI 镜像（[换源说明]({china})）：",
        "no_mirror": "这个索引不在 PyPI 上，本指南没有核对过它的国内镜像；下载超时请看[国内网络]({china})。",
        "scripts": "获取脚本：[{zip}]({zip_href})（本指南的全部脚本，随本站一起生成）。解压到项目文件夹，让 doctor.py 与 .venv 并列（Windows 的“全部解压缩”：目标选项目文件夹），或者逐个保存（[配置环境第 5 步]({step5})）。",
        "checks": "在项目文件夹中、环境已激活时，依次运行诊断脚本、DirectML 检查、训练检查，然后训练：",
        "mirrors": "下载很慢或被墙？[镜像和离线安装]({mirrors})。",
        "verify": "DirectML 检查",
        "doctor": "诊断脚本",
        "training_check": "训练检查",
        "training": "训练",
        "trouble": "出错了？[常见问题：{b}]({href})",
        "mnist_china": "国内下载 MNIST 失败？见[下载服务器连不上时]({href})。",
        "fallback": "{b}不行时：{f}（[它的命令](#path-{fb}-commands)）。",
        "setup": "每一步的详细说明：[配置环境]({href})。",
        "ps": "PowerShell",
        "cmd": "cmd",
        "copy": "复制",
        "copied": "已复制",
        "nojs": "关掉 JavaScript 时：在[全部显卡](#every-gpu)里找到你的显卡（Ctrl+F），再看下面对应路线的命令。",
        "for_gfx": "{gfx}：{cards}",
        "for_cuda": "计算能力 {archs}",
        "win10": "Windows 10 自 2025 年 10 月 14 日起停止支持：[这对你意味着什么](#windows-10)。",
        "none": "表中没有与此匹配的显卡：\u201c{name}\u201d。用本指南的 doctor.py 或 dxdiag 查看 Windows 显示的名称，或在下面的“全部显卡”里找。",
        "which": "是哪一块？",
        "like": "按厂商的设备表，{name}（{target}）与 {like} 是同一芯片：下面是 {like} 的答案。",
        "nopath": "{name}（{target}）在厂商的设备表中，但本指南没有适合它的路线：见下面的“全部显卡”。",
        "how": "不知道？任务管理器的“性能”页或 dxdiag 会显示型号；本指南的 doctor.py 会打印带显卡名称的链接。",
        "path": "Windows {w} 上的路线：**{b}**。",
        "fallback_short": "不行时：{f}。",
        "same": "没有别的 GPU 后端。",
        "title": "**{name}** \u2014 {family}",
        "comma": "，",
        "colon": "：",
        "open": "（",
        "close": "）",
        "stop": "。",
        "py": "{b} 需要 Python {a} – {z}；你的是 {p}：装一个 {v} 与之并存即可。",
        "facts": "此显卡的各后端",
        "sep": "；",
        "driver_checked": "[来源]({source})，核对于 {checked}",
    },
}


class GpuPageError(ValueError):
    pass


# ------------------------------------------------------------------------------------- rendering


def _short(name: str) -> str:
    """Short names: "AMD Radeon RX 6700 XT" is "RX 6700 XT", "Intel(R) Arc(TM) B580 Graphics" is "Arc B580 Graphics"."""
    short = re.sub(r"^(AMD Radeon(\(TM\))? |Radeon |NVIDIA GeForce |Intel\(R\) )", "", name)
    short = re.sub(r"\((TM|R)\)", "", short)
    return "Intel Graphics" if short == "Graphics" else short  # "Intel(R) Graphics" keeps its vendor


def _link(text: str, url: str) -> str:
    return f"[{text}]({url})"


def _path_cell(gpu, version: str, t: dict) -> str:
    if gpu.ambiguous:
        return t["ask"]
    path, fallback = gpu.path[version], gpu.fallback[version]
    main = f"**{t['backend'][path]}**"
    return main if fallback == path else f"{main}{t['sep']}{t['else']} {t['backend'][fallback]}"


def _support_cell(gpu, t: dict) -> str:
    parts = []
    for s in gpu.support:
        note = s.note_zh if t is TEXT["zh"] else s.note
        parts.append(
            f"{t['backend'][s.backend]}{t['colon']}{_link(t['status'][s.status], s.source)}"
            + (t["paren"].format(note) if note else "")
        )
    return t["sep"].join(parts) or t["none"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _groups():
    groups: dict[tuple, list] = {}
    for gpu in gpus.load():
        if gpu.ambiguous:
            continue
        key = (gpu.group, gpu.path["11"], gpu.fallback["11"], gpu.path["10"], gpu.fallback["10"])
        groups.setdefault(key, []).append(gpu)
    return groups


def decision_table(language: str) -> str:
    t = TEXT[language]
    rows = ["| " + " | ".join(t["decision_head"]) + " |", "|" + " --- |" * len(t["decision_head"])]
    for (_group, p11, f11, p10, f10), members in _groups().items():
        names = ", ".join(_short(g.name) for g in members)
        gfx = ", ".join(dict.fromkeys(f"`{g.gfx}`" for g in members if g.gfx)) or t["none"]
        used = {p11, f11, p10, f10}
        other: dict[tuple, tuple] = {}
        for g in members:
            for s in g.support:
                if s.backend not in used:
                    other.setdefault((s.backend, s.status), (s.source, []))[1].append(_short(g.name))
        parts = []
        for (b, st), (url, cards) in other.items():
            # A back-end with two statuses in one row says which GPUs have which (the PRO W6800 is on AMD's
            # list, the RX 6800 XT is not): never "on" and "not on" the list side by side, unexplained.
            sizes = [len(v[1]) for key, v in other.items() if key[0] == b]
            label = "" if len(sizes) == 1 else t["others"] if len(cards) == max(sizes) else ", ".join(cards)
            parts.append(
                f"{t['backend'][b]}{t['colon']}{_link(t['status'][st], url)}"
                + (t["paren"].format(label) if label else "")
            )
        others = t["sep"].join(parts)
        rows.append(
            "| "
            + " | ".join(
                _cell(c)
                for c in (
                    names,
                    gfx,
                    _path_cell(members[0], "11", t),
                    _path_cell(members[0], "10", t),
                    others or t["none"],
                )
            )
            + " |"
        )
    return "\n".join(rows)


def _by_gfx(select=lambda g: True) -> dict[str, list]:
    found: dict[str, list] = {}
    for gpu in gpus.load():
        if gpu.gfx and select(gpu):
            found.setdefault(gpu.gfx, []).append(gpu)
    return dict(sorted(found.items(), key=lambda item: (len(item[0]), item[0]), reverse=True))


def gfx_list(language: str) -> str:
    return "\n".join(f"- `{gfx}`: " + ", ".join(_short(g.name) for g in members) for gfx, members in _by_gfx().items())


def card(language: str, gfx: str) -> str:
    members = _by_gfx().get(gfx)
    if not members:
        raise GpuPageError(f"gpus.card {gfx}: no GPU of the table has that gfx target")
    return " / ".join(_short(g.name) for g in members) + f" (`{gfx}`)"


def _on_rocm_list(gpu) -> bool:
    support = gpu.backend("rocm")
    return support is not None and support.status == "supported" and support.source.endswith("gpu-selector-pytorch.rst")


def gfx_examples(language: str, except_gfx: str = "gfx1100") -> str:
    joiner = "；" if language == "zh" else "; "
    return joiner.join(
        f"`{gfx}` " + " / ".join(_short(g.name) for g in members)
        for gfx, members in _by_gfx(_on_rocm_list).items()
        if gfx != except_gfx
    )


def backend_gpus(language: str, backend: str) -> str:
    if backend not in gpus.BACKENDS:
        raise GpuPageError(f"gpus.backend_gpus {backend}: unknown back-end")
    t = TEXT[language]
    lines = []
    for status in ("supported", "prototype", "nightly", "build-only"):
        targets = _by_gfx(lambda g, status=status: (s := g.backend(backend)) is not None and s.status == status)
        if targets:
            source = targets[next(iter(targets))][0].backend(backend).source
            colon, comma = ("：", "、") if language == "zh" else (": ", ", ")
            lines.append(_link(t["status"][status], source) + colon + comma.join(f"`{gfx}`" for gfx in targets))
    if not lines:
        raise GpuPageError(f"gpus.backend_gpus {backend}: no GPU of the table has it")
    return (
        ("；" if language == "zh" else "; ").join(lines)
        + " (["
        + ("每块显卡" if language == "zh" else "each GPU")
        + "](choose.md#every-gpu))"
    )


def _href(target: str) -> str:
    """A page link as the chooser's script writes it from choose/: "setup.md#x" is "../setup/#x"."""
    page, _, anchor = target.partition("#")
    return "../" + page.removesuffix(".md") + "/" + (f"#{anchor}" if anchor else "")


def _zip_href(language: str) -> str:
    """The scripts' archive at the site's root, from choose/ (English) or zh/choose/."""
    return ("../../" if language == "zh" else "../") + SCRIPTS_ZIP


def _python_anchor() -> str:
    return "setup.md#1-install-python-" + pins.load_pins()["python"].replace(".", "")


def _links() -> dict:
    return {
        "how": _python_anchor(),
        "policy": SETUP_ANCHOR["directml"],
        "step5": "setup.md#5-get-the-scripts",
        "china": "setup.md#china-network",
        "mirrors": "setup.md#china-mirrors",
        "doctor": "verification.md#start-with-the-doctor",
        "verify": "verification.md#run-it",
        "training_check": "verification.md#check-training-too",
        "training": "mnist-training.md",
        "setup": OTHER_BACKENDS,
    }


def _driver(key: str, language: str = "en") -> dict:
    """A driver entry of vendor_index.yml by recipes.driver_key ("intel-7th-10th", "nvidia:cu126"), its label
    in ``language`` (label_zh for the Chinese edition)."""
    name, _, build = key.partition(":")
    driver = recipes.vendor_index()["drivers"][name]
    minimum = driver["minimum"]
    return {
        "label": driver["label_zh"] if language == "zh" else driver["label"],
        "url": driver["url"],
        "min": minimum.get(build) if isinstance(minimum, dict) else minimum,
        "source": driver["source"],
        "checked": str(driver["checked"]),
        "quoted": build in driver.get("minimum_quoted", []),
    }


def _driver_sentence(key: str, language: str) -> str:
    """The recipe's first step: the driver's page, the minimum version where a source names one, and that source
    with the date it was read there."""
    r, d = RECIPE_TEXT[language], _driver(key, language)
    if d["min"]:
        minimum = r["min"].format(min=d["min"]) + (r["min_quoted"].format(source=d["source"]) if d["quoted"] else "")
    else:
        minimum = r["min_none"]
    checked = r["driver_checked"].format(source=d["source"], checked=d["checked"])
    return (
        r["driver"].format(driver=f"[{d['label']}]({d['url']})")
        + r["open"]
        + minimum
        + r["sep"]
        + checked
        + r["close"]
        + r["stop"]
    )


def _install_what(key: str, language: str) -> str:
    r = RECIPE_TEXT[language]
    backend, _, arg = key.partition(":")
    if backend == "rocm":
        return r["install_rocm"].format(gfx=arg)
    if backend == "cuda":
        return r["install_cuda"][arg]
    return ""


def _unsettled_name(key: str) -> str | None:
    return {"rocm": "amd-rocm", "xpu": "pytorch-xpu", "cuda": "pytorch-cuda"}.get(key.partition(":")[0])


def _fence(code: str, title: str = "", language: str = "powershell") -> str:
    return f"```{language}" + (f' title="{title}"' if title else "") + f"\n{code}\n```"


def _installs_of(backend: str) -> dict[str, list]:
    """Each install key of a back-end, with the GPUs that get it (the ROCm one per gfx target)."""
    found: dict[str, list] = {}
    for gpu in gpus.load():
        if gpu.ambiguous or backend not in {*gpu.path.values(), *gpu.fallback.values()}:
            continue
        found.setdefault(recipes.install_key(gpu, backend), []).append(gpu)
    return dict(sorted(found.items()))


def paths(language: str) -> str:
    """One section per path, for the reader without JavaScript and for the answer's fallback: its driver, its
    environment, its install commands (the ROCm one for each gfx target, the CUDA one for each build), the
    scripts and the checks. Built from the same data as the chooser's answer (guide/recipes.py)."""
    t, r = TEXT[language], RECIPE_TEXT[language]
    links = _links()
    out = []
    for backend in PATH_ORDER:
        installs = _installs_of(backend)
        if not installs and backend != "cpu":
            continue  # TheRock: no GPU of the table has it as its path or fallback
        python = gpus.BACKENDS[backend]["python"]
        source, checked = gpus.BACKEND_SOURCES[backend]
        facts = f"{t['windows']} {' / '.join(gpus.BACKENDS[backend]['windows'])}"
        if python:
            facts += f" · {t['python']} {python[0]} – {python[1]}"
        facts += " (" + _link(("核对于 " if language == "zh" else "checked ") + checked, source) + ")"
        keys = dict.fromkeys(recipes.driver_key(g, backend) for gs in installs.values() for g in gs)
        found = {_driver(k)["url"]: _driver(k, language)["label"] for k in keys} or {
            _driver("microsoft")["url"]: _driver("microsoft", language)["label"]
        }
        drivers = "; ".join(_link(label, url) for url, label in found.items())
        guide_python = recipes.python_for(backend, None)[0]
        venv = recipes.venv_commands(guide_python)
        stop, colon = ("。", "：") if language == "zh" else (".", ":")
        body = [
            f"{t['cpu_note']}" if backend == "cpu" else "",
            f"**1.** {r['driver'].format(driver=drivers)}{stop}",
            f"**2.** {r['python_none'].format(v=guide_python, how=links['how'])}{colon}",
            _fence(venv["powershell"], r["ps"]),
            _fence(venv["cmd"], r["cmd"], "bat"),
            r["policy"].format(policy=links["policy"]),
            f"**3.** {r['install']}{colon}",
        ]
        if not installs:
            installs = {"cpu": []}
        for key, members in installs.items():
            backend_key, _, arg = key.partition(":")
            if backend_key == "rocm":
                cards = " / ".join(_short(g.name) for g in members)
                body.append(r["for_gfx"].format(gfx=f"**`{arg}`**", cards=cards) + f"\n{{: #path-rocm-{arg} }}")
            elif backend_key == "cuda":
                archs = ", ".join(recipes.vendor_index()["published"]["pytorch-cuda"]["architectures"][arg])
                body.append(
                    f"**{arg}**: {r['install_cuda'][arg]}. "
                    + r["for_cuda"].format(archs=archs)
                    + f".\n{{: #path-cuda-{arg} }}"
                )
            body.append(_fence(recipes.install_command(key)))
            mirror = recipes.mirror_command(key)
            if language == "zh":
                body.append(
                    r["mirror"].format(china=links["china"]) + "\n\n" + _fence(mirror)
                    if mirror
                    else r["no_mirror"].format(china=links["china"])
                )
        note = _unsettled_name(next(iter(installs)))
        if note:
            body.append(r["unsettled"][note])
        scripts = r["scripts"].replace("[{zip}]({zip_href})", f'<a href="{_zip_href(language)}">{SCRIPTS_ZIP}</a>')
        body.append("**4.** " + scripts.format(step5=links["step5"]))
        body.append("**5.** " + r["checks"])
        body.append(_fence("\n".join(recipes.checks(backend))))
        body.append(
            f"[{r['doctor']}]({links['doctor']}) · [{r['training_check']}]({links['training_check']}) · "
            f"[{r['training']}]({links['training']}) · "
            + r["trouble"].format(b=t["backend"][backend], href=TROUBLE[backend])
        )
        out.append(
            f'<div class="chooser-path" id="path-{backend}" data-path="{backend}" markdown>\n\n'
            f"### {t['backend'][backend]} {{#path-{backend}-commands}}\n\n{facts}\n\n"
            + "\n\n".join(b for b in body if b)
            + "\n\n</div>"
        )
    return "\n\n".join(out)


def table(language: str) -> str:
    """Every GPU, one entry each: what the chooser answers, for the reader without JavaScript. A list, not a
    table of six columns: on a phone each entry wraps to the screen, and the browser's find reaches it."""
    t = TEXT[language]
    sep = "；" if language == "zh" else "; "
    entries = []
    for gpu in gpus.load():
        if gpu.aliases and language == "zh":
            name = f"**{gpu.name}**（{t['also']}：{'、'.join(gpu.aliases)}）"
        else:
            name = f"**{gpu.name}**" + (f" ({t['also']}: {', '.join(gpu.aliases)})" if gpu.aliases else "")
        vendor = gpu.vendor.upper() if gpu.vendor == "amd" else gpu.vendor.capitalize()
        facts = [vendor + ("，" if language == "zh" else ", ") + family_label(gpu.family, language)]
        if gpu.gfx:
            facts.append(_link(f"`{gpu.gfx}`", gpu.gfx_source))
        if gpu.cuda_cc:
            facts.append(_link(f"compute {gpu.cuda_cc}", gpu.cuda_cc_source))
        if gpu.ambiguous:
            where = "#amd-radeontm-graphics" if gpu.vendor == "amd" else "#path-cuda-commands"
            paths_text = (
                (gpu.question_zh if language == "zh" else gpu.question)
                + " "
                + " / ".join(f"{c.label_zh if language == 'zh' else c.label}: {c.gpu}" for c in gpu.choices)
                + f" ([→]({where}))"
            )
        else:
            parts = []
            for version in ("11", "10"):
                path, fallback = gpu.path[version], gpu.fallback[version]
                key = recipes.install_key(gpu, path)
                anchor = (
                    f"#path-rocm-{gpu.gfx}"
                    if path == "rocm"
                    else f"#path-cuda-{key.partition(':')[2]}"
                    if path == "cuda"
                    else f"#path-{path}-commands"
                )
                text = f"{t['windows']} {version}{t['colon']}" + _link(f"**{t['backend'][path]}**", anchor)
                if fallback != path:
                    text += ("，" if language == "zh" else ", ") + f"{t['else']} {t['backend'][fallback]}"
                parts.append(text)
            paths_text = sep.join(parts)
        stop, comma = ("。", "，") if language == "zh" else (". ", ", ")
        entries.append(
            f"- {name}{t['colon']}{comma.join(facts)}{stop}{paths_text}{stop}{t['head'][5]}{t['colon']}"
            + _support_cell(gpu, t)
        )
    dates = sorted({s.checked for g in gpus.load() for s in g.support} | {g.gfx_checked for g in gpus.load() if g.gfx})
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} – {dates[-1]}"
    # Out of the search index: 100 entries of GPU names, families and statuses would match every message
    # that names a GPU ahead of the section that answers it. Class gpu-table: laid out only near the screen.
    return (
        t["checked"].format(dates=span)
        + '\n\n<div class="gpu-table" data-search-exclude markdown>\n\n'
        + "\n".join(entries)
        + "\n\n</div>"
    )


def _python_step(made, language: str, links: dict) -> list[list]:
    """Step 2: the Python to make the environment with (the reader's, where the back-end has it), and how."""
    r, label = RECIPE_TEXT[language], TEXT[language]["backend"]
    low, high = recipes.python_range(made.backend)
    if made.own_python:
        text = r["python_own"].format(p=made.python)
    elif made.asked:
        text = r["python_other"].format(
            b=label[made.backend], a=low, z=high, p=made.asked, v=made.python, how=links["how"]
        )
    else:
        text = r["python_none"].format(v=made.python, how=links["how"])
    return [
        ["p", text + r["colon"]],
        ["code", made.venv["powershell"], r["ps"]],
        ["code", made.venv["cmd"], r["cmd"]],
        ["p", r["policy"].format(policy=links["policy"])],
    ]


def _install_step(made, language: str, links: dict) -> list[list]:
    """Step 3: the install command built for this GPU, what no source settles about it, its PyPI mirror form in
    the Chinese edition (or why there is none), and set-up's route for blocked downloads."""
    r = RECIPE_TEXT[language]
    what = _install_what(made.install_key, language)
    step = [["p", r["install"] + (r["open"] + what + r["close"] if what else "") + r["colon"]], ["code", made.install]]
    note = _unsettled_name(made.install_key)
    if note:
        step.append(["note", r["unsettled"][note]])
    if language == "zh" and made.mirror:
        step += [["p", r["mirror"].format(china=links["china"])], ["code", made.mirror]]
    elif language == "zh":
        step.append(["p", r["no_mirror"].format(china=links["china"])])
    step.append(["p", r["mirrors"].format(mirrors=links["mirrors"])])
    return step


def _recipe(made, language: str, links: dict) -> list[list]:
    """The numbered steps, in set-up's order: driver, environment, install, scripts, the checks, troubleshooting."""
    r, label = RECIPE_TEXT[language], TEXT[language]["backend"]
    scripts = r["scripts"].format(zip=SCRIPTS_ZIP, zip_href=_zip_href(language), step5=links["step5"])
    pages = r["sep"].join(f"[{r[k]}]({links[k]})" for k in ("doctor", "verify", "training_check", "training"))
    trouble = r["trouble"].format(b=label[made.backend], href=_href(TROUBLE[made.backend]))
    return [
        ["step", [["p", _driver_sentence(made.driver, language)]]],
        ["step", _python_step(made, language, links)],
        ["step", _install_step(made, language, links)],
        ["step", [["p", scripts]]],
        ["step", [["p", r["checks"]], ["code", "\n".join(made.checks)], ["p", pages], *_mnist_china(language)]],
        ["step", [["p", trouble]]],
    ]


def _mnist_china(language: str) -> list[list]:
    """Under the checks' commands, whose last downloads MNIST: where to turn when its hosts are unreachable
    from China (the Chinese edition only; the training page says why and what else to use)."""
    if language != "zh":
        return []
    href = _href("mnist-training.md#when-the-download-hosts-are-unreachable")
    return [["p", RECIPE_TEXT["zh"]["mnist_china"].format(href=href)]]


def _nodes(made, gpu, language: str, links: dict) -> list[list]:
    """One answer as the nodes chooser.js renders: ["p", sentence] (with [text](href) and **bold**), ["note", sentence],
    ["code", text, label], ["step", [nodes]] (the steps of one numbered recipe), ["runs"], ["details", summary,
    [sentences]]. Every command in it is the recipe's (guide/recipes.py)."""
    t, r = TEXT[language], RECIPE_TEXT[language]
    label = t["backend"]
    path, fallback = made.backend, made.fallback
    title = r["title"].format(name=gpu.name, family=family_label(gpu.family, language))
    after = r["same"] if fallback == path else r["fallback_short"].format(f=label[fallback])
    nodes = [
        ["p", title + (r["comma"] + gpu.gfx if gpu.gfx else "")],
        ["p", r["path"].format(w=made.windows, b=label[path]) + after],
    ]
    if made.windows == "10":
        nodes.append(["p", r["win10"]])
    nodes += _recipe(made, language, links)
    if fallback != path:
        text = r["fallback"].format(b=label[path], f=label[fallback], fb=fallback)
        span = gpus.BACKENDS[fallback]["python"]
        if span and made.asked and not recipes.python_for(fallback, made.asked)[1]:
            text += r["py"].format(b=label[fallback], a=span[0], z=span[1], p=made.asked, v=span[1])
        nodes.append(["p", text])
    nodes += [["p", r["setup"].format(href=links["setup"])], ["runs"]]
    if gpu.support:
        facts = [
            f"{label[s.backend]}{t['colon']}[{t['status'][s.status]}]({s.source})"
            + (r["open"] + (s.note_zh if language == "zh" else s.note) + r["close"] if s.note else "")
            for s in gpu.support
        ]
        nodes.append(["details", r["facts"], facts])
    return nodes


def chooser_data(language: str) -> dict:
    """The chooser's answers, for chooser.js: every answer computed here from recipes.table(), one per GPU of
    gpus.yml. Reading the typed name is match.js's (docs/javascripts/gpu/match.js), on the table that
    write_chooser_table puts beside the scripts. Equal nodes are written once: an answer is a list of their
    numbers."""
    r = RECIPE_TEXT[language]
    nodes: list[list] = []
    number: dict[str, int] = {}

    def ids(answer: list[list]) -> list[int]:
        out = []
        for node in answer:
            key = json.dumps(node, ensure_ascii=False)
            if key not in number:
                number[key] = len(nodes)
                nodes.append(node)
            out.append(number[key])
        return out

    entries = []
    table = recipes.table()
    links = {k: _href(v) for k, v in _links().items()}
    for gpu in gpus.load():
        entry = {"name": gpu.name}
        if gpu.ambiguous:
            title = r["title"].format(name=gpu.name, family=family_label(gpu.family, language))
            entry["ask"] = ids([["p", title], ["p", gpu.question_zh if language == "zh" else gpu.question]])
            entry["choices"] = [[c.gpu, c.label_zh if language == "zh" else c.label] for c in gpu.choices]
        else:
            entry["tab"] = {w: TAB_LABEL[gpu.path[w]] for w in gpus.WINDOWS}
            entry["paths"] = {w: [gpu.path[w], gpu.fallback[w]] for w in gpus.WINDOWS}
            entry["answers"] = {
                w: {p: ids(_nodes(table[(gpu.name, w, p)], gpu, language, links)) for p in ("", *recipes.PYTHONS)}
                for w in gpus.WINDOWS
            }
        entries.append(entry)
    return {
        "gpus": entries,
        "nodes": nodes,
        "text": {k: r[k] for k in ("none", "which", "how", "copy", "copied", "like", "nopath")},
    }


CHOOSER_TABLE = "javascripts/gpu/table.json"


def write_chooser_table(site_dir: Path) -> Path:
    """table.json beside the chooser's scripts: the guide's GPUs and the device table, joined by target
    (guide/gpu_names.py), for match.js in the page."""
    target = site_dir / CHOOSER_TABLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(gpu_names.table(), ensure_ascii=True, separators=(",", ":")), encoding="utf-8")
    return target


def chooser(language: str, script_url: str) -> str:
    ui = TEXT[language]["ui"]
    options = "".join(f'<option value="{p}">{p}</option>' for p in recipes.PYTHONS)
    names = "".join(f'<option value="{html.escape(g.name)}"></option>' for g in gpus.load())
    data = json.dumps(chooser_data(language), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    nojs = (
        RECIPE_TEXT[language]["nojs"]
        .replace("[Every GPU](#every-gpu)", '<a href="#every-gpu">Every GPU</a>')
        .replace("[全部显卡](#every-gpu)", '<a href="#every-gpu">全部显卡</a>')
    )
    return (
        # Visible from the first paint (no layout shift when the script starts); hidden only without JavaScript.
        f'<noscript><style>#chooser{{display:none}}</style><p class="chooser-nojs">{nojs}</p></noscript>'
        '<form class="chooser" id="chooser">'
        f'<p><label for="chooser-gpu">{ui["gpu"]}</label>'
        f'<input id="chooser-gpu" name="gpu" list="chooser-names" autocomplete="off" spellcheck="false" '
        f'placeholder="{html.escape(ui["placeholder"])}"></p>'
        f'<datalist id="chooser-names">{names}</datalist>'
        f"<fieldset><legend>{ui['win']}</legend>"
        '<label><input type="radio" name="win" value="11" checked> Windows 11</label> '
        '<label><input type="radio" name="win" value="10"> Windows 10</label></fieldset>'
        f'<p><label for="chooser-py">{ui["py"]}</label> <select id="chooser-py" name="py">'
        f'<option value="">{ui["py_any"]}</option>{options}</select></p>'
        "</form>"
        # The answer; inside it, the script leaves <div id="chooser-runs"></div> for the readers' reported
        # runs of that GPU (another script fills it).
        '<div class="chooser-answer" id="chooser-answer" aria-live="polite"></div>'
        f'<script type="application/json" id="chooser-data">{data}</script>'
        f'<script src="{script_url.replace("chooser.js", "gpu/match.js")}" defer></script>'
        f'<script src="{script_url}" defer></script>'
    )


def build_scripts_zip(site_dir: Path) -> Path:
    """guide-scripts.zip at the site's root: the scripts a reader saves, from snippets/, dated for a
    reproducible file. They sit at the archive's top, with no folder around them: unpacked into the project
    folder, as the chooser's answer says, doctor.py is where the answer's next command looks for it."""
    target = site_dir / SCRIPTS_ZIP
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in SCRIPTS:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (ROOT / "snippets" / name).read_bytes())
    return target


SEARCH_NAMES = "javascripts/search/gpus.json"


def search_names() -> list[str]:
    """Every GPU's name and aliases, as the site search reads a query against them (docs/javascripts/search/
    pipeline.js, namesGpu: a query naming one lists the GPU table's section among its first three)."""
    return [name for gpu in gpus.load() for name in (gpu.name, *gpu.aliases)]


def write_search_names(site_dir: Path) -> Path:
    """gpus.json beside the search's scripts: the GPU table's names (the table is out of the search index)."""
    target = site_dir / SEARCH_NAMES
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(search_names(), ensure_ascii=False), encoding="utf-8")
    return target


def on_post_build(config):  # MkDocs hook signature
    build_scripts_zip(Path(config["site_dir"]))
    write_search_names(Path(config["site_dir"]))
    write_chooser_table(Path(config["site_dir"]))


def slug(name: str) -> str:
    """A GPU's name as a placeholder's argument: "AMD Radeon(TM) Graphics" is amd-radeon-tm-graphics."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def choices(language: str, key: str) -> str:
    """The processors behind one ambiguous name (its slug: amd-radeon-tm-graphics), each with the GPU it
    settles on."""
    found = [g for g in gpus.load() if g.ambiguous and slug(g.name) == key]
    if len(found) != 1:
        raise GpuPageError(f"gpus.choices {key}: no GPU with choices has this slug")
    return "\n".join(f"- {c.label_zh if language == 'zh' else c.label}: {c.gpu}" for c in found[0].choices)


def render(markdown: str, language: str, script_url: str = "javascripts/chooser.js") -> str:
    """``markdown`` with every {{ gpus.NAME ARG }} rendered for ``language`` ('en' or 'zh')."""

    def replace(name: str, arg: str | None) -> str:
        if name == "chooser":
            return chooser(language, script_url)
        renderers = {
            "table": table,
            "paths": paths,
            "decision_table": decision_table,
            "gfx_list": gfx_list,
            "gfx_examples": gfx_examples,
        }
        with_arg = {"backend_gpus": backend_gpus, "card": card, "choices": choices}
        if name in renderers and arg is None:
            return renderers[name](language)
        if name in with_arg and arg is not None:
            return with_arg[name](language, arg)
        placeholder = f"{{{{ gpus.{name}{' ' + arg if arg else ''} }}}}"
        raise GpuPageError(f"unknown placeholder {placeholder!r} (see docs/hooks/guide/gpu_pages.py)")

    return substitute(markdown, "gpus", replace)


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    from mkdocs.exceptions import PluginError
    from mkdocs.utils import get_relative_url

    if "{{" not in markdown or "gpus." not in markdown:
        return markdown
    language = "zh" if page.file.src_uri.endswith(".zh.md") else "en"
    try:
        return render(markdown, language, get_relative_url("javascripts/chooser.js", page.file.url))
    except (GpuPageError, gpus.GpuDataError) as error:
        raise PluginError(f"{page.file.src_path}: {error}") from None
