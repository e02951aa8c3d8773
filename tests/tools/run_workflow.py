"""Run site.yml's Linux jobs here, step by step as the workflow lists them, from nothing, as GitHub does.

    python tests/tools/run_workflow.py [--leg test|test-current ...] [--ref refs/heads/main] [--collect-only]
                                       [--environment ENV]

Each leg starts from nothing: a fresh clone of this checkout's HEAD in a temporary folder (uncommitted
changes are not in it, as they are not on GitHub; no site/, no .cache/ from earlier builds), and a fresh
venv of the Python the leg's setup-python step names (python3.12 on PATH, or pyenv's newest 3.12.x).
Each `run:` step runs as GitHub runs a bash step (``bash --noprofile --norc -eo pipefail FILE``) in the
clone, with the variables the runner sets (CI, GITHUB_ACTIONS, RUNNER_OS, RUNNER_TEMP, GITHUB_REF,
GITHUB_OUTPUT, GITHUB_WORKSPACE, ...), the workflow's, job's and step's ``env:`` with their ``${{ }}``
expressions filled in, and each step's ``if:`` evaluated. A ``uses:`` step is replaced by its local
equivalent:

* actions/checkout: the fresh clone;
* actions/setup-python: the fresh venv (pip's own download cache is kept, as setup-python's `cache: pip`
  keeps it); the hash-locked install step then installs the leg's lock for real (the `test` lock is
  about 5.6 GB). With --environment ENV, an environment installed from the same dependency group stands
  in for that install: the venv is made from ENV's Python and sees ENV's packages (and its Jupyter
  templates) through a .pth file, never writing them, and the install step is reported as stood in;
* actions/cache (Fashion-MNIST): a cache hit, restored from Debian's dataset-fashion-mnist; the fetch step
  then checks every file as on GitHub and downloads nothing;
* actions/upload-pages-artifact: a tarball of site/ in the run's temporary folder;
* `gh` (the Pages lookup on main): a stand-in that answers as GitHub does for a repository without Pages
  (HTTP 404), so the step's fallback runs.

--collect-only runs the test step's pytest with --collect-only (what tests/repo/test_workflow_legs.py does in CI);
without it the step runs the leg's tests for real. The deploy job needs GitHub and is listed, not run.
Linux only (bash steps, a Linux venv): on Windows it stops in one line. Exit status: 1 if a step failed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
DATA = Path("/usr/share/datasets/fashion-mnist")
REPOSITORY = "Owner/Repo"
GH_WITHOUT_PAGES = "#!/bin/sh\necho 'gh: Not Found (HTTP 404)' >&2\nexit 1\n"


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def legs(job: dict) -> list[dict]:
    """The job's matrix legs ({} for a job without a matrix)."""
    matrix = (job.get("strategy") or {}).get("matrix") or {}
    if "include" in matrix:
        return list(matrix["include"])
    keys = [k for k in matrix if k not in ("include", "exclude")]
    if not keys:
        return [{}]
    (key,) = keys  # the project's matrices have one axis
    return [{key: value} for value in matrix[key]]


def context(runner_os: str, matrix: dict, ref: str, event: str, temp: str, outputs: dict | None = None) -> dict:
    """The values ${{ }} expressions and `if:` read."""
    return {
        "matrix": matrix,
        "runner.os": runner_os,
        "runner.temp": temp,
        "github.ref": ref,
        "github.event_name": event,
        "github.repository": REPOSITORY,
        "github.server_url": "https://github.com",
        "github.token": "local-token",
        "github.event.repository.default_branch": "main",
        "github.event.repository.fork": False,
        "steps": outputs or {},
    }


