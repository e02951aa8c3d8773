"""The tutorial's full training run on real Fashion-MNIST, for the figure quoted on docs/mnist-training.md.

Not a test (it takes minutes): run it by hand and copy the final line to the page.

    .venv/bin/python .github/scripts/measure_training_accuracy.py [extra train_mnist.py arguments]

It unpacks Debian's Fashion-MNIST (apt-get install dataset-fashion-mnist), or the folder FASHION_MNIST_DIR
names, into a temporary torchvision
root, runs snippets/train_mnist.py with the page's command and default settings on the CPU, and
prints the final test accuracy read back from the checkpoint. Nothing is downloaded.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from fetch_fashion_mnist import (  # its neighbour: FASHION_MNIST_DIR or Debian's files
    FILES,
    SOURCE,
    unpack,
)

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    missing = [name for name in FILES if not (SOURCE / f"{name}.gz").is_file()]
    if missing:
        print(
            f"error: Fashion-MNIST is missing ({SOURCE / missing[0]}.gz): apt-get install dataset-fashion-mnist, "
            "or set FASHION_MNIST_DIR",
            file=sys.stderr,
        )
        return 1
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        unpack(SOURCE, work / "data")
        command = [
            sys.executable,
            str(ROOT / "snippets" / "train_mnist.py"),
            "--dataset",
            "fashion-mnist",
            "--data-dir",
            str(work / "data"),
            "--device",
            "cpu",
            *sys.argv[1:],
        ]
        print("running:", " ".join(command[1:]), flush=True)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if subprocess.run(command, cwd=work, env=env).returncode != 0:
            return 1
        checkpoint = work / "checkpoints" / "lenet-fashion-mnist.pt"
        if not checkpoint.is_file():  # --help: train_mnist.py printed its options and trained nothing
            return 0 if {"-h", "--help"} & set(sys.argv[1:]) else _no_checkpoint(checkpoint)
        history = torch.load(checkpoint, weights_only=True)["history"]
    best = max(history, key=lambda entry: entry["accuracy"])
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU threads, "
        f"torch {torch.__version__}, {torch.get_num_threads()} torch threads"
    )
    print(
        f"epochs: {len(history)}, training time {sum(e['seconds'] for e in history):.0f} s, "
        f"best epoch {best['epoch']} ({best['accuracy']:.4f})"
    )
    print(f"FINAL fashion-mnist test accuracy: {history[-1]['accuracy']:.4f}")
    return 0


def _no_checkpoint(checkpoint: Path) -> int:
    print(f"error: train_mnist.py exited 0 but wrote no {checkpoint.name}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
