"""Check MNIST or Fashion-MNIST files that you downloaded by hand, before
training on them.

When torchvision cannot reach its download hosts, fetch the four .gz files
another way, put them in <data-dir>\\MNIST\\raw (or FashionMNIST\\raw), and
run:

    python check_mnist_files.py  # checks .\\data\\MNIST\\raw
    python check_mnist_files.py --dataset fashion-mnist
    python check_mnist_files.py --data-dir D:\\datasets  # data elsewhere

Each file is compared with the MD5 checksum that torchvision itself expects
(its MNIST.resources), and a file already unpacked from it with the size
it must have. When all four match, `python mnist_data.py
--download` (or train_mnist.py --download) unpacks them without going
online: torchvision uses a file that is already there and verified.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch", "torchvision")

# The same dataset classes, parser and options as mnist_data.py, its
# neighbour: .resources lists (file name, MD5), .mirrors the hosts.
from mnist_data import DATASETS, ArgumentParser, add_data_options, damage


def md5_of(path: Path) -> str:
    digest = hashlib.md5()
    with path.open("rb") as file:
        # 1 MB at a time: the files are up to 26 MB
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def check_files(
    name: str, data_dir: Path
) -> tuple[Path, list[tuple[str, str]]]:
    """Return (raw folder, [(file name, "OK" | "MISSING" | "DAMAGED")]) for
    the dataset's four files, and for each of them already unpacked.
    """
    dataset_class = DATASETS[name]
    raw = data_dir / dataset_class.__name__ / "raw"
    results = []
    for filename, expected_md5 in dataset_class.resources:
        path = raw / filename
        if not path.is_file():
            results.append((filename, "MISSING"))
        else:
            results.append(
                (
                    filename,
                    "OK" if md5_of(path) == expected_md5 else "DAMAGED",
                )
            )
        unpacked = raw / filename.removesuffix(".gz")
        if unpacked.is_file():
            # an interrupted unpacking: delete it, --download unpacks again
            status = "DAMAGED" if damage(unpacked, name) else "OK"
            results.append((unpacked.name, status))
    return raw, results


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(
        description=(
            "Check hand-downloaded MNIST / Fashion-MNIST files "
            "against torchvision's MD5 sums."
        )
    )
    add_data_options(parser, download=False)
    args = parser.parse_args(argv)
    raw, results = check_files(args.dataset, args.data_dir)
    print(
        f"{args.dataset}: checking {len(results)} files in {raw} against "
        "torchvision's MD5 checksums"
    )
    for filename, status in results:
        print(f"  {status:8} {filename}")
    bad = [filename for filename, status in results if status != "OK"]
    if bad:
        hosts = " or ".join(DATASETS[args.dataset].mirrors)
        print(
            f"error: {len(bad)} of {len(results)} files missing or damaged "
            f"in {raw}: delete and download "
            f"{', '.join(bad)} again (torchvision's hosts: {hosts})",
            file=sys.stderr,
        )
        return 1
    print(
        f"all files intact: python mnist_data.py --dataset {args.dataset} "
        f"--data-dir {args.data_dir} "
        "--download unpacks them without going online"
    )
    return 0


if __name__ == "__main__":
    script_guard.run(main)
