"""Where does an epoch go? The usual DataLoader-with-transforms recipe
against preloaded tensors.

Keep it next to train_mnist.py and its neighbours, then:

    python benchmark_data_loading.py --download
    python benchmark_data_loading.py --dataset fashion-mnist --device cpu
    python benchmark_data_loading.py --data-dir D:\\datasets  # elsewhere

It trains one epoch of LeNet twice on the same device, from the same initial
weights:
  1. the recipe of many older tutorials: a DataLoader over torchvision's
     dataset that runs Resize, ToTensor and Normalize on every image, every
     epoch, and moves each batch to the device;
  2. this guide's way: the whole set decoded and normalised once, moved to
     the device once.
It also times a pass of the DataLoader alone (no training), and prints the
ratio.
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

# --8<-- [start:imports]
import json
import time
from pathlib import Path

import torch
from torch.utils.data import DataLoader
from torchvision import transforms

from choose_device import DeviceChoiceError, choose_device
from lenet import LeNet
from mnist_data import (
    DATASETS,
    ArgumentParser,
    DatasetError,
    add_data_options,
    load_dataset,
    non_negative_int,
    positive_float,
    positive_int,
    seed_number,
)
from script_guard import cannot_write
from train_mnist import (
    synchronize,
    timed_epoch,
    train_one_epoch,
)

# --8<-- [end:imports]


# --8<-- [start:transforms_loader]


def transforms_loader(
    dataset_class, data_dir, batch_size, seed, num_workers=0, limit=None
):
    """The older recipe: every image goes through PIL-based transforms each
    time it is used.
    """
    per_image = transforms.Compose(
        [
            # a no-op for 28x28 images, but it still costs a PIL round trip
            transforms.Resize((28, 28)),
            transforms.ToTensor(),
            transforms.Normalize((0.5,), (0.5,)),
        ]
    )
    dataset = dataset_class(
        root=str(data_dir), train=True, download=False, transform=per_image
    )
    if limit is not None:
        dataset = torch.utils.data.Subset(
            dataset, range(min(limit, len(dataset)))
        )
    # Worker processes use spawn on Windows: only safe under `if __name__ ==
    # "__main__":`. persistent_workers: start them once (in the warm-up) and
    # reuse them, so that their start-up, slow under spawn, is not counted
    # in a timed epoch.
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=True,
        num_workers=num_workers,
        persistent_workers=num_workers > 0,
        generator=torch.Generator().manual_seed(seed),
    )


# --8<-- [end:transforms_loader]


def epoch_with_loader(model, optimizer, loader, device):
    model.train()
    loss_function = torch.nn.CrossEntropyLoss()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss_function(model(images), labels).backward()
        optimizer.step()


def fresh_model(device, seed, lr):
    torch.manual_seed(seed)  # the same initial weights for both recipes
    model = LeNet().to(device)
    return model, torch.optim.Adam(model.parameters(), lr=lr)


def timed(device, model, work) -> float:
    synchronize(device, model)
    started = time.perf_counter()
    work()
    # the GPU may still be working: wait before reading the clock
    synchronize(device, model)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(
        description=(
            "Time one epoch: DataLoader with per-image transforms "
            "vs preloaded tensors."
        )
    )
    add_data_options(parser)
    parser.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write the results to FILE as JSON",
    )
    parser.add_argument("--batch-size", type=positive_int, default=128)
    parser.add_argument("--lr", type=positive_float, default=0.01)
    parser.add_argument("--seed", type=seed_number, default=0)
    parser.add_argument(
        "--num-workers",
        type=non_negative_int,
        default=0,
        help="DataLoader worker processes (default: 0)",
    )
    parser.add_argument(
        "--limit-train",
        type=positive_int,
        help="use only the first N training images",
    )
    parser.add_argument(
        "--device", help="dml, dml:N, xpu, cuda or cpu (default: automatic)"
    )
    args = parser.parse_args(argv)
    if args.json and (problem := cannot_write(args.json)):
        print(
            f"error: cannot write {args.json} ({problem})", file=sys.stderr
        )
        return 1
    return benchmark(args)


def benchmark(args) -> int:
    """Time the two recipes; print (and with --json write) it."""
    try:
        device, reason = choose_device(args.device)
        # Loading once also checks (and with --download fetches) the files
        # the DataLoader reads.
        train_images, train_labels, _, _ = load_dataset(
            args.dataset,
            args.data_dir,
            args.download,
            args.limit_train,
            limit_test=1,
        )
    except (DeviceChoiceError, DatasetError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"device: {device}  ({reason})")
    print(
        f"{args.dataset}: {len(train_images)} training images, batch "
        f"{args.batch_size}, "
        f"{args.num_workers} DataLoader workers; CPU with "
        f"{torch.get_num_threads()} threads"
    )

    loader = transforms_loader(
        DATASETS[args.dataset],
        args.data_dir,
        args.batch_size,
        args.seed,
        args.num_workers,
        args.limit_train,
    )
    model, optimizer = fresh_model(device, args.seed, args.lr)
    # Warm-up: a few steps of each kind, so one-time start-up costs (worker
    # processes too) are not counted.
    warm = [batch for _, batch in zip(range(3), loader, strict=False)]
    epoch_with_loader(model, optimizer, warm, device)
    train_images, train_labels = (
        train_images.to(device),
        train_labels.to(device),
    )
    train_one_epoch(
        model,
        optimizer,
        train_images[: 3 * args.batch_size],
        train_labels[: 3 * args.batch_size],
        args.batch_size,
        torch.Generator().manual_seed(args.seed),
    )

    loading_only = timed(device, model, lambda: [None for _ in loader])
    model, optimizer = fresh_model(device, args.seed, args.lr)
    with_loader = timed(
        device,
        model,
        lambda: epoch_with_loader(model, optimizer, loader, device),
    )
    model, optimizer = fresh_model(device, args.seed, args.lr)
    generator = torch.Generator().manual_seed(args.seed)
    _, preloaded = timed_epoch(
        model,
        optimizer,
        train_images,
        train_labels,
        args.batch_size,
        generator,
    )

    print(f"{'one epoch':<42}{'seconds':>8}")
    print(f"{'DataLoader + per-image transforms':<42}{with_loader:8.2f}")
    print(
        f"{'  of which: the DataLoader pass alone':<42}{loading_only:8.2f}"
    )
    print(f"{'preloaded tensors on the device':<42}{preloaded:8.2f}")
    print(
        f"ratio: preloaded tensors trained {with_loader / preloaded:.2f}x "
        f"as fast as the DataLoader recipe on {device}"
    )
    if args.json:  # machine-readable, e.g. for a chart
        seconds = {
            "dataloader_with_transforms": with_loader,
            "dataloader_pass_alone": loading_only,
            "preloaded_tensors": preloaded,
        }
        results = {
            "benchmark": "data_loading",
            "dataset": args.dataset,
            "device": str(device),
            "train_images": len(train_images),
            "batch_size": args.batch_size,
            "num_workers": args.num_workers,
            "torch": torch.__version__,
            "cpu_threads": torch.get_num_threads(),
            "seconds": seconds,
        }
        args.json.write_text(
            json.dumps(results, indent=2) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    script_guard.run(main)
