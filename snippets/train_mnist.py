"""Train LeNet on MNIST or Fashion-MNIST on the GPU (DirectML, XPU,
CUDA/ROCm) or the CPU, with checkpoints.

Keep it next to choose_device.py, mnist_data.py and lenet.py, then:

    python train_mnist.py --download  # MNIST, into .\\data the first time
    python train_mnist.py --resume    # after an interruption: carry on
    python train_mnist.py --dataset fashion-mnist --epochs 15
    python train_mnist.py --data-dir D:\\datasets  # data kept elsewhere

After every epoch it prints the test accuracy and saves a checkpoint
(default: checkpoints\\lenet-<dataset>.pt). The checkpoint is written to a
temporary file first and then renamed over the old one, so a crash or a
killed process never leaves a half-written checkpoint.
"""

from __future__ import annotations

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch")

# What other scripts (and yours) may use; the rest may change.
__all__ = [
    "cannot_write",
    "evaluate",
    "synchronize",
    "timed_epoch",
    "train_one_epoch",
]

# --8<-- [start:imports]
import argparse
import contextlib
import glob
import math
import os
import time
from pathlib import Path

import torch
from torch import nn

from choose_device import DeviceChoiceError, choose_device
from lenet import LeNet
from mnist_data import (
    ArgumentParser,
    DatasetError,
    add_data_options,
    batches,
    epoch_generator,
    load_dataset,
    positive_float,
    positive_int,
    seed_number,
)
from script_guard import cannot_write

# --8<-- [end:imports]


# --8<-- [start:train]
def train_one_epoch(
    model,
    optimizer,
    images,
    labels,
    batch_size,
    generator,
    progress_label=None,
):
    """One pass over the training tensors (already on the device). Returns
    the mean training loss.

    With ``progress_label`` it prints a line at 25 %, 50 % and 75 % of the
    batches.
    """
    model.train()
    loss_function = nn.CrossEntropyLoss()
    total_batches = (len(images) + batch_size - 1) // batch_size
    # rounded up
    report_at = {
        (total_batches * quarter + 3) // 4 for quarter in (1, 2, 3)
    }
    loss_sum = torch.zeros((), device=images.device)
    seen = 0
    for number, (batch_images, batch_labels) in enumerate(
        batches(images, labels, batch_size, generator), 1
    ):
        optimizer.zero_grad()
        loss = loss_function(model(batch_images), batch_labels)
        loss.backward()
        optimizer.step()
        # Sum on the device: loss.item() at every step would make the CPU
        # wait for the GPU each time.
        loss_sum += loss.detach() * len(batch_images)
        seen += len(batch_images)
        if (
            progress_label is not None
            and number in report_at
            and number < total_batches
        ):
            print(
                f"{progress_label} {100 * number // total_batches:3d}% "
                f"({number}/{total_batches} batches)  loss "
                f"{loss_sum.item() / seen:.4f}",
                flush=True,
            )
    return loss_sum.item() / seen


# --8<-- [end:train]


# --8<-- [start:evaluate]
def evaluate(model, images, labels, batch_size=1000):
    """Fraction of correctly classified images."""
    model.eval()
    correct = torch.zeros((), dtype=torch.int64, device=images.device)
    # no_grad, not inference_mode: torch-directml fails on inference tensors
    # (microsoft/DirectML#602).
    with torch.no_grad():
        for batch_images, batch_labels in batches(
            images, labels, batch_size
        ):
            correct += (
                model(batch_images).argmax(dim=1) == batch_labels
            ).sum()
    return correct.item() / len(images)


# --8<-- [end:evaluate]


# --8<-- [start:timing]
def synchronize(device, model):
    """Wait until the device has finished the work queued so far, so that
    the clock reads real time.

    GPUs run asynchronously: a training step returns before the GPU has done
    it.
    """
    if device.type == "cuda":  # CUDA and ROCm builds of PyTorch
        torch.cuda.synchronize(device)
    elif device.type == "xpu":  # Intel GPUs through PyTorch's XPU build
        torch.xpu.synchronize(device)
    elif device.type != "cpu":
        # torch-directml has no synchronize(): reading a value back
        # (.item()) waits for the queued work.
        next(model.parameters()).sum().item()


def timed_epoch(
    model,
    optimizer,
    images,
    labels,
    batch_size,
    generator,
    progress_label=None,
):
    """train_one_epoch on the clock: returns (mean loss, seconds). Every
    script that times training times it here, the same way.
    """
    synchronize(images.device, model)
    started = time.perf_counter()
    loss = train_one_epoch(
        model,
        optimizer,
        images,
        labels,
        batch_size,
        generator,
        progress_label,
    )
    # before reading the clock: the GPU may still be working
    synchronize(images.device, model)
    return loss, time.perf_counter() - started


