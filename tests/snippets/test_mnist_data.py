"""Tests for snippets/mnist_data.py: real Fashion-MNIST loads and normalises; missing data is one line; no download."""

from __future__ import annotations

import argparse
import gzip
import subprocess
from pathlib import Path

import pytest
import torch

from bad_input import IMAGES, RAW, link
from fetch_fashion_mnist import FILES, SOURCE
from generated_cases import NO_NETWORK
from guide_harness import SNIPPETS, assert_one_line_error, load_snippet, run_snippet

mnist_data = load_snippet("mnist_data")


def test_script_reports_real_fashion_mnist(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "mnist_data.py", "--dataset", "fashion-mnist", "--data-dir", str(fashion_mnist_root), cwd=tmp_path, **NO_NETWORK
    )
    assert result.returncode == 0, result.stderr
    assert "fashion-mnist: 60000 training and 10000 test images of shape (1, 28, 28), torch.float32" in result.stdout
    assert "mean -0.000, std 1.000" in result.stdout or "mean 0.000, std 1.000" in result.stdout
    assert "classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" in result.stdout


def test_load_dataset_normalises_with_training_statistics(fashion_mnist_root):
    train_x, train_y, test_x, test_y = mnist_data.load_dataset(
        "fashion-mnist", fashion_mnist_root, limit_train=5000, limit_test=300
    )
    assert train_x.shape == (5000, 1, 28, 28) and test_x.shape == (300, 1, 28, 28)
    assert train_x.dtype == test_x.dtype == torch.float32  # never float64 (DirectML)
    assert train_y.dtype == torch.int64 and set(train_y.tolist()) == set(range(10))
    assert abs(train_x.mean().item()) < 1e-4 and abs(train_x.std().item() - 1) < 1e-4
    assert abs(test_x.mean().item()) < 0.1  # the test set uses the training statistics: close, not exact
    # Real images: a Fashion-MNIST picture is not blank, and the pixels took more than two values.
    assert train_x[0].unique().numel() > 20


def test_batches_shuffle_reproducibly_and_cover_everything():
    images, labels = torch.arange(10.0).reshape(10, 1), torch.arange(10)
    first = list(mnist_data.batches(images, labels, 4, torch.Generator().manual_seed(1)))
    again = list(mnist_data.batches(images, labels, 4, torch.Generator().manual_seed(1)))
    assert [len(b[0]) for b in first] == [4, 4, 2]
    assert all(torch.equal(a[1], b[1]) for a, b in zip(first, again, strict=True))
    seen = torch.cat([b[1] for b in first])
    assert sorted(seen.tolist()) == list(range(10)) and seen.tolist() != list(range(10))
    assert all(torch.equal(x.flatten(), y.float()) for x, y in first)  # images stay paired with labels
    in_order = torch.cat([b[1] for b in mnist_data.batches(images, labels, 4)])
    assert in_order.tolist() == list(range(10))


def order(seed: int, epoch: int, count: int = 1000) -> list[int]:
    """The labels of one epoch's batches, in the order batches() serves them (labels 0..count-1)."""
    images, labels = torch.zeros(count, 1), torch.arange(count)
    generator = mnist_data.epoch_generator(seed, epoch)
    return torch.cat([b[1] for b in mnist_data.batches(images, labels, 64, generator)]).tolist()


def test_epoch_generator_gives_the_same_batch_order_for_the_same_seed_and_epoch():
    assert order(3, 2) == order(3, 2)
    assert sorted(order(3, 2)) == list(range(1000))  # a shuffle of every image, each once
    # Each epoch of each seed has its own order (a resumed run must not replay epoch 1's).
    orders = {tuple(order(seed, epoch)) for seed in range(4) for epoch in range(1, 31)}
    assert len(orders) == 4 * 30
    # The order checkpoints saved before epoch_generator existed were trained with: a run resumed from
    # one still repeats what an uninterrupted run would have done.
    legacy = torch.Generator().manual_seed(3 * 100_000 + 2)
    assert order(3, 2) == torch.randperm(1000, generator=legacy).tolist()


def tiny_data(*_args, **_kwargs):
    """Stands in for load_dataset: 96 training and 20 test images on the CPU."""
    return torch.randn(96, 1, 28, 28), torch.arange(96) % 10, torch.randn(20, 1, 28, 28), torch.arange(20) % 10


def train_mnist_run(module, tmp_path):
    module.main(
        [
            "--seed",
            "7",
            "--epochs",
            "2",
            "--batch-size",
            "32",
            "--device",
            "cpu",
            "--checkpoint",
            str(tmp_path / "lenet.pt"),
        ]
    )


def notebook_run(module, tmp_path):
    module.train_in_notebook("mnist", tmp_path, False, epochs=2, batch_size=32, learning_rate=1e-3, seed=7)


def benchmark_run(module, tmp_path):
    module.timed_run(torch.device("cpu"), tiny_data(), 2, 32, 1e-3, 7, warmup_steps=1)


def report_run(module, tmp_path):
    module.timed_run(torch.device("cpu"), tiny_data(), argparse.Namespace(epochs=2, dataset="mnist"))


