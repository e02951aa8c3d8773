"""Fetch Fashion-MNIST for CI: the four *-ubyte.gz files, from the first mirror that serves them intact.

    python .github/scripts/fetch_fashion_mnist.py DEST [--mirror URL ...]

DEST then holds train-images-idx3-ubyte.gz and its three siblings, the layout FASHION_MNIST_DIR points the
tests at (tests/conftest.py). Every file is checked before it is kept: the SHA-256 of its decompressed IDX
bytes, computed from Debian's dataset-fashion-mnist package (Debian re-gzipped the upstream files without
their stored names, so the .gz bytes differ but the contents are the same). The MD5 of the .gz itself is
compared with the one torchvision publishes (torchvision.datasets.FashionMNIST.resources) and reported.
Files already in DEST that pass the check are kept (the workflows cache DEST between runs).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import shutil
import sys
import urllib.request
import zlib
from pathlib import Path

MIRRORS = (
    # The dataset's own repository, and the mirror torchvision downloads from.
    "https://raw.githubusercontent.com/zalandoresearch/fashion-mnist/master/data/fashion/",
    "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/",
)
# name: (SHA-256 of the decompressed file, its size in bytes, MD5 of the upstream .gz per torchvision)
FILES = {
    "train-images-idx3-ubyte": (
        "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888",
        47040016,
        "8d4fb7e6c68d591d4c3dfef9ec88bf0d",
    ),
    "train-labels-idx1-ubyte": (
        "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9",
        60008,
        "25c81989df183df01b3e8a0aad5dffbe",
    ),
    "t10k-images-idx3-ubyte": (
        "5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b",
        7840016,
        "bef4ecab320f06d8554ea6380940ec79",
    ),
    "t10k-labels-idx1-ubyte": (
        "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34",
        10008,
        "bb300cfdad3c16e7a12a480ee83cd310",
    ),
}
TIMEOUT = 60
# Where the tests and .github/scripts/measure_training_accuracy.py read the four files: Debian's
# dataset-fashion-mnist, or a folder this script filled (FASHION_MNIST_DIR=DEST).
SOURCE = Path(os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"))


def unpack(source: Path, root: Path) -> Path:
    """Un-gzip the four files from ``source`` into torchvision's layout, root/FashionMNIST/raw/; returns root."""
    raw = root / "FashionMNIST" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        with gzip.open(source / f"{name}.gz", "rb") as packed, open(raw / name, "wb") as unpacked:
            shutil.copyfileobj(packed, unpacked)
    return root


class FetchError(Exception):
    """No mirror served an intact copy; the message says what each one did."""


def check(name: str, packed: bytes) -> str | None:
    """None if ``packed`` is an intact copy of ``name``.gz, else the reason it is not."""
    sha256, size, _ = FILES[name]
    try:
        # max_length: never inflate more than the real file (a damaged or hostile file cannot fill the disk).
        decompressor = zlib.decompressobj(wbits=31)
        content = decompressor.decompress(packed, size + 1)
    except zlib.error as error:
        return f"not a gzip file ({error})"
    if len(content) != size or not decompressor.eof:
        return f"wrong size (expected {size} bytes decompressed)"
    if hashlib.sha256(content).hexdigest() != sha256:
        return "SHA-256 mismatch"
    return None


def download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310 (http, https, file)
        return response.read(64 * 1024 * 1024)


def fetch(dest: Path, mirrors=MIRRORS, log=print) -> list[str]:
    """Put intact copies of the four files in ``dest``; returns the names it downloaded."""
    dest.mkdir(parents=True, exist_ok=True)
    fetched = []
    for name in FILES:
        target = dest / f"{name}.gz"
        if target.is_file() and check(name, target.read_bytes()) is None:
            log(f"{target.name}: present and intact")
            continue
        failures = []
        for mirror in mirrors:
            url = mirror.rstrip("/") + f"/{name}.gz"
            try:
                packed = download(url)
            except (OSError, ValueError) as error:  # URLError, HTTPError, timeouts are OSErrors
                failures.append(f"{url}: {type(error).__name__}: {str(error)[:80]}")
                log(f"{target.name}: {failures[-1]}; trying the next mirror")
                continue
            problem = check(name, packed)
            if problem:
                failures.append(f"{url}: {problem}")
                log(f"{target.name}: {failures[-1]}; trying the next mirror")
                continue
            partial = target.with_name(target.name + ".part")
            partial.write_bytes(packed)
            os.replace(partial, target)  # never a half-written file under the real name
            md5 = hashlib.md5(packed, usedforsecurity=False).hexdigest()
            same = "matches" if md5 == FILES[name][2] else "differs from"
            log(f"{target.name}: SHA-256 verified, from {url} (gzip MD5 {same} torchvision's)")
            fetched.append(name)
            break
        else:
            raise FetchError(f"no mirror served an intact {name}.gz: " + "; ".join(failures))
    return fetched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="folder for the four *-ubyte.gz files (FASHION_MNIST_DIR)")
    parser.add_argument("--mirror", action="append", help="base URL to try, in order (default: the built-in two)")
    args = parser.parse_args(argv)
    try:
        fetched = fetch(args.dest, tuple(args.mirror or MIRRORS))
    except FetchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"Fashion-MNIST ready in {args.dest} ({len(fetched)} downloaded, {len(FILES) - len(fetched)} cached)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
