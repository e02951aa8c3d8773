""".github/scripts/resolve_vendor_commands.py, the Freshness workflow's "Vendor indexes" job: which commands it
resolves, how it asks pip, and what it reports. The vendor indexes are unreachable here; PyPI stands in
for one real resolution, so that the flags are ones pip accepts together."""

from __future__ import annotations

import subprocess
import sys

import resolve_vendor_commands as tool
from guide import gpus, recipes


def test_it_resolves_every_chooser_command_and_each_page_command():
    texts = {c.text for c in tool.commands()}
    for gpu in gpus.load():
        if not gpu.ambiguous and gpu.path["11"] in {"rocm", "xpu", "cuda"}:
            assert recipes.install_command(recipes.install_key(gpu, gpu.path["11"])) in texts
    # The set-up page's own commands are among them (each once: most are the chooser's, word for word).
    setup = [
        line.strip()
        for line in (tool.ROOT / "docs" / "setup.md").read_text(encoding="utf-8").splitlines()
        if tool.INSTALL.match(line.strip()) and tool.VENDOR_URL.search(line)
    ]
    assert setup and set(setup) <= texts
    rocm = next(c for c in tool.commands() if "device-gfx1103" in c.text)
    assert rocm.pythons == ("3.11", "3.12", "3.13", "3.14")


def test_pip_is_asked_for_windows_without_installing():
    args = tool.pip_args(
        'python -m pip install --index-url https://x/ "torch[device-gfx1103]==2.14.0+rocm10.1.0"', "3.13"
    )
    assert args[:4] == [sys.executable, "-m", "pip", "install"]
    assert {"--dry-run", "--no-deps", "--ignore-installed", "--only-binary=:all:"} <= set(args)
    assert args[args.index("--platform") + 1] == "win_amd64" and args[args.index("--python-version") + 1] == "3.13"
    assert args[-1] == "torch[device-gfx1103]==2.14.0+rocm10.1.0"  # unquoted, one argument


def test_pip_accepts_the_flags_together():
    args = tool.pip_args(
        "python -m pip install --index-url https://pypi.org/simple torch-directml==0.2.5.dev240914", "3.12"
    )
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_command_that_does_not_resolve_is_reported_and_fails(tmp_path, capsys):
    def fake_pip(args, **_):
        bad = any("torchvision[device-gfx1103]" in a for a in args)  # one wheel missing from AMD's index
        return subprocess.CompletedProcess(
            args, int(bad), "", "ERROR: No matching distribution found for torchvision" if bad else ""
        )

    summary = tmp_path / "summary.md"
    assert tool.main(["--summary", str(summary)], run=fake_pip) == 1
    text = summary.read_text(encoding="utf-8")
    assert "FAILED" in text and "No matching distribution found for torchvision" in text
    assert "torchvision[device-gfx1103]" in text.split("FAILED", 1)[1].splitlines()[0]


def test_all_resolving_exits_0(capsys):
    ok = lambda args, **_: subprocess.CompletedProcess(args, 0, "", "")  # noqa: E731
    assert tool.main([], run=ok) == 0
    assert "FAILED" not in capsys.readouterr().out
