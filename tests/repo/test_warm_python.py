"""A script run in a fork of the warm Python (tests/warm_python.py) is the same run as in a fresh Python:
the same exit code, stdout and stderr, for every snippet and for each way a script can end."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

import warm_python
from guide_harness import SNIPPETS, clean_env

pytestmark = pytest.mark.skipif(not warm_python.usable(), reason="fresh processes only on this system")

SCRIPTS = sorted(p.relative_to(SNIPPETS).as_posix() for p in SNIPPETS.rglob("*.py"))

# Each way a script can end or see its surroundings, as a script of its own.
ENDINGS = {
    "exit-code": "import sys\nsys.exit(3)",
    "exit-message": "import sys\nsys.exit('error: a message')",
    "exit-none": "raise SystemExit",
    "exception": "def f():\n    raise ValueError('boom')\nf()",
    "syntax-error": "def f(:\n    pass",
    "ctrl-c": "raise KeyboardInterrupt",
    "not-ascii": "print('caf\\u00e9')",
    "not-ascii-stderr": "import sys\nprint('caf\\u00e9', file=sys.stderr)",
    "thread-after-main": "import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.2), print('late'))).start()",
    "atexit": "import atexit\natexit.register(print, 'at exit')",
    "stdin": "import sys\nprint(repr(sys.stdin.read()))",
    "where": "import os, sys\nprint(__name__, __file__, sys.argv, os.getcwd(), sys.path[0], __spec__)",
    "environment": "import os\nprint(os.environ.get('TORCH_DEVICE'), os.environ.get('PYTHONIOENCODING'))",
    "neighbour": "import helper\nprint(helper.VALUE)",
    "stand-in-torch": "import torch\nprint(torch.__file__)",
    "encoding": "import sys\nprint(sys.stdout.encoding, sys.stdout.errors, sys.stderr.errors)",
}


def both(args: list[str], cwd, **env: str):
    environment = clean_env(**env)
    warm = warm_python.run(args, cwd, environment, timeout=120)
    fresh = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=120
    )
    return warm, fresh


def same(warm, fresh) -> None:
    assert warm is not None, "the warm Python sent this run to a fresh process"
    assert (warm.returncode, warm.stdout, warm.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_snippet_answers_help_the_same(script, tmp_path):
    same(*both([str(SNIPPETS / script), "--help"], tmp_path, PYTHONIOENCODING="ascii", PYTHONPATH=str(SNIPPETS)))


# Consoles and start-up settings: PYTHONIOENCODING's, and a C locale's (ASCII, not coerced to UTF-8), which
# the server's own start-up decides; PYTHONSAFEPATH leaves the script's folder off sys.path.
STARTS = {
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "utf-8": {"PYTHONIOENCODING": "utf-8"},
    "C locale": {"PYTHONIOENCODING": "", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
    "safe path": {"PYTHONSAFEPATH": "1"},
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
@pytest.mark.parametrize("start", sorted(STARTS))
def test_each_ending_is_the_same(ending, start, tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text("VALUE = 42\n", encoding="utf-8")
    if ending == "stand-in-torch":
        (tmp_path / "lib" / "torch.py").write_text("__file__ = 'stand-in'\n", encoding="utf-8")
    (tmp_path / "script.py").write_text(ENDINGS[ending] + "\n", encoding="utf-8")
    env = {**STARTS[start], "PYTHONPATH": str(tmp_path / "lib"), "TORCH_DEVICE": "cpu"}
    warm, fresh = both(["script.py"], tmp_path, **env)
    if ending == "stand-in-torch":  # a folder that shadows what the server imported: only a fresh run is true
        assert warm is None
        assert fresh.stdout.strip() == "stand-in"
    else:
        same(warm, fresh)


def test_a_variable_read_at_start_up_reaches_torch_as_in_a_fresh_process(tmp_path):
    (tmp_path / "script.py").write_text("import torch\nprint(torch.get_num_threads())\n", encoding="utf-8")
    for threads in ("1", "2"):
        warm, fresh = both(["script.py"], tmp_path, OMP_NUM_THREADS=threads)
        same(warm, fresh)
        assert warm.stdout == f"{threads}\n"


def test_a_timeout_kills_the_run_as_subprocess_does(tmp_path):
    (tmp_path / "script.py").write_text("import time\nprint('started', flush=True)\ntime.sleep(60)\n")
    with pytest.raises(subprocess.TimeoutExpired) as raised:
        warm_python.run(["script.py"], tmp_path, clean_env(), timeout=2)
    assert raised.value.output == "started\n"
    (tmp_path / "next.py").write_text("print('next')\n")
    assert warm_python.run(["next.py"], tmp_path, clean_env(), timeout=60).stdout == "next\n"


def test_two_answers_in_one_read_are_both_seen(tmp_path):
    # On a loaded machine the script can end before the test's process reads the server's "pid" line, and
    # "exit" comes in the same read; a reader that then waits on the pipe for the line it holds already
    # waits out the timeout (forever, where it has none).
    (tmp_path / "script.py").write_text("pass\n")
    env = clean_env()
    server = warm_python.Server({k: v for k, v in env.items() if k not in warm_python.ENVIRONMENT})
    try:
        out, err = tmp_path / "out", tmp_path / "err"
        request = {"args": ["script.py"], "cwd": str(tmp_path), "env": env, "stdout": str(out), "stderr": str(err)}
        server.process.stdin.write(json.dumps(request).encode() + b"\n")
        deadline = time.monotonic() + 120
        while not err.exists() and time.monotonic() < deadline:  # the server has started and forked
            time.sleep(0.1)
        time.sleep(1)  # the script has ended: both lines wait in the pipe
        assert server.answer(10).startswith("pid ")
        assert server.answer(5) == "exit 0"
    finally:
        server.stop()
