"""Draw random numbers with a CPU torch.Generator, then move them to the
DirectML device.

torch.Generator(device=<DirectML device>) fails with "Device type
PRIVATEUSEONE is not supported for torch.Generator() api": create generators
on the CPU. Shuffling (DataLoader) and random_split take a CPU generator
anyway.

    python cpu_generator.py
"""

# --8<-- [start:generator]
from __future__ import annotations

import torch
from torch.utils.data import DataLoader, TensorDataset, random_split


def seeded_generator(seed: int) -> torch.Generator:
    """A CPU generator: reproducible, and accepted on every machine
    (DirectML has none of its own).
    """
    return torch.Generator().manual_seed(seed)


def random_on(
    device: torch.device, shape: tuple[int, ...], generator: torch.Generator
) -> torch.Tensor:
    """Normal random numbers drawn on the CPU with ``generator``, then
    copied to ``device``.
    """
    return torch.randn(shape, generator=generator).to(device)


# --8<-- [end:generator]


def load_directml():
    """torch_directml if it is installed and sees a GPU, else None."""
    try:
        import torch_directml
    except ImportError:
        return None
    return torch_directml if torch_directml.is_available() else None


def main() -> int:
    dml = load_directml()
    if dml is None:
        device = torch.device("cpu")
        print(
            "torch-directml is not available: "
            "showing the same code on the CPU"
        )
    else:
        device = dml.device()
        print(f"DirectML device: {device}")

    noise = random_on(device, (2, 3), seeded_generator(42))
    again = random_on(device, (2, 3), seeded_generator(42))
    assert torch.equal(noise.cpu(), again.cpu()), (
        "the same seed must give the same numbers"
    )
    print(
        f"noise on {noise.device}, reproducible with the same seed: "
        f"{noise.cpu()[0].tolist()}"
    )

    # Shuffling and splitting draw on the CPU too: give them a CPU generator
    # for reproducible runs.
    dataset = TensorDataset(torch.arange(10).float())
    train, test = random_split(
        dataset, [8, 2], generator=seeded_generator(0)
    )
    loader = DataLoader(
        train, batch_size=4, shuffle=True, generator=seeded_generator(1)
    )
    first_batch = next(iter(loader))[0].to(device)
    print(
        f"split {len(train)}/{len(test)}; first shuffled batch on "
        f"{first_batch.device}: {first_batch.cpu().tolist()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
