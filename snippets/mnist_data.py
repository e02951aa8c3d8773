"""Load MNIST or Fashion-MNIST once, as normalised float32 tensors, and
serve shuffled batches.

Run it to check that the data is where the training script will look:

    python mnist_data.py --download  # MNIST into .\\data (internet, once)
    python mnist_data.py --dataset fashion-mnist --data-dir D:\\datasets

Why not a DataLoader with transforms? For 28x28 images, per-image PIL
transforms cost more than the network itself: the GPU waits for the data.
Here the whole set is decoded once, normalised once, moved to the device
once, and each batch is picked from tensors that are already there.
"""

from __future__ import annotations

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch", "torchvision")

# What other scripts (and yours) may use; the rest may change.
__all__ = [
    "DATASETS",
    "ArgumentParser",
    "DatasetError",
    "add_data_options",
    "batches",
    "damage",
    "epoch_generator",
    "load_dataset",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "seed_number",
]

# --8<-- [start:data]
import argparse
import hashlib
import math
from pathlib import Path
from urllib.error import URLError

import torch
from torchvision import datasets
from torchvision.datasets.utils import download_and_extract_archive

# the one-line parser of every script, here too for the scripts that
# import it from here
from script_guard import ArgumentParser

# torchvision reads (and downloads) both sets in the same IDX format, into
# <data-dir>/<folder>/raw.
DATASETS = {
    "mnist": datasets.MNIST,
    "fashion-mnist": datasets.FashionMNIST,
}


# The four files once unpacked, the same for both sets: (the IDX format's
# magic number, the size in bytes). An interrupted unpacking or copy leaves
# a file of another size; a file of other data, another number.
UNPACKED = {
    "train-images-idx3-ubyte": (2051, 47_040_016),
    "train-labels-idx1-ubyte": (2049, 60_008),
    "t10k-images-idx3-ubyte": (2051, 7_840_016),
    "t10k-labels-idx1-ubyte": (2049, 10_008),
}


class DatasetError(RuntimeError):
    """The dataset is missing, unreadable, or could not be downloaded."""


def _one_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


# The SHA-256 of Fashion-MNIST's two label files, unpacked (computed
# 2026-12-05 from Debian's fashion-mnist package): the same names and sizes
# as MNIST's, so only their content tells that they are not MNIST.
FASHION_LABELS = {
    "train-labels-idx1-ubyte": (
        "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9"
    ),
    "t10k-labels-idx1-ubyte": (
        "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34"
    ),
}


