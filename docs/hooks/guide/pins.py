"""Replace ``{{ pin.NAME }}`` in a page with the version pinned in pyproject.toml.

pyproject.toml is the one place that holds each version; pages quote it through this module
(through docs/hooks/site_hooks.py) so that a version is never typed twice. An unknown NAME fails
the build.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from guide import ROOT
from guide.placeholders import substitute

PYPROJECT = ROOT / "pyproject.toml"
EXACT_PIN = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^;\s]+)")


def load_pins(pyproject: Path = PYPROJECT) -> dict[str, str]:
    """Map each exactly pinned package (and each [tool.directml-guide] value) to its version.

    A group listed in [tool.directml-guide] ``separate-groups`` (another torch beside the
    torch-directml pins) is quoted with its name: ``{{ pin.current.torch }}``.
    """
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    settings = dict(data.get("tool", {}).get("directml-guide", {}))
    separate = set(settings.pop("separate-groups", []))
    pins: dict[str, str] = {}
    for group, requirements in data.get("dependency-groups", {}).items():
        for requirement in requirements:
            if not isinstance(requirement, str):  # {include-group = ...}
                continue
            match = EXACT_PIN.match(requirement)
            if match is None:
                continue
            name, version = match.group(1).lower(), match.group(2)
            if group in separate:
                name = f"{group}.{name}"
            if pins.get(name, version) != version:
                raise ValueError(f"{name} is pinned to two versions in {pyproject.name}")
            pins[name] = version
    pins.update(settings)
    return pins


def expand_pins(markdown: str, pins: dict[str, str] | None = None) -> str:
    """Return ``markdown`` with every ``{{ pin.NAME }}`` replaced; KeyError names an unknown pin."""
    pins = load_pins() if pins is None else pins

    def replace(name: str, _arg: str | None) -> str:
        name = name.lower()
        if name not in pins:
            raise KeyError(f"unknown pin {name!r}; pyproject.toml pins: {', '.join(sorted(pins))}")
        return pins[name]

    return substitute(markdown, "pin", replace)
