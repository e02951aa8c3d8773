"""Which Debian packages .ci/run asks apt for: only what this machine lacks.

A machine of CI's kind may be stock Debian 12 (no Node.js, or Debian's own nodejs without npm) or
carry a Node.js that brings its own npm (NodeSource's build: Debian's ``npm`` package conflicts
with it, and asking for it ends in "you have held broken packages"). So npm is asked for only where
Debian's nodejs is the one installed, or no Node.js at all.

    python .github/scripts/ci_packages.py            the packages this machine lacks, one line
    python .github/scripts/ci_packages.py --fresh    what a machine with nothing installed would ask for,
                                                 keeping this machine's Node.js (for apt-get -s)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DATA = Path("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")


@dataclass(frozen=True)
class Machine:
    chromium: bool  # /usr/bin/chromium
    fonts: bool  # DejaVu, the font the screenshots and Lighthouse render with
    node: bool  # a `node` on PATH
    npm: bool  # an `npm` on PATH
    node_is_debian: bool  # that node is Debian's nodejs package (which ships without npm)
    data: bool  # Debian's dataset-fashion-mnist


def packages(machine: Machine) -> list[str]:
    """The apt packages to install on ``machine``; ValueError where apt cannot help."""
    wanted = []
    if not machine.chromium:
        wanted.append("chromium")
    if not machine.fonts:
        wanted.append("fonts-dejavu-core")
    if not machine.npm:
        if not machine.node:
            wanted += ["nodejs", "npm"]
        elif machine.node_is_debian:
            wanted.append("npm")
        else:
            raise ValueError(
                "node is installed without npm, and not from Debian: install the npm that belongs to this Node.js"
            )
    if not machine.data:
        wanted.append("dataset-fashion-mnist")
    return wanted


def node_is_debian() -> bool:
    """Whether the installed nodejs package is Debian's (NodeSource's carries 'nodesource').

    No dpkg-query (Windows, macOS): not Debian's. windows-2025 has Node.js on PATH and no dpkg.
    """
    dpkg_query = shutil.which("dpkg-query")
    if dpkg_query is None:
        return False
    result = subprocess.run(
        [dpkg_query, "-W", "-f=${Version} ${Maintainer}", "nodejs"],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        return False
    return "nodesource" not in result.stdout.lower()


def this_machine() -> Machine:
    node = shutil.which("node") is not None
    return Machine(
        chromium=CHROMIUM.is_file(),
        fonts=FONT.is_file(),
        node=node,
        npm=shutil.which("npm") is not None,
        node_is_debian=node and node_is_debian(),
        data=DATA.is_file(),
    )


def fresh(machine: Machine) -> Machine:
    """The same machine with none of the packages installed but its Node.js as it is."""
    return Machine(False, False, machine.node, machine.npm, machine.node_is_debian, False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="as on a machine with none of them installed")
    args = parser.parse_args(argv)
    machine = this_machine()
    try:
        print(" ".join(packages(fresh(machine) if args.fresh else machine)))
    except ValueError as error:
        raise SystemExit(f"error: {error}") from None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