# --8<-- [end:timing]


# --8<-- [start:checkpoint]
CHECKPOINT_FORMAT = "lenet-mnist-checkpoint-1"
CHECKPOINT_KEYS = {
    "format",
    "settings",
    "epoch",
    "history",
    "model",
    "optimizer",
}


class CheckpointError(RuntimeError):
    """The checkpoint cannot be read or does not fit this run."""


def temporary_path(path: Path) -> Path:
    # same folder, so the same drive: os.replace works there; this
    # process's own name, so that no other run can delete it
    return path.with_name(f"{path.name}.{os.getpid()}.tmp")


@contextlib.contextmanager
def only_run_on(path: Path):
    """Hold ``path``'s lock for the whole run, so that a second run on the
    same checkpoint stops in one line instead of overwriting this one's
    epochs. The system frees the lock when the process ends, even killed.
    """
    lock = path.with_name(path.name + ".lock")
    try:
        file = open(lock, "a+b")
    except OSError as error:  # a file where the folder should be...
        raise CheckpointError(
            f"cannot write the checkpoint {path} "
            f"({error.strerror or error}): pass another --checkpoint"
        ) from None
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.close()
        raise CheckpointError(
            f"another run is training into {path} now: wait for it to "
            "finish, or pass another --checkpoint"
        ) from None
    try:
        yield
    finally:
        file.close()
        with contextlib.suppress(OSError):
            lock.unlink()


def to_cpu(value):
    """A copy of nested dicts/lists with every tensor on the CPU: the
    checkpoint loads on any machine.
    """
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, dict):
        return {key: to_cpu(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_cpu(item) for item in value)
    return value


def check_writable(path: Path, model) -> None:
    """Raise CheckpointError now, before an epoch is trained, if the
    checkpoint cannot be written: the file itself, and room for it.
    """
    # the weights and Adam's two running averages of each
    size = 3 * sum(p.numel() * p.element_size() for p in model.parameters())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        problem = cannot_write(path, room=size + (1 << 20))
    except OSError as error:  # a file where the folder should be
        problem = error.strerror or str(error)
    if problem:
        raise CheckpointError(
            f"cannot write the checkpoint {path} ({problem}): "
            "pass another --checkpoint"
        )


def save_checkpoint(path: Path, checkpoint: dict) -> None:
    """Write the checkpoint atomically: a temporary file first, then one
    rename over the old file.

    Killed at any moment, this leaves either the previous checkpoint or the
    new one, never half a file. A save that fails (a full disk, a file that
    refuses to be replaced) raises CheckpointError and leaves the previous
    checkpoint as it was.
    """
    temporary = temporary_path(path)
    try:
        with open(temporary, "wb") as file:
            torch.save(to_cpu(checkpoint), file)
            file.flush()
            os.fsync(file.fileno())  # flushed to the disk before the rename
        os.replace(temporary, path)
    # torch.save reports a full disk as a RuntimeError whose context is
    # the OSError; Windows refuses to replace a file that another program
    # holds open (a virus scan, a viewer).
    except (OSError, RuntimeError) as error:
        cause = error.__context__ or error
        reason = getattr(cause, "strerror", None) or cause
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        kept = "it holds the epoch before" if path.exists() else "no file"
        raise CheckpointError(
            f"epoch {checkpoint['epoch']} is not saved: cannot write "
            f"{path} ({reason}; {kept}). Free some space, close any "
            "program that has it open, or pass another --checkpoint; then "
            "run again with --resume"
        ) from None


def load_checkpoint(path: Path) -> dict:
    """Read a checkpoint written by save_checkpoint, or raise
    CheckpointError with the reason.
    """
    try:
        # weights_only=True: only tensors and plain Python values, never
        # code (torch.load's safe mode).
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    # truncated, not a zip, not a torch file, unreadable...
    except Exception as error:
        reason = (str(error).strip().splitlines() or [""])[0][:100]
        raise CheckpointError(
            f"cannot read checkpoint {path}: it is damaged or not a "
            f"checkpoint ({type(error).__name__}: {reason})"
        ) from None
    if not is_checkpoint(checkpoint):
        raise CheckpointError(
            f"{path} is not a checkpoint written by train_mnist.py"
        )
    return checkpoint


def is_checkpoint(value) -> bool:
    """True for what save_checkpoint writes: its keys, with their types."""
    if (
        not isinstance(value, dict)
        or value.get("format") != CHECKPOINT_FORMAT
        or not CHECKPOINT_KEYS <= value.keys()
    ):
        return False
    epoch, history = value["epoch"], value["history"]
    numbers = (int, float)
    return (
        isinstance(value["settings"], dict)
        and isinstance(value["model"], dict)
        and isinstance(value["optimizer"], dict)
        and type(epoch) is int
        and isinstance(history, list)
        and len(history) == epoch >= 1
        and all(
            isinstance(entry, dict)
            and type(entry.get("epoch")) is int
            and all(
                isinstance(entry.get(key), numbers)
                for key in ("loss", "accuracy", "seconds")
            )
            for entry in history
        )
    )


# --8<-- [end:checkpoint]


def parse_args(argv=None) -> argparse.Namespace:
    parser = ArgumentParser(
        description=(
            "Train LeNet on MNIST or Fashion-MNIST, with a "
            "checkpoint per epoch."
        )
    )
    add_data_options(parser)
    parser.add_argument(
        "--epochs",
        type=positive_int,
        default=10,
        help="train until this epoch (default: 10)",
    )
    parser.add_argument("--batch-size", type=positive_int, default=64)
    parser.add_argument(
        "--lr",
        type=positive_float,
        default=1e-3,
        help="Adam's learning rate (default: 0.001)",
    )
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=0,
        help="same seed, same initial weights and batch order",
    )
    parser.add_argument(
        "--device",
        help=(
            "dml, dml:N, xpu, cuda or cpu "
            "(default: $TORCH_DEVICE, else automatic)"
        ),
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="default: checkpoints\\lenet-<dataset>.pt",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue from the checkpoint if there is one",
    )
    parser.add_argument(
        "--limit-train",
        type=positive_int,
        help="use only the first N training images",
    )
    parser.add_argument(
        "--limit-test",
        type=positive_int,
        help="use only the first N test images",
    )
    args = parser.parse_args(argv)
    if args.checkpoint is None:
        args.checkpoint = Path("checkpoints") / f"lenet-{args.dataset}.pt"
    if args.checkpoint.name in ("", ".", "..") or args.checkpoint.is_dir():
        parser.error(
            f"argument --checkpoint: {args.checkpoint} is a folder: "
            "give a file name, such as checkpoints\\lenet.pt"
        )
    return args


