"""The generated fuzz of the run-report validator: issue bodies (tests/run_report_cases.py). What GitHub
shows under the form's heading is what is judged, and only with the consent box ticked: a body as the form
writes it (CRLF, a lower-case x, comments and text elsewhere) is accepted; a valid report hidden in a comment
beside a refused visible one, a consent box unticked, hidden or missing, a heading hidden or of another level,
or the form's field left empty, are refused, each for its own reason in the comment."""

from __future__ import annotations

from run_report_cases import EXAMPLES, bodies, body_verdict, tally


def test_a_body_as_the_form_writes_it_is_accepted():
    seen, shown = tally(bodies(hostile=False), body_verdict, EXAMPLES // 2)
    assert set(seen) == {"accepted"}, f"{dict(seen)}\n" + "\n".join(shown)


def test_a_hidden_report_or_no_consent_is_refused():
    seen, shown = tally(bodies(hostile=True), body_verdict, EXAMPLES // 2)
    assert set(seen) == {"refused"}, f"{dict(seen)}\n" + "\n".join(shown)
