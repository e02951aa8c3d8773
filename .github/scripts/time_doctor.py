"""Benchmark, not a test: where snippets/doctor.py's time goes, each part timed side by side in one run.

    python .github/scripts/time_doctor.py [--rounds 5]

Each round times, in fresh Python processes, the parts taking turns (so the machine's load weighs on all
alike): a bare interpreter; ``import torch``; ``import torch`` and every back-end's device query (the
doctor's child probe, ``doctor.py --probe``); and the whole doctor. It prints the median of each and its
share of the doctor's time. The doctor runs its probe beside its own checks, so its time is the probe's
plus what is left of the rest: when the probe's share is near 100 %, the doctor cannot be faster than
``import torch`` and the device query on that machine. Exit 1 (one line) if the doctor or the probe fails.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCTOR = ROOT / "snippets" / "doctor.py"

PARTS = {
    "python (no imports)": [sys.executable, "-c", "pass"],
    "import torch": [sys.executable, "-c", "import torch"],
    "probe: import torch + devices": [sys.executable, str(DOCTOR), "--probe"],
    "doctor.py (whole)": [sys.executable, str(DOCTOR)],
}
# The doctor exits 1 when it finds a problem (a machine without a GPU, say): timed all the same.
MAY_FAIL = {"doctor.py (whole)"}


def timed(command: list[str]) -> tuple[float, int, str]:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    last = (result.stderr.strip().splitlines() or [""])[-1]
    return time.perf_counter() - start, result.returncode, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    times: dict[str, list[float]] = {name: [] for name in PARTS}
    for _ in range(args.rounds):
        for name, command in PARTS.items():
            seconds, status, last = timed(command)
            if status != 0 and name not in MAY_FAIL:
                print(f"error: {name} exited {status}: {last}", file=sys.stderr)
                return 1
            times[name].append(seconds)
    whole = statistics.median(times["doctor.py (whole)"])
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, medians:")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:32s} {median:6.2f} s  {median / whole:6.0%} of the doctor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
