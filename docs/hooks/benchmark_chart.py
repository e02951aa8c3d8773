"""Draw the benchmark chart (an SVG) from the benchmark scripts' JSON output.

    python docs/hooks/benchmark_chart.py          # write docs/images/benchmarks.svg
    python docs/hooks/benchmark_chart.py --check  # exit 1 if the SVG does not match the data

The drawing is guide/benchmark_chart.py (this folder is on sys.path when the script runs).
"""

from guide.benchmark_chart import main

if __name__ == "__main__":
    raise SystemExit(main())
