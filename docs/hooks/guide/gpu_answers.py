"""The chooser's answers as nodes, and {{ gpus.paths }}: each back-end's commands, read from the set-up page."""

from __future__ import annotations

from guide import gpus, pins, recipes
from guide.gpu_tables import _link, _short
from guide.gpu_text import (
    OTHER_BACKENDS,
    PATH_ORDER,
    RECIPE_TEXT,
    SCRIPTS_ZIP,
    SETUP_ANCHOR,
    TEXT,
    TROUBLE,
    family_label,
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
        "offline": "setup.md#china-mirrors-offline",
        "pypi": "setup.md#slow-or-blocked-downloads-use-a-pypi-mirror",
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
    return recipes.published_name(key)


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
                    _mirror_line(key, links) + "\n\n" + _fence(mirror)
                    if mirror
                    else r["no_mirror"].format(offline=links["offline"])
                )
        for note in dict.fromkeys(filter(None, map(_unsettled_name, installs))):
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


def _mirror_line(key: str, links: dict) -> str:
    """The Chinese edition's line above the mirror form: TUNA's PyPI mirror, or SJTUG's copy of PyTorch's index."""
    r = RECIPE_TEXT["zh"]
    if recipes.mirror_kind(key) == "pytorch":
        return r["mirror_pytorch"].format(mirrors=links["mirrors"])
    return r["mirror"].format(pypi=links["pypi"])


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
        step += [["p", _mirror_line(made.install_key, links)], ["code", made.mirror]]
    elif language == "zh":
        step.append(["p", r["no_mirror"].format(offline=links["offline"])])
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
