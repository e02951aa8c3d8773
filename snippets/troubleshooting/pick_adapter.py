"""Pick the dedicated GPU when DirectML also sees an integrated one.

torch_directml.device() uses DirectML's default adapter, which on laptops
and on desktops with a CPU that has graphics can be the integrated GPU. This
picks by adapter name instead:

1. an adapter whose name marks a dedicated GPU (Radeon RX/Pro/VII,
   Arc A/B-series, NVIDIA);
2. else one whose name marks nothing known;
3. else an integrated one (INTEGRATED_NAME below: Intel UHD/Iris/HD
   Graphics, Arc Graphics, Arc 140V; AMD's "Radeon(TM) Graphics",
   "Radeon 780M Graphics", "Radeon(TM) RX Vega 11 Graphics"), and last
   Microsoft's software adapter.
The integrated patterns are checked first: some AMD APUs call their
integrated GPU "RX Vega". Within a tier the lowest index wins. Names can
mislead: --adapter N always overrides the rule.

    python pick_adapter.py              # the adapters, and the rule's pick
    python pick_adapter.py --adapter 1  # adapter 1, whatever its name
"""

from __future__ import annotations

import argparse
import re
import sys

# Integrated GPUs by name, where the driver does not say so. One rule,
# the same in choose_device.py, doctor.py and pick_adapter.py:
#   AMD: "Radeon(TM) Graphics", "Radeon 780M Graphics", "Radeon 680M",
#   "Radeon(TM) RX Vega 11 Graphics", "Radeon(TM) R7 Graphics";
#   Intel: UHD, Iris, "HD Graphics", "Intel(R) Graphics",
#   "Arc(TM) Graphics", "Arc(TM) 140V GPU"; Qualcomm: Adreno.
# A dedicated Radeon says "RX" before its number, an Arc card A or B.
INTEGRATED_NAME = re.compile(
    r"Radeon\S* (\d{3,4}[MS]\b|(R\d |(RX )?Vega \d+ (\(Mobile\) )?)?"
    r"Graphics)|\bUHD\b|\bIris\b|\bHD Graphics\b|^Intel\S* Graphics\b"
    r"|\bArc\S* (Graphics$|\d{3}[VT]\b|B3\d0\b)|\bAdreno\b",
    re.IGNORECASE,
)
# Microsoft's software adapter: ranked with the integrated, last resort.
SOFTWARE_NAME = re.compile(r"Basic Render", re.IGNORECASE)
DEDICATED = re.compile(
    r"Radeon\S* (RX|Pro|VII|R\d \d{3}|HD \d{4}\b)|\bArc\S* (Pro "
    r")?[AB]\d{2,3}|NVIDIA|GeForce|\bRTX\b|\bGTX\b|Quadro",
    re.IGNORECASE,
)


class AdapterChoiceError(ValueError):
    """The requested adapter does not exist."""


def adapter_kind(name: str) -> str:
    """'dedicated', 'integrated' or 'unknown', judged from the adapter's
    name alone.
    """
    if INTEGRATED_NAME.search(name) or SOFTWARE_NAME.search(name):
        return "integrated"
    if DEDICATED.search(name):
        return "dedicated"
    return "unknown"


def pick_adapter(names: list[str], override: int | None = None) -> int:
    """Index of the adapter to use: ``override`` if given, else the first
    dedicated-looking one.
    """
    if not names:
        raise AdapterChoiceError(
            "DirectML sees no adapter: update the GPU driver"
        )
    if override is not None:
        if not 0 <= override < len(names):
            raise AdapterChoiceError(
                f"there is no adapter {override}: use 0 to {len(names) - 1}"
            )
        return override
    rank = {"dedicated": 0, "unknown": 1, "integrated": 2}
    return min(
        range(len(names)), key=lambda i: (rank[adapter_kind(names[i])], i)
    )


# What DirectML reports on a typical laptop; used to show the rule where
# torch-directml is missing.
EXAMPLE_ADAPTERS = ["Intel(R) UHD Graphics 770", "AMD Radeon RX 6700 XT"]


def load_directml():
    """torch_directml if it is installed and sees a GPU, else None."""
    try:
        import torch_directml
    except ImportError:
        return None
    return torch_directml if torch_directml.is_available() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Pick the DirectML adapter (GPU) to train on."
    )
    parser.add_argument(
        "--adapter",
        type=int,
        help="use this adapter index, whatever its name",
    )
    args = parser.parse_args(argv)

    dml = load_directml()
    if dml is None:
        names = EXAMPLE_ADAPTERS
        print(
            "torch-directml is not available: "
            "applying the rule to an example list"
        )
    else:
        names = [dml.device_name(i) for i in range(dml.device_count())]
    for index, name in enumerate(names):
        print(f"  [{index}] {name}  ({adapter_kind(name)})")
    try:
        index = pick_adapter(names, args.adapter)
    except AdapterChoiceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    how = "as requested" if args.adapter is not None else "by name"
    print(f"using adapter {index}: {names[index]} ({how})")
    if dml is not None:
        # pass this to model.to(...) and tensor.to(...)
        device = dml.device(index)
        print(f"device: {device}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
