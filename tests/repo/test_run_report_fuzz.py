"""The generated fuzz of the run-report validator, reports and issue bodies: each class's cases, and what each case
must get, are tests/run_report_cases.py's. Counts per class, and the first cases of each verdict, are in the message."""

from __future__ import annotations

import pytest

from run_report_cases import (
    EXAMPLES,
    HOSTILE,
    bodies,
    body_verdict,
    free_text_reports,
    reports_of_report_py,
    tally,
    verdict,
)

# Each class of cases: (its strategy, how a case is judged, how many are drawn, the verdict each must get).
CLASSES = {
    "made by report.py": (reports_of_report_py(), verdict, EXAMPLES, "accepted"),
    "free text in every named script": (free_text_reports(), verdict, EXAMPLES, "accepted"),
    "a body as the form writes it": (bodies(hostile=False), body_verdict, EXAMPLES // 2, "accepted"),
    "a hidden report or no consent": (bodies(hostile=True), body_verdict, EXAMPLES // 2, "refused"),
    **{kind: (strategy, verdict, EXAMPLES, "refused") for kind, strategy in HOSTILE.items()},
}


@pytest.mark.parametrize("kind", list(CLASSES))
def test_each_class_gets_its_verdict(kind):
    strategy, judge, n, wanted = CLASSES[kind]
    seen, shown = tally(strategy, judge, n)
    assert set(seen) == {wanted}, f"{kind}: {dict(seen)}\n" + "\n".join(shown)