def settings_of(args: argparse.Namespace) -> dict:
    """What the checkpoint records about the run: plain values only
    (weights_only=True can load them).
    """
    return {
        "model": "LeNet",
        "dataset": args.dataset,
        "limit_train": args.limit_train,
        "batch_size": args.batch_size,
        "lr": args.lr,
        "seed": args.seed,
    }


def remove_unfinished_saves(path: Path) -> None:
    """Delete what a run killed while saving left; the checkpoint itself is
    still the previous, complete one. Only under only_run_on(): no other
    run is saving now.
    """
    for stale in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
        stale.unlink()
        print(f"removed {stale}, an unfinished save of an interrupted run")


def previous_run(args: argparse.Namespace):
    """The checkpoint to continue from, or None to start afresh. Raises
    CheckpointError.
    """
    path = args.checkpoint
    if not path.exists():
        if args.resume:
            print(f"no checkpoint at {path} yet: starting from epoch 1")
        return None
    if not args.resume:
        raise CheckpointError(
            f"{path} already exists: add --resume to continue it, "
            f"or delete it (or pass another --checkpoint) to start again"
        )
    checkpoint = load_checkpoint(path)
    saved, wanted = checkpoint["settings"], settings_of(args)
    # Every setting it saved: another batch size or seed would silently
    # continue a different run.
    for key, value in wanted.items():
        if saved.get(key) != value:
            option = "--" + key.replace("_", "-")
            raise CheckpointError(
                f"{path} was made with {option} {saved.get(key)!r}, "
                f"not {value!r}: pass the same settings, "
                "or another --checkpoint to start again"
            )
    return checkpoint


# --8<-- [start:prepare]
def restore(model, optimizer, checkpoint: dict, path: Path) -> None:
    """Give the model and the optimizer the state saved in ``checkpoint``.
    Raises CheckpointError.
    """
    try:
        model.load_state_dict(checkpoint["model"])
        # moves its state to the parameters' device
        optimizer.load_state_dict(checkpoint["optimizer"])
    except (RuntimeError, ValueError, KeyError) as error:
        raise CheckpointError(
            f"{path} does not fit this model: "
            f"{str(error).splitlines()[0][:100]}"
        ) from None
    accuracy = checkpoint["history"][-1]["accuracy"]
    print(
        f"resuming after epoch {checkpoint['epoch']} "
        f"(test accuracy {accuracy:.4f}) from {path}"
    )


