"""Benchmark, not a test: Lighthouse's mobile performance score for every page of the built site.

    cd tests/browser/lighthouse && npm install --no-audit --no-fund && cd ../../..
    .venv/bin/python tests/browser/lighthouse.py            # all pages, one run each
    .venv/bin/python tests/browser/lighthouse.py --runs 3   # the median of three runs per page

It builds the site, serves it on 127.0.0.1, runs Lighthouse 12 (tests/browser/lighthouse/package.json) with the
system Chromium in its default mobile emulation (slow 4G, 4x CPU slowdown), and prints per page the
performance score, the page weight (bytes transferred), the DOM size and the largest contentful paint.
Exit status 1 if a page scores below --min (default 95). Scores vary with the machine's load.
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
        ["node", str(LIGHTHOUSE), url, "--only-categories=performance", "--output=json", "--quiet",
         "--chrome-flags=--headless=new --no-sandbox"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": str(CHROMIUM)}, timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {result.stderr.strip().splitlines()[-1:]}")
    report = json.loads(result.stdout)
    audits = report["audits"]
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "bytes": audits["total-byte-weight"]["numericValue"],
        "dom": audits["dom-size"]["numericValue"] if "numericValue" in audits["dom-size"] else None,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Lighthouse mobile performance of every page of the site.")
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median is reported (default: 1)")
    parser.add_argument("--min", type=int, default=95, help="lowest acceptable score (default: 95)")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.is_file():
        print("error: Lighthouse is not installed: run `npm install` in tests/browser/lighthouse", file=sys.stderr)
        return 1
    if not CHROMIUM.is_file():
        print(f"error: no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        site = build_site(Path(scratch) / "site")
        with serve(site) as base:
            print(f"{'page':<28}{'score':>6}{'KB':>8}{'DOM':>7}{'LCP s':>7}")
            low = []
            for url in page_urls(site):
                runs = [audit(base + url) for _ in range(args.runs)]
                score = statistics.median(r["score"] for r in runs)
                last = runs[-1]
                print(f"{url or '(home)':<28}{score:>6.0f}{last['bytes'] / 1024:>8.0f}{last['dom'] or 0:>7.0f}"
                      f"{statistics.median(r['lcp'] for r in runs):>7.2f}", flush=True)
                if score < args.min:
                    low.append(url or "(home)")
    if low:
        print(f"below {args.min}: {', '.join(low)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
