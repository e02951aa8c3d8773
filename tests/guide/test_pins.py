"""pyproject.toml holds each version once; pages quote it through {{ pin.NAME }}, never by hand."""

from __future__ import annotations

import re

import pytest

from guide import pins as pins_hook
from guide_harness import DOCS, ROOT, pages


def test_pins_are_read_from_pyproject():
    pins = pins_hook.load_pins()
    assert pins["torch"] == "2.4.1"
    assert pins["torchvision"] == "0.19.1"
    assert pins["torch-directml"].startswith("0.2.5")
    assert pins["mkdocs"] == "1.6.1"


def test_placeholders_expand_with_or_without_spaces_in_any_case():
    pins = {"torch": "9.9.9"}
    assert pins_hook.expand_pins("pip install torch=={{ pin.torch }}", pins) == "pip install torch==9.9.9"
    assert pins_hook.expand_pins("{{pin.TORCH}}", pins) == "9.9.9"


def test_a_package_pinned_twice_differently_is_an_error(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[dependency-groups]\na = ["torch==2.4.1"]\nb = ["torch==2.5.0"]\n')
    with pytest.raises(ValueError, match="torch"):
        pins_hook.load_pins(pyproject)


def test_a_separate_group_is_quoted_by_its_name(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[dependency-groups]\na = ["torch==2.4.1"]\nnew = ["torch==2.14.1", "numpy==2.4.6"]\n'
        'b = ["numpy==2.4.6"]\n[tool.directml-guide]\nseparate-groups = ["new"]\n'
    )
    pins = pins_hook.load_pins(pyproject)
    assert pins["torch"] == "2.4.1" and pins["new.torch"] == "2.14.1" and pins["new.numpy"] == "2.4.6"
    assert "separate-groups" not in pins
    # The real file: the current-torch group is newer than the torch-directml pins.
    real = pins_hook.load_pins()
    assert tuple(map(int, real["current.torch"].split("."))) > tuple(map(int, real["torch"].split(".")))


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_pages_do_not_type_pinned_versions(page):
    text = page.read_text(encoding="utf-8")
    pins = pins_hook.load_pins()
    for name, version in pins.items():
        if version.count(".") < 2:  # "3.12" also names Python releases in prose; pins with 3 parts are ours
            continue
        assert not re.search(rf"(?<![\d.]){re.escape(version)}(?![\d])", text), (
            f"{page.relative_to(ROOT)} types {name} {version}: write {{{{ pin.{name} }}}} instead"
        )