def prepare(args: argparse.Namespace, checkpoint: dict | None):
    """The device, the data on it, and the model and its optimizer,
    restored from ``checkpoint`` if there is one.
    """
    device, reason = choose_device(args.device)
    print(f"device: {device}  ({reason})")
    train_images, train_labels, test_images, test_labels = load_dataset(
        args.dataset,
        args.data_dir,
        args.download,
        args.limit_train,
        args.limit_test,
    )
    print(
        f"{args.dataset}: {len(train_images)} training images, "
        f"{len(test_images)} test images"
    )

    torch.manual_seed(args.seed)  # the same initial weights on every device
    # Move the model BEFORE building the optimizer: the optimizer keeps
    # references to the parameters it was given, and it must be the ones on
    # the device (PyTorch's torch.optim documentation).
    model = LeNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    if checkpoint:
        restore(model, optimizer, checkpoint, args.checkpoint)

    # The data goes to the device once; every batch is then picked from
    # tensors that are already there.
    data = (train_images, train_labels, test_images, test_labels)
    return device, model, optimizer, [tensor.to(device) for tensor in data]


# --8<-- [end:prepare]


# --8<-- [start:epochs]
def train_epochs(args, model, optimizer, data, checkpoint):
    """Train from the epoch after ``checkpoint`` (or from epoch 1) up to
    --epochs, saving a checkpoint after each. Returns the history.
    """
    train_images, train_labels, test_images, test_labels = data
    history = checkpoint["history"] if checkpoint else []
    first_epoch = checkpoint["epoch"] + 1 if checkpoint else 1
    settings = settings_of(args)
    for epoch in range(first_epoch, args.epochs + 1):
        # The same seed and epoch give the same batch order: a resumed run
        # repeats what an uninterrupted one would have done.
        generator = epoch_generator(args.seed, epoch)
        loss, seconds = timed_epoch(
            model,
            optimizer,
            train_images,
            train_labels,
            args.batch_size,
            generator,
            progress_label=f"epoch {epoch}/{args.epochs}",
        )
        if not math.isfinite(loss):
            # A diverged run is no result: the last good checkpoint stays.
            raise CheckpointError(
                f"epoch {epoch}: the loss is {loss}, training diverged "
                f"(a learning rate too high? --lr {args.lr}); "
                f"epoch {epoch} is not saved: pass a smaller --lr"
            )
        accuracy = evaluate(model, test_images, test_labels)
        history.append(
            {
                "epoch": epoch,
                "loss": loss,
                "accuracy": accuracy,
                "seconds": seconds,
            }
        )
        save_checkpoint(
            args.checkpoint,
            {
                "format": CHECKPOINT_FORMAT,
                "settings": settings,
                "epoch": epoch,
                "history": history,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
            },
        )
        print(
            f"epoch {epoch}/{args.epochs}  loss {loss:.4f}  "
            f"test accuracy {accuracy:.4f}  {seconds:.1f} s  "
            f"(saved {args.checkpoint})",
            flush=True,
        )
    return history


# --8<-- [end:epochs]


def train(args: argparse.Namespace) -> int:
    """Continue the checkpoint or start afresh, and train up to --epochs."""
    checkpoint = previous_run(args)
    if checkpoint and checkpoint["epoch"] >= args.epochs:
        print(
            f"{args.checkpoint} is already at epoch {checkpoint['epoch']} "
            f"(test accuracy {checkpoint['history'][-1]['accuracy']:.4f}): "
            "nothing to do; raise --epochs to train more"
        )
        return 0
    device, model, optimizer, data = prepare(args, checkpoint)
    # before the first epoch, not after
    check_writable(args.checkpoint, model)
    with only_run_on(args.checkpoint):
        remove_unfinished_saves(args.checkpoint)
        history = train_epochs(args, model, optimizer, data, checkpoint)
    total = sum(entry["seconds"] for entry in history)
    epochs = f"{args.epochs} epoch" + ("s" if args.epochs != 1 else "")
    print(
        f"final test accuracy: {history[-1]['accuracy']:.4f} after "
        f"{epochs} ({total:.1f} s of training on {device.type})"
    )
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        return train(args)
    except (CheckpointError, DatasetError, DeviceChoiceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if args.checkpoint.is_file():
            print(
                f"error: interrupted; {args.checkpoint} holds the last "
                "finished epoch: run again with --resume to continue",
                file=sys.stderr,
            )
        else:
            print(
                "error: interrupted before the first epoch finished: "
                "nothing was saved",
                file=sys.stderr,
            )
        return 130


if __name__ == "__main__":
    script_guard.run(main)
