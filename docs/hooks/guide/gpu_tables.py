"""The GPU tables of the pages, rendered from gpus.yml: every GPU, the decision table, the gfx lists."""

from __future__ import annotations

import re

from guide import gpus, recipes
from guide.gpu_text import TEXT, GpuPageError, family_label


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