def expand(text: str, values: dict) -> str:
    """Fill in ${{ name }} expressions: matrix.X, steps.ID.outputs.X and the names in ``values``."""

    def one(match: re.Match) -> str:
        name = match.group(1).strip()
        if name.startswith("matrix."):
            return str(values["matrix"].get(name.removeprefix("matrix."), ""))
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", name)
        if step:
            return values["steps"].get(step.group(1), {}).get(step.group(2), "")
        if name in values:
            return str(values[name])
        raise ValueError(f"cannot fill in ${{{{ {name} }}}}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def condition(expression: str | None, values: dict) -> bool:
    """An `if:` of ==, !=, !, &&, ||, () over github.*, matrix.* and quoted strings; absent means true."""
    if not expression:
        return True
    tokens = re.findall(r"[a-z_]+(?:\.[\w-]+)+|'[^']*'|==|!=|!|&&|\|\||\(|\)|\S+", expression)
    python = []
    for token in tokens:
        if token in ("==", "!=", "(", ")") or token.startswith("'"):
            python.append(token)
        elif token == "!":
            python.append("not")
        elif token in ("&&", "||"):
            python.append({"&&": "and", "||": "or"}[token])
        elif token.startswith("matrix."):
            python.append(repr(values["matrix"].get(token.removeprefix("matrix."), "")))
        elif token in values:
            python.append(repr(values[token]))
        else:
            raise ValueError(f"cannot evaluate {token!r} in {expression!r}")
    return bool(eval(" ".join(python), {"__builtins__": {}}))  # noqa: S307 - tokens checked above


def job_environment(
    workflow: dict,
    job: dict,
    leg: dict,
    runner_os: str,
    temp: str,
    ref: str = "refs/heads/feature",
    event: str = "push",
    workspace: Path = ROOT,
) -> dict[str, str]:
    """The variables a step of this job and leg sees on GitHub (before the step's own env:)."""
    values = context(runner_os, leg, ref, event, temp)
    env = {
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "RUNNER_OS": runner_os,
        "RUNNER_TEMP": temp,
        "GITHUB_REF": ref,
        "GITHUB_EVENT_NAME": event,
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_WORKSPACE": str(workspace),
    }
    for level in (workflow, job):
        env.update({k: expand(str(v), values) for k, v in (level.get("env") or {}).items()})
    return env


def find_python(version: str) -> str | None:
    """An interpreter of Python ``version`` ("3.12"): python3.12 on PATH if it runs, else pyenv's newest 3.12.x
    (pyenv's shim answers only for the versions it has selected)."""
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    pyenv = sorted(
        root.glob(f"versions/{version}.*/bin/python{version}"),
        key=lambda p: [int(n) for n in re.findall(r"\d+", p.parts[-3])],
        reverse=True,
    )
    for candidate in [shutil.which(f"python{version}"), *map(str, pyenv)]:
        if candidate and _python_version(candidate) == version:
            return candidate
    return None


def _python_version(python: str) -> str | None:
    result = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    )
    return result.stdout.strip() if result.returncode == 0 else None


def _setup_python(wanted: str, environment: Path | None, temp: Path, env: dict) -> str:
    """A fresh venv of the leg's Python, or of ``environment``'s, seeing its packages; returns the step's note."""
    venv = temp / "python"
    if environment is None:
        python = find_python(wanted)
        if python is None:
            raise RuntimeError(f"no Python {wanted} here (python{wanted} on PATH, or pyenv install {wanted})")
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        note = f"a fresh venv of Python {wanted} ({python})"
    else:
        python = str(environment_python(environment))
        have = _python_version(python)
        subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True)
        purelib = venv / "lib" / f"python{have}" / "site-packages"
        (purelib / "checkout-environment.pth").write_text(
            str(environment.resolve() / "lib" / f"python{have}" / "site-packages") + "\n", encoding="utf-8"
        )
        # nbconvert finds its templates under sys.prefix's share/jupyter, which is the new venv's (review m1)
        env["JUPYTER_PATH"] = str(environment.resolve() / "share" / "jupyter")
        note = f"a fresh venv of Python {have}, seeing {environment}" + (
            "" if have == wanted else f" (the leg asks for {wanted})"
        )
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(venv)
    return note


def environment_python(environment: Path) -> Path | None:
    """The interpreter of a venv or of an installed Python (setup-python's has bin/python3, maybe no bin/python)."""
    return next((p for p in (environment / "bin" / "python", environment / "bin" / "python3") if p.is_file()), None)


def fresh_clone(temp: Path) -> Path:
    """This checkout's HEAD, cloned: what actions/checkout gives the job (nothing built, nothing cached)."""
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    work = temp / "work"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(work)], check=True)
    subprocess.run(["git", "-C", str(work), "checkout", "-q", "--detach", head], check=True)
    return work


def _restore_cache(step: dict, values: dict) -> str:
    path = Path(expand(str(step["with"]["path"]), values))
    path.mkdir(parents=True, exist_ok=True)
    for gz in sorted(DATA.glob("*.gz")):
        shutil.copy(gz, path / gz.name)
    return f"cache hit: {len(list(path.glob('*.gz')))} files from {DATA}"


def _upload(step: dict, values: dict, temp: Path, work: Path) -> str:
    site = work / expand(str(step["with"]["path"]), values)
    tarball = temp / "github-pages.tar"
    with tarfile.open(tarball, "w") as tar:
        tar.add(site, arcname=".")
    return f"{tarball} ({tarball.stat().st_size // 1024} KB)"


