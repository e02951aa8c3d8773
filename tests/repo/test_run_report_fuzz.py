"""The generated fuzz of the run-report validator: reports (the cases and how each is judged: tests/run_report_cases.py;
the issue bodies: test_run_report_fuzz_bodies.py). Counts per class, and the first cases of each verdict, are in the
assertion's message."""

from __future__ import annotations

import pytest

from run_report_cases import HOSTILE, free_text_reports, reports_of_report_py, tally


def test_every_report_that_report_py_makes_is_accepted():
    seen, shown = tally(reports_of_report_py())
    assert set(seen) == {"accepted"}, f"{dict(seen)}\n" + "\n".join(shown)


def test_free_text_in_every_named_script_is_accepted():
    seen, shown = tally(free_text_reports())
    assert set(seen) == {"accepted"}, f"{dict(seen)}\n" + "\n".join(shown)


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_no_hostile_report_is_accepted_or_crashes_the_validator(kind):
    seen, shown = tally(HOSTILE[kind])
    assert set(seen) == {"refused"}, f"{kind}: {dict(seen)}\n" + "\n".join(shown)
