"""Measure, for Windows (win_amd64, CPython 3.12), each distinct environment the Windows jobs build.

    python .github/scripts/measure_environments.py [--out tests/windows_environments.json]

For each environment pip resolves its requirements against PyPI for Windows (``pip install --dry-run
--report``, nothing installed), and the file list of every wheel is read from the wheel's own zip
directory over HTTP range requests (a few KB per wheel, not the wheel): the unpacked size, the number
of files and the longest path inside site-packages, counting the ``__pycache__\\*.cpython-312.pyc``
that pip writes beside every ``.py``. The figures go to tests/windows_environments.json, which the
tests read (tests/pages/test_shell_block_budget.py); nothing is measured at test time. Needs PyPI.
Environments from a vendor's index (AMD, PyTorch's XPU and CUDA builds) are not reachable from here.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "windows_environments.json"
WINDOWS_LOCK = ROOT / ".github" / "locks" / "test-windows-py3.12.txt"
PIP_TARGET = [
    "--platform",
    "win_amd64",
    "--python-version",
    "3.12",
    "--implementation",
    "cp",
    "--only-binary=:all:",
    "--index-url",
    "https://pypi.org/simple",
]
SDIST_ONLY = {"jieba"}  # no wheel: built on the machine, a few MB


def environments() -> dict[str, list[str]]:
    """Environment key (tests/shell_environments.py's environment_key) -> pip arguments."""
    return {
        "torch-directml": ["torch-directml"],
        "torch==2.14.1 torchvision==0.29.1": ["torch==2.14.1", "torchvision==0.29.1"],
        "the suite (--group test, the Windows lock)": ["-r", str(_lock_without_sdists())],
        # A new venv holds the pip that Python 3.12.10's ensurepip brings (the hosted image's 3.12).
        "a new venv (pip only)": ["pip==25.0.1"],
        # setup.zh.md's China-network section upgrades pip in a new venv (download resume, pip 25.2+).
        "pip": ["pip"],
    }


def _lock_without_sdists() -> Path:
    lines, skip = [], False
    for line in WINDOWS_LOCK.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            skip = line.split("==")[0] in SDIST_ONLY
        if not skip:
            lines.append(line)
    path = Path(tempfile.mkdtemp()) / "lock.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# pip evaluates markers for the interpreter that runs it: make them Windows' (as tests/pages/test_install_commands.py does).
PIP_WRAPPER = """
import json, sys
import pip._vendor.packaging.markers as markers
target = json.loads(sys.argv[1])
original = markers.default_environment
markers.default_environment = lambda: {**original(), **target}
from pip._internal.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
WINDOWS_MARKERS = {
    "sys_platform": "win32",
    "platform_system": "Windows",
    "platform_machine": "AMD64",
    "os_name": "nt",
    "python_version": "3.12",
    "python_full_version": "3.12.0",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


def resolve(args: list[str]) -> list[dict]:
    """pip's --report of what it would install for Windows (--isolated: this machine's pip settings aside)."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [
                sys.executable,
                "-c",
                PIP_WRAPPER,
                json.dumps(WINDOWS_MARKERS),
                "install",
                "--isolated",
                "--quiet",
                "--dry-run",
                "--ignore-installed",
                "--report",
                str(report),
                *PIP_TARGET,
                *args,
            ],
            check=True,
            timeout=900,
        )
        return json.loads(report.read_text(encoding="utf-8"))["install"]


class HttpRange(io.RawIOBase):
    """A read-only file over HTTP range requests: enough for zipfile to read a wheel's directory, which is
    at the file's end (its last 8 MB are fetched once; torch's directory of 11,000 files is under 2 MB)."""

    TAIL = 8 << 20

    def __init__(self, url: str):
        self.url, self.position = url, 0
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=60) as response:
            self.size = int(response.headers["Content-Length"])
        self.tail_start = max(0, self.size - self.TAIL)
        self.tail = self._get(self.tail_start, self.size)

    def _get(self, start: int, end: int) -> bytes:
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={start}-{end - 1}"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.read()

    def seekable(self):
        return True

    def readable(self):
        return True

    def seek(self, offset, whence=0):
        self.position = {0: offset, 1: self.position + offset, 2: self.size + offset}[whence]
        return self.position

    def tell(self):
        return self.position

    def read(self, n=-1):
        end = self.size if n is None or n < 0 else min(self.size, self.position + n)
        if end <= self.position:
            return b""
        if self.position >= self.tail_start:
            data = self.tail[self.position - self.tail_start : end - self.tail_start]
        else:
            data = self._get(self.position, end)
        self.position += len(data)
        return data


def site_packages_paths(names: list[str]) -> list[str]:
    """The paths a wheel's files get under site-packages, with the .pyc pip compiles for each .py."""
    paths = []
    for name in names:
        if name.endswith("/"):
            continue
        if ".data/" in name.split("/", 1)[0] + "/":  # pkg-1.0.data/scripts/x -> ..\Scripts\x: not in site-packages
            continue
        paths.append(name)
        pure = PurePosixPath(name)
        if pure.suffix == ".py":
            paths.append(str(pure.parent / "__pycache__" / f"{pure.stem}.cpython-312.pyc"))
    return paths


def measure_wheel(url: str) -> dict:
    remote = HttpRange(url)
    with zipfile.ZipFile(remote) as wheel:
        infos = wheel.infolist()
    paths = site_packages_paths([info.filename for info in infos])
    return {
        "download_bytes": remote.size,
        "unpacked_bytes": sum(info.file_size for info in infos),
        "files": len(paths),
        "longest": max(paths, key=len),
    }


def measure(args: list[str]) -> dict:
    wheels = {}
    for item in resolve(args):
        meta = item["metadata"]
        wheels[f"{meta['name']}=={meta['version']}"] = measure_wheel(item["download_info"]["url"])
    longest = max((w["longest"] for w in wheels.values()), key=len)
    return {
        "pip_args": args if args[0] != "-r" else ["-r", WINDOWS_LOCK.relative_to(ROOT).as_posix() + " (jieba aside)"],
        "packages": len(wheels),
        "download_mb": round(sum(w["download_bytes"] for w in wheels.values()) / 1e6),
        "unpacked_mb": round(sum(w["unpacked_bytes"] for w in wheels.values()) / 1e6),
        "files": sum(w["files"] for w in wheels.values()),
        "longest_path": longest,
        "longest_path_chars": len(longest),
        "wheels": wheels,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    figures = {
        "measured": datetime.date.today().isoformat(),
        "command": "python .github/scripts/measure_environments.py",
        "platform": "win_amd64, CPython 3.12, wheels from PyPI",
        "environments": {},
    }
    for key, pip_args in environments().items():
        print(f"measuring {key} ...", flush=True)
        figures["environments"][key] = found = measure(pip_args)
        print(
            f"  {found['packages']} packages, {found['download_mb']} MB download, {found['unpacked_mb']} MB unpacked, {found['files']} files, "
            f"longest path {found['longest_path_chars']} characters",
            flush=True,
        )
    args.out.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