@pytest.mark.parametrize(
    "caller, run",
    [
        ("train_mnist", train_mnist_run),
        ("train_mnist_notebook", notebook_run),
        ("benchmark_devices", benchmark_run),
        ("report", report_run),
    ],
)
def test_every_training_loop_shuffles_with_epoch_generator(caller, run, monkeypatch, tmp_path, capsys):
    """The pages promise the same batch order in every script: each epoch loop takes its generator from
    mnist_data.epoch_generator, never from a formula of its own. And one timed epoch loop (review 2026-12-code-2
    section 4 found it written five times): each script that times an epoch (all but the notebook, and
    benchmark_data_loading's preloaded epoch) times it with train_mnist.timed_epoch, whose clock waits for the
    device."""
    module = load_snippet(caller)
    asked, timed = [], []
    real_timed_epoch = load_snippet("train_mnist").timed_epoch

    def spy(seed, epoch):
        asked.append((seed, epoch))
        return mnist_data.epoch_generator(seed, epoch)

    def timed_epoch(*args, **kwargs):
        timed.append(len(args[2]))  # the images it timed
        return real_timed_epoch(*args, **kwargs)

    monkeypatch.setattr(module, "epoch_generator", spy)
    monkeypatch.setattr(module, "timed_epoch", timed_epoch, raising=False)
    if hasattr(module, "load_dataset"):
        monkeypatch.setattr(module, "load_dataset", tiny_data)
    monkeypatch.setenv("TORCH_DEVICE", "cpu")
    if caller == "report":
        monkeypatch.setattr(module, "SEED", 7)
    run(module, tmp_path)
    assert asked == [(7, 1), (7, 2)], capsys.readouterr()
    assert timed == [96, 96] or caller == "train_mnist_notebook", timed  # the notebook shows no times
    assert "timed_epoch(" in (SNIPPETS / "benchmark_data_loading.py").read_text(encoding="utf-8")


def test_download_without_network_is_one_line(tmp_path, monkeypatch, capsys):
    # Stand in for the network being down: torchvision's downloader fails as urllib does, nothing is fetched.
    from urllib.error import URLError

    tried = []

    def no_network(url, **kwargs):
        tried.append(url)
        raise URLError(f"[Errno -3] Temporary failure in name resolution ({len(tried)})")

    monkeypatch.setattr(mnist_data, "download_and_extract_archive", no_network)
    assert mnist_data.main(["--download", "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    first, second = mnist_data.DATASETS["mnist"].mirrors
    line = assert_one_line_error(
        subprocess.CompletedProcess([], 1, "", err),
        f"cannot download mnist into {tmp_path / 'data' / 'MNIST' / 'raw'}",
        "(no internet?)",
        f"{first}train-images-idx3-ubyte.gz",
        "Temporary failure in name resolution (1)",
    )
    # Every mirror was tried before giving up, and each one's cause is named, in order: the first host's
    # refusal (yann.lecun.com's 403) must not hide why the second failed.
    assert len(tried) == 2
    assert line.index("(1)") < line.index(f"{second}train-images-idx3-ubyte.gz: ") < line.index("(2)"), line


def test_damaged_download_is_one_line(tmp_path, monkeypatch, capsys):
    # torchvision raises RuntimeError("File not found or corrupted.") when a download fails its MD5 check.
    def corrupted(url, **kwargs):
        raise RuntimeError("File not found or corrupted.")

    monkeypatch.setattr(mnist_data, "download_and_extract_archive", corrupted)
    assert mnist_data.main(["--download", "--dataset", "fashion-mnist", "--data-dir", str(tmp_path)]) == 1
    assert_one_line_error(
        subprocess.CompletedProcess([], 1, "", capsys.readouterr().err),
        f"cannot download fashion-mnist into {tmp_path / 'FashionMNIST' / 'raw'}",
        "File not found or corrupted.",
    )


def data_with(fashion_mnist_root, tmp_path, images: bytes | None) -> Path:
    """<tmp>/FashionMNIST/raw: the real files, linked, but the training images: these bytes, or a folder (None)."""
    raw = tmp_path.joinpath(*RAW)
    raw.mkdir(parents=True)
    for name in set(FILES) - {IMAGES}:
        link(fashion_mnist_root.joinpath(*RAW, name), raw / name)
    if images is None:
        (raw / IMAGES).mkdir()
    else:
        (raw / IMAGES).write_bytes(images)  # a file of its own: a link's bytes are the real data's
    return raw


def test_a_folder_for_a_data_file_is_one_line(fashion_mnist_root, tmp_path, capsys):
    data_with(fashion_mnist_root, tmp_path, None)
    code = mnist_data.main(["--dataset", "fashion-mnist", "--data-dir", str(tmp_path)])
    assert_one_line_error(subprocess.CompletedProcess([], code, "", capsys.readouterr().err), "not found")


def test_download_repairs_an_empty_file(fashion_mnist_root, tmp_path, monkeypatch, capsys):
    """--download with no network: torchvision's downloader stands in, unpacking the real .gz it would fetch."""
    raw = data_with(fashion_mnist_root, tmp_path, b"")
    fetched = []

    def download(url, download_root, filename, md5=None, **kwargs):
        fetched.append(filename)
        with gzip.open(SOURCE / filename) as packed:
            Path(download_root, filename.removesuffix(".gz")).write_bytes(packed.read())

    monkeypatch.setattr(mnist_data, "download_and_extract_archive", download)
    assert mnist_data.main(["--dataset", "fashion-mnist", "--data-dir", str(tmp_path), "--download"]) == 0
    assert capsys.readouterr().err == ""
    assert fetched == [f"{IMAGES}.gz"] and (raw / IMAGES).stat().st_size == FILES[IMAGES][1]
