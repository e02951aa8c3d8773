"""Keep tensors in float32: many DirectML GPUs cannot compute in float64
(Double).

NumPy creates float64 arrays by default and torch.from_numpy() keeps that
dtype, so data that comes from NumPy (or pandas, or scikit-learn) reaches
the GPU as float64 and fails with "The GPU device does not support Double
(Float64) operations!". Convert it on the CPU first.

    python float32_data.py
"""

# --8<-- [start:convert]
from __future__ import annotations

import numpy as np
import torch


def to_float32_tensor(array) -> torch.Tensor:
    """A tensor from NumPy data, with floating-point values as float32
    (integers stay as they are).
    """
    tensor = torch.from_numpy(np.asarray(array))
    if tensor.is_floating_point() and tensor.dtype != torch.float32:
        # converted on the CPU, before it reaches the GPU
        tensor = tensor.to(torch.float32)
    return tensor


# --8<-- [end:convert]


def load_directml():
    """torch_directml if it is installed and sees a GPU, else None."""
    try:
        import torch_directml
    except ImportError:
        return None
    return torch_directml if torch_directml.is_available() else None


def main() -> int:
    # float32 is PyTorch's default; setting it guards against a library that
    # changed it to float64.
    torch.set_default_dtype(torch.float32)

    dml = load_directml()
    if dml is None:
        device = torch.device("cpu")
        print(
            "torch-directml is not available: "
            "showing the conversion on the CPU"
        )
    else:
        index = dml.default_device()
        device = dml.device(index)
        float64 = "yes" if dml.has_float64_support(index) else "no"
        print(
            f"DirectML adapter {index}: {dml.device_name(index)} (float64 "
            f"support: {float64})"
        )

    # NumPy's default dtype: float64
    features = np.random.default_rng(0).normal(size=(8, 3))
    labels = np.arange(8) % 2  # integers: int64, which DirectML handles
    x = to_float32_tensor(features)
    y = to_float32_tensor(labels)
    print(
        f"NumPy features: {features.dtype} -> tensor {x.dtype}; labels: "
        f"{labels.dtype} -> {y.dtype}"
    )
    assert x.dtype == torch.float32 and y.dtype == torch.int64

    weights = torch.ones(3, 1)  # created with the default dtype: float32
    scores = (x.to(device) @ weights.to(device)).squeeze(1)
    print(
        f"computed on {scores.device} as {scores.dtype}: mean score "
        f"{scores.mean().item():.4f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
