"""The pages' GPU facts, rendered at build time from the one table (guide/gpus.py): ``{{ gpus.NAME ARG }}``.

    {{ gpus.chooser }}          the chooser's form, its data and its script (docs/choose.md)
    {{ gpus.table }}            every GPU, as a plain table (what the page shows without JavaScript)
    {{ gpus.paths }}            one section per path, with the set-up page's own commands for it
    {{ gpus.decision_table }}   why-directml.md's "which one for your GPU", one row per group of GPUs
    {{ gpus.backend_gpus B }}   the gfx targets and GPUs for which back-end B is on the vendor's list
    {{ gpus.gfx_list }}         the glossary's list: each gfx target and its GPUs
    {{ gpus.card GFX }}         the GPUs of one gfx target
    {{ gpus.gfx_examples }}     the set-up page's gfx targets for AMD's command, but for the example's
    {{ gpus.choices }}          the processors behind "AMD Radeon(TM) Graphics", each with its GPU

The install commands in {{ gpus.paths }} are read from docs/setup.md (setup.zh.md for the Chinese edition)
at build time, fence by fence, so the chooser shows exactly what the set-up page shows. An unknown NAME
fails the build.
"""

from __future__ import annotations

import html
import json
import re
import textwrap
from pathlib import Path

from guide import DOCS, gpus

PLACEHOLDER = re.compile(r"\{\{\s*gpus\.([a-z_]+)(?:\s+([\w.-]+))?\s*\}\}")
PATH_ORDER = ("rocm", "xpu", "directml", "therock", "cuda", "cpu")

TEXT = {
    "en": {
        "backend": {"directml": "torch-directml (this guide)", "rocm": "AMD PyTorch on Windows (ROCm)",
                    "therock": "TheRock nightly packages", "xpu": "PyTorch XPU", "cuda": "PyTorch CUDA",
                    "cpu": "the CPU"},
        "status": {"supported": "on the vendor's list", "prototype": "Prototype (PyTorch's label)",
                   "nightly": "nightly builds", "build-only": "Build Passing only",
                   "unlisted": "not on the vendor's list", "maintenance": "maintenance mode",
                   "same-target": "not on the vendor's list by name; the vendor builds for its gfx target",
                   "unsupported": "not supported"},
        "head": ["GPU (as Windows names it)", "Vendor, family", "gfx", "Windows 11", "Windows 10", "Back-ends"],
        "decision_head": ["Your GPU", "gfx", "Windows 11", "Windows 10", "Other options"],
        "else": "otherwise", "ask": "depends on the processor: see [below](#amd-radeontm-graphics)",
        "none": "—", "also": "also typed", "python": "Python", "windows": "Windows",
        "from_setup": "The commands of [Set up the environment]({link}), from that page:",
        "therock": "TheRock's install command is on its [release page]({url}) (the nightly index); "
                   "this guide does not test it. Create the environment first, and verify afterwards:",
        "cpu_note": "No GPU back-end fits: PyTorch on the CPU.",
        "checked": "Statuses checked {dates} at the linked sources.",
        "on_list": "on the vendor's list",
        "ui": {"gpu": "Your GPU, as Windows names it", "win": "Windows", "py": "Your Python",
               "py_any": "not installed yet", "placeholder": "e.g. AMD Radeon RX 6700 XT"},
    },
    "zh": {
        "backend": {"directml": "torch-directml（本指南）", "rocm": "AMD 的 Windows 版 PyTorch（ROCm）",
                    "therock": "TheRock 每夜构建包", "xpu": "PyTorch XPU", "cuda": "PyTorch CUDA",
                    "cpu": "CPU"},
        "status": {"supported": "在厂商列表中", "prototype": "Prototype（PyTorch 的标注）",
                   "nightly": "每夜构建", "build-only": "仅 Build Passing", "unlisted": "不在厂商列表中",
                   "same-target": "不在厂商列表中（按名称），但厂商为它的 gfx 目标提供构建",
                   "maintenance": "维护模式", "unsupported": "不支持"},
        "head": ["显卡（Windows 显示的名称）", "厂商、系列", "gfx", "Windows 11", "Windows 10", "后端"],
        "decision_head": ["你的显卡", "gfx", "Windows 11", "Windows 10", "其他选择"],
        "else": "否则", "ask": "取决于处理器：见[下文](#amd-radeontm-graphics)",
        "none": "—", "also": "也写作", "python": "Python", "windows": "Windows",
        "from_setup": "[配置环境]({link})页面上的命令，直接取自该页：",
        "therock": "TheRock 的安装命令在它的[发布页]({url})上（每夜构建索引）；本指南不测试它。先创建环境，装完再验证：",
        "cpu_note": "没有合适的 GPU 后端：在 CPU 上运行 PyTorch。",
        "checked": "各状态于 {dates} 在所链接的来源处核对。",
        "on_list": "在厂商列表中",
        "ui": {"gpu": "你的显卡（Windows 显示的名称）", "win": "Windows", "py": "你的 Python",
               "py_any": "还没装", "placeholder": "例如 AMD Radeon RX 6700 XT"},
    },
}
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
SETUP_ANCHOR = {"directml": "setup.md#2-create-the-environment-and-install-torch-directml"}
OTHER_BACKENDS = "setup.md#other-back-ends-amd-rocm-intel-xpu-nvidia-cuda-cpu"
SETUP_TAB = {"rocm": "AMD ROCm on Windows", "xpu": "Intel XPU", "cuda": "NVIDIA CUDA", "cpu": "CPU-only",
             "directml": "torch-directml"}
