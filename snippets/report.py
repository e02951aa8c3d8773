"""Make one report of your run of the guide, for its "Runs on real
hardware" page. Save it next to doctor.py, verify_training.py,
train_mnist.py and their neighbours, then:

    python report.py --download        # Fashion-MNIST into .\\data once
    python report.py --device dml:1    # another device
    python report.py --out D:\\my-run.json

It runs the doctor, the training check (the device against the CPU) and
two timed epochs of the tutorial's LeNet on Fashion-MNIST, on the device
choose_device() picks, and writes run-report.json: the GPU's name as
Windows gives it, its driver, its PCI ID with the group and target the
guide's device table gives it, the Windows build, the Python, torch and
back-end versions, the doctor's findings, the training check's
differences and result, seconds per epoch, test accuracy, the date and
the guide's version. Your user and host names are replaced with ***.
Read the file before you send it. It uploads nothing. Exit status: 0
when the report is written (a failed check is in it), 1 when it cannot
be made, 2 for a wrong command line.
"""

from __future__ import annotations

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch", "torchvision")

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import subprocess
from pathlib import Path

import torch

# Only names that these scripts export on purpose (their __all__).
import doctor
import verify_training as check
from choose_device import DeviceChoiceError, choose_device, gpu_backend
from lenet import LeNet
from mnist_data import (
    ArgumentParser,
    DatasetError,
    add_data_options,
    epoch_generator,
    load_dataset,
    positive_int,
)
from script_guard import cannot_write
from train_mnist import evaluate, timed_epoch

SCHEMA = "directml-guide-run-report"
SCHEMA_VERSION = 1
# The guide's version, the same in every copy of these scripts (and no
# matter which git repository you run them in). Raised with each release
# of the guide's scripts.
GUIDE_VERSION = "2026.12.4"
HERE = Path(__file__).resolve().parent
SCRIPTS = (
    "report.py",
    "doctor.py",
    "gpu_identity.py",
    "verify_training.py",
    "train_mnist.py",
    "choose_device.py",
    "mnist_data.py",
    "lenet.py",
)
BATCH_SIZE, LEARNING_RATE, SEED = 64, 1e-3, 0  # the tutorial's defaults


class ReportError(RuntimeError):
    """The report cannot be made; the message says why."""


def say(text: str) -> None:
    # Console-proof: a GBK or cp1252 console prints any ASCII.
    print(text.encode("ascii", "backslashreplace").decode(), flush=True)


# --- the machine ----------------------------------------------------------


def backend_of(device: torch.device) -> str:
    if device.type == "privateuseone":
        return "DirectML"
    if device.type == "cuda":
        return gpu_backend()  # ROCm builds answer through torch.cuda
    return {"xpu": "XPU", "cpu": "CPU"}.get(device.type, device.type)


def backend_version(backend: str) -> str | None:
    if backend == "DirectML":
        return doctor.installed("torch-directml")
    if backend == "ROCm":
        return torch.version.hip
    if backend == "CUDA":
        return torch.version.cuda
    if backend == "XPU":
        return getattr(torch.version, "xpu", None)
    return None


def cpu_name() -> str:
    if platform.system() == "Windows":
        name = doctor.registry_value(
            r"HARDWARE\DESCRIPTION\System\CentralProcessor\0",
            "ProcessorNameString",
        )
        return str(name or platform.processor()).strip()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or "unknown CPU"


def device_name(device: torch.device) -> str:
    """The name the back-end gives the device (DirectML's is Windows')."""
    index = device.index or 0
    if device.type == "privateuseone":
        import torch_directml

        return torch_directml.device_name(index)
    if device.type == "cuda":
        return torch.cuda.get_device_name(index)
    if device.type == "xpu":
        return torch.xpu.get_device_name(index)
    return cpu_name()


