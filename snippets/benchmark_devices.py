"""Is the GPU faster than the CPU for this training? Time both in one run,
the same way.

Keep it next to train_mnist.py and its neighbours, then:

    python benchmark_devices.py --download  # MNIST, 3 epochs on CPU and GPU
    python benchmark_devices.py --dataset fashion-mnist --epochs 5
    python benchmark_devices.py --data-dir D:\\datasets  # data elsewhere

Both devices train the same LeNet from the same initial weights on the same
data in the same batch order. Each gets warm-up steps first (one-time
start-up costs are not training speed), and the clock is read only after the
device has finished its queued work.
"""

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch")

# --8<-- [start:imports]
import json
from pathlib import Path

import torch

from choose_device import DeviceChoiceError, choose_device
from lenet import LeNet
from mnist_data import (
    ArgumentParser,
    DatasetError,
    add_data_options,
    epoch_generator,
    load_dataset,
    positive_float,
    positive_int,
    seed_number,
)
from script_guard import cannot_write
from train_mnist import (
    evaluate,
    synchronize,
    timed_epoch,
    train_one_epoch,
)

# --8<-- [end:imports]


# --8<-- [start:timed_run]
def timed_run(device, data, epochs, batch_size, lr, seed, warmup_steps):
    """Train on ``device``; return (seconds per epoch, final test accuracy).

    ``data`` is (train_images, train_labels, test_images, test_labels) on
    the CPU.
    """
    train_images, train_labels, test_images, test_labels = (
        tensor.to(device) for tensor in data
    )

    # Warm-up on a throwaway model: the first steps on a device pay for
    # kernel selection, memory allocation and (on DirectML) shader
    # compilation, which is not the speed of training.
    warm_model = LeNet().to(device)
    warm_optimizer = torch.optim.Adam(warm_model.parameters(), lr=lr)
    warm_count = min(len(train_images), warmup_steps * batch_size)
    train_one_epoch(
        warm_model,
        warm_optimizer,
        train_images[:warm_count],
        train_labels[:warm_count],
        batch_size,
        torch.Generator().manual_seed(seed),
    )
    synchronize(device, warm_model)

    torch.manual_seed(seed)  # the same initial weights on every device
    # on the device before the optimizer is built
    model = LeNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    seconds = []
    for epoch in range(1, epochs + 1):
        # same batch order everywhere
        generator = epoch_generator(seed, epoch)
        _, took = timed_epoch(
            model,
            optimizer,
            train_images,
            train_labels,
            batch_size,
            generator,
        )
        seconds.append(took)
    return seconds, evaluate(model, test_images, test_labels)


# --8<-- [end:timed_run]


def main(argv=None) -> int:
    parser = ArgumentParser(
        description=(
            "Time LeNet training on the CPU and on the GPU, side by side."
        )
    )
    add_data_options(parser)
    parser.add_argument("--epochs", type=positive_int, default=3)
    parser.add_argument("--batch-size", type=positive_int, default=64)
    parser.add_argument("--lr", type=positive_float, default=1e-3)
    parser.add_argument("--seed", type=seed_number, default=0)
    parser.add_argument("--warmup-steps", type=positive_int, default=20)
    parser.add_argument(
        "--limit-train",
        type=positive_int,
        help="use only the first N training images",
    )
    parser.add_argument(
        "--device",
        help=(
            "the device to compare with the CPU: dml, dml:N, xpu, cuda "
            "(default: automatic)"
        ),
    )
    parser.add_argument(
        "--allow-cpu-only",
        action="store_true",
        help="without a GPU, time the CPU alone instead of stopping",
    )
    parser.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write the results to FILE as JSON",
    )
    args = parser.parse_args(argv)
    if args.json and (problem := cannot_write(args.json)):
        print(
            f"error: cannot write {args.json} ({problem})", file=sys.stderr
        )
        return 1
    return benchmark(args)


def benchmark(args) -> int:
    """Time the CPU and the device; print (and with --json write) it."""
    try:
        device, reason = choose_device(args.device)
    except DeviceChoiceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if device.type == "cpu" and not args.device and not args.allow_cpu_only:
        print(
            f"error: no GPU to compare with the CPU: {reason}; "
            f"pass --allow-cpu-only to time the CPU alone",
            file=sys.stderr,
        )
        return 1
    try:
        data = load_dataset(
            args.dataset, args.data_dir, args.download, args.limit_train
        )
    except DatasetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if device.type == "cpu" and not args.device:
        print(f"no accelerator found ({reason}): only the CPU is timed")
        devices = [torch.device("cpu")]
    else:
        if device.type == "cpu":
            print(
                "comparing the CPU with itself: a check of the method, the "
                "ratio should be close to 1"
            )
        print(f"device: {device}  ({reason})")
        devices = [torch.device("cpu"), device]

    print(
        f"{args.dataset}: {len(data[0])} training images, batch "
        f"{args.batch_size}, {args.epochs} epochs, "
        f"{args.warmup_steps} warm-up steps; CPU with "
        f"{torch.get_num_threads()} threads"
    )
    results = []  # (seconds per epoch, accuracy) for each device, in order
    for each in devices:
        print(f"timing {each} ...", flush=True)
        results.append(
            timed_run(
                each,
                data,
                args.epochs,
                args.batch_size,
                args.lr,
                args.seed,
                args.warmup_steps,
            )
        )

    print(
        "epoch  "
        + "  ".join(f"{str(each) + ' (s)':>20}" for each in devices)
    )
    for epoch in range(args.epochs):
        print(
            f"{epoch + 1:>5}  "
            + "  ".join(
                f"{seconds[epoch]:>20.2f}" for seconds, _ in results
            )
        )
    print(
        "total  "
        + "  ".join(f"{sum(seconds):>20.2f}" for seconds, _ in results)
    )
    print(
        "test accuracy: "
        + ", ".join(
            f"{each} {accuracy:.4f}"
            for each, (_, accuracy) in zip(devices, results, strict=True)
        )
    )
    if len(devices) == 2:
        cpu_seconds, device_seconds = sum(results[0][0]), sum(results[1][0])
        print(
            f"ratio: {devices[1]} trained "
            f"{cpu_seconds / device_seconds:.2f}x as fast as the CPU "
            f"({cpu_seconds:.1f} s vs {device_seconds:.1f} s for "
            f"{args.epochs} epochs)"
        )
    if args.json:  # machine-readable, e.g. for a chart
        runs = [
            {
                "device": str(each),
                "seconds_per_epoch": seconds,
                "total_seconds": sum(seconds),
                "test_accuracy": accuracy,
            }
            for each, (seconds, accuracy) in zip(
                devices, results, strict=True
            )
        ]
        report = {
            "benchmark": "devices",
            "dataset": args.dataset,
            "train_images": len(data[0]),
            "epochs": args.epochs,
            "batch_size": args.batch_size,
            "torch": torch.__version__,
            "cpu_threads": torch.get_num_threads(),
            "runs": runs,
        }
        args.json.write_text(
            json.dumps(report, indent=2) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    script_guard.run(main)