def damage(path: Path, name: str = "") -> str:
    """What is wrong with an unpacked file of dataset ``name`` ("" when it
    looks whole): its size, its IDX header, its labels.
    """
    magic, size = UNPACKED[path.name]
    actual = path.stat().st_size
    if actual != size:
        return f"{actual} bytes, not {size}"
    with path.open("rb") as file:
        # the labels whole (60 KB at most), of the images their header
        content = file.read(16 if magic == 2051 else size)
    header = [
        int.from_bytes(content[at : at + 4], "big") for at in (0, 4, 8, 12)
    ]
    if header[0] != magic:
        return "not an IDX file"
    if magic == 2051:  # images: count, 28 rows, 28 columns
        if header[1:] != [(size - 16) // 784, 28, 28]:
            return f"an IDX header of {header[1:]}, not N x 28 x 28"
        return ""
    if header[1] != size - 8:
        return f"an IDX header for {header[1]} labels, not {size - 8}"
    if max(content[8:]) > 9:
        return f"a label of {max(content[8:])}, not 0 to 9"
    digest = hashlib.sha256(content).hexdigest()
    if name == "mnist" and digest == FASHION_LABELS[path.name]:
        return "these are Fashion-MNIST's labels, not MNIST's"
    return ""


def _check_files(name: str, data_dir: Path) -> None:
    """Raise DatasetError for the first unpacked file that is not whole
    (a missing one is torchvision's "not found").
    """
    raw = data_dir / DATASETS[name].__name__ / "raw"
    for filename in UNPACKED:
        path = raw / filename
        if path.is_file() and (problem := damage(path, name)):
            raise DatasetError(
                f"{path} is damaged ({problem}): run again with "
                "--download to fetch it again"
            )


def _download(name: str, data_dir: Path) -> None:
    """Fetch the missing files into <data-dir>/<folder>/raw, trying
    torchvision's mirrors in turn.

    torchvision's download=True does the same, but its error spans many
    lines (or prints the cause elsewhere): this one raises DatasetError with
    the folder and each mirror's cause, in one line.
    """
    dataset_class = DATASETS[name]
    raw = data_dir / dataset_class.__name__ / "raw"
    for filename, md5 in dataset_class.resources:
        unpacked = raw / filename.removesuffix(".gz")
        if unpacked.is_file() and not damage(unpacked, name):
            continue
        # A damaged file is fetched again, not kept because it exists.
        unpacked.unlink(missing_ok=True)
        causes = []  # each mirror's: one may refuse, the next time out
        for mirror in dataset_class.mirrors:
            try:
                download_and_extract_archive(
                    mirror + filename,
                    download_root=str(raw),
                    filename=filename,
                    md5=md5,
                )
                break
            # no network, mirror down, or a damaged download
            except (URLError, RuntimeError) as error:
                reason = (
                    error.reason if isinstance(error, URLError) else error
                )
                causes.append(f"{mirror}{filename}: {_one_line(reason)}")
        else:
            raise DatasetError(
                f"cannot download {name} into {raw} "
                f"(no internet?): {'; '.join(causes)}"
            )


def _read_split(name: str, data_dir: Path, train: bool, download: bool):
    dataset_class = DATASETS[name]
    try:
        if download:
            _download(name, data_dir)
        _check_files(name, data_dir)
        dataset = dataset_class(
            root=str(data_dir), train=train, download=False
        )
    except DatasetError:
        raise
    # torchvision's answer to a file that is there but not whole
    except (ValueError, AssertionError) as error:
        raise DatasetError(
            f"cannot read {name} from {data_dir}, a file is damaged "
            f"({_one_line(error)}): run again with --download"
        ) from None
    except RuntimeError as error:
        # torchvision: "Dataset not found. You can use download=True ..."
        if "not found" in str(error).lower():
            folder = data_dir / dataset_class.__name__ / "raw"
            raise DatasetError(
                f"{name} not found in {folder}: run again with --download "
                "(needs internet once) "
                "or point --data-dir at the folder that holds "
                f"{dataset_class.__name__}"
            ) from None
        raise DatasetError(
            f"cannot read {name} from {data_dir}: {_one_line(error)}"
        ) from None
    # no permission to create the folder, a damaged file...
    except OSError as error:
        what = "download" if download else "read"
        raise DatasetError(
            f"cannot {what} {name} into {data_dir}: {_one_line(error)}"
        ) from None
    # .data holds every image as uint8 (N, 28, 28), .targets the labels
    # (N,): no per-image transform.
    return dataset.data, dataset.targets


def load_dataset(
    name: str,
    data_dir: str | Path,
    download: bool = False,
    limit_train: int | None = None,
    limit_test: int | None = None,
):
    """(train_images, train_labels, test_images, test_labels) on the CPU.

    Images are float32 (N, 1, 28, 28), normalised with the training set's
    mean and standard deviation; labels are int64 (N,). ``limit_*`` keeps
    only the first N images (quick runs and tests).
    """
    if name not in DATASETS:
        raise DatasetError(
            f"unknown dataset {name!r}: use one of {', '.join(DATASETS)}"
        )
    data_dir = Path(data_dir)
    train_images, train_labels = _read_split(
        name, data_dir, train=True, download=download
    )
    test_images, test_labels = _read_split(
        name, data_dir, train=False, download=download
    )
    train_images, train_labels = (
        train_images[:limit_train],
        train_labels[:limit_train],
    )
    test_images, test_labels = (
        test_images[:limit_test],
        test_labels[:limit_test],
    )

    # float32, never float64: not every DirectML GPU supports float64.
    # (N, 1, 28, 28): one channel
    train = train_images.to(torch.float32).div_(255).unsqueeze(1)
    test = test_images.to(torch.float32).div_(255).unsqueeze(1)
    # from the training images only: the test set stays unseen
    mean, std = train.mean(), train.std()
    return (
        (train - mean) / std,
        train_labels.long(),
        (test - mean) / std,
        test_labels.long(),
    )


def batches(
    images: torch.Tensor,
    labels: torch.Tensor,
    batch_size: int,
    generator: torch.Generator | None = None,
):
    """Yield (images, labels) batches from tensors that already live on the
    training device.

    Shuffle with a permutation made on the CPU: DirectML has no
    torch.Generator of its own. Without a generator the order is fixed (for
    evaluation).
    """
    count = len(images)
    if generator is None:
        order = None
    else:
        order = torch.randperm(count, generator=generator).to(images.device)
    for start in range(0, count, batch_size):
        if order is None:
            yield (
                images[start : start + batch_size],
                labels[start : start + batch_size],
            )
        else:
            index = order[start : start + batch_size]
            yield images[index], labels[index]


def epoch_generator(seed: int, epoch: int) -> torch.Generator:
    """The generator that shuffles the batches of epoch ``epoch``.

    The order depends only on the seed and the epoch: a resumed run repeats
    it exactly, and every device gets the same batches. It lives on the
    CPU: DirectML has none (microsoft/DirectML#374).
    """
    return torch.Generator().manual_seed(seed * 100_000 + epoch)


# --8<-- [end:data]


# The command-line contract (docs/contributing/testing.md): every script
# that loads the data takes the same data options, and a bad value is a
# usage error (exit 2) that names the option.
def _number(text: str, kind, allowed, rule: str):
    """``text`` as ``kind`` (int or float) if ``allowed(value)``."""
    try:
        # int() also reads other scripts' digits ("\u0663"): ASCII only
        if not text.isascii():
            raise ValueError
        value = kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(
            f"{text!r} is not {what}"
        ) from None
    if not allowed(value):
        raise argparse.ArgumentTypeError(f"{text} must be {rule}")
    return value


def positive_int(text: str) -> int:
    return _number(text, int, lambda value: value >= 1, "1 or more")


def non_negative_int(text: str) -> int:
    return _number(text, int, lambda value: value >= 0, "0 or more")


def seed_number(text: str) -> int:
    # torch's generators take 64 bits; epoch_generator() multiplies it
    return _number(
        text, int, lambda value: 0 <= value < 2**32, "0 to 2**32-1"
    )


def positive_float(text: str) -> float:
    finite = "more than 0 and finite"
    return _number(text, float, lambda value: 0 < value < math.inf, finite)


def add_data_options(
    parser: argparse.ArgumentParser, defaults: bool = True, download=True
) -> None:
    """--dataset, --data-dir and --download, the same in every script that
    loads the data.

    defaults=False leaves out the options not given (for a script that lays
    them over its own settings); download=False leaves out --download.
    """

    def default(value):
        return value if defaults else argparse.SUPPRESS

    parser.add_argument(
        "--dataset", choices=sorted(DATASETS), default=default("mnist")
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=default(Path("data")),
        help="dataset root (default: .\\data)",
    )
    if not download:
        return
    parser.add_argument(
        "--download",
        action=argparse.BooleanOptionalAction,
        default=default(False),
        help="download the dataset if it is missing",
    )


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(
        description="Load MNIST or Fashion-MNIST and show what was loaded."
    )
    add_data_options(parser)
    args = parser.parse_args(argv)
    try:
        train_x, train_y, test_x, test_y = load_dataset(
            args.dataset, args.data_dir, args.download
        )
    except DatasetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(
        f"{args.dataset}: {len(train_x)} training and {len(test_x)} "
        f"test images of shape {tuple(train_x.shape[1:])}, {train_x.dtype}"
    )
    print(
        f"training images after normalisation: mean {train_x.mean():.3f}, "
        f"std {train_x.std():.3f}"
    )
    print(f"classes: {train_y.unique().tolist()}")
    return 0


if __name__ == "__main__":
    script_guard.run(main)
