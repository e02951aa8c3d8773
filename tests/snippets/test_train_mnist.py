"""Tests for snippets/train_mnist.py: it learns on real Fashion-MNIST, survives SIGKILL, refuses bad input.

Training runs on the CPU on small subsets; nothing is downloaded (the scripts never get --download).
"""

from __future__ import annotations

import signal
import subprocess
import textwrap
from pathlib import Path

import pytest
import torch

from bad_input import start
from generated_cases import run_main
from guide_harness import (
    SNIPPETS,
    assert_one_line_error,
    load_snippet,
    run_snippet,
)

train_mnist = load_snippet("train_mnist")

SMALL = ("--dataset", "fashion-mnist", "--limit-train", "2000", "--limit-test", "1000", "--batch-size", "100")


def small_run(root, *extra):
    return (*SMALL, "--data-dir", str(root), *extra)


def final_checkpoint(path: Path) -> dict:
    return torch.load(path, map_location="cpu", weights_only=True)


def start_training(args, cwd: Path, wrapper: Path | None = None) -> subprocess.Popen:
    return start([str(wrapper or SNIPPETS / "train_mnist.py"), *args], cwd, PYTHONPATH=str(SNIPPETS))


def kill_when(process: subprocess.Popen, marker: str) -> list[str]:
    """Read the run's output until a line contains ``marker``, then kill it at once.

    Popen.kill() is SIGKILL on Linux and macOS and TerminateProcess on Windows: no handler, no cleanup.
    """
    seen = []
    for line in process.stdout:
        seen.append(line)
        if marker in line:
            process.kill()
            process.wait(timeout=30)
            assert process.returncode == (-signal.SIGKILL if hasattr(signal, "SIGKILL") else 1)
            return seen
    process.wait(timeout=30)
    pytest.fail(
        f"the run ended (exit {process.returncode}) before printing {marker!r}:\n{''.join(seen)}"
        f"\n{process.stderr.read()}"
    )


# Runs train_mnist.py, but the save of epoch KILL_AT writes half a temporary file and hangs there,
# so that the test can SIGKILL the run in the middle of a save.
HANGING_SAVE = textwrap.dedent("""
    import runpy, sys, time
    import torch
    KILL_AT = {kill_at}
    real_save, saves = torch.save, []
    def hanging_save(obj, file, *args, **kwargs):
        saves.append(1)
        real_save(obj, file, *args, **kwargs)
        if len(saves) == KILL_AT:
            file.flush()
            file.truncate(file.tell() // 2)
            file.flush()
            print("SAVE IN PROGRESS", flush=True)
            time.sleep(120)
    torch.save = hanging_save
    sys.argv[0] = {script!r}
    runpy.run_path({script!r}, run_name="__main__")
""")