def nvidia_driver() -> str | None:
    """The NVIDIA driver's version, where nvidia-smi answers."""
    command = [
        "nvidia-smi",
        "--query-gpu=driver_version",
        "--format=csv,noheader",
    ]
    try:
        answer = subprocess.run(
            command, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = answer.stdout.split()
    return lines[0] if answer.returncode == 0 and lines else None


# The PCI vendor of each back-end's GPUs (DirectML's: any).
VENDOR_IDS = {"ROCm": "1002", "CUDA": "10de", "XPU": "8086"}


def identity_of(name: str, backend: str, gpus: list[dict]) -> dict:
    """The PCI ID, group and target of the GPU the run used: the PC's
    GPU of that name, else the one GPU of the back-end's vendor.
    """
    named = [
        g for g in gpus if name in (g["name"], (g["row"] or {}).get("name"))
    ]
    vendor = VENDOR_IDS.get(backend)
    ours = [g for g in gpus if g["ids"] and g["ids"][0] == vendor]
    found = named or (ours if len(ours) == 1 else [])
    if backend == "CPU" or not found or not found[0]["ids"]:
        return dict.fromkeys(("pci_id", "pci_revision", "group", "target"))
    vendor_id, device_id, revision = found[0]["ids"]
    row = found[0]["row"] or {}
    return {
        "pci_id": f"{vendor_id}:{device_id}",
        "pci_revision": revision,
        "group": row.get("group"),
        "target": row.get("target"),
    }


def gpu_of(device: torch.device, backend: str) -> dict:
    name = device_name(device)
    on_windows = platform.system() == "Windows"
    gpus, _ = doctor.machine_gpus(on_windows)
    adapters = []
    if on_windows:
        adapters = [
            {"name": a["name"], "driver": a["driver"]} for a in gpus
        ]
    drivers = [a["driver"] for a in adapters if a["name"] == name]
    if drivers:
        driver = drivers[0]
    else:
        driver = nvidia_driver() if backend == "CUDA" else None
    return {
        "name": name,
        "device": str(device),
        "driver": driver,
        **identity_of(name, backend, gpus),
        "windows_adapters": adapters,
    }


def system_of(backend: str) -> dict:
    on_windows = platform.system() == "Windows"
    return {
        "os": f"{platform.system()} {platform.release()}",
        "windows_build": sys.getwindowsversion().build
        if on_windows
        else None,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "torchvision": doctor.installed("torchvision"),
        "backend": backend,
        "backend_version": backend_version(backend),
    }


def guide_version() -> dict:
    """The guide's version and a short hash of each script: which scripts
    made the report, even edited ones.
    """
    scripts = {}
    for name in SCRIPTS:
        path = HERE / name
        if path.exists():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            scripts[name] = digest[:12]
    return {"version": GUIDE_VERSION, "scripts": scripts}


# --- the three runs -------------------------------------------------------


def doctor_report() -> dict:
    print("1/3 the doctor", flush=True)
    findings = doctor.diagnose()
    for finding in findings:
        if finding.status != "ok":
            print("   ", finding.line())
    # The names are replaced later, in redacted(), once the paths are
    # relative: a folder named after the user would match no more.
    return json.loads(doctor.report(findings, []))


def training_check(device: torch.device, steps: int) -> dict:
    print(f"2/3 the training check, {steps} steps", flush=True)
    result = {
        "passed": False,
        "steps": steps,
        "tolerance": check.TOLERANCE,
        "loss_difference": None,
        "weight_difference": None,
        "bf16_difference": None,
        "reason": "",
    }
    try:
        differences = check.verify(device, steps)
        result.update(
            passed=True,
            loss_difference=differences.loss,
            weight_difference=differences.weights,
            bf16_difference=differences.bf16,
        )
    except check.TrainingCheckError as error:
        result["reason"] = str(error)
    except RuntimeError as error:
        first = (str(error).splitlines() or [repr(error)])[0]
        result["reason"] = f"training on {device} failed: {first}"
    say(f"    {'passed' if result['passed'] else result['reason']}")
    return result


def timed_run(device: torch.device, data, args) -> dict:
    print(f"3/3 {args.epochs} timed epochs on {args.dataset}", flush=True)
    train_x, train_y, test_x, test_y = data
    torch.manual_seed(SEED)
    model = LeNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    train_x, train_y = train_x.to(device), train_y.to(device)
    test_x, test_y = test_x.to(device), test_y.to(device)
    epochs = []
    for epoch in range(1, args.epochs + 1):
        generator = epoch_generator(SEED, epoch)
        loss, seconds = timed_epoch(
            model, optimizer, train_x, train_y, BATCH_SIZE, generator
        )
        accuracy = evaluate(model, test_x, test_y)
        epochs.append(
            {
                "epoch": epoch,
                "seconds": round(seconds, 3),
                "loss": round(loss, 5),
                "accuracy": accuracy,
            }
        )
        print(
            f"    epoch {epoch}: {seconds:.1f} s, accuracy {accuracy:.4f}"
        )
    return {
        "dataset": args.dataset,
        "train_images": len(train_x),
        "batch_size": BATCH_SIZE,
        "epochs": epochs,
        # The last epoch: the first also pays for the device's warm-up.
        "seconds_per_epoch": epochs[-1]["seconds"],
        "accuracy": epochs[-1]["accuracy"],
    }


# --- the report -----------------------------------------------------------


def this_pc() -> tuple[Path, Path, list[Path]]:
    """The folders a report can name: the scripts folder, Python's own
    folder, and the other paths the doctor writes (this Python, its
    environment, conda's, the current and the home folder).
    """
    others = [sys.executable, sys.prefix, Path.cwd(), Path.home()]
    if os.environ.get("CONDA_PREFIX"):
        others.append(os.environ["CONDA_PREFIX"])
    return HERE, Path(sys.base_prefix), [Path(p) for p in others]


def forms(folder: Path) -> list[str]:
    """How ``folder`` can be written: with its own separators and with /,
    longest first. None for a drive's root: every path would match."""
    if str(folder) == folder.anchor:
        return []
    return sorted({str(folder), folder.as_posix()}, key=len, reverse=True)


def last_parts(path: str) -> str:
    """``...`` and the last two parts of ``path``, with its separator."""
    sep = "\\" if "\\" in path else "/"
    parts = [p for p in re.split(r"[\\/]", path) if p and p[-1] != ":"]
    return sep.join(["...", *parts[-2:]])


def relative(
    text: str, scripts: Path, python_home: Path, others: list[Path]
) -> str:
    """``text`` with the scripts folder written as ``.`` (what is inside
    it stays), Python's own folder as %PYTHONHOME%, and every other path
    of this PC shortened to ``...`` and its last two parts
    (...\\Scripts\\python.exe): a report holds no absolute path. Any
    pathlib path works, Windows' form on any OS too. It runs before the
    names are replaced: afterwards no folder would match any more.
    """
    end = r"(?![^\\/\s\"'(),;])"  # the folder's name ends here
    for form in forms(scripts):
        text = re.sub(re.escape(form) + end, ".", text, flags=re.I)
    for form in forms(python_home):
        text = re.sub(
            re.escape(form) + end, "%PYTHONHOME%", text, flags=re.I
        )
    rest = r"(?:[\\/][^\\/\s\"'(),;]+)*"  # the path goes on below it
    longest = sorted(others, key=lambda f: len(str(f)), reverse=True)
    for form in [form for folder in longest for form in forms(folder)]:
        text = re.sub(
            re.escape(form) + end + rest,
            lambda found: last_parts(found.group(0)),
            text,
            flags=re.I,
        )
    return text


def redacted(value, names: list[str], places=None):
    """Every string in the report with its paths made relative first
    (relative(); ``places`` is this_pc() unless given), then the user's
    and host's names replaced by ***, as the doctor's --json does.
    """
    if places is None:
        places = this_pc()
    if isinstance(value, str):
        return doctor.redact(relative(value, *places), names)
    if isinstance(value, dict):
        return {
            key: redacted(item, names, places)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redacted(item, names, places) for item in value]
    return value


def make_report(args) -> dict:
    try:
        device, reason = choose_device(args.device)
        # First, so that missing data stops it before minutes of work.
        data = load_dataset(
            args.dataset, args.data_dir, args.download, args.limit_train
        )
    except (DeviceChoiceError, DatasetError) as error:
        raise ReportError(str(error)) from None
    say(f"device: {device}  ({reason})")
    backend = backend_of(device)
    report = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "date": datetime.datetime.now(datetime.timezone.utc)
        .date()
        .isoformat(),
        "guide": guide_version(),
        "system": system_of(backend),
        "gpu": gpu_of(device, backend),
        "doctor": doctor_report(),
        "training_check": training_check(device, args.steps),
    }
    try:
        report["timed_run"] = timed_run(device, data, args)
    except RuntimeError as error:
        first = (str(error).splitlines() or [repr(error)])[0]
        raise ReportError(f"training on {device} failed: {first}") from None
    return redacted(report, doctor.private_names(dict(os.environ)))