def run_job(
    workflow: dict, name: str, leg: dict, ref: str, collect_only: bool, environment: Path | None = None
) -> bool:
    job = workflow["jobs"][name]
    with tempfile.TemporaryDirectory(prefix="runner-temp-") as folder:
        temp = Path(folder)
        work = fresh_clone(temp)
        env = {
            "PATH": os.environ["PATH"],
            "HOME": os.environ.get("HOME", folder),
            "LANG": "C.UTF-8",
            **job_environment(workflow, job, leg, "Linux", folder, ref, workspace=work),
        }
        (temp / "bin").mkdir()
        (temp / "bin" / "gh").write_text(GH_WITHOUT_PAGES, encoding="utf-8")
        (temp / "bin" / "gh").chmod(0o755)
        env["PATH"] = f"{temp / 'bin'}{os.pathsep}{env['PATH']}"
        outputs: dict[str, dict] = {}
        print(f"=== job {name} {leg} ({ref}) ===", flush=True)
        for number, step in enumerate(job.get("steps") or [], 1):
            values = context("Linux", leg, ref, "push", folder, outputs)
            title = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
            if not condition(step.get("if"), values):
                print(f"--- {number}. {title}: skipped (if: {step['if']})", flush=True)
                continue
            start = time.monotonic()
            uses = str(step.get("uses", ""))
            if uses:
                action = uses.split("@")[0]
                if action == "actions/checkout":
                    note = f"a fresh clone of HEAD in {work}"
                elif action == "actions/setup-python":
                    wanted = str((step.get("with") or {}).get("python-version", ""))
                    try:
                        note = _setup_python(wanted, environment, temp, env)
                    except RuntimeError as error:
                        print(f"--- {number}. {title}: {error}", flush=True)
                        return False
                elif action == "actions/cache":
                    note = _restore_cache(step, values)
                elif action == "actions/upload-pages-artifact":
                    note = _upload(step, values, temp, work)
                else:
                    print(f"--- {number}. {title}: no local equivalent for {action}", flush=True)
                    return False
                print(f"--- {number}. {title}: {note}", flush=True)
                continue
            script = expand(step["run"], values)
            if "--require-hashes" in script and environment is not None:
                print(f"--- {number}. {title}: stood in: {environment}, installed from the same group", flush=True)
                continue
            if collect_only and re.search(r"python -m pytest\b", script):
                script = re.sub(r"python -m pytest\b", "python -m pytest --collect-only -q", script)
            output = temp / f"output-{number}"
            output.write_text("", encoding="utf-8")
            step_env = {
                **env,
                **{k: expand(str(v), values) for k, v in (step.get("env") or {}).items()},
                "GITHUB_OUTPUT": str(output),
            }
            (temp / "step.sh").write_text(script, encoding="utf-8")
            print(f"--- {number}. {title}", flush=True)
            result = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(temp / "step.sh")], cwd=work, env=step_env
            )
            lines = output.read_text(encoding="utf-8").splitlines()
            if step.get("id"):
                outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
            print(f"--- {number}. {title}: exit {result.returncode} ({time.monotonic() - start:.0f} s)", flush=True)
            if result.returncode != 0:
                return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leg", action="append", help="the build job's matrix group (default: every leg)")
    parser.add_argument("--ref", default="refs/heads/feature", help="GITHUB_REF (refs/heads/main: the Pages steps)")
    parser.add_argument("--collect-only", action="store_true", help="the test step collects instead of running")
    parser.add_argument(
        "--environment",
        type=Path,
        help="an environment installed from the leg's group, standing in for its hash-locked install",
    )
    args = parser.parse_args(argv)
    if args.environment is not None and environment_python(args.environment) is None:
        raise SystemExit(f"run_workflow: --environment {args.environment}: no bin/python or bin/python3 there")
    if os.name == "nt":
        raise SystemExit("run_workflow: site.yml's jobs run on Linux (bash steps, a Linux venv): run this on Linux")
    workflow = load("site.yml")
    ok = True
    for leg in legs(workflow["jobs"]["build"]):
        if args.leg and leg.get("group") not in args.leg:
            continue
        ok = run_job(workflow, "build", leg, args.ref, args.collect_only, args.environment) and ok
    deploy = workflow["jobs"]["deploy"]
    print(
        f"=== job deploy: not run here (needs GitHub Pages); if: {deploy.get('if')} -> "
        f"{condition(deploy.get('if'), context('Linux', {}, args.ref, 'push', ''))}"
    )
    print("run_workflow: all steps passed" if ok else "run_workflow: a step failed")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
