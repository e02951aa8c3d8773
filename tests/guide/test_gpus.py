"""The one table of GPUs (docs/hooks/data/gpus.yml): its loader refuses bad data, the pages quote it.

The chooser's own behaviour in a browser is tests/site/test_chooser.py.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re

import pytest

from guide import gpu_names, gpu_pages, gpus, recipes
from guide.page import Page
from guide.placeholders import PLACEHOLDER
from guide_harness import DOCS, ROOT, pages

TEXT = gpus.DATA.read_text(encoding="utf-8")


def test_the_table_loads_and_is_big_enough():
    table = gpus.load()
    assert len(table) >= 60
    vendors = {g.vendor for g in table}
    assert {"amd", "intel", "nvidia", "qualcomm"} <= vendors


# Each drift breaks the first entry of the real file in one way; the loader must name file:entry.
FIRST = '  - name: "AMD Radeon RX 9070 XT"\n'
DRIFTS = {
    "an unknown key": (FIRST, FIRST + "    colour: red\n", "unknown key 'colour'"),
    "a missing date": ("        checked: 2026-12-01\n", "", "missing 'checked'"),
    "a bad status": ("        status: supported\n", "        status: works-great\n", "bad status 'works-great'"),
    "a bad date": ("        checked: 2026-12-01\n", "        checked: December\n", "is not YYYY-MM-DD"),
    "a path the support list does not back": ('    path: {"11": rocm,', '    path: {"11": xpu,', "path 11 is xpu"),
    "a path on the wrong Windows": ('"10": directml}\n    fallback', '"10": rocm}\n    fallback', "path 10 is rocm"),
    "an unknown back-end": ("      - backend: rocm\n", "      - backend: opencl\n", "unknown back-end 'opencl'"),
    "a bad gfx target": ("    gfx: gfx1201\n", "    gfx: navi48\n", "is not a gfx target"),
}


@pytest.mark.parametrize("drift", DRIFTS)
def test_loader_refuses_bad_data_with_file_and_entry(drift):
    old, new, message = DRIFTS[drift]
    assert old in TEXT, f"the drift {drift!r} no longer applies to gpus.yml"
    with pytest.raises(gpus.GpuDataError) as error:
        gpus.parse(TEXT.replace(old, new, 1), "gpus.yml")
    assert str(error.value).startswith("gpus.yml:1 (AMD Radeon RX 9070 XT)"), error.value
    assert message in str(error.value)


def test_two_entries_with_one_name_are_refused():
    twice = TEXT.replace('aliases: ["RX 9070 XT", "9070XT"]', 'aliases: ["RX 9070 XT", "9070XT", "RX 9070"]', 1)
    with pytest.raises(gpus.GpuDataError, match="both have the name 'RX 9070'"):
        gpus.parse(twice, "gpus.yml")


def test_every_row_is_found_by_each_of_its_names():
    """Each name and alias, as typed and in lower case without (TM)/(R), finds its own row and no other: two rows
    that one name would find (a "9070" alias on the RX 9070 XT and the RX 9070) fail here."""
    typed = {}
    for gpu in gpus.load():
        for name in (gpu.name, *gpu.aliases):
            typed[name] = gpu.name
            typed[name.replace("(TM)", "").replace("(R)", "").lower()] = gpu.name
    found = gpu_names.answers(list(typed))
    wrong = [f"{t!r}: {found[t]}" for t, name in typed.items() if (found[t].status, found[t].guide) != ("one", name)]
    assert wrong == []


def test_each_row_of_the_new_gpus_has_its_facts():
    """The rows added for issue 40 carry their targets: R9600D and RX 6850M XT as AMD lists their chips."""
    rows = {g.name: g for g in gpus.load()}
    assert rows["AMD Radeon AI PRO R9600D"].gfx == "gfx1201" and rows["AMD Radeon AI PRO R9600D"].path["11"] == "rocm"
    assert rows["AMD Radeon RX 6850M XT"].gfx == "gfx1031" and rows["AMD Radeon RX 6850M XT"].path["11"] == "directml"


def test_each_intel_gpu_gets_its_generations_driver():
    """Intel's Arc package does not cover 7th-10th gen graphics (UHD 620): each Intel row names its package, and
    every driver entry of vendor_index.yml has its page (its source and date: tests/guide/test_checked.py)."""
    drivers = recipes.vendor_index()["drivers"]
    rows = {g.name: g for g in gpus.load()}
    assert rows["Intel(R) UHD Graphics 620"].driver == "intel-7th-10th"
    assert rows["Intel(R) Arc(TM) B580 Graphics"].driver == "intel-arc"
    assert rows["Intel(R) Iris(R) Xe Graphics"].driver == "intel-11th-14th"
    assert "776137" in drivers["intel-7th-10th"]["url"] and "785597" in drivers["intel-arc"]["url"]
    assert {g.driver for g in gpus.load() if g.vendor == "intel"} <= set(drivers)
    assert all(driver["url"].startswith("https://") for driver in drivers.values())
    with pytest.raises(gpus.GpuDataError, match="names its driver package"):
        gpus.parse(TEXT.replace("    driver: intel-7th-10th\n", "", 1), "gpus.yml")


def _pick_adapter_names() -> list[tuple[str, str]]:
    """ADAPTER_NAMES of tests/snippets/troubleshooting/test_pick_adapter.py, read as data (not imported)."""
    source = (ROOT / "tests/snippets/troubleshooting/test_pick_adapter.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "ADAPTER_NAMES")
    return ast.literal_eval(node.value)


# pick_adapter's kinds that the table names otherwise, on purpose.
KIND_EXCEPTIONS = {
    "Microsoft Basic Render Driver": "software",  # pick_adapter ranks it with the integrated GPUs: last resort
}


@pytest.mark.parametrize("name, kind", _pick_adapter_names())
def test_pick_adapters_names_are_in_the_table_with_the_same_kind(name, kind):
    found = gpu_names.answer(name).gpu()
    assert found is not None, f"{name!r} is not one entry of docs/hooks/data/gpus.yml: {gpu_names.answer(name)}"
    assert found.kind == KIND_EXCEPTIONS.get(name, kind), f"{name!r}: the table says {found.kind}"


GFX_TOKEN = re.compile(r"\bgfx[0-9]{2,4}[0-9a-f]?\b")


def typed_gpu_facts(text: str) -> list[int]:
    """Lines of a page's source that name a gfx target outside code blocks and {{ gpus.X }} placeholders."""
    text = Page.parse(text).outside_fences()
    text = PLACEHOLDER.sub("", text)
    return [n for n, line in enumerate(text.splitlines(), 1) if GFX_TOKEN.search(line)]


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_no_gpu_fact_typed_in_a_page(page):
    lines = typed_gpu_facts(page.read_text(encoding="utf-8"))
    assert not lines, (
        f"{page.relative_to(ROOT)} types gfx targets by hand at line(s) {lines}: quote "
        "docs/hooks/data/gpus.yml with {{ gpus.card gfxNNNN }} or another {{ gpus.X }}"
    )


