"""Regenerate the hash-locked requirement files in this folder from pyproject.toml.

    python .github/locks/lock.py              # every lock in LOCKS
    python .github/locks/lock.py --upgrade    # same, and move unpinned dependencies to their newest versions
    python .github/locks/lock.py --group test --platform windows --python 3.12   # one lock (need not be in LOCKS)

Each lock is the full resolution of one dependency group of pyproject.toml for one platform and
CPython version, every file with its sha256, in pip's requirements format. Workflows install it with
``python -m pip install --require-hashes -r .github/locks/FILE``, so a package that is not in the
lock, or a file whose hash differs, stops the install. tests/repo/test_locks.py fails when a lock and
pyproject.toml disagree.

Why uv: it resolves for a platform other than the one it runs on (a Windows lock from Linux), with
environment markers evaluated for that platform (``pip lock`` locks only for the running interpreter).
Why requirements files rather than pylock.toml: ``pip install --require-hashes -r`` is stable in every
pip the workflows may meet, whereas pip documents its pylock.toml support as experimental.

uv is pinned in pyproject.toml's ``lock`` group: ``python -m pip install --group lock`` installs it.
Without ``--upgrade``, uv keeps every version already in an existing lock that still fits pyproject.toml.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
COMMAND = "python .github/locks/lock.py"

# uv's names for the platforms the workflows run on.
PLATFORMS = {
    "windows": "x86_64-pc-windows-msvc",
    # GitHub's ubuntu-24.04 has a newer glibc than manylinux_2_28 needs.
    "linux": "x86_64-manylinux_2_28",
}

# (dependency group, platform, CPython version): the locks the workflows install.
LOCKS = [
    ("test", "windows", "3.12"),  # .github/workflows/directml.yml
    ("test", "linux", "3.12"),  # .github/workflows/site.yml
    ("test-current", "linux", "3.12"),  # .github/workflows/site.yml, current-torch leg
    ("docs", "linux", "3.12"),  # .github/workflows/freshness.yml, its build (the test lock's versions)
    ("run-report", "linux", "3.12"),  # .github/workflows/run-report.yml
]


def lock_path(group: str, platform: str, python: str) -> Path:
    return HERE / f"{group}-{platform}-py{python}.txt"


def find_uv() -> str:
    found = shutil.which("uv", path=sysconfig.get_path("scripts")) or shutil.which("uv")
    if not found:
        raise SystemExit("error: uv is not installed; run `python -m pip install --group lock` first")
    return found


def compile_lock(uv: str, group: str, platform: str, python: str, upgrade: bool) -> int:
    out = lock_path(group, platform, python)
    command = [
        uv, "pip", "compile", "--quiet",
        "--no-config",  # no uv.toml or UV_* settings of this machine
        "--group", f"pyproject.toml:{group}",
        "--python-platform", PLATFORMS[platform],
        "--python-version", python,
        "--generate-hashes",
        "--custom-compile-command", f"{COMMAND} --group {group} --platform {platform} --python {python}",
        "--output-file", str(out.relative_to(ROOT)),
    ]  # fmt: skip
    if upgrade:
        command.append("--upgrade")
    print(f"lock.py: {out.relative_to(ROOT).as_posix()}", flush=True)
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", help="one dependency group of pyproject.toml (default: every lock in LOCKS)")
    parser.add_argument("--platform", choices=sorted(PLATFORMS), help="with --group")
    parser.add_argument("--python", help="CPython version, e.g. 3.12 (with --group)")
    parser.add_argument(
        "--upgrade", action="store_true", help="also move unpinned dependencies to their newest versions"
    )
    args = parser.parse_args(argv)
    chosen = [(args.group, args.platform, args.python)] if args.group else LOCKS
    if args.group and not (args.platform and args.python):
        parser.error("--group needs --platform and --python")
    uv = find_uv()
    for group, platform, python in chosen:
        code = compile_lock(uv, group, platform, python, args.upgrade)
        if code:
            print(f"lock.py: uv failed for {group}/{platform}/{python} (exit {code})", file=sys.stderr)
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
