"""Benchmark, not a test: the main-thread work of the site's own script and of rendering, side by side.

    .venv/bin/python tests/browser/page_work.py                 # main's a11y.js against the working tree's
    .venv/bin/python tests/browser/page_work.py --before main --runs 5

It builds the site once, serves it on 127.0.0.1 and loads each code-heavy page in Chromium at a phone's
width, in turns, with three variants served from the same build (the browser's requests for
docs/javascripts/a11y.js and docs/stylesheets/extra.css are answered by the variant):

  before   a11y.js as it is in git revision --before (default: main), extra.css of the working tree
  after    a11y.js and extra.css of the working tree
  no-cv    the working tree without extra.css's content-visibility rule (what content-visibility buys)

For each load it records, through the DevTools protocol, the CPU time spent in a11y.js (a sampling
profile: every sample whose stack holds a frame of a11y.js) and the page's layout + style time
(Performance.getMetrics: LayoutDuration + RecalcStyleDuration), each page opened at its top and by a
link to its last heading. It prints medians and the ratios after/before and no-cv/after, measured in
one run so the machine's load weighs on all variants alike; and the load average while it ran.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "docs" / "hooks")]

from site_server import CHROMIUM, build_site, serve  # noqa: E402

PAGES = ["mnist-training/", "troubleshooting/", "setup/", "zh/mnist-training/", "zh/troubleshooting/"]
A11Y = "docs/javascripts/a11y.js"
EXTRA = "docs/stylesheets/extra.css"
CONTENT_VISIBILITY = re.compile(r"\s*content-visibility:\s*auto;\s*contain-intrinsic-size:[^;]*;")


def variants(before: str) -> dict[str, dict[str, str]]:
    """Each variant's text of a11y.js and extra.css."""
    try:
        old = subprocess.run(
            ["git", "show", f"{before}:{A11Y}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"error: cannot read {A11Y} at {before!r}: {error.stderr.strip()}") from None
    new = (ROOT / A11Y).read_text(encoding="utf-8")
    css = (ROOT / EXTRA).read_text(encoding="utf-8")
    without, found = CONTENT_VISIBILITY.subn("", css)
    if not found:
        raise SystemExit(f"error: no content-visibility rule found in {EXTRA}")
    return {"before": {"js": old, "css": css}, "after": {"js": new, "css": css}, "no-cv": {"js": new, "css": without}}


def script_ms(profile: dict, name: str) -> float:
    """Milliseconds of samples whose stack holds a frame from a script whose URL ends in ``name``."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    inside: dict[int, bool] = {}

    def holds(node_id: int) -> bool:
        if node_id not in inside:
            here = nodes[node_id]["callFrame"]["url"].endswith(name)
            inside[node_id] = here or (node_id in parent and holds(parent[node_id]))
        return inside[node_id]

    deltas = profile["timeDeltas"][1:] + [0]
    return sum(delta for sample, delta in zip(profile["samples"], deltas, strict=True) if holds(sample)) / 1000


def answer(body: str, content_type: str):
    """A route handler that answers with ``body``."""

    def handler(route):
        route.fulfill(body=body, content_type=content_type)

    return handler


def last_heading(page) -> str:
    return page.evaluate("() => [...document.querySelectorAll('article :is(h2,h3)[id]')].pop().id")


def rendering_s(session) -> float:
    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
    return metrics["LayoutDuration"] + metrics["RecalcStyleDuration"]


def measure(page, session, url: str) -> dict[str, float]:
    """One fresh load of ``url`` (same origin as the last, so the same renderer and its profiler)."""
    rendered = rendering_s(session)
    session.send("Profiler.start")
    page.goto(url, wait_until="load")
    page.wait_for_timeout(1500)
    profile = session.send("Profiler.stop")["profile"]
    after = rendering_s(session)
    return {
        "script": script_ms(profile, "a11y.js"),
        "render": (after - rendered if after >= rendered else after) * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a11y.js and rendering main-thread time, variants side by side.")
    parser.add_argument("--before", default="main", help="git revision of the 'before' a11y.js (default: main)")
    parser.add_argument("--runs", type=int, default=3, help="loads per page, opening and variant (default: 3)")
    parser.add_argument("--cpu-slowdown", type=float, default=4, help="CPU throttling, as Lighthouse's mobile (4)")
    args = parser.parse_args(argv)
    if not CHROMIUM.is_file():
        print(f"error: no Chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    texts = variants(args.before)
    from playwright.sync_api import sync_playwright

    results: dict[tuple[str, str, str], list[dict[str, float]]] = {}
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        site = build_site(Path(folder) / "site")
        with serve(site) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            contexts = {}
            for name, text in texts.items():
                context = browser.new_context(viewport={"width": 375, "height": 800})
                context.route("**/javascripts/a11y.js*", answer(text["js"], "text/javascript"))
                context.route("**/stylesheets/extra.css*", answer(text["css"], "text/css"))
                page = context.new_page()
                page.goto(base)
                session = context.new_cdp_session(page)
                session.send("Profiler.enable")
                session.send("Profiler.setSamplingInterval", {"interval": 100})
                session.send("Performance.enable")
                session.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu_slowdown})
                contexts[name] = (page, session)
            for path in PAGES:
                page, _ = contexts["after"]
                page.goto(base + path)
                heading = last_heading(page)
                for run in range(args.runs):
                    # A query of its own for each load: from PAGE#x to PAGE#x is no new load.
                    openings = {"top": f"{base}{path}?run={run}", "link": f"{base}{path}?run={run}-link#{heading}"}
                    for opening, url in openings.items():
                        for name, (page, session) in contexts.items():
                            results.setdefault((path, opening, name), []).append(measure(page, session, url))
            browser.close()
    load_end = os.getloadavg()

    print(
        f"{'page':<22}{'opened':<7}{'a11y.js ms: before':>19}{'after':>8}{'ratio':>7}"
        f"{'   layout+style ms: no-cv':>26}{'with cv':>9}{'ratio':>7}"
    )
    for path in PAGES:
        for opening in ("top", "link"):
            median = {
                name: {
                    key: statistics.median(r[key] for r in results[(path, opening, name)])
                    for key in ("script", "render")
                }
                for name in texts
            }
            before, after, no_cv = median["before"], median["after"], median["no-cv"]
            print(
                f"{path:<22}{opening:<7}{before['script']:>19.1f}{after['script']:>8.1f}"
                f"{after['script'] / max(before['script'], 0.1):>7.2f}"
                f"{no_cv['render']:>26.1f}{after['render']:>9.1f}{after['render'] / max(no_cv['render'], 0.1):>7.2f}"
            )
    print(
        f"medians of {args.runs} loads each, CPU slowdown {args.cpu_slowdown}x, 375 px; load average "
        f"(1 min) {load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end, {os.cpu_count()} CPUs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