def test_typed_fact_detector():
    assert typed_gpu_facts("RX 7900 (gfx1100)\n") == [1]
    assert typed_gpu_facts("```powershell\npip install torch[device-gfx1100]\n```\n") == []
    assert typed_gpu_facts("here for the {{ gpus.card gfx1100 }}\n") == []


@pytest.mark.parametrize("language", ["en", "zh"])
def test_rendered_facts_come_from_the_table(language):
    rx6700 = next(g for g in gpus.load() if g.name == "AMD Radeon RX 6700 XT")
    assert f"`{rx6700.gfx}`: " in gpu_pages.gfx_list(language)
    assert "RX 6700 XT" in gpu_pages.gfx_list(language).split(f"`{rx6700.gfx}`: ")[1].splitlines()[0]
    table = gpu_pages.table(language)
    assert sum(line.startswith("- **") for line in table.splitlines()) == len(gpus.load())  # one entry per GPU
    decision = gpu_pages.decision_table(language)
    assert "RX 6700 XT" in decision and "RX 9070 XT" in decision


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_paths_show_each_command_the_chooser_builds(language):
    """Without JavaScript the path sections hold every install command a GPU of the table can get."""
    text = gpu_pages.paths(language)
    for gpu in gpus.load():
        if not gpu.ambiguous:
            for backend in {*gpu.path.values(), *gpu.fallback.values()}:
                command = recipes.install_command(recipes.install_key(gpu, backend))
                assert f"\n{command}\n" in text, (gpu.name, backend)
    assert ("-i https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple" in text) == (language == "zh")


def test_a_card_of_no_gpu_fails():
    with pytest.raises(gpu_pages.GpuPageError, match="no GPU of the table has that gfx target"):
        gpu_pages.render("{{ gpus.card gfx9999 }}", "en")


