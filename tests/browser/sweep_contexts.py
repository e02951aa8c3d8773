"""Benchmark, not a test: the heading-link sweep (tests/site/test_site_links.py) in 1 browser context
against N contexts side by side, each context in a thread of its own (browser_support.in_contexts).

    .venv/bin/python tests/browser/sweep_contexts.py                   # 1 against 2 contexts, 3 rounds
    .venv/bin/python tests/browser/sweep_contexts.py --contexts 1 2 3 --rounds 2 --pages 8

It builds the site once (or reads --site DIR), serves it on 127.0.0.1 and sweeps the first --pages pages
(the whole site by default) at a desktop width, the variants taking turns within each round, so the
machine's load weighs on all alike. For each sweep it prints the wall time and the core-seconds
(user + system) of this process and everything it started and waited for (Playwright's driver and
Chromium), and at the end the medians and each variant's ratio to the first; and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "site"), str(ROOT / "docs" / "hooks")]

from test_site_links import misses  # noqa: E402

from browser_support import in_contexts  # noqa: E402
from site_server import build_site, page_urls, serve  # noqa: E402

# As the sweep does: the search index plays no part in where a heading lands.
NO_INDEX = ("**/search/search_index.json",)


def core_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def sweep(base: str, urls: list[str], contexts: int, width: int) -> tuple[float, float, int]:
    """(wall s, core s, headings opened) of one sweep of urls in ``contexts`` contexts."""
    wall, cpu = time.perf_counter(), core_seconds()
    results = in_contexts(
        urls,
        lambda page, url: misses(page, base, url, width),
        contexts,
        abort=NO_INDEX,
        viewport={"width": width, "height": 800},
    )
    opened = sum(count for count, _ in results)
    return time.perf_counter() - wall, core_seconds() - cpu, opened


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contexts", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", type=int, default=0, help="sweep only the first N pages (0: all)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--site", type=Path, help="an already built site (default: build one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build_site(Path(tmp) / "site")
        urls = page_urls(site)[: args.pages or None]
        times: dict[int, list[tuple[float, float]]] = {n: [] for n in args.contexts}
        load_start = os.getloadavg()[0]
        with serve(site) as base:
            for round_ in range(args.rounds):
                for n in args.contexts if round_ % 2 == 0 else reversed(args.contexts):
                    wall, cpu, opened = sweep(base, urls, n, args.width)
                    times[n].append((wall, cpu))
                    print(
                        f"round {round_ + 1}: {n} context(s): {opened} headings on {len(urls)} pages, "
                        f"{wall:.1f} s wall, {cpu:.1f} core-s",
                        flush=True,
                    )
    first = args.contexts[0]
    base_wall = statistics.median(w for w, _ in times[first])
    base_cpu = statistics.median(c for _, c in times[first])
    for n in args.contexts:
        wall = statistics.median(w for w, _ in times[n])
        cpu = statistics.median(c for _, c in times[n])
        print(
            f"{n} context(s): median {wall:.1f} s wall ({wall / base_wall:.2f} of {first}), "
            f"{cpu:.1f} core-s ({cpu / base_cpu:.2f} of {first})"
        )
    print(f"load average: {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
