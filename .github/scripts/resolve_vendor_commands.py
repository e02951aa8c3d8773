"""Resolve every vendor-index install command against its index, nothing installed (the Freshness workflow's
"Vendor indexes" job runs it on a hosted Windows runner, where AMD's and PyTorch's indexes are reachable).

The commands: each one the chooser builds (guide/recipes.py, over every GPU of docs/hooks/data/gpus.yml) and
each one on a page (a line that installs from AMD's repo.amd.com indexes or download.pytorch.org). Each is run as
``pip install --dry-run --no-deps --ignore-installed`` for Windows (win_amd64, binary wheels only) and for
each Python its path supports, so a pin the index does not carry ("No matching distribution") is found.

    python .github/scripts/resolve_vendor_commands.py [--summary FILE] [--list]

Exit 0: every command resolves; 1: some do not (each listed, with pip's last line); 2: bad arguments.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

from guide import gpus, recipes  # noqa: E402
from guide.pages import page_source, pages  # noqa: E402

VENDOR_URL = re.compile(r"--index-url\s+https://(?:(?:stable\.)?repo\.amd\.com|download\.pytorch\.org)/\S+")
INSTALL = re.compile(r"^(?:python -m pip|pip3?) install ")


@dataclass(frozen=True)
class Command:
    text: str
    where: str
    pythons: tuple[str, ...]


def _pythons(backend: str) -> tuple[str, ...]:
    low, high = gpus.BACKENDS[backend]["python"] or ("3.12", "3.12")
    return tuple(
        p for p in recipes.PYTHONS if int(low.split(".")[1]) <= int(p.split(".")[1]) <= int(high.split(".")[1])
    )


def commands() -> list[Command]:
    """Every vendor-index command of the chooser and of the pages, once each."""
    found: dict[str, Command] = {}
    for gpu in gpus.load():
        if gpu.ambiguous:
            continue
        for backend in {*gpu.path.values(), *gpu.fallback.values()}:
            text = recipes.install_command(recipes.install_key(gpu, backend))
            if VENDOR_URL.search(text) and text not in found:
                found[text] = Command(text, "the chooser", _pythons(backend))
    for page in pages():
        for line in page_source(page).splitlines():
            line = line.strip()
            if INSTALL.match(line) and VENDOR_URL.search(line) and line not in found:
                backend = "rocm" if "repo.amd.com" in line else "xpu"
                found[line] = Command(
                    line,
                    page.relative_to(ROOT).as_posix(),
                    _pythons(backend),
                )
    return sorted(found.values(), key=lambda c: c.text)


def pip_args(command: str, python: str) -> list[str]:
    """The command as a dry-run resolution for Windows and ``python``: nothing downloaded beyond metadata."""
    words = shlex.split(command, posix=True)
    start = words.index("install") + 1
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--no-deps",
        "--ignore-installed",
        "--quiet",
        "--platform",
        "win_amd64",
        "--only-binary=:all:",
        "--python-version",
        python,
        *words[start:],
    ]


def resolve(command: Command, run=subprocess.run) -> list[str]:
    """The Pythons for which the command does not resolve, each with pip's last line."""
    failures = []
    for python in command.pythons:
        done = run(pip_args(command.text, python), capture_output=True, text=True)
        if done.returncode:
            last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            failures.append(f"Python {python}: {last}")
    return failures


def main(argv=None, run=subprocess.run) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summary", type=Path, help="append a Markdown report to this file")
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the commands, resolve nothing",
    )
    args = parser.parse_args(argv)
    found = commands()
    if args.list:
        for c in found:
            print(f"{c.where}: {c.text} (Python {', '.join(c.pythons)})")
        return 0
    report = ["## Vendor-index commands", ""]
    bad = 0
    for c in found:
        failures = resolve(c, run)
        bad += bool(failures)
        report.append(f"- {'FAILED' if failures else 'ok'}: `{c.text}` ({c.where})")
        report += [f"  - {f}" for f in failures]
    report.append("")
    report.append(f"{len(found) - bad} of {len(found)} resolve.")
    text = "\n".join(report)
    print(text)
    if args.summary:
        with args.summary.open("a", encoding="utf-8") as out:
            out.write(text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
