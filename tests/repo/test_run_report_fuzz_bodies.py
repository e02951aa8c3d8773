"""The generated fuzz of the run-report validator: issue bodies (tests/run_report_cases.py). What GitHub
shows under the form's heading is what is judged, and only with the consent box ticked: a body as the form
writes it (CRLF, a lower-case x, comments and text elsewhere) is accepted; a valid report hidden in a comment
beside a refused visible one, a consent box unticked, hidden or missing, a heading hidden or of another level,
or the form's field left empty, are refused, each for its own reason in the comment."""

from __future__ import annotations

from run_report_cases import bodies, tally_bodies


def test_a_body_as_the_form_writes_it_is_accepted():
    seen = tally_bodies(bodies(hostile=False))
    assert {verdict for _, verdict in seen} == {"accepted"}, dict(seen)


def test_a_hidden_report_or_no_consent_is_refused():
    seen = tally_bodies(bodies(hostile=True))
    assert {verdict for _, verdict in seen} == {"refused"}, dict(seen)
