"""The one table of GPUs (docs/hooks/data/gpus.yml): its loader refuses bad data, the pages quote it.

The chooser's own behaviour in a browser is tests/site/test_chooser.py.
"""

from __future__ import annotations

import ast
import re

import pytest

from guide import gpu_pages, gpus, recipes
from guide.page import Page
from guide_harness import DOCS, ROOT, pages

TEXT = gpus.DATA.read_text(encoding="utf-8")


def test_the_table_loads_and_is_big_enough():
    table = gpus.load()
    assert len(table) >= 60
    vendors = {g.vendor for g in table}
    assert {"amd", "intel", "nvidia", "qualcomm"} <= vendors
    for gpu in table:  # every support fact carries its source and date (the loader guarantees it)
        assert all(
            s.source.startswith("https://") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", s.checked) for s in gpu.support
        )


# Each drift breaks the first entry of the real file in one way; the loader must name file:entry.
FIRST = '  - name: "AMD Radeon RX 9070 XT"\n'
DRIFTS = {
    "an unknown key": (FIRST, FIRST + "    colour: red\n", "unknown key 'colour'"),
    "a missing source": (
        "        source: https://github.com/AMD-Ecosystem",
        "        sauce: https://github.com/AMD-Ecosystem",
        "unknown key 'sauce'",
    ),
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
    twice = TEXT.replace('aliases: ["RX 9070 XT", "9070XT"]', 'aliases: ["RX 9070 XT", "9070XT", "9070"]', 1)
    with pytest.raises(gpus.GpuDataError, match="both match '9070'"):
        gpus.parse(twice, "gpus.yml")


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("AMD Radeon RX 6700 XT", "AMD Radeon RX 6700 XT"),
        ("6700XT", "AMD Radeon RX 6700 XT"),
        ("amd radeon rx 6700xt", "AMD Radeon RX 6700 XT"),
        ("Radeon RX 580 2048SP", "Radeon RX 580 2048SP"),
        ("AMD Radeon(TM) 780M Graphics", "AMD Radeon 780M Graphics"),
        ("AMD Radeon\u2122 780M Graphics", "AMD Radeon 780M Graphics"),
        ("NVIDIA GeForce RTX 2080 Ti", "NVIDIA GeForce RTX 20 series"),
        ("Intel(R) HD Graphics 4000", "Intel(R) HD Graphics"),  # not the AMD "...Graphics" entry: the vendor counts
    ],
)
def test_names_match_loosely(typed, expected):
    assert [g.name for g in gpus.match(typed)] == [expected]


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
    found = gpus.match(name)
    assert len(found) == 1, f"{name!r} is not one entry of docs/hooks/data/gpus.yml: {[g.name for g in found]}"
    assert found[0].kind == KIND_EXCEPTIONS.get(name, kind), f"{name!r}: the table says {found[0].kind}"


GFX_TOKEN = re.compile(r"\bgfx[0-9]{2,4}[0-9a-f]?\b")


def typed_gpu_facts(text: str) -> list[int]:
    """Lines of a page's source that name a gfx target outside code blocks and {{ gpus.X }} placeholders."""
    text = Page.parse(text).outside_fences()
    text = gpu_pages.PLACEHOLDER.sub("", text)
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


def test_unknown_placeholder_fails():
    with pytest.raises(gpu_pages.GpuPageError, match="unknown placeholder"):
        gpu_pages.render("{{ gpus.nonsense }}", "en")
    with pytest.raises(gpu_pages.GpuPageError, match="no GPU of the table has that gfx target"):
        gpu_pages.render("{{ gpus.card gfx9999 }}", "en")


def test_the_chinese_chooser_names_each_family_in_chinese():
    """The zh chooser and GPU list show each family label with Chinese brackets and commas, and no English word
    (a lowercase Latin word: names such as Navi or Ryzen are capitalized): gpu_pages.FAMILY_ZH translates
    the labels that have one (the Chinese review of 2026-12, minor 32)."""
    import re

    data = gpu_pages.chooser_data("zh")
    for entry in data["gpus"]:
        label = entry["family"]
        assert not re.search(r"(?<![A-Za-z])[a-z]{2,}", label), f"{entry['name']}: English in {label!r}"
        assert " (" not in label and ", " not in label, f"{entry['name']}: half-width punctuation in {label!r}"
    assert [e["family"] for e in gpu_pages.chooser_data("en")["gpus"]] == [g.family for g in gpus.load()]
