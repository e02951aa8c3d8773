"""The notebook version of the tutorial: its settings and its training loop.

docs/train-mnist-notebook.ipynb is built from the project's files:
choose_device.py, mnist_data.py, lenet.py and train_mnist.py give its first
cells, this file its last three. It runs as a script too:

    python train_mnist_notebook.py  # MNIST, into .\\data the first time
    python train_mnist_notebook.py --epochs 1 --limit-train 5000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch")

import torch

# In the notebook, earlier cells define these names; as a script, they come
# from the project's files.
from choose_device import DeviceChoiceError, choose_device
from lenet import LeNet
from mnist_data import (
    ArgumentParser,
    DatasetError,
    add_data_options,
    epoch_generator,
    load_dataset,
    positive_int,
)
from train_mnist import evaluate, train_one_epoch

# --8<-- [start:settings]
settings = dict(
    dataset="mnist",  # or "fashion-mnist"
    data_dir=Path("data"),  # torchvision keeps the files in data/MNIST/raw
    # fetch the dataset the first time (needs internet once)
    download=True,
    epochs=3,
    batch_size=64,
    learning_rate=1e-3,
    # the same seed gives the same initial weights and batch order
    seed=0,
    # e.g. 5000 for a quick try; None uses all 60,000 training images
    limit_train=None,
    limit_test=None,
)
# --8<-- [end:settings]


# --8<-- [start:train_loop]
def train_in_notebook(
    dataset,
    data_dir,
    download,
    epochs,
    batch_size,
    learning_rate,
    seed,
    limit_train=None,
    limit_test=None,
):
    """Train LeNet on the chosen device; print the test accuracy after each
    epoch.

    Returns the trained model and the list of test accuracies, one per
    epoch.
    """
    device, reason = choose_device()
    print(f"device: {device}  ({reason})")
    train_images, train_labels, test_images, test_labels = load_dataset(
        dataset, data_dir, download, limit_train, limit_test
    )
    # Once to the device; every batch is then a slice of tensors that are
    # already there.
    train_images, train_labels = (
        train_images.to(device),
        train_labels.to(device),
    )
    test_images, test_labels = (
        test_images.to(device),
        test_labels.to(device),
    )

    torch.manual_seed(seed)
    # The model moves before the optimizer is built, so the optimizer holds
    # the device's parameters.
    model = LeNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    accuracies = []
    for epoch in range(1, epochs + 1):
        # the same seed and epoch give the same batch order
        generator = epoch_generator(seed, epoch)
        loss = train_one_epoch(
            model,
            optimizer,
            train_images,
            train_labels,
            batch_size,
            generator,
            progress_label=f"epoch {epoch}/{epochs}",
        )
        accuracies.append(evaluate(model, test_images, test_labels))
        print(
            f"epoch {epoch}/{epochs}  loss {loss:.4f}  test accuracy "
            f"{accuracies[-1]:.4f}"
        )
    return model, accuracies


# --8<-- [end:train_loop]


def parse_args(argv=None) -> dict:
    """Only the options given on the command line, to lay over the settings
    above.
    """
    parser = ArgumentParser(
        description="Run the notebook's training as a script.",
        argument_default=argparse.SUPPRESS,
    )
    add_data_options(parser, defaults=False)
    parser.add_argument("--epochs", type=positive_int)
    parser.add_argument("--limit-train", type=positive_int)
    parser.add_argument("--limit-test", type=positive_int)
    return vars(parser.parse_args(argv))


def main(argv=None) -> int:
    settings.update(parse_args(argv))
    try:
        # --8<-- [start:run]
        model, accuracies = train_in_notebook(**settings)
        # --8<-- [end:run]
    except (DatasetError, DeviceChoiceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    script_guard.run(main)
