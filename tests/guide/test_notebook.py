"""The tutorial notebook: generated from the snippets, current, rendered by the site, and it runs.

docs/train-mnist-notebook.ipynb is built by docs/hooks/guide/notebook.py from docs/hooks/train_mnist_notebook.md
and the snippet sections it includes. These tests fail on a change to either side that is not carried
over by regenerating it.
"""

from __future__ import annotations

import os
import re

import nbformat
import pytest
from nbclient import NotebookClient

from guide import notebook as builder
from guide_harness import ROOT, SNIPPETS, mkdocs_config, run_python


def committed():
    return nbformat.read(builder.NOTEBOOK, as_version=4)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_committed_notebook_is_what_the_builder_makes(language):
    source, notebook = builder.TRANSLATED[language] if language != "en" else (builder.SOURCE, builder.NOTEBOOK)
    assert notebook.read_text(encoding="utf-8") == builder.render(builder.build(source)), (
        f"{notebook.relative_to(ROOT)} is out of date: run  python docs/hooks/notebook.py"
    )


def test_every_code_cell_is_snippet_code():
    """Independently of the builder: each code cell's lines appear, in order, in one snippet file."""
    files = {p: p.read_text(encoding="utf-8").splitlines() for p in SNIPPETS.glob("*.py")}
    imports, *code_cells = [c for c in committed().cells if c.cell_type == "code"]
    assert len(code_cells) >= 6
    every_line = {line.strip() for text in files.values() for line in text}
    for line in filter(None, imports.source.splitlines()):  # the one imports cell: the snippets' own lines
        assert line.startswith(("import ", "from ")) and line in every_line, line
    for cell in code_cells:
        lines = [line.strip() for line in cell.source.splitlines() if line.strip()]
        assert lines, "an empty code cell"
        assert any(_in_order(lines, [line.strip() for line in text]) for text in files.values()), (
            f"this cell is not snippet code:\n{cell.source[:500]}"
        )


def _in_order(needles: list[str], haystack: list[str]) -> bool:
    position = 0
    for needle in needles:
        try:
            position = haystack.index(needle, position) + 1
        except ValueError:
            return False
    return True


def test_a_changed_snippet_makes_the_notebook_stale(tmp_path):
    """The drift check really looks at the snippets: change one line of a section, the notebook differs."""
    fake_snippets = tmp_path / "snippets"
    fake_snippets.mkdir()
    for path in SNIPPETS.glob("*.py"):
        (fake_snippets / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    lenet = fake_snippets / "lenet.py"
    lenet.write_text(lenet.read_text(encoding="utf-8").replace("nn.MaxPool2d(2)", "nn.AvgPool2d(2)", 1))
    (tmp_path / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert builder.render(builder.build(root=tmp_path)) != builder.NOTEBOOK.read_text(encoding="utf-8")


def test_project_imports_are_dropped():
    # and nothing else: a dropped torch import leaves an undefined name, which test_one_imports_cell_... fails on
    sources = "\n".join(c.source for c in committed().cells if c.cell_type == "code")
    assert not re.search(r"^from (choose_device|mnist_data|lenet|train_mnist)\b", sources, re.M)


def test_settings_cell_is_tagged_for_parameters():
    tagged = [c for c in committed().cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0].source.startswith("settings = dict(")


def test_site_renders_only_real_notebooks():
    plugins = mkdocs_config()["plugins"]
    jupyter = next(p["mkdocs-jupyter"] for p in plugins if isinstance(p, dict) and "mkdocs-jupyter" in p)
    assert jupyter["include"] == ["*.ipynb"], "mkdocs-jupyter must not turn .py files into pages"
    assert jupyter["allow_errors"] is False
    nav = str(mkdocs_config()["nav"])
    assert "train-mnist-notebook.ipynb" in nav


def test_notebook_runs_top_to_bottom(fashion_mnist_root, tmp_path):
    """Executed on the CPU with small settings on real Fashion-MNIST, as papermill would inject them."""
    notebook = committed()
    index = next(i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", []))
    injected = nbformat.v4.new_code_cell(
        f"settings.update(dataset='fashion-mnist', data_dir=Path(r'{fashion_mnist_root}'), download=False,\n"
        "                epochs=2, limit_train=6000, limit_test=2000)"
    )
    injected.metadata["tags"] = ["injected-parameters"]
    notebook.cells.insert(index + 1, injected)
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        allow_errors=False,
        resources={"metadata": {"path": str(tmp_path)}},  # a fresh folder: no snippet files next to it
    )
    client.execute(env={**os.environ, "TORCH_DEVICE": "cpu", "PYTHONPATH": ""})
    output = "".join(o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "device: cpu" in output
    accuracies = [float(a) for a in re.findall(r"test accuracy (\d\.\d+)", output)]
    assert len(accuracies) == 2, output[-2000:]
    assert accuracies[-1] > 0.6, f"the notebook did not learn: {accuracies}"


def test_one_imports_cell_and_no_unused_import():
    """The notebook imports once, at the top, and only what its cells use (pyflakes' checks, via ruff)."""
    pytest.importorskip("ruff")
    cells = [c for c in committed().cells if c.cell_type == "code"]
    importing = [
        i for i, c in enumerate(cells) if any(line.startswith(("import ", "from ")) for line in c.source.splitlines())
    ]
    assert importing == [0], f"code cells with imports: {importing}"
    args = ["-m", "ruff", "check", "--isolated", "--no-cache", "--select", "F", str(builder.NOTEBOOK)]
    result = run_python(args, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout


def test_a_directive_the_builder_cannot_honour_is_one_error_line(tmp_path, monkeypatch, capsys):
    """A key a notebook cell does not take (or the old <!-- cell-tags: --> form) names its line; exit 1."""
    source = tmp_path / "notebook_source.md"
    source.write_text('Prose.\n\n<!-- site-block: args=x -->\n```python\n--8<-- "snippets/lenet.py"\n```\n')
    monkeypatch.setattr(builder, "SOURCE", source)
    assert builder.main(["--check"]) == 1
    assert capsys.readouterr().err == (
        "error: notebook_source.md:4: site-block key 'args' does not apply to a ```python block here "
        "(it accepts: tags)\n"
    )
    source.write_text('<!-- cell-tags: parameters -->\n```python\n--8<-- "snippets/lenet.py"\n```\n')
    assert builder.main(["--check"]) == 1
    assert capsys.readouterr().err.startswith("error: notebook_source.md:1: <!-- cell-tags: parameters --> is not")


def test_headings_lose_their_anchor_and_the_cell_lists_it():
    from guide.notebook import markdown_cell

    cell = markdown_cell("## 1. 选择设备 {#1-choose-the-device}\n\nText {#not-a-heading}.", "x.md")
    assert cell.source == "## 1. 选择设备\n\nText {#not-a-heading}."
    assert cell.metadata["anchors"] == ["1-choose-the-device"]
    with pytest.raises(ValueError, match="without its anchor"):
        markdown_cell("## 接下来\n", "x.zh.md")
