"""A Python that has imported torch once, forked for each script a test runs (Linux only).

Most of a script test's time is `import torch` (1 to 2 s here); the script's own work takes a tenth of that.
So on Linux, guide_harness.run_python hands a script to this server, which imported torch and torchvision at
its start and forks a child for each run: the child sets the run's argv, folder, environment, sys.path and
console encoding as a fresh `python script.py` has them, runs the script as __main__, and exits with the code
Python would. tests/repo/test_warm_python.py runs every snippet and a set of failures both ways and
asserts the same exit code, stdout and stderr.

A run whose environment differs in a variable outside ENVIRONMENT (one that Python, torch or OpenMP may read
when they start, such as OMP_NUM_THREADS) goes to a server started with that environment. A run goes to a
fresh process instead (the server answers "fresh") when a fork could not be the same:
- a folder on the run's sys.path that holds a module the server has already imported (a stand-in torch.py);
- anything but a script path as the first argument (-c, -m, interpreter options).
Windows and macOS always run fresh processes, and so does any run with GUIDE_FRESH_PYTHON=1.
"""

from __future__ import annotations

import atexit
import builtins
import importlib.machinery
import io
import json
import locale
import os
import select
import signal
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

# What a child may set differently from the server: read by the scripts while they run, never at start-up
# (HOME would move the user site-packages, which a virtual environment leaves off sys.path).
ENVIRONMENT = {
    "PYTHONIOENCODING",
    "PYTHONPATH",
    "TORCH_DEVICE",
    "CONDA_PREFIX",
    "HOME",
    "USERPROFILE",
    "PYTEST_CURRENT_TEST",  # pytest sets it anew for each test
}
PRELOAD = ("torch", "torchvision")


def usable() -> bool:
    return sys.platform == "linux" and os.environ.get("GUIDE_FRESH_PYTHON") != "1"


# ---- the client, in the test's process ----


class Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=Path(__file__).parent,
            bufsize=0,
        )
        self.pending = b""  # read from the server, not yet a whole line
        atexit.register(self.stop)

    def stop(self) -> None:
        self.process.kill()
        self.process.communicate()

    def answer(self, timeout: float | None) -> str | None:
        """The server's next line, or None after ``timeout`` seconds. Read by hand: a buffered reader may
        hold the next line already, where select() on the pipe would wait for it forever."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.process.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError(f"the warm Python ended (exit {self.process.wait()})")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def run(self, args: list[str], cwd: Path, env: dict[str, str], timeout: float):
        """A CompletedProcess, or None where only a fresh process can run it."""
        folder = Path(os.environ.get("TMPDIR", "/tmp"))
        out, err = (folder / f"warm-{os.getpid()}-{id(self)}.{n}" for n in ("out", "err"))
        request = {"args": args, "cwd": str(cwd), "env": env, "stdout": str(out), "stderr": str(err)}
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        first = self.answer(None)
        if first == "fresh":
            return None
        pid = int(first.removeprefix("pid "))
        last = self.answer(timeout)
        if last is None:
            os.kill(pid, signal.SIGKILL)
            self.answer(None)
        # Decoded as subprocess.run(text=True) decodes a fresh process's output.
        stdout, stderr = (p.read_text(encoding=locale.getpreferredencoding(False)) for p in (out, err))
        out.unlink()
        err.unlink()
        command = [sys.executable, *args]
        if last is None:
            raise subprocess.TimeoutExpired(command, timeout, stdout, stderr)
        return subprocess.CompletedProcess(command, int(last.removeprefix("exit ")), stdout, stderr)


# One server for each environment its Python starts with (what is left of a run's environment without
# ENVIRONMENT's variables): a test that sets OMP_NUM_THREADS, or a library that sets a variable in the test's
# process, gets a server started with it, as a fresh Python would be. The oldest goes past MAX_SERVERS.
_servers: dict[frozenset, Server] = {}
_lock = threading.Lock()
MAX_SERVERS = 3


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float):
    """Run ``python *args`` in a fork of the warm server; None when it must be a fresh process."""
    if not usable() or not args or args[0].startswith("-") or not args[0].endswith(".py"):
        return None
    base = frozenset((k, v) for k, v in env.items() if k not in ENVIRONMENT)
    with _lock:
        server = _servers.get(base)
        if server is None or server.process.poll() is not None:
            if len(_servers) >= MAX_SERVERS:
                _servers.pop(next(iter(_servers))).stop()
            server = _servers[base] = Server(dict(base))
        return server.run(args, cwd, env, timeout)


# ---- the server, a process of its own ----


def fresh_needed(request: dict, top_modules: set[str]) -> bool:
    env = request["env"]
    keys = (set(env) | set(os.environ)) - ENVIRONMENT
    if any(env.get(k) != os.environ.get(k) for k in keys):
        return True
    if not Path(request["cwd"], request["args"][0]).is_file():
        return True  # Python's own "can't open file" line
    for folder in search_path(request):
        try:
            names = {name.split(".")[0] for name in os.listdir(folder)}
        except OSError:
            continue
        if names & top_modules:
            return True
    return False


def search_path(request: dict) -> list[str]:
    """The script's folder (unless PYTHONSAFEPATH) and PYTHONPATH's, which `python script.py` puts first."""
    script = Path(request["cwd"], request["args"][0]).resolve()
    extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    return [*([] if sys.flags.safe_path else [str(script.parent)]), *extra]


def console(fd: int, env: dict[str, str], default: tuple[str, str], stderr: bool = False) -> io.TextIOWrapper:
    """A standard stream as Python makes it: PYTHONIOENCODING's encoding and error handler ("strict" with an
    encoding alone; stderr keeps backslashreplace), else this server's own, which its start-up environment
    (locale, UTF-8 mode) chose."""
    encoding, _, errors = env.get("PYTHONIOENCODING", "").partition(":")
    errors = errors or ("strict" if encoding else "")
    return io.TextIOWrapper(
        io.FileIO(fd, "w", closefd=False),
        encoding=encoding or default[0],
        errors="backslashreplace" if stderr else errors or default[1],
        write_through=True,  # PYTHONUNBUFFERED=1, as clean_env sets for every run
    )


def child(request: dict) -> None:
    """Become the run's `python script.py` and never return."""
    env, script = request["env"], request["args"][0]
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(env)
    written = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    for fd, name, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, request["stdout"], written),
        (2, request["stderr"], written),
    ):
        opened = os.open(name, flags)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
    sys.stdout = sys.__stdout__ = console(1, env, STDOUT)
    sys.stderr = sys.__stderr__ = console(2, env, STDERR, stderr=True)
    sys.argv = list(request["args"])
    sys.path[:] = [*search_path(request), *SITE_PATH]
    code = 0
    try:
        run_as_main(os.path.abspath(script))
    except SystemExit as stop:
        code = exit_code(stop.code)
    except BaseException as error:  # noqa: BLE001 - printed as Python prints an uncaught exception
        tb = error.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != os.path.abspath(script):
            tb = tb.tb_next  # runpy's and this file's frames: a fresh Python's traceback starts at the script
        # None for a SyntaxError, and Python prints no "Traceback" line for it either
        sys.excepthook(type(error), error.with_traceback(tb), tb)
        code = 1
        if isinstance(error, KeyboardInterrupt):
            code = -signal.SIGINT
    threading._shutdown()  # noqa: SLF001 - Python waits for non-daemon threads before it exits
    atexit._run_exitfuncs()  # noqa: SLF001
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            code = 120  # what Python exits with when flushing its console fails at exit
    if code == -signal.SIGINT:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)


def run_as_main(path: str) -> None:
    """The script as the module __main__, with what `python script.py` gives it (__file__ absolute since 3.9)."""
    main = types.ModuleType("__main__")
    loader = importlib.machinery.SourceFileLoader("__main__", path)
    main.__dict__.update(__file__=path, __loader__=loader, __spec__=None, __cached__=None, __builtins__=builtins)
    sys.modules["__main__"] = main
    with open(path, "rb") as source:
        code = compile(source.read(), path, "exec")
    exec(code, main.__dict__)  # noqa: S102


def exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def serve() -> None:
    for name in PRELOAD:
        __import__(name)
    top_modules = {name.split(".")[0] for name in sys.modules}
    for line in sys.stdin:
        request = json.loads(line)
        if fresh_needed(request, top_modules):
            print("fresh", flush=True)
            continue
        pid = os.fork()
        if pid == 0:
            child(request)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)


if __name__ == "__main__":
    SITE_PATH = sys.path[0 if sys.flags.safe_path else 1 :]  # without this file's folder, which no script sees
    STDOUT, STDERR = ((stream.encoding, stream.errors) for stream in (sys.stdout, sys.stderr))
    serve()
