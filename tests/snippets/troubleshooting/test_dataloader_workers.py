"""Tests for snippets/troubleshooting/dataloader_workers.py: DataLoader workers under spawn, as on Windows.

The script asks for the spawn start method on every OS, so these runs on Linux start workers the way Windows
does. The main guard is what makes it work: the same file with its guard removed (built from the script's own
text) fails with the bootstrapping RuntimeError that the troubleshooting page quotes, and the same file run
without a file of its own (as a notebook cell is) fails with the "Can't get attribute" error.
"""

from __future__ import annotations

import pytest

from guide_harness import SNIPPETS, assert_one_line_error, load_snippet, run_python, run_snippet

SCRIPT = "troubleshooting/dataloader_workers.py"
GUARD = 'if __name__ == "__main__":'
BOOTSTRAPPING = "An attempt has been made to start a new process before the"
WORKER_DIED = "DataLoader worker (pid(s)"

dataloader_workers = load_snippet("troubleshooting/dataloader_workers")


def test_script_runs_with_two_spawned_workers(tmp_path):
    result = run_snippet(SCRIPT, "--num-workers", "2", cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "OK: loaded 64 samples with num_workers=2: 2 worker process(es) besides this one" in result.stdout


def test_no_workers_loads_in_this_process():
    count, loaded_by = dataloader_workers.load_all(0, size=10)
    assert count == 10
    assert len(loaded_by) == 1  # this process only


@pytest.mark.parametrize("bad", ["-1", "two"])
def test_bad_worker_count_is_one_line(tmp_path, bad):
    result = run_snippet(SCRIPT, "--num-workers", bad, cwd=tmp_path)
    assert_one_line_error(result, "--num-workers")
    assert result.returncode == 2


def test_without_the_main_guard_spawn_fails_with_the_bootstrapping_error(tmp_path):
    text = (SNIPPETS / SCRIPT).read_text(encoding="utf-8")
    unguarded = tmp_path / "unguarded.py"
    unguarded.write_text(text.replace(GUARD, "if True:"), encoding="utf-8")
    result = run_python([str(unguarded)], cwd=tmp_path, timeout=300)
    assert result.returncode != 0, result.stdout
    # Each worker imports the file again, reaches the loop and tries to start workers of its own.
    assert "RuntimeError" in result.stderr and BOOTSTRAPPING in result.stderr, result.stderr[-3000:]
    assert "freeze_support()" in result.stderr
    assert WORKER_DIED in result.stderr  # what the parent process reports


def test_a_dataset_class_without_a_file_cannot_reach_the_workers(tmp_path):
    # python -c runs the code with no file behind __main__, as a notebook cell does: workers cannot import it.
    text = (SNIPPETS / SCRIPT).read_text(encoding="utf-8")
    result = run_python(["-c", text], cwd=tmp_path, timeout=300)
    assert result.returncode != 0, result.stdout
    assert "AttributeError: Can't get attribute 'SquaresDataset' on <module '__main__'" in result.stderr, result.stderr[
        -3000:
    ]
    assert WORKER_DIED in result.stderr
