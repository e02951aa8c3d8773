"""snippets/script_guard.py, the door of every script of the readers' zip, as a reader's process meets it:
Ctrl-C while a slow module imports, torch failing to load in each form, a pipe closed while it prints, and
outputs that cannot be written. The generated cases of every script are in test_generated_bad_input.py and
test_generated_faults.py; a console that cannot show a name, as a real process, in test_bad_input.py.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bad_input import start
from guide_harness import SNIPPETS, clean_env, load_snippet

script_guard = load_snippet("script_guard")


def program(folder: Path, body: str, **modules: str) -> Path:
    """A script beside a copy of script_guard.py (and doctor.py), as in the reader's project folder."""
    for name in ("script_guard.py", "doctor.py"):
        shutil.copy(SNIPPETS / name, folder / name)
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
    path = folder / "script.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("error: ") and lines[0].isascii(), lines[0]
    return lines[0]


STARTS = {
    "in start()": 'import script_guard\nscript_guard.start("slow_torch")\n',
    # the imports after start(): torchvision, the script's neighbours
    "after start()": "import script_guard\nscript_guard.start()\nimport slow_torch\n",
}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="SIGINT to a child needs a console group on Windows")
@pytest.mark.parametrize("where", STARTS)
def test_ctrl_c_while_torch_imports_is_one_line_and_130(where, tmp_path):
    path = program(
        tmp_path,
        STARTS[where],
        slow_torch="""
        import sys, time
        print("importing", flush=True)
        time.sleep(60)  # torch-directml's torch takes seconds on Windows
        """,
    )
    process = start([str(path)], tmp_path)
    assert process.stdout.readline() == "importing\n"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "interrupted (Ctrl-C)" in one_line(err)


FAILURES = {
    # what torch raises -> what the line must name: the doctor's diagnosis and its section
    "OSError(22, '[WinError 126] The specified module could not be found. Error loading "
    '"c10.dll" or one of its dependencies.\')': "troubleshooting/#winerror-126-or-1114-c10dll",
    "ImportError('DLL load failed while importing _C: The specified procedure could not be found.')": (
        "troubleshooting/#winerror-127"
    ),
    "ModuleNotFoundError(\"No module named 'torch'\", name='torch')": "torch is not installed in this Python",
    "RuntimeError('something else entirely')": "troubleshooting/#where-to-report-a-bug",
}


@pytest.mark.parametrize("failure, section", FAILURES.items(), ids=lambda value: value[:20])
def test_torch_that_does_not_load_is_the_doctors_line(failure, section, tmp_path):
    path = program(tmp_path, 'import script_guard\nscript_guard.start("torch")\n', torch=f"raise {failure}\n")
    result = subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        env=clean_env(PYTHONPATH=str(tmp_path)),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    line = one_line(result.stderr)
    assert line.startswith("error: import torch: ") and section in line


def test_without_doctor_py_the_line_says_to_run_it(tmp_path):
    path = program(tmp_path, 'import script_guard\nscript_guard.start("torch")\n', torch="raise OSError('c10.dll')\n")
    (tmp_path / "doctor.py").unlink()
    result = subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=clean_env(), capture_output=True, text=True)
    assert result.returncode == 1
    assert "run doctor.py" in one_line(result.stderr)


LOUD = """
import script_guard
script_guard.start()

def main():
    for number in range(200_000):
        print(f"line {number}: \\u6570\\u636e \\u00fc")
    print("finished", file=open("finished.txt", "w"))
    return 0

script_guard.run(main)
"""


def test_a_closed_pipe_loses_the_printing_not_the_work(tmp_path):
    process = start([str(program(tmp_path, LOUD))], tmp_path)
    process.stdout.readline()
    process.stdout.close()  # `python script.py | more`, then q
    err = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert "the output could not be shown" in one_line(err)
    assert (tmp_path / "finished.txt").is_file()  # the work ran to its end


def test_cannot_write_opens_the_target_itself(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    assert script_guard.cannot_write(target) == ""
    assert not target.exists()  # the probe leaves no file behind
    target.write_text("kept")
    assert script_guard.cannot_write(target) == "" and target.read_text() == "kept"
    for nameless in ("", ".", "..", str(tmp_path)):
        assert "give a file name" in script_guard.cannot_write(Path(nameless))
    assert script_guard.cannot_write(tmp_path / "no" / "such" / "x.json")  # no such folder
    (tmp_path / "a-file").write_text("")
    assert script_guard.cannot_write(tmp_path / "a-file" / "x.json")  # a file where a folder should be

    real_open = open

    def read_only(file, mode="r", *args, **kwargs):
        if Path(file) == target and "a" in mode:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", read_only)
    assert script_guard.cannot_write(target) == "Permission denied"  # found at the file, not beside it
    monkeypatch.undo()
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage._replace(free=100))
    assert script_guard.cannot_write(target, room=4096) == os.strerror(errno.ENOSPC)  # a full disk, before the work
    assert script_guard.cannot_write(target, room=10) == ""


def test_a_wrong_command_line_is_one_ascii_line(capsys):
    parser = script_guard.ArgumentParser(prog="x.py")
    parser.add_argument("--n", type=int)
    assert script_guard.exit_status(lambda argv: parser.parse_args(argv) and 0, ["--n", "\u6570"]) == 2
    assert "argument --n: invalid int value: '\\u6570' (see --help)" in one_line(capsys.readouterr().err)