def parse_args(argv):
    parser = ArgumentParser(
        description="Run the doctor, the training check and two timed "
        "epochs, and write one report to send to the guide."
    )
    add_data_options(parser)
    parser.set_defaults(dataset="fashion-mnist")
    parser.add_argument("--device", help="as choose_device() takes it")
    parser.add_argument(
        "--epochs", type=positive_int, default=2, help="timed epochs (2)"
    )
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=300,
        help="training check steps (300)",
    )
    # For the tests: a part of the set is quicker, and the guide's
    # validator refuses it (not comparable with a full run).
    parser.add_argument(
        "--limit-train", type=positive_int, help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("run-report.json"),
        help="where to write the report (run-report.json)",
    )
    args = parser.parse_args(argv)
    if args.steps < 10:
        parser.error(f"argument --steps: {args.steps} must be 10 or more")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # before minutes of work: a folder, no folder, read-only...
    if problem := cannot_write(args.out, room=1 << 20):
        print(
            f"error: cannot write {args.out} ({problem})", file=sys.stderr
        )
        return 1
    try:
        report = make_report(args)
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "error: interrupted (Ctrl-C): no report written",
            file=sys.stderr,
        )
        return 130
    text = json.dumps(report, indent=1, ensure_ascii=True) + "\n"
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as error:
        # Minutes of work: never lost. The report goes to the console,
        # to copy from there.
        print(text)
        print(
            f"error: cannot write {args.out} ({error.strerror or error}): "
            "the report is printed above instead; copy it from there",
            file=sys.stderr,
        )
        return 1
    check_result = (
        "passed" if report["training_check"]["passed"] else ("FAILED")
    )
    timed = report["timed_run"]
    say(
        f"{report['gpu']['name']} ({report['system']['backend']}): training"
        f" check {check_result}, {timed['seconds_per_epoch']:.1f} s/epoch,"
        f" accuracy {timed['accuracy']:.4f}"
    )
    print(
        f"report written to {args.out} (user and host names removed): "
        "read it, then paste it into the guide's run-report issue form"
    )
    return 0


if __name__ == "__main__":
    script_guard.run(main)
