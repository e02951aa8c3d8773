"""What every script of this guide does before and around its own work,
in one place, so that a problem ends in one line and never in a
traceback or in lost work. Keep it next to the other scripts; each one
starts with

    import script_guard

    script_guard.start("torch")  # before anything else imports torch

and ends with

    if __name__ == "__main__":
        script_guard.run(main)

It gives every script the same behaviour:

- Ctrl-C at any moment, also while torch imports (seconds on Windows),
  prints one line and exits with 130;
- a torch that does not load (not installed, a DLL that fails such as
  "[WinError 126] ... c10.dll", anything else) prints the doctor's
  diagnosis and the guide's section for it, and exits with 1;
- what the scripts print never ends the run: a console that cannot show
  a character (GBK, cp1252) gets \\uXXXX instead, and a closed pipe or a
  full disk behind stdout only loses the printing, not the work;
- an output file that cannot be written is found before the work, by
  opening the file itself (cannot_write).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import shutil
import signal
import sys
import threading
from pathlib import Path

__all__ = [
    "ArgumentParser",
    "cannot_write",
    "exit_status",
    "run",
    "say",
    "start",
]

INTERRUPTED = 130  # the exit status of a program stopped with Ctrl-C


def say(line: str) -> None:
    """Print one line on stderr, in ASCII: any console shows it."""
    text = line.encode("ascii", "backslashreplace").decode("ascii")
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a wrong command line in one ASCII line,
    "error: ...", with argparse's exit status 2.
    """

    def error(self, message: str):
        say(f"error: {message} (see --help)")
        raise SystemExit(2)


# --- Ctrl-C and torch, from the first line on --------------------------


def _interrupted_while_starting(signum, frame):
    say("error: interrupted (Ctrl-C) while the script was starting")
    # Nothing is done yet, and an exception raised here could be caught
    # inside torch's own import: leave at once.
    os._exit(INTERRUPTED)


def _why_not(name: str, error: BaseException) -> str:
    """The doctor's diagnosis of a failed import, as one error line."""
    message = f"{type(error).__name__}: {error}"
    try:
        # doctor.py holds the one table of import failures and their
        # sections of the guide; it imports only the standard library.
        from doctor import import_findings
    except Exception:  # doctor.py not saved next to this script
        first = (message.splitlines() or [""])[0]
        return f"error: import {name} fails ({first}): run doctor.py"
    finding = import_findings({"imported": False, "error": message})[0]
    line = finding.line().removeprefix(finding.status).strip()
    return "error: " + line.replace("import torch", f"import {name}", 1)


def _started_as_a_script() -> bool:
    """True for "python train_mnist.py", False for an import by your own
    code or a notebook, whose Ctrl-C stays theirs.
    """
    if threading.current_thread() is not threading.main_thread():
        return False
    program = getattr(sys.modules.get("__main__"), "__file__", None)
    here = Path(__file__).resolve().parent
    return program is not None and Path(program).resolve().parent == here


def start(*modules: str) -> None:
    """Make stdout and stderr safe, turn Ctrl-C during the start into one
    line, and import ``modules`` (such as "torch") or stop in one line.
    """
    _steady_consoles()
    if _started_as_a_script() and signal.getsignal(signal.SIGINT) is (
        signal.default_int_handler
    ):
        # run() gives Ctrl-C back to the script's own handling.
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    for name in modules:
        try:
            importlib.import_module(name)
        except KeyboardInterrupt:
            say("error: interrupted (Ctrl-C) while the script was starting")
            raise SystemExit(INTERRUPTED) from None
        # ImportError, an OSError from a DLL (WinError 126), a crash in
        # torch's own start: every form ends in the doctor's words.
        except Exception as error:
            say(_why_not(name, error))
            raise SystemExit(1) from None


# --- printing that cannot end the run ----------------------------------


def _steady_consoles() -> None:
    for stream in (sys.stdout, sys.stderr):
        # a console or a redirected file, not a StringIO or a test's capture
        if hasattr(stream, "reconfigure"):
            with contextlib.suppress(Exception):
                stream.reconfigure(errors="backslashreplace")


class _SteadyOutput:
    """stdout that stops printing, instead of stopping the run, when it
    cannot take more (a closed pipe, a full disk): ``lost`` says why.
    With ascii=True (stderr), every line in ASCII: any console shows it.
    """

    def __init__(self, stream, ascii: bool = False):
        self.stream = stream
        self.ascii = ascii
        self.lost: OSError | None = None

    def write(self, text: str) -> int:
        if self.ascii:
            text = text.encode("ascii", "backslashreplace").decode("ascii")
        if self.lost is None:
            try:
                self.stream.write(text)
            except OSError as error:
                self._stop(error)
        return len(text)

    def flush(self) -> None:
        if self.lost is None:
            try:
                self.stream.flush()
            except OSError as error:
                self._stop(error)

    def _stop(self, error: OSError) -> None:
        self.lost = error
        # Python flushes stdout again at exit: point it at nothing, so
        # that the exit does not print the same error as a traceback.
        with contextlib.suppress(Exception):
            nothing = os.open(os.devnull, os.O_WRONLY)
            os.dup2(nothing, self.stream.fileno())

    def __getattr__(self, name):
        return getattr(self.stream, name)


# --- outputs ------------------------------------------------------------


def cannot_write(path: Path, room: int = 0) -> str:
    """Why ``path`` cannot be written ("" when it can), found before the
    work: by opening the file itself for appending (a read-only or locked
    file, a missing or read-only folder) and by the free space of its
    drive (``room`` bytes at least). An existing file is left as it is.
    """
    path = Path(path)
    if path.name in ("", ".", "..") or path.is_dir():
        return "it is a folder: give a file name"
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
        if not existed:
            path.unlink()
        free = shutil.disk_usage(path.parent if path.parent.parts else ".")
    # no such folder, read-only, protected (Windows' Controlled folder
    # access), a file where a folder should be...
    except OSError as error:
        return error.strerror or str(error)
    if free.free < room:
        return os.strerror(errno.ENOSPC)
    return ""


# --- the run ------------------------------------------------------------


def exit_status(main, argv: list[str] | None = None) -> int:
    """Run ``main(argv)`` as the script's whole run and return its exit
    status: main's own, 2 for a wrong command line, 130 for Ctrl-C, 1 with
    one line for what main did not catch itself.
    """
    with contextlib.suppress(ValueError):  # not in the main thread
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _steady_consoles()
    output = sys.stdout = _SteadyOutput(sys.stdout)
    errors = sys.stderr = _SteadyOutput(sys.stderr, ascii=True)
    try:
        code = main() if argv is None else main(argv)
    except SystemExit as stop:  # argparse's exit 2, or a script's own
        code = stop.code
        if isinstance(code, str):
            say(code)
            code = 1
    except KeyboardInterrupt:
        say("error: interrupted (Ctrl-C)")
        code = INTERRUPTED
    except OSError as error:  # a file the script did not expect to fail
        where = f": {error.filename}" if error.filename else ""
        say(f"error: {error.strerror or error}{where}")
        code = 1
    finally:
        output.flush()
        sys.stdout, sys.stderr = output.stream, errors.stream
    if output.lost is not None and code == 0:
        reason = output.lost.strerror or output.lost
        say(
            f"error: the output could not be shown ({reason}); the work "
            "itself ran to its end"
        )
        code = 1
    return code or 0


def run(main) -> None:
    """The end of every script: ``script_guard.run(main)``."""
    raise SystemExit(exit_status(main, None))
