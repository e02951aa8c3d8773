"""Move a tensor from one DirectML adapter to another through the CPU.

torch-directml copies a tensor from one DirectML device straight to another
as zeros (microsoft/DirectML#443: tensor([0.8580], device='privateuseone:0')
became tensor([0.], device='privateuseone:1')). Going through the CPU keeps
the values. Run it on a PC with two GPUs to see both ways:

    python move_between_adapters.py
"""

# --8<-- [start:move]
from __future__ import annotations

import torch


def crosses_adapters(source: torch.device, target: torch.device) -> bool:
    """True for a copy from one DirectML adapter to another, the copy that
    loses the values.
    """
    return (
        source.type == "privateuseone"
        and target.type == "privateuseone"
        and (source.index or 0) != (target.index or 0)
    )


def move(tensor: torch.Tensor, target: torch.device) -> torch.Tensor:
    """``tensor.to(target)``, through the CPU when it goes from one DirectML
    adapter to another.
    """
    if crosses_adapters(tensor.device, target):
        return tensor.cpu().to(target)
    return tensor.to(target)


# --8<-- [end:move]


def main() -> int:
    try:
        import torch_directml
    except ImportError:
        torch_directml = None
    count = (
        torch_directml.device_count() if torch_directml is not None else 0
    )
    if count < 2:
        print(
            f"this PC has {count} DirectML adapter(s): a move between two "
            "adapters needs two"
        )
        print(
            "the rule: privateuseone:0 -> privateuseone:1 "
            "goes through the CPU:",
            crosses_adapters(
                torch.device("privateuseone:0"),
                torch.device("privateuseone:1"),
            ),
        )
        return 0
    first, second = torch_directml.device(0), torch_directml.device(1)
    values = torch.randn(4)
    on_first = values.to(first)
    print(
        "direct copy keeps the values:     ",
        torch.equal(on_first.to(second).cpu(), values),
    )
    print(
        "copy through the CPU keeps them:  ",
        torch.equal(move(on_first, second).cpu(), values),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