def test_the_chinese_chooser_names_each_family_in_chinese():
    """The zh chooser and GPU list show each family label with Chinese brackets and commas, and no English word
    (a lowercase Latin word: names such as Navi or Ryzen are capitalized): gpu_pages.FAMILY_ZH translates
    the labels that have one: an English word in a Chinese answer reads as untranslated."""
    for gpu in gpus.load():
        label = gpu_pages.family_label(gpu.family, "zh")
        assert not re.search(r"(?<![A-Za-z])[a-z]{2,}", label), f"{gpu.name}: English in {label!r}"
        assert " (" not in label and ", " not in label, f"{gpu.name}: half-width punctuation in {label!r}"
    titles = {n[1] for n in gpu_pages.chooser_data("zh")["nodes"] if n[0] == "p" and n[1].startswith("**")}
    assert "**Intel(R) UHD Graphics 620** \u2014 HD / UHD / Iris Plus（较老的 Core 处理器）" in titles
    assert gpu_pages.family_label("RDNA 4", "en") == "RDNA 4"


def test_the_chinese_answers_say_it_in_chinese():
    """The driver's name, the troubleshooting page's name, and where to turn when MNIST's hosts are unreachable
    (as they are from many networks in China), in Chinese in every Chinese answer; none of it in the English ones."""
    zh, en = gpu_pages.chooser("zh", "javascripts/chooser.js"), gpu_pages.chooser("en", "javascripts/chooser.js")
    for english in ("NVIDIA driver", "Graphics driver", "AMD Software: Adrenalin Edition]", "故障排除："):
        assert english not in zh, english
    for chinese in (
        "安装最新的 [NVIDIA 显卡驱动]",
        "Adrenalin Edition 驱动",
        "[常见问题：",
        "#when-the-download-hosts-are-unreachable",
    ):
        assert chinese in zh, chinese
    assert "下载服务器连不上时" not in en and "when-the-download-hosts-are-unreachable" not in en


def test_the_chinese_lists_are_punctuated_as_chinese():
    """Generated Chinese text takes full-width brackets, colons and 、, as the written pages do: half-width ones
    among Chinese characters read as a machine's output."""
    table, rocm = gpu_pages.table("zh"), gpu_pages.backend_gpus("zh", "rocm")
    assert "（也写作：" in table and " (也写作: " not in table
    assert "在厂商列表中](" in rocm and "在厂商列表中]: " not in rocm and "`, `" not in rocm
    assert (
        "不行时" in gpu_pages.RECIPE_TEXT["zh"]["fallback"] and " 不行时" not in gpu_pages.RECIPE_TEXT["zh"]["fallback"]
    )


def test_the_search_reads_every_gpu_name_and_alias(tmp_path):
    """gpus.json, beside the search's scripts, holds each GPU's name and aliases: the site search lists the GPU
    table's section for a query naming one (docs/javascripts/search/pipeline.js, namesGpu), and the table itself
    is out of the search index."""
    written = gpu_pages.write_search_names(tmp_path)
    names = json.loads(written.read_text(encoding="utf-8"))
    for gpu in gpus.load():
        assert gpu.name in names and set(gpu.aliases) <= set(names), gpu.name
    rules = json.loads((ROOT / "docs/javascripts/search/rules.json").read_text(encoding="utf-8"))
    assert written == tmp_path / "javascripts/search" / rules["gpu_table"]["names"]


def _stable_amd_targets(index: dict) -> set[str]:
    """The gfx targets that a stable AMD command file of vendor_index.yml has a Windows command for."""
    return {
        gfx
        for command in index["commands"].values()
        if command["published"].startswith("amd-")
        for gfx in index["published"][command["published"]]["windows_targets"]
    }


def _without_the_stable_line(table, stable: set[str]) -> list[str]:
    """Rows whose gfx target a stable AMD file has Windows wheels for, but whose Windows 11 answer is not them."""
    return [
        g.name
        for g in table
        if g.gfx in stable
        and not g.ambiguous
        and (g.path["11"] != "rocm" or g.backend("rocm").status not in {"supported", "same-target"})
    ]


def test_each_target_with_stable_amd_wheels_gets_them_on_windows_11():
    """gfx1030 (RX 6800 - 6950 XT, PRO W6800): AMD's stable ROCm 7.14.1 file has Windows wheels, so the chooser
    offers them, not DirectML or a nightly only."""
    stable = _stable_amd_targets(recipes.vendor_index())
    assert "gfx1030" in stable and "gfx1031" not in stable
    assert _without_the_stable_line(gpus.load(), stable) == []
    # The check sees the row as it was: DirectML on Windows 11, ROCm "unlisted".
    rx6800 = next(g for g in gpus.load() if g.name == "AMD Radeon RX 6800")
    old = dataclasses.replace(rx6800, path={"11": "directml", "10": "directml"})
    assert _without_the_stable_line([old], stable) == ["AMD Radeon RX 6800"]
