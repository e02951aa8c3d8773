"""Benchmark, not a test: Lighthouse's mobile performance and accessibility scores for every page of the site.

    cd tests/browser/lighthouse && npm install --no-audit --no-fund && cd ../../..
    .venv/bin/python tests/browser/lighthouse.py            # all pages, one run each
    .venv/bin/python tests/browser/lighthouse.py --runs 3   # the median of three runs per page
    .venv/bin/python tests/browser/lighthouse.py --runs 6 --need 5   # issue 23: >= 95 in 5 of 6 runs
    .venv/bin/python tests/browser/lighthouse.py --runs 6 --page troubleshooting/ --page zh/   # two pages

It builds the site, serves it on 127.0.0.1, runs Lighthouse 12 (tests/browser/lighthouse/package.json) with the
system Chromium in its default mobile emulation (slow 4G, 4x CPU slowdown), and prints per page the
performance score, the page weight (bytes transferred), the DOM size, the largest contentful paint and
the lowest accessibility score of its runs (the same load of the page; axe-core's audits run after the
trace). Exit status 1 if a page's median is below --min (default 95), or with --need N if fewer than N
of its runs reach it, or if an accessibility score is below 100. The load average is printed before and
after. Performance scores vary with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# Run as a script: the suite's helpers (tests/) and the page machinery they use (docs/hooks/guide/),
# which pytest finds through pyproject.toml's pythonpath.
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "docs" / "hooks")]

from site_server import CHROMIUM, build_site, page_urls, serve  # noqa: E402

LIGHTHOUSE = Path(__file__).resolve().parent / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"


def audit(url: str) -> dict:
    result = subprocess.run(
        [
            "node",
            str(LIGHTHOUSE),
            url,
            "--only-categories=performance,accessibility",
            "--output=json",
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {result.stderr.strip().splitlines()[-1:]}")
    report = json.loads(result.stdout)
    audits = report["audits"]
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "a11y": round(report["categories"]["accessibility"]["score"] * 100),
        "bytes": audits["total-byte-weight"]["numericValue"],
        "dom": audits["dom-size"]["numericValue"] if "numericValue" in audits["dom-size"] else None,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Lighthouse mobile performance and accessibility of every page of the site."
    )
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median is reported (default: 1)")
    parser.add_argument("--min", type=int, default=95, help="lowest acceptable score (default: 95)")
    parser.add_argument(
        "--page",
        action="append",
        default=None,
        metavar="URL",
        help="only this page, as listed (troubleshooting/, zh/; repeatable; default: every page)",
    )
    parser.add_argument(
        "--need", type=int, default=None, help="runs of each page that must reach --min (default: the median must)"
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or not (args.need is None or 1 <= args.need <= args.runs):
        parser.error("--runs must be 1 or more, and --need between 1 and --runs")
    if not LIGHTHOUSE.is_file():
        print("error: Lighthouse is not installed: run `npm install` in tests/browser/lighthouse", file=sys.stderr)
        return 1
    if not CHROMIUM.is_file():
        print(f"error: no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        site = build_site(Path(scratch) / "site")
        urls = page_urls(site)
        unknown = sorted(set(args.page or []) - set(urls))
        if unknown:
            print(f"error: no such page: {', '.join(unknown)}", file=sys.stderr)
            return 2
        with serve(site) as base:
            print(f"load average (1, 5, 15 min) before: {load()}")
            print(
                f"{'page':<28}{'median':>7}{'KB':>7}{'DOM':>7}{'LCP s':>7}{'a11y':>6}  {'runs >= ' + str(args.min):<10} scores"
            )
            low, inaccessible = [], []
            for url in [u for u in urls if args.page is None or u in args.page]:
                runs = [audit(base + url) for _ in range(args.runs)]
                scores = [r["score"] for r in runs]
                score = statistics.median(scores)
                good = sum(1 for s in scores if s >= args.min)
                last = runs[-1]
                print(
                    f"{url or '(home)':<28}{score:>7.0f}{last['bytes'] / 1024:>7.0f}{last['dom'] or 0:>7.0f}"
                    f"{statistics.median(r['lcp'] for r in runs):>7.2f}{min(r['a11y'] for r in runs):>6}"
                    f"  {f'{good} of {len(runs)}':<10} "
                    f"{' '.join(map(str, scores))}",
                    flush=True,
                )
                if (good < args.need) if args.need else score < args.min:
                    low.append(url or "(home)")
                if min(r["a11y"] for r in runs) < 100:
                    inaccessible.append(url or "(home)")
            print(f"load average (1, 5, 15 min) after: {load()}")
    if inaccessible:
        print(f"accessibility below 100: {', '.join(inaccessible)}")
    if low:
        rule = f"in {args.need} of {args.runs} runs" if args.need else "as a median"
        print(f"below {args.min} {rule}: {', '.join(low)}")
    return 1 if low or inaccessible else 0


def load() -> str:
    """The 1, 5 and 15 minute load averages (Windows has none: os.getloadavg is POSIX only)."""
    if not hasattr(os, "getloadavg"):
        return "not available on this system"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
