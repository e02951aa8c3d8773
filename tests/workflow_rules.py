"""Reading the workflows in .github/workflows/ as GitHub reads them, for the CI tier's static checks
(tests/repo/): the files, their triggers, jobs, steps, matrix legs, and the variables a leg's steps see."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
GITHUB_DIR = ROOT / ".github"
WORKFLOWS_DIR = GITHUB_DIR / "workflows"
WORKFLOW_FILES = sorted(WORKFLOWS_DIR.glob("*.y*ml"))


def load(name: str | Path) -> dict:
    return yaml.safe_load((WORKFLOWS_DIR / name).read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    """The `on:` block (every workflow here writes it as a mapping). PyYAML (YAML 1.1) reads the key `on` as True."""
    return dict(workflow.get("on", workflow.get(True)))


def steps(job: dict) -> list[dict]:
    return job.get("steps") or []


def runs_on_labels(job: dict) -> set[str]:
    runs_on = job.get("runs-on")
    if isinstance(runs_on, dict):  # {group: ..., labels: [...]}
        runs_on = runs_on.get("labels") or []
    if isinstance(runs_on, str):
        runs_on = [runs_on]
    return {str(label).lower() for label in (runs_on or [])}


def legs(job: dict) -> list[dict]:
    """The job's matrix legs ({} for a job without a matrix); the project's matrices have one axis or include:."""
    matrix = (job.get("strategy") or {}).get("matrix") or {}
    if "include" in matrix:
        return list(matrix["include"])
    keys = [k for k in matrix if k not in ("include", "exclude")]
    if not keys:
        return [{}]
    (key,) = keys
    return [{key: value} for value in matrix[key]]


def with_matrix(text: str, leg: dict) -> str:
    """``text`` with its ${{ matrix.X }} filled in from the leg."""
    return re.sub(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}", lambda m: str(leg.get(m.group(1), "")), text)


def leg_env(workflow: dict, job: dict, leg: dict) -> dict[str, str]:
    """The workflow's and the job's env: as the leg's steps see them (before a step's own env:)."""
    env = {}
    for level in (workflow, job):
        env.update({k: with_matrix(str(v), leg) for k, v in (level.get("env") or {}).items()})
    return env


def expand(text: str, values: dict) -> str:
    """Fill in ${{ name }} expressions: steps.ID.outputs.X and the names in ``values``."""

    def one(match: re.Match) -> str:
        name = match.group(1).strip()
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", name)
        if step:
            return values["steps"].get(step.group(1), {}).get(step.group(2), "")
        if name in values:
            return str(values[name])
        raise ValueError(f"cannot fill in ${{{{ {name} }}}}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def condition(expression: str | None, values: dict) -> bool:
    """An `if:` of ==, !=, !, &&, ||, () over the names in ``values`` and quoted strings; absent means true."""
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
        elif token in values:
            python.append(repr(values[token]))
        else:
            raise ValueError(f"cannot evaluate {token!r} in {expression!r}")
    return bool(eval(" ".join(python), {"__builtins__": {}}))  # noqa: S307 - tokens checked above
