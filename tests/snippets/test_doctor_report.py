"""Tests for snippets/doctor.py's JSON report (--json): it never holds the user's or the machine's name, in any
case form, for 67 generated names (Latin, accented, Chinese, one letter), nor on this machine's real run.
The rest of the doctor's tests: tests/snippets/test_doctor.py."""

from __future__ import annotations

import json
import os
import random

import pytest

from guide_harness import load_snippet, run_snippet

doctor = load_snippet("doctor")


def generated_names(count=60, seed=19):
    """User and host names as Windows allows them: Latin, accented, Chinese, digits, dot, dash, space."""
    alphabet = (
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        "\u00e9\u00fc\u00df\u00d8\u5f20\u4e09\u674e\u56db\u738b\u5c0f\u660e\u7530\u4e2d.-_ "
    )
    rng = random.Random(seed)
    fixed = ["\u5f20\u4e09", "Zhang San", "user", "PC", "DESKTOP-7K3J9Q", "\u00c9lodie", "a"]
    made = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))).strip() or "x" for _ in range(count)]
    return fixed + made


@pytest.mark.parametrize("user, host", list(zip(generated_names(), reversed(generated_names()), strict=True)))
def test_the_report_never_holds_the_user_or_host_name(user, host, monkeypatch):
    monkeypatch.setenv("USERNAME", user)
    monkeypatch.setenv("COMPUTERNAME", host)
    monkeypatch.setattr(doctor.getpass, "getuser", lambda: user)
    monkeypatch.setattr(doctor.socket, "gethostname", lambda: host)
    monkeypatch.setattr(doctor.platform, "node", lambda: host)
    findings = [
        doctor.ok("python", f"3.12.10, 64-bit, C:\\Users\\{user}\\proj\\.venv\\Scripts\\python.exe"),
        doctor.note("user folder", f"the path C:\\Users\\{user.upper()} has non-ASCII characters"),
        doctor.problem("import torch", f"fails on {host}: \\\\{host.lower()}\\share\\{user}{host}", "fix", ""),
    ]
    text = doctor.report(findings, doctor.private_names(dict(os.environ)))
    data = json.loads(text)
    # Every value the report holds (its keys are the doctor's own words: status, topic, text, fix, section).
    values = [value for entry in data["findings"] for value in entry.values()]
    for name in (user, host):
        for form in (name, name.upper(), name.lower()):
            assert not [v for v in values if form in v], (form, values)
    assert data["problems"] == 1 and len(values) == 15


def test_main_writes_the_report_without_this_machines_names(tmp_path):
    report = tmp_path / "report.json"
    result = run_snippet("doctor.py", "--json", str(report), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["problems"] == 0 and len(data["findings"]) >= 8
    names = doctor.private_names(dict(os.environ))
    values = " ".join(v.lower() for entry in data["findings"] for v in entry.values())
    assert names and not [n for n in names if n.lower() in values]
