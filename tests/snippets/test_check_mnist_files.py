"""Tests for snippets/check_mnist_files.py: hand-downloaded files are checked against torchvision's MD5 sums.

The good case needs the original MNIST .gz files, which cannot be downloaded here; Debian's Fashion-MNIST
is re-compressed (same images, other bytes), so against torchvision's real checksums it is "DAMAGED" —
exactly what the script must say about a re-packed copy. The good case and the offline unpacking use
torchvision's own classes with the checksums of the files at hand.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess

import pytest
from torchvision import datasets

from generated_cases import NO_NETWORK
from guide_harness import assert_one_line_error, load_snippet
from run_requirements import skip_or_fail

check_mnist_files = load_snippet("check_mnist_files")


@pytest.fixture
def gz_copy(tmp_path):
    """<tmp>/data/FashionMNIST/raw/*.gz: Debian's Fashion-MNIST files, as a reader would place them."""
    from fetch_fashion_mnist import FILES, SOURCE

    sources = [SOURCE / f"{name}.gz" for name in FILES]
    if not all(s.is_file() for s in sources):
        skip_or_fail("data", f"Fashion-MNIST .gz files are missing in {SOURCE}")  # a failure under REQUIRE_DATA=1
    raw = tmp_path / "data" / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    for source in sources:
        shutil.copy(source, raw / source.name)
    return tmp_path / "data"


def _md5(path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def local_fashion_mnist(raw):
    """torchvision's FashionMNIST, unchanged but for its checksums (those of the files at hand) and a dead host."""

    class LocalFashionMNIST(datasets.FashionMNIST):
        mirrors = ["http://127.0.0.1:9/"]
        resources = [(name, _md5(raw / name)) for name, _ in datasets.FashionMNIST.resources]

    LocalFashionMNIST.__name__ = "FashionMNIST"  # torchvision and the script name the folder after the class
    return LocalFashionMNIST


def test_repacked_files_fail_the_real_checksums(gz_copy, capsys):
    code = check_mnist_files.main(["--dataset", "fashion-mnist", "--data-dir", str(gz_copy)])
    captured = capsys.readouterr()
    assert_one_line_error(subprocess.CompletedProcess([], code, "", captured.err), "4 of 4 files missing or damaged")
    assert captured.out.count("DAMAGED") == 4


def test_no_data_folder_says_where_to_download(tmp_path, capsys):
    code = check_mnist_files.main(["--data-dir", str(tmp_path / "none")])
    captured = capsys.readouterr()
    assert_one_line_error(
        subprocess.CompletedProcess([], code, "", captured.err),
        "4 of 4 files missing or damaged",
        "train-images-idx3-ubyte.gz",
        *datasets.MNIST.mirrors,
    )
    assert captured.out.count("MISSING") == 4


def test_intact_files_pass_and_a_damaged_file_is_named(gz_copy, monkeypatch, capsys):
    raw = gz_copy / "FashionMNIST" / "raw"
    monkeypatch.setitem(check_mnist_files.DATASETS, "fashion-mnist", local_fashion_mnist(raw))

    assert check_mnist_files.main(["--dataset", "fashion-mnist", "--data-dir", str(gz_copy)]) == 0
    out = capsys.readouterr().out
    assert out.count("  OK ") == 4 and "all files intact" in out

    images = raw / "train-images-idx3-ubyte"
    images.write_bytes(b"")  # an unpacking cut short beside an intact .gz
    code = check_mnist_files.main(["--dataset", "fashion-mnist", "--data-dir", str(gz_copy)])
    assert_one_line_error(subprocess.CompletedProcess([], code, "", capsys.readouterr().err), images.name)
    images.unlink()

    labels = raw / "t10k-labels-idx1-ubyte.gz"
    labels.write_bytes(labels.read_bytes()[:-10])  # a truncated download
    assert check_mnist_files.main(["--dataset", "fashion-mnist", "--data-dir", str(gz_copy)]) == 1
    captured = capsys.readouterr()
    assert "  DAMAGED  t10k-labels-idx1-ubyte.gz" in captured.out
    assert captured.out.count("  OK ") == 3
    assert "1 of 4 files" in captured.err


def test_verified_files_are_unpacked_without_the_network(gz_copy, monkeypatch):
    """What the page promises after a passing check: --download uses the files there and goes nowhere."""
    raw = gz_copy / "FashionMNIST" / "raw"
    local = local_fashion_mnist(raw)
    for key, value in NO_NETWORK.items():
        monkeypatch.setenv(key, value)
    test_set = local(root=str(gz_copy), train=False, download=True)  # the host is dead: no download
    assert len(test_set) == 10000 and test_set.data.shape == (10000, 28, 28)
    assert (raw / "t10k-images-idx3-ubyte").is_file()  # unpacked next to the .gz, where mnist_data.py reads it