def test_killed_at_any_moment_a_resumed_run_loses_nothing(fashion_mnist_root, tmp_path):
    args = small_run(fashion_mnist_root, "--epochs", "4", "--device", "cpu", "--resume")
    reference_dir, work = tmp_path / "reference", tmp_path / "killed"
    reference_dir.mkdir(), work.mkdir()
    checkpoint = work / "checkpoints" / "lenet-fashion-mnist.pt"
    temporaries = f"{checkpoint.name}.*.tmp"  # each run's own: <name>.<process id>.tmp

    # 1. Killed in epoch 1, before any checkpoint exists (unless the kill came late: then it holds epoch 1).
    kill_when(start_training(args, work), "epoch 1/4  25%")
    assert not checkpoint.exists() or final_checkpoint(checkpoint)["epoch"] == 1
    # 2. Resumed, killed in the middle of epoch 3.
    kill_when(start_training(args, work), "epoch 3/4  50%")
    saved = final_checkpoint(checkpoint)["epoch"]
    assert saved in (2, 3)  # 3 only if the kill landed after that epoch's save
    # 3. Resumed, killed in the middle of its next save: a half-written temporary file stays behind.
    wrapper = tmp_path / "hanging_save.py"
    wrapper.write_text(HANGING_SAVE.format(kill_at=1, script=str(SNIPPETS / "train_mnist.py")), encoding="utf-8")
    seen = kill_when(start_training(args, work, wrapper), "SAVE IN PROGRESS")
    assert any(f"resuming after epoch {saved}" in line for line in seen), "".join(seen)
    [temporary] = checkpoint.parent.glob(temporaries)
    assert temporary.stat().st_size > 0
    with pytest.raises(Exception):  # noqa: B017 - its type differs across torch versions
        torch.load(temporary, weights_only=True)  # the stale file is really broken...
    assert final_checkpoint(checkpoint)["epoch"] == saved  # ...and the checkpoint is still the complete one
    # 4. Resumed: ignores the stale file, finishes, leaves no temporary file.
    finished = run_snippet("train_mnist.py", *args, cwd=work)
    assert finished.returncode == 0, finished.stderr
    assert "removed" in finished.stdout and "unfinished save" in finished.stdout
    assert f"resuming after epoch {saved}" in finished.stdout
    assert not temporary.exists()
    assert sorted(p.name for p in checkpoint.parent.iterdir()) == [checkpoint.name]  # no .tmp, no .lock

    # An uninterrupted run with the same arguments: it learns, and the killed-and-resumed one must match it exactly.
    reference = run_snippet("train_mnist.py", *args, cwd=reference_dir)
    assert reference.returncode == 0, reference.stderr
    out = reference.stdout
    assert "device: cpu" in out and "epoch 1/4  25% (5/20 batches)" in out  # progress inside the epoch
    expected = final_checkpoint(reference_dir / "checkpoints" / "lenet-fashion-mnist.pt")
    accuracies = [entry["accuracy"] for entry in expected["history"]]
    # Chance is 0.10 on ten balanced classes; four epochs of LeNet on 2,000 images get far above it (0.687).
    assert accuracies[-1] >= 0.60, out
    assert f"final test accuracy: {accuracies[-1]:.4f} after 4 epochs" in out
    for entry in expected["history"]:
        assert f"epoch {entry['epoch']}/4  loss {entry['loss']:.4f}  test accuracy {entry['accuracy']:.4f}" in out
        assert entry["seconds"] > 0
    got = final_checkpoint(checkpoint)
    assert got["epoch"] == 4
    assert [h["epoch"] for h in got["history"]] == [1, 2, 3, 4]
    assert [h["accuracy"] for h in got["history"]] == [h["accuracy"] for h in expected["history"]]
    for name, tensor in expected["model"].items():
        torch.testing.assert_close(got["model"][name], tensor, rtol=1e-5, atol=1e-6, msg=name)

    # 5. Run again: everything is done, nothing changes.
    again = run_snippet("train_mnist.py", *args, cwd=work)
    assert again.returncode == 0, again.stderr
    assert "is already at epoch 4" in again.stdout


# ---- bad input: one line on stderr, non-zero exit, and the existing checkpoint left as it was ----


def assert_refused(code, err, *needles):
    assert code != 0
    assert_one_line_error(subprocess.CompletedProcess([], code, "", err), *needles)


