""".ci/run asks apt only for what the machine lacks, and never for Debian's npm beside a Node.js that has one."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from ci_packages import (
    Machine,
    fresh,
    main,
    node_is_debian,
    packages,
    this_machine,
)
from guide_harness import ROOT

NOTHING = Machine(chromium=False, fonts=False, node=False, npm=False, node_is_debian=False, data=False)
# The kind of machine CI uses: NodeSource's Node.js 20 with its own npm, no Chromium, no data.
NODESOURCE = Machine(chromium=False, fonts=True, node=True, npm=True, node_is_debian=False, data=False)


READY = Machine(chromium=True, fonts=True, node=True, npm=True, node_is_debian=False, data=True)


@pytest.mark.parametrize(
    "machine, wanted",
    [
        (NOTHING, ["chromium", "fonts-dejavu-core", "nodejs", "npm", "dataset-fashion-mnist"]),  # stock Debian
        # Asking for npm beside a Node.js with its own ends in "nodejs : Conflicts: npm ... held broken packages".
        (NODESOURCE, ["chromium", "dataset-fashion-mnist"]),
        (Machine(chromium=True, fonts=True, node=True, npm=False, node_is_debian=True, data=True), ["npm"]),
        (READY, []),
    ],
    ids=["stock Debian", "NodeSource", "Debian's nodejs without npm", "ready"],
)
def test_apt_is_asked_only_for_what_the_machine_lacks(machine, wanted):
    assert packages(machine) == wanted


def test_a_foreign_node_without_npm_is_an_error_not_a_conflict():
    machine = Machine(chromium=True, fonts=True, node=True, npm=False, node_is_debian=False, data=True)
    with pytest.raises(ValueError, match="without npm"):
        packages(machine)


def test_the_set_checked_with_apt_get_s_is_the_fresh_machines_its_node_kept():
    assert packages(fresh(READY)) == ["chromium", "fonts-dejavu-core", "dataset-fashion-mnist"]


def test_ci_run_takes_its_packages_from_the_decision():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installs = [line for line in script.splitlines() if re.search(r"apt-get install\b", line)]
    assert installs, ".ci/run installs nothing with apt"
    for line in installs:
        # No package named by hand: each comes from .github/scripts/ci_packages.py.
        assert re.search(r"apt-get install (-s|-y -qq) \$\w+", line), line
    assert ".github/scripts/ci_packages.py --fresh" in script
    assert "apt-get install -s" in script
    assert "export REQUIRE_BROWSER=1 REQUIRE_DATA=1" in script


def _path_with_node_alone(tmp_path) -> str:
    """A PATH holding `node` and `npm` and nothing else: windows-2025's state (Node.js, no dpkg-query)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("node", "npm"):
        path = folder / (f"{tool}.cmd" if os.name == "nt" else tool)
        path.write_text("@echo 22\n" if os.name == "nt" else "#!/bin/sh\necho 22\n", encoding="utf-8")
        path.chmod(0o755)
    return str(folder)


def test_node_without_dpkg_query_is_not_debians(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", _path_with_node_alone(tmp_path))
    assert shutil.which("node") and not shutil.which("dpkg-query")
    assert node_is_debian() is False
    assert this_machine().node is True
    assert main([]) == 0  # one line of package names, which .ci/run hands to apt-get
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and all(re.fullmatch(r"[a-z0-9.+-]+", p) for p in out.split())
