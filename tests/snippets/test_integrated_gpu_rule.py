"""One rule for "is this GPU integrated?" in the three scripts that need it (snippets/choose_device.py,
snippets/doctor.py, snippets/troubleshooting/pick_adapter.py), checked against the one table of GPUs.

Each script stays a standalone file a reader saves, so each carries its own copy of the rule: the copies
must be the same text, and each script's own function must call every integrated GPU of
docs/hooks/data/gpus.yml integrated and every dedicated one not, by its name and by the names Windows
shows for it (the aliases that start with the vendor's name)."""

from __future__ import annotations

import ast
import re
import types

import pytest
import yaml

from guide_harness import ROOT, SNIPPETS, load_snippet

# Text, a table and stand-ins (torch.cuda replaced): the same under every torch, so the pins leg runs these
# (pyproject.toml).
pytestmark = pytest.mark.any_torch

SCRIPTS = ("choose_device.py", "doctor.py", "troubleshooting/pick_adapter.py")
VENDOR = re.compile(r"(AMD|Radeon|Intel|NVIDIA|Qualcomm)\b")
GPUS = yaml.safe_load((ROOT / "docs" / "hooks" / "data" / "gpus.yml").read_text(encoding="utf-8"))["gpus"]


def names(kind: str) -> list[str]:
    """Every name of the table's GPUs of this kind: the name, and each alias that is a whole device name."""
    found = []
    for gpu in GPUS:
        if gpu["kind"] == kind:
            found += [gpu["name"]] + [a for a in gpu.get("aliases", []) if " " in a and VENDOR.match(a)]
    return found


INTEGRATED = names("integrated")
DEDICATED = names("dedicated")


def rule_source(script: str) -> str:
    """The source text of the script's INTEGRATED_NAME assignment, with the comment block above it."""
    text = (SNIPPETS / script).read_text(encoding="utf-8")
    (node,) = [
        n
        for n in ast.parse(text).body
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "INTEGRATED_NAME" for t in n.targets)
    ]
    lines = text.splitlines()
    start = node.lineno - 1
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    return "\n".join(lines[start : node.end_lineno])


def fake_cuda(name: str):
    """torch.cuda with one GPU of this name and no driver flag, as AMD's ROCm builds on Windows report."""
    return types.SimpleNamespace(
        get_device_properties=lambda i: types.SimpleNamespace(name=name),
        get_device_name=lambda i: name,
    )


def judges(script: str, monkeypatch):
    """The script's own answer to "integrated?" for a name, through the function the script uses."""
    if script == "choose_device.py":
        module = load_snippet("choose_device")

        def integrated(name):
            monkeypatch.setattr(module.torch, "cuda", fake_cuda(name))
            return module._is_integrated(0)

        return integrated
    if script == "doctor.py":
        module = load_snippet("doctor")
        return lambda name: module.is_integrated({"name": name, "integrated": None})
    module = load_snippet("troubleshooting/pick_adapter")
    return lambda name: module.adapter_kind(name) == "integrated"


def test_the_table_has_both_kinds():
    assert len(INTEGRATED) >= 31 and len(DEDICATED) >= 60, (len(INTEGRATED), len(DEDICATED))


def test_the_three_scripts_carry_the_same_rule():
    first, *others = (rule_source(s) for s in SCRIPTS)
    for script, source in zip(SCRIPTS[1:], others, strict=True):
        assert source == first, f"snippets/{script}'s INTEGRATED_NAME differs from choose_device.py's"


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_integrated_gpu_of_the_table_is_integrated(script, monkeypatch):
    integrated = judges(script, monkeypatch)
    missed = [name for name in INTEGRATED if not integrated(name)]
    assert missed == [], f"{script} misses {len(missed)} integrated GPUs of gpus.yml: {missed}"


@pytest.mark.parametrize("script", SCRIPTS)
def test_no_dedicated_gpu_of_the_table_is_integrated(script, monkeypatch):
    integrated = judges(script, monkeypatch)
    wrong = [name for name in DEDICATED if integrated(name)]
    assert wrong == [], f"{script} calls {len(wrong)} dedicated GPUs of gpus.yml integrated: {wrong}"