@pytest.fixture
def good_checkpoint(fashion_mnist_root, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main("train_mnist", [*small_run(fashion_mnist_root, "--epochs", "1", "--limit-train", "500")])
    assert code == 0, err
    return tmp_path / "checkpoints" / "lenet-fashion-mnist.pt"


def test_a_finished_checkpoint_needs_no_device_and_no_data(monkeypatch, fashion_mnist_root, good_checkpoint):
    """train() decides there is nothing to do before prepare() picks a device or loads the data."""
    for name in ("choose_device", "load_dataset"):
        monkeypatch.setattr(train_mnist, name, lambda *a, name=name, **k: pytest.fail(f"{name}() was called"))
    before = good_checkpoint.read_bytes()
    code, out, err = run_main(
        "train_mnist", [*small_run(fashion_mnist_root, "--epochs", "1", "--limit-train", "500", "--resume")]
    )
    assert code == 0, err
    assert "is already at epoch 1" in out and "nothing to do" in out
    assert good_checkpoint.read_bytes() == before


def test_broken_checkpoints_are_refused_and_left_alone(fashion_mnist_root, good_checkpoint):
    args = small_run(fashion_mnist_root, "--epochs", "2", "--limit-train", "500", "--resume")
    data = good_checkpoint.read_bytes()
    code, out, err = run_main("train_mnist", list(args[:-1]))  # without --resume: never trained over
    assert_refused(code, err, "already exists: add --resume")
    assert "epoch 1/2" not in out and good_checkpoint.read_bytes() == data
    other, shapes = good_checkpoint.with_name("other.pt"), good_checkpoint.with_name("shapes.pt")
    torch.save({"weights": torch.ones(3)}, other)
    wrong = final_checkpoint(good_checkpoint)
    torch.save({**wrong, "model": {key: torch.zeros(3) for key in wrong["model"]}}, shapes)
    cases = [
        (data[: len(data) // 2], "damaged or not a checkpoint"),  # truncated
        (b"this is not a checkpoint\n" * 40, "damaged or not a checkpoint"),
        (other.read_bytes(), "not a checkpoint written by train_mnist.py"),
        (shapes.read_bytes(), "does not fit this model"),
    ]
    for content, message in cases:
        good_checkpoint.write_bytes(content)
        code, out, err = run_main("train_mnist", list(args))
        # The path as this OS prints it: checkpoints\\lenet-fashion-mnist.pt on Windows.
        assert_refused(code, err, str(Path("checkpoints") / "lenet-fashion-mnist.pt"), message)
        assert "epoch 2/2" not in out
        assert good_checkpoint.read_bytes() == content  # not overwritten

    # A checkpoint that does not hold plain data (arbitrary objects) is refused by weights_only=True.
    torch.save({"format": train_mnist.CHECKPOINT_FORMAT, "payload": Path("x")}, good_checkpoint)
    code, _, err = run_main("train_mnist", list(args))
    assert_refused(code, err, "damaged or not a checkpoint")


def test_no_data_folder_is_refused_before_anything_is_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main("train_mnist", ["--dataset", "fashion-mnist", "--data-dir", "none", "--device", "cpu"])
    assert_refused(code, err, "fashion-mnist not found in", "--download")
    assert not (tmp_path / "none").exists() and not (tmp_path / "checkpoints").exists()


def test_a_locked_checkpoint_is_one_line_and_stays_intact(monkeypatch, fashion_mnist_root, good_checkpoint):
    """Windows: os.replace fails with PermissionError while another program holds the checkpoint open."""
    before = good_checkpoint.read_bytes()
    replaced = []

    def locked(source, target):
        replaced.append((Path(source), Path(target)))
        raise PermissionError(13, "Access is denied", str(target))

    monkeypatch.setattr(train_mnist.os, "replace", locked)
    code, out, err = run_main(
        "train_mnist", [*small_run(fashion_mnist_root, "--epochs", "2", "--limit-train", "500", "--resume")]
    )
    assert replaced == [
        (train_mnist.temporary_path(good_checkpoint.relative_to(Path.cwd())), good_checkpoint.relative_to(Path.cwd()))
    ]
    line = assert_one_line_error(
        subprocess.CompletedProcess([], code, out, err),
        f"epoch 2 is not saved: cannot write {Path('checkpoints') / 'lenet-fashion-mnist.pt'} (Access is denied",
        "close any program that has it open",
        "--resume",
    )
    assert code == 1 and "it holds the epoch before" in line
    assert good_checkpoint.read_bytes() == before  # the old checkpoint is intact...
    assert final_checkpoint(good_checkpoint)["epoch"] == 1
    assert not train_mnist.temporary_path(good_checkpoint).exists()  # ...and no half-done file is left
    assert sorted(p.name for p in good_checkpoint.parent.iterdir()) == [good_checkpoint.name]


class NoReadBack(torch.nn.Module):
    """A model whose parameters must not be touched: synchronize() has a real wait for this device."""

    def parameters(self, recurse=True):
        raise AssertionError("synchronize() read a value back instead of calling the back-end's synchronize()")


@pytest.mark.parametrize("device", [torch.device("xpu", 1), torch.device("cuda", 0)])
def test_synchronize_waits_through_the_backends_own_call(monkeypatch, device):
    calls = []
    # Stand-ins: this machine has no XPU or CUDA device to wait for.
    monkeypatch.setattr(torch.xpu, "synchronize", lambda d=None: calls.append(("xpu", d)))
    monkeypatch.setattr(torch.cuda, "synchronize", lambda d=None: calls.append(("cuda", d)))
    train_mnist.synchronize(device, NoReadBack())
    assert calls == [(device.type, device)]


def test_synchronize_on_directml_reads_a_value_back():
    """torch-directml has no synchronize(): the function reads a parameter back instead."""
    read = []

    class Model(torch.nn.Module):
        def parameters(self, recurse=True):
            read.append(True)
            return iter([torch.ones(2)])

    train_mnist.synchronize(torch.device("privateuseone", 0), Model())
    assert read == [True]


@pytest.mark.directml
def test_trains_on_directml(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "train_mnist.py", *small_run(fashion_mnist_root, "--epochs", "2", "--device", "dml"), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "device: privateuseone" in result.stdout
    history = final_checkpoint(tmp_path / "checkpoints" / "lenet-fashion-mnist.pt")["history"]
    assert history[-1]["accuracy"] >= 0.6
