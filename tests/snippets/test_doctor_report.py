"""Tests for snippets/doctor.py's JSON report (--json): it never holds the user's or the machine's name, in any
case form, for 67 generated names (Latin, accented, Chinese, one letter), nor on this machine's real run, which
finds no problem.
The rest of the doctor's tests: tests/snippets/test_doctor.py."""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from guide_harness import load_snippet, run_snippet

doctor = load_snippet("doctor")
# The redaction works on the doctor's own findings of stand-in names: no torch asked, the same under every torch
# (the pins leg runs it; pyproject.toml). The real run on this machine asks torch, and runs on both legs.
ANY_TORCH = pytest.mark.any_torch


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


def report_values(user: str, host: str, monkeypatch) -> list[str]:
    """Every value of the doctor's report on a PC of ``user`` and ``host`` (its keys are the doctor's own words)."""
    monkeypatch.setenv("USERNAME", user)
    monkeypatch.setenv("COMPUTERNAME", host)
    monkeypatch.setattr(doctor.getpass, "getuser", lambda: user)
    monkeypatch.setattr(doctor.socket, "gethostname", lambda: host)
    monkeypatch.setattr(doctor.platform, "node", lambda: host)
    findings = [
        doctor.ok("python", f"3.12.10, 64-bit, C:\\Users\\{user}\\proj\\.venv\\Scripts\\python.exe"),
        doctor.note("user folder", f"the path C:\\Users\\{user.upper()} has non-ASCII characters"),
        doctor.problem("import torch", f"fails on {host}: \\\\{host.lower()}\\share\\{user}/x", "fix", ""),
    ]
    data = json.loads(doctor.report(findings, doctor.private_names(dict(os.environ))))
    assert data["problems"] == 1
    return [value for entry in data["findings"] for value in entry.values()]


@ANY_TORCH
def test_the_report_never_holds_the_user_or_host_name(monkeypatch):
    """67 pairs of generated names, each a path component or a word of its own, never left as a word (a name
    inside a longer word stays: "a" in "has"): one check, every failure listed."""
    failures = []
    for user, host in zip(generated_names(), reversed(generated_names()), strict=True):
        with monkeypatch.context() as patch:
            values = report_values(user, host, patch)
        for name in (user, host):
            for form in {name, name.upper(), name.lower()}:
                if any(re.search(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![A-Za-z0-9])", v) for v in values):
                    failures.append(f"{form!r} (user {user!r}, host {host!r})")
    assert not failures, "names left in the report: " + "; ".join(failures)


@ANY_TORCH
def test_a_name_inside_a_longer_word_is_left_and_a_short_name_is_caught(monkeypatch):
    """Redaction by word, never inside one (a user "li" keeps "Linux"); Windows' 8.3 name of the folder too."""
    assert doctor.redact("Linux, C:\\Users\\li\\x, li-laptop", ["li"]) == "Linux, C:\\Users\\***\\x, ***-laptop"
    assert doctor.redact("C:\\Users\\ZHANGS~1\\proj", ["zhangsan"]) == "C:\\Users\\***\\proj"
    assert doctor.redact("root causes: /root/x", ["root"]) == "*** causes: /***/x"


def test_this_machine_has_no_false_problem_and_its_report_no_names(tmp_path):
    """CI runs this in .venv (torch 2.4.1) and .venv-current (current torch): neither has a problem."""
    report = tmp_path / "report.json"
    result = run_snippet("doctor.py", "--json", str(report), cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == "", result.stdout + result.stderr
    *findings, written, verdict = result.stdout.splitlines()
    assert verdict == "OK: the doctor found no problem" and written.startswith("report written to "), result.stdout
    assert all(re.match(r"(ok|note) +\S", line) for line in findings), result.stdout
    assert result.stdout.isascii() and re.search(r"^ok +import torch: works \(", result.stdout, re.M)
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["problems"] == 0 and len(data["findings"]) >= 8
    names = doctor.private_names(dict(os.environ))
    values = " ".join(v.lower() for entry in data["findings"] for v in entry.values())
    left = [n for n in names if re.search(rf"(?<![a-z0-9]){re.escape(n.lower())}(?![a-z0-9])", values)]
    assert names and not left