FENCE = re.compile(r"^(`{3,})(\w+)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)


class GpuPageError(ValueError):
    pass


# ------------------------------------------------------------------------ the set-up page's commands


def _section(text: str, heading_start: str) -> str:
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading_start)), None)
    if start is None:
        raise GpuPageError(f"setup page: no heading starting {heading_start!r}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start + 1:end])


def _tab(text: str, title: str, indent: str = "") -> str:
    """The body of the content tab ``=== "title"`` at ``indent``, de-indented.

    An edition may translate a tab's title (guide.i18n.TAB_TITLES): the translated title counts too.
    """
    from guide.i18n import TAB_TITLES

    lines = text.splitlines()
    titles = [title] + [names[title] for names in TAB_TITLES.values() if title in names]
    openers = {f'{indent}=== "{name}"' for name in titles}
    start = next((i for i, line in enumerate(lines) if line.rstrip() in openers), None)
    if start is None:
        raise GpuPageError(f"setup page: no tab {title!r}")
    body = []
    for line in lines[start + 1:]:
        if line.strip() and not line.startswith(indent + "    "):
            break
        body.append(line)
    return textwrap.dedent("\n".join(body))


def _fences(text: str) -> list[str]:
    return [m.group(0) for m in FENCE.finditer(text) if m.group(2) in {"powershell", "bat"}]


def setup_commands(setup: Path) -> dict[str, list[str]]:
    """Path -> the set-up page's fences for it (install, then verify and train), as the page has them."""
    text = setup.read_text(encoding="utf-8")
    other = _section(text, "## Other back-ends") if "## Other back-ends" in text else _section(text, "## 其他后端")
    venv = _tab(_section(text, "## 2. "), "venv")
    commands = {b: _fences(_tab(other, title)) for b, title in SETUP_TAB.items() if b != "directml"}
    commands["directml"] = (_fences(_tab(venv, "PowerShell")) + _fences(_tab(venv, "cmd"))
                            + _fences(_tab(other, SETUP_TAB["directml"])))
    rocm = commands["rocm"]
    commands["therock"] = [rocm[0], rocm[-1]]  # the environment, then verify and train
    for backend, fences in commands.items():
        if not fences:
            raise GpuPageError(f"{setup.name}: no commands found for {backend}")
    return commands


# ------------------------------------------------------------------------------------- rendering


def _short(name: str) -> str:
    """Short names: "AMD Radeon RX 6700 XT" is "RX 6700 XT", "Intel(R) Arc(TM) B580 Graphics" is "Arc B580 Graphics"."""
    name = re.sub(r"^(AMD Radeon(\(TM\))? |Radeon |NVIDIA GeForce |Intel\(R\) )", "", name)
    return re.sub(r"\((TM|R)\)", "", name)


def _link(text: str, url: str) -> str:
    return f"[{text}]({url})"


def _path_cell(gpu, version: str, t: dict) -> str:
    if gpu.ambiguous:
        return t["ask"]
    path, fallback = gpu.path[version], gpu.fallback[version]
    main = f"**{t['backend'][path]}**"
    return main if fallback == path else f"{main}; {t['else']} {t['backend'][fallback]}"


def _support_cell(gpu, t: dict) -> str:
    parts = []
    for s in gpu.support:
        note = s.note_zh if t is TEXT["zh"] else s.note
        parts.append(f"{t['backend'][s.backend]}: {_link(t['status'][s.status], s.source)}"
                     + (f" ({note})" if note else ""))
    return "; ".join(parts) or t["none"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(language: str) -> str:
    t = TEXT[language]
    rows = ["| " + " | ".join(t["head"]) + " |", "|" + " --- |" * len(t["head"])]
    for gpu in gpus.load():
        name = f"{gpu.name}" + (f" ({t['also']}: {', '.join(gpu.aliases)})" if gpu.aliases else "")
        gfx = _link(f"`{gpu.gfx}`", gpu.gfx_source) if gpu.gfx else t["none"]
        rows.append("| " + " | ".join(_cell(c) for c in (
            name, f"{gpu.vendor.upper() if gpu.vendor in ('amd',) else gpu.vendor.capitalize()}, {gpu.family}",
            gfx, _path_cell(gpu, "11", t), _path_cell(gpu, "10", t), _support_cell(gpu, t))) + " |")
    dates = sorted({s.checked for g in gpus.load() for s in g.support} | {g.gfx_checked for g in gpus.load() if g.gfx})
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} – {dates[-1]}"
    # Out of the search index: 95 rows of GPU names, families and statuses would match every message
    # that names a GPU ("integrated graphics") ahead of the section that answers it. The chooser's
    # form searches the table; the site search finds the page by its prose. Class gpu-table: the browser
    # lays it out only when it comes near the screen (extra.css; its 2,000 elements cost the page 200-400 ms
    # of blocking time on Lighthouse's phone, 90-96 -> 98-99; docs/javascripts/a11y.js lays it out before
    # a link lands on a heading below it).
    table_md = "\n".join(rows)
    return (t["checked"].format(dates=span) + '\n\n<div class="gpu-table" data-search-exclude markdown>\n\n'
            + table_md + "\n\n</div>")


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
        other = {}
        for g in members:
            for s in g.support:
                if s.backend not in used:
                    other.setdefault((s.backend, s.status), s.source)
        others = "; ".join(f"{t['backend'][b]}: {_link(t['status'][st], url)}" for (b, st), url in other.items())
        rows.append("| " + " | ".join(_cell(c) for c in (
            names, gfx, _path_cell(members[0], "11", t), _path_cell(members[0], "10", t), others or t["none"])) + " |")
    return "\n".join(rows)


def _by_gfx(select=lambda g: True) -> dict[str, list]:
    found: dict[str, list] = {}
    for gpu in gpus.load():
        if gpu.gfx and select(gpu):
            found.setdefault(gpu.gfx, []).append(gpu)
    return dict(sorted(found.items(), key=lambda item: (len(item[0]), item[0]), reverse=True))


def gfx_list(language: str) -> str:
    return "\n".join(f"- `{gfx}`: " + ", ".join(_short(g.name) for g in members)
                     for gfx, members in _by_gfx().items())


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
    return joiner.join(f"`{gfx}` " + " / ".join(_short(g.name) for g in members)
                       for gfx, members in _by_gfx(_on_rocm_list).items() if gfx != except_gfx)


def backend_gpus(language: str, backend: str) -> str:
    if backend not in gpus.BACKENDS:
        raise GpuPageError(f"gpus.backend_gpus {backend}: unknown back-end")
    t = TEXT[language]
    lines = []
    for status in ("supported", "prototype", "nightly", "build-only"):
        targets = _by_gfx(lambda g: (s := g.backend(backend)) is not None and s.status == status)
        if targets:
            source = targets[next(iter(targets))][0].backend(backend).source
            lines.append(_link(t["status"][status], source) + ": " + ", ".join(f"`{gfx}`" for gfx in targets))
    if not lines:
        raise GpuPageError(f"gpus.backend_gpus {backend}: no GPU of the table has it")
    return "; ".join(lines) + " ([" + ("每块显卡" if language == "zh" else "each GPU") + "](choose.md#every-gpu))"


def paths(language: str) -> str:
    t = TEXT[language]
    setup = DOCS / ("setup.zh.md" if language == "zh" else "setup.md")
    commands = setup_commands(setup)
    out = []
    for backend in PATH_ORDER:
        python = gpus.BACKENDS[backend]["python"]
        source, checked = gpus.BACKEND_SOURCES[backend]
        facts = f"{t['windows']} {' / '.join(gpus.BACKENDS[backend]['windows'])}"
        if python:
            facts += f" · {t['python']} {python[0]} – {python[1]}"
        facts += " (" + _link(("核对于 " if language == "zh" else "checked ") + checked, source) + ")"
        intro = (t["therock"].format(url="https://github.com/ROCm/TheRock/blob/main/RELEASES.md")
                 if backend == "therock" else
                 t["from_setup"].format(link=SETUP_ANCHOR.get(backend, OTHER_BACKENDS)))
        body = "\n\n".join(commands[backend])
        out.append(f'<div class="chooser-path" id="path-{backend}" data-path="{backend}" markdown>\n\n'
                   f"### {t['backend'][backend]} {{#path-{backend}-commands}}\n\n{facts}\n\n"
                   + (f"{t['cpu_note']} " if backend == "cpu" else "") + f"{intro}\n\n{body}\n\n</div>")
    return "\n\n".join(out)


def chooser_data(language: str) -> dict:
    t = TEXT[language]
    entries = []
    for gpu in gpus.load():
        entries.append({
            "name": gpu.name, "keys": gpu.keys(), "vendor": gpu.vendor, "family": gpu.family, "gfx": gpu.gfx,
            "path": gpu.path, "fallback": gpu.fallback,
            "support": [[s.backend, t["status"][s.status], s.source, s.note_zh if language == "zh" else s.note]
                        for s in gpu.support],
            "choices": [[c.label_zh if language == "zh" else c.label, c.gpu] for c in gpu.choices],
        })
    return {"gpus": entries, "backends": {b: {"label": t["backend"][b], "python": v["python"],
                                              "windows": list(v["windows"])} for b, v in gpus.BACKENDS.items()}}


def chooser(language: str, script_url: str) -> str:
    ui = TEXT[language]["ui"]
    options = "".join(f'<option value="{p}">{p}</option>' for p in PYTHONS)
    names = "".join(f'<option value="{html.escape(g.name)}"></option>' for g in gpus.load())
    data = json.dumps(chooser_data(language), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        # Visible from the first paint (no layout shift when the script starts); hidden only without JavaScript.
        '<noscript><style>#chooser{display:none}</style></noscript>'
        '<form class="chooser" id="chooser">'
        f'<p><label for="chooser-gpu">{ui["gpu"]}</label>'
        f'<input id="chooser-gpu" name="gpu" list="chooser-names" autocomplete="off" spellcheck="false" '
        f'placeholder="{html.escape(ui["placeholder"])}"></p>'
        f'<datalist id="chooser-names">{names}</datalist>'
        f'<fieldset><legend>{ui["win"]}</legend>'
        '<label><input type="radio" name="win" value="11" checked> Windows 11</label> '
        '<label><input type="radio" name="win" value="10"> Windows 10</label></fieldset>'
        f'<p><label for="chooser-py">{ui["py"]}</label> <select id="chooser-py" name="py">'
        f'<option value="">{ui["py_any"]}</option>{options}</select></p>'
        '</form>'
        '<div class="chooser-answer" id="chooser-answer" aria-live="polite"></div>'
        f'<script type="application/json" id="chooser-data">{data}</script>'
        f'<script src="{script_url}" defer></script>'
    )


def choices(language: str) -> str:
    """The processors behind an ambiguous name, each with the GPU it settles on."""
    out = []
    for gpu in gpus.load():
        if gpu.ambiguous:
            out += [f"- {c.label_zh if language == 'zh' else c.label}: {c.gpu}" for c in gpu.choices]
    return "\n".join(out)


def render(markdown: str, language: str, script_url: str = "javascripts/chooser.js") -> str:
    """``markdown`` with every {{ gpus.NAME ARG }} rendered for ``language`` ('en' or 'zh')."""

    def replace(match: re.Match[str]) -> str:
        name, arg = match.group(1), match.group(2)
        if name == "chooser":
            return chooser(language, script_url)
        renderers = {"table": table, "paths": paths, "decision_table": decision_table, "gfx_list": gfx_list,
                     "gfx_examples": gfx_examples, "choices": choices}
        with_arg = {"backend_gpus": backend_gpus, "card": card}
        if name in renderers and arg is None:
            return renderers[name](language)
        if name in with_arg and arg is not None:
            return with_arg[name](language, arg)
        raise GpuPageError(f"unknown placeholder {match.group(0)!r} (see docs/hooks/guide/gpu_pages.py)")

    return PLACEHOLDER.sub(replace, markdown)


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
