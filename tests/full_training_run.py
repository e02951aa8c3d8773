"""The tutorial's full training run on real Fashion-MNIST, for the figure quoted on docs/mnist-training.md.

Not a test (it takes minutes): run it by hand and copy the final line to the page.

    .venv/bin/python tests/full_training_run.py [extra train_mnist.py arguments]

It unpacks Debian's Fashion-MNIST (apt-get install dataset-fashion-mnist) into a temporary torchvision
root, runs snippets/train_mnist.py with the page's command and default settings on the CPU, and
prints the final test accuracy read back from the checkpoint. Nothing is downloaded.
"""

from __future__ import annotations

import gzip
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
# Debian's dataset-fashion-mnist, or any folder of the same *-ubyte.gz files (tests/fetch_fashion_mnist.py DIR).
SOURCE = Path(os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"))
FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        raw = work / "data" / "FashionMNIST" / "raw"
        raw.mkdir(parents=True)
        for name in FILES:
            with gzip.open(SOURCE / f"{name}.gz", "rb") as packed, open(raw / name, "wb") as unpacked:
                shutil.copyfileobj(packed, unpacked)
        command = [sys.executable, str(ROOT / "snippets" / "train_mnist.py"), "--dataset", "fashion-mnist",
                   "--data-dir", str(work / "data"), "--device", "cpu", *sys.argv[1:]]
        print("running:", " ".join(command[1:]), flush=True)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if subprocess.run(command, cwd=work, env=env).returncode != 0:
            return 1
        history = torch.load(work / "checkpoints" / "lenet-fashion-mnist.pt", weights_only=True)["history"]
    best = max(history, key=lambda entry: entry["accuracy"])
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU threads, "
          f"torch {torch.__version__}, {torch.get_num_threads()} torch threads")
    print(f"epochs: {len(history)}, training time {sum(e['seconds'] for e in history):.0f} s, "
          f"best epoch {best['epoch']} ({best['accuracy']:.4f})")
    print(f"FINAL fashion-mnist test accuracy: {history[-1]['accuracy']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
