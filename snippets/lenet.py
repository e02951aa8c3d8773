"""LeNet-5 for 28x28 grey-scale images (MNIST, Fashion-MNIST): two conv-pool
stages, three linear layers.

Run it to see the layer shapes and the number of parameters:

    python lenet.py
"""

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Ctrl-C and a torch that does not load: one line, never a traceback.
script_guard.start("torch")

# What other scripts (and yours) may use.
__all__ = ["LeNet"]

# --8<-- [start:model]
import torch
from torch import nn


class LeNet(nn.Module):
    """conv(6) - pool - conv(16) - pool - fc(120) - fc(84) - fc(10), ReLU
    activations, max pooling.
    """

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            # 1x28x28 -> 6x28x28 (padding keeps 28x28)
            nn.Conv2d(1, 6, kernel_size=5, padding=2),
            nn.ReLU(),
            nn.MaxPool2d(2),  # -> 6x14x14
            nn.Conv2d(6, 16, kernel_size=5),  # -> 16x10x10
            nn.ReLU(),
            nn.MaxPool2d(2),  # -> 16x5x5
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),  # -> 400
            nn.Linear(16 * 5 * 5, 120),
            nn.ReLU(),
            nn.Linear(120, 84),
            nn.ReLU(),
            # raw scores (logits): CrossEntropyLoss wants these
            nn.Linear(84, num_classes),
        )

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.features(images))


# --8<-- [end:model]


def main() -> int:
    model = LeNet()
    images = torch.zeros(2, 1, 28, 28)  # a batch of two blank images
    print(model)
    print(f"output shape for a batch of 2: {tuple(model(images).shape)}")
    print(f"parameters: {sum(p.numel() for p in model.parameters()):,}")
    return 0


if __name__ == "__main__":
    script_guard.run(main)
