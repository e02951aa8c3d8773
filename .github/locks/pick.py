"""Print the entries of a hash lock for the named packages, hashes included, as a requirements file.

    python .github/locks/pick.py LOCK NAME [NAME ...]

The GPU workflow installs the lock's setuptools this way before the lock itself, so that jieba (no wheel)
builds with a hash-checked build backend (pip install --no-build-isolation). A name not in the lock is an
error: nothing unpinned gets installed.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ENTRY = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==\S+ \\\n(?:    --hash=sha256:[0-9a-f]{64}(?: \\\n|\n))+", re.M
)


def entries(text: str, names: list[str]) -> str:
    found = {_normal(m["name"]): m.group(0).rstrip("\n") for m in ENTRY.finditer(text)}
    missing = [name for name in names if _normal(name) not in found]
    if missing:
        raise SystemExit(f"error: not in the lock: {', '.join(missing)}")
    return "\n".join(found[_normal(name)] for name in names) + "\n"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lock", type=Path, help="a hash lock of .github/locks/")
    parser.add_argument("names", nargs="+", help="the packages to print")
    args = parser.parse_args(argv)
    sys.stdout.write(entries(args.lock.read_text(encoding="utf-8"), args.names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
