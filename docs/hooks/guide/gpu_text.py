"""The GPU pages' shared words and constants: English and Chinese strings from text/gpu_pages.LANG.yml (one data
file per language), the back-ends' order, tab labels and anchors (guide/gpu_pages.py and its parts read them)."""

from __future__ import annotations

from pathlib import Path

import yaml

TEXT_DIR = Path(__file__).resolve().parent / "text"


def _words(language: str) -> dict:
    return yaml.safe_load((TEXT_DIR / f"gpu_pages.{language}.yml").read_text(encoding="utf-8"))


_EN, _ZH = _words("en"), _words("zh")
TEXT = {"en": _EN["text"], "zh": _ZH["text"]}
RECIPE_TEXT = {"en": _EN["recipe"], "zh": _ZH["recipe"]}
DETECT_TEXT = {"en": _EN["detect"], "zh": _ZH["detect"]}
# gpus.yml's family labels that hold English words, in Chinese; every other label gets Chinese punctuation only
# (family_label(); tests/guide/test_gpus.py fails on a label with an English word that is not here).
FAMILY_ZH = _ZH["families"]
PATH_ORDER = ("rocm", "xpu", "directml", "therock", "cuda", "cpu")


class GpuPageError(ValueError):
    pass


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
SCRIPTS_ZIP = "guide-scripts.zip"  # at the site's root, built with the site (guide/gpu_site.py)
