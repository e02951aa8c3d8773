"""The chooser: its form, its answers (chooser.js renders them) and the table match.js reads (javascripts/gpu/table.json)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from guide import gpu_names, gpus, recipes
from guide.gpu_answers import _href, _links, _nodes
from guide.gpu_text import DETECT_TEXT, RECIPE_TEXT, TAB_LABEL, TEXT, GpuPageError, family_label


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
        "text": {k: r[k] for k in ("none", "which", "how", "copy", "copied", "like", "nopath", "basis")},
    }


CHOOSER_TABLE = "javascripts/gpu/table.json"


def write_chooser_table(site_dir: Path) -> Path:
    """table.json beside the chooser's scripts: the guide's GPUs and the device table, joined by target
    (guide/gpu_names.py), for match.js in the page."""
    target = site_dir / CHOOSER_TABLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(gpu_names.table(), ensure_ascii=True, separators=(",", ":")), encoding="utf-8")
    return target


def detect(language: str, field: str, script_url: str = "javascripts/chooser.js") -> str:
    """The box that proposes the GPU the browser names for the field with id ``field`` (the chooser's, the home
    page's), empty until gpu/propose.js fills it: a live region, so that a screen reader hears the proposal.
    ``script_url`` is chooser.js's URL from the page; the scripts sit beside it in gpu/."""
    base = script_url[: -len("chooser.js")]
    text = html.escape(json.dumps(DETECT_TEXT[language], ensure_ascii=False, separators=(",", ":")))
    return (
        f'<div class="gpu-detect" id="{field}-detect" data-field="{field}" data-text="{text}" '
        'role="status" aria-live="polite"></div>'
        f'<script src="{base}gpu/detect.js" defer></script><script src="{base}gpu/propose.js" defer></script>'
    )


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
        + detect(language, "chooser-gpu", script_url)
        + f'<datalist id="chooser-names">{names}</datalist>'
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
