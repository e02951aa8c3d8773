"""Load data with DataLoader worker processes, the way that works on
Windows.

On Windows, Python starts each worker with "spawn": a new Python process
that imports this file again, under the name __mp_main__. Whatever sits at
the top level of the file runs again in every worker, so the lines that
start the workers (the training loop) must sit under the main guard at
the bottom, and the dataset must be a class defined in a file the workers
can import (not in a notebook cell).

    python dataloader_workers.py                  # 2 worker processes
    python dataloader_workers.py --num-workers 0  # load in this process
"""

from __future__ import annotations

import argparse
import multiprocessing
import os

import torch
from torch.utils.data import DataLoader, Dataset


class SquaresDataset(Dataset):
    """Pairs (x, x * x), and the id of the process that loaded them."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int):
        x = torch.tensor([float(index)])
        return x, x * x, os.getpid()


def load_all(num_workers: int, size: int = 64) -> tuple[int, set[int]]:
    """Read the whole dataset once; return the number of samples and the
    ids of the processes that loaded them.
    """
    loader = DataLoader(
        SquaresDataset(size),
        batch_size=8,
        num_workers=num_workers,
        # "spawn" is what Windows always uses; asking for it here makes
        # Linux and macOS behave the same, so a mistake shows everywhere.
        multiprocessing_context="spawn" if num_workers > 0 else None,
    )
    count, loaded_by = 0, set()
    for x, y, pids in loader:
        assert torch.equal(y, x * x), "a worker returned a wrong pair"
        count += len(x)
        loaded_by.update(int(pid) for pid in pids)
    return count, loaded_by


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, 'error: ...'."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    # First thing under the main guard: matters only in a program frozen
    # into an .exe (PyInstaller); elsewhere it does nothing.
    multiprocessing.freeze_support()
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--num-workers",
        type=int,
        default=2,
        help="DataLoader worker processes; 0 loads in this process",
    )
    args = parser.parse_args(argv)
    if args.num_workers < 0:
        parser.error("--num-workers must be 0 or more")

    count, loaded_by = load_all(args.num_workers)
    workers = loaded_by - {os.getpid()}
    print(
        f"OK: loaded {count} samples with num_workers={args.num_workers}: "
        f"{len(workers)} worker process(es) besides this one"
    )
    return 0


if __name__ == "__main__":
    # Only the process you started runs this line; spawned workers import
    # the file without running it.
    raise SystemExit(main())
