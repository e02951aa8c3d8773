"""The held-out battery of GPU names (tests/js/gpu_names_heldout.json): names exactly as Windows gave them to
programs that printed them, gathered from public threads by someone who never ran the chooser on them. Nothing
is tuned on it: this test runs only on demand (``--held-out``, with ``-s``) and prints totals, never which name
missed. Each name goes through the chooser's own door (guide.gpu_names: match.js on the device table joined
with gpus.yml) and the chooser's install key (guide.recipes.install_key), as a reader's answer is made.

Counted per name and Windows version:
  right      one answer, with the expected back-end (and CUDA build)
  asks       "which of these" (choices) with the expected answer among them: the honest answer to a name
             that several chips share
  asks-not   choices without the expected answer among them
  wrong      one answer with another back-end or build
  none       no answer
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from guide import gpu_names, recipes
from guide_harness import ROOT

BATTERY = ROOT / "tests" / "js" / "gpu_names_heldout.json"


def verdict(answer, expected: str, windows: str, nested: bool = False) -> str:
    if answer.status == "choices":
        if nested:  # a choice that is itself a choice of several: not an answer the reader can take
            return "asks-not"
        among = gpu_names.answers(answer.choices)
        fits = any(verdict(among[c], expected, windows, nested=True) == "right" for c in answer.choices)
        return "asks" if fits else "asks-not"
    gpu = answer.gpu()
    if gpu is None:
        return "none"
    backend = gpu.path.get(windows)
    got = recipes.install_key(gpu, backend) if backend else "cpu"
    if expected.startswith("rocm"):  # the battery names the back-end; the target is the table's own
        got = got.partition(":")[0]
    return "right" if got == expected else "wrong"


def tally(entries: list[dict]) -> Counter:
    found = gpu_names.answers([e["name"] for e in entries])
    return Counter(verdict(found[e["name"]], want, win) for e in entries for win, want in e["expected"].items())


def test_the_held_out_names(request):
    if not request.config.getoption("--held-out"):
        pytest.skip("held out: run on demand with --held-out -s (totals only)")
    entries = json.loads(BATTERY.read_text(encoding="utf-8"))["names"]
    counts = tally(entries)
    total = sum(counts.values())
    print(
        f"\nheld-out GPU names: {len(entries)} names, {total} answers (Windows 11 and 10): "
        + ", ".join(f"{k} {counts[k]}" for k in ("right", "asks", "asks-not", "wrong", "none"))
        + f"; right or asks {100 * (counts['right'] + counts['asks']) / total:.0f} %"
    )
    assert total == 2 * len(entries)
