"""The GPU pages' files of the built site: the scripts' zip, the search's GPU names, the chooser's table."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from guide import ROOT, gpus
from guide.gpu_chooser import write_chooser_table
from guide.gpu_text import SCRIPTS_ZIP

# Every script of snippets/'s top level: each one a page tells the reader to run (doctor.py, verify_directml.py,
# verify_training.py, train_mnist.py, report.py, the benchmarks, check_mnist_files.py ...) and those they import.
# The troubleshooting and migration examples stay on their pages. gpu_devices.json, the table of GPU devices
# (docs/hooks/data/devices/build.py), goes with them: doctor.py names the reader's GPU from it.
SCRIPTS = tuple(sorted([*(p.name for p in (ROOT / "snippets").glob("*.py")), "gpu_devices.json"]))


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
