"""The hash-locked installs in .github/locks/ agree with pyproject.toml, and the workflows use them.

pyproject.toml holds each version; a lock is uv's full resolution of one dependency group for one
platform, every file with its sha256 (regenerate: README, "When you change a version"). These tests
fail when the two disagree: a requirement of the group missing from the lock or locked at another
version, a package the lock says comes from the group that the group no longer names, a package
pinned in pyproject.toml locked at another version, or an entry without a hash.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS_DIR = ROOT / ".github" / "locks"
WORKFLOWS = ROOT / ".github" / "workflows"


_spec = importlib.util.spec_from_file_location("lock_script", LOCKS_DIR / "lock.py")
lock_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lock_script)

# The marker environment of each platform in lock.py (CPython, x86-64).
MARKERS = {
    "windows": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64"},
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "platform_machine": "x86_64"},
}
ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+?)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$")
HASH = re.compile(r"^\s+--hash=sha256:[0-9a-f]{64}\s*\\?$")
VIA = re.compile(r"^\s+#\s+(?:via\s+)?(?P<source>.+?)\s*$")


def groups(pyproject_text: str) -> dict:
    return tomllib.loads(pyproject_text)["dependency-groups"]


def group_requirements(all_groups: dict, name: str) -> list[Requirement]:
    result = []
    for entry in all_groups[name]:
        if isinstance(entry, dict):
            result.extend(group_requirements(all_groups, entry["include-group"]))
        else:
            result.append(Requirement(entry))
    return result


def parse_lock(text: str) -> dict[str, dict]:
    """name -> {version, hashes, sources} for every entry of a uv/pip-tools requirements file."""
    entries: dict[str, dict] = {}
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = ENTRY.match(line)
        if match:
            name = canonicalize_name(match["name"])
            assert name not in entries, f"line {number}: {name} is locked twice"
            current = entries[name] = {"version": match["version"], "hashes": 0, "sources": [], "line": number}
            continue
        assert current is not None, f"line {number}: {line!r} before the first entry"
        if HASH.match(line):
            current["hashes"] += 1
        elif via := VIA.match(line):
            if via["source"] != "via":  # "# via" alone opens a list of sources, one per line
                current["sources"].append(via["source"])
        else:
            raise AssertionError(f"line {number}: not a requirement, hash or annotation: {line!r}")
    return entries


def disagreements(pyproject_text: str, lock_text: str, group: str, platform: str, python: str) -> list[str]:
    """Every way in which ``lock_text`` contradicts ``group`` of ``pyproject_text`` on ``platform``."""
    all_groups = groups(pyproject_text)
    environment = {
        **MARKERS[platform],
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }
    lock = parse_lock(lock_text)
    problems = []
    wanted = {}
    for requirement in group_requirements(all_groups, group):
        if requirement.marker is None or requirement.marker.evaluate(environment):
            wanted[canonicalize_name(requirement.name)] = requirement
    for name, requirement in wanted.items():
        if name not in lock:
            problems.append(f"{requirement} is in the {group!r} group but not in the lock")
        elif lock[name]["version"] not in requirement.specifier:
            problems.append(f"{requirement} is in the {group!r} group but the lock has {name}=={lock[name]['version']}")
    # Everything pinned exactly anywhere in pyproject.toml is locked at that version, if it is locked;
    # a group listed in [tool.directml-guide] separate-groups (current torch beside the torch-directml
    # pins) and the groups that include it form their own world, checked only against their own locks.
    separate = set(tomllib.loads(pyproject_text).get("tool", {}).get("directml-guide", {}).get("separate-groups", []))

    def world(name: str) -> frozenset:
        found = {name} & separate
        for entry in all_groups[name]:
            if isinstance(entry, dict):
                found |= world(entry["include-group"])
        return frozenset(found)

    for name_in_group in all_groups:
        if world(name_in_group) != world(group):
            continue
        for requirement in group_requirements(all_groups, name_in_group):
            pins = [s.version for s in requirement.specifier if s.operator == "=="]
            name = canonicalize_name(requirement.name)
            if pins and name in lock and lock[name]["version"] != pins[0]:
                problems.append(
                    f"pyproject.toml pins {requirement.name}=={pins[0]} but the lock has {lock[name]['version']}"
                )
    direct = f"(pyproject.toml:{group})"
    for name, entry in lock.items():
        if entry["hashes"] == 0:
            problems.append(f"{name}=={entry['version']} has no --hash")
        if any(source.endswith(direct) for source in entry["sources"]) and name not in wanted:
            problems.append(f"the lock says {name} comes from the {group!r} group, which no longer names it")
    return sorted(set(problems))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


PYPROJECT = read(ROOT / "pyproject.toml")
LOCK_IDS = [f"{g}-{p}-py{v}" for g, p, v in lock_script.LOCKS]


# --- the real locks ------------------------------------------------------------------


def test_every_lock_file_is_listed_and_exists():
    listed = {lock_script.lock_path(*lock) for lock in lock_script.LOCKS}
    assert listed and all(path.is_file() for path in listed), sorted(map(str, listed))
    assert set(LOCKS_DIR.glob("*.txt")) == listed, "a lock file that lock.py no longer regenerates"


@pytest.mark.parametrize("lock", lock_script.LOCKS, ids=LOCK_IDS)
def test_lock_agrees_with_pyproject(lock):
    group, platform, python = lock
    text = read(lock_script.lock_path(*lock))
    assert disagreements(PYPROJECT, text, group, platform, python) == []
    # The header names the one command that regenerates it.
    assert (
        f"#    {lock_script.COMMAND} --group {group} --platform {platform} --python {python}" in text.splitlines()[:3]
    )
    # The Python it is locked for is one the project supports.
    assert f"{python}.0" in SpecifierSet(tomllib.loads(PYPROJECT)["project"]["requires-python"])


def test_windows_lock_has_torch_directml_and_linux_lock_has_not():
    windows = parse_lock(read(lock_script.lock_path("test", "windows", "3.12")))
    linux = parse_lock(read(lock_script.lock_path("test", "linux", "3.12")))
    assert "torch-directml" in windows and "torch-directml" not in linux
    assert "colorama" in windows  # pytest's Windows-only dependency: markers were evaluated for Windows
    assert not any(name.startswith("nvidia-") for name in windows)


def _install_steps():
    """(workflow file, step run text) for each step that runs `pip install`.

    A job whose matrix names a `lock` for each leg and installs `-r "$LOCK"` yields one line per leg,
    with the leg's lock written in.
    """
    for path in sorted(WORKFLOWS.glob("*.y*ml")):
        workflow = yaml.safe_load(read(path))
        for job in (workflow.get("jobs") or {}).values():
            legs = ((job.get("strategy") or {}).get("matrix") or {}).get("include") or [{}]
            for step in job.get("steps") or []:
                run = step.get("run", "")
                # A file that .github/locks/pick.py writes from a lock (the lock's hash-pinned build
                # backend, installed before the lock itself) stands for that lock.
                picked = {
                    m["file"]: m["lock"]
                    for m in re.finditer(r"pick\.py\s+(?P<lock>\S+)\s+[^>\n]*>\s*(?P<file>\S+)", run)
                }
                for line in run.splitlines():
                    for file, lock in picked.items():
                        if re.search(r"\bpip\s+install\b", line):
                            line = line.replace(file, lock)
                    if re.search(r"\bpip\s+install\b", line):
                        for leg in legs:
                            if "$LOCK" in line:
                                assert (job.get("env") or {}).get("LOCK") == "${{ matrix.lock }}", path.name
                                assert "lock" in leg, (path.name, leg)
                                yield path.name, line.strip().replace('"$LOCK"', leg["lock"])
                            else:
                                yield path.name, line.strip()


def test_workflows_install_only_from_a_lock_with_hash_checking():
    installs = list(_install_steps())
    assert {name for name, _ in installs} >= {"site.yml", "directml.yml"}
    for name, line in installs:
        assert "--require-hashes" in line, (name, line)
        match = re.search(r"-r\s+(\S+)", line)
        assert match, (name, line)
        path = ROOT / match[1].replace("\\", "/")
        assert path.parent == LOCKS_DIR and path.is_file(), (name, line)


def test_each_workflow_installs_the_lock_for_its_platform():
    expected = {
        "directml.yml": {lock_script.lock_path("test", "windows", "3.12")},
        "site.yml": {
            lock_script.lock_path("test", "linux", "3.12"),
            lock_script.lock_path("test-current", "linux", "3.12"),
        },
        # The check job builds the site from the docs lock; the vendor-index job needs the Windows lock.
        "freshness.yml": {
            lock_script.lock_path("docs", "linux", "3.12"),
            lock_script.lock_path("test", "windows", "3.12"),
        },
    }
    seen = {name: set() for name in expected}
    for name, line in _install_steps():
        if name in expected:
            seen[name].add(ROOT / re.search(r"-r\s+(\S+)", line)[1].replace("\\", "/"))
    assert seen == expected


def version_drift(lock_text: str, reference_text: str) -> list[str]:
    """Packages of ``lock_text`` that ``reference_text`` locks at another version (or does not lock)."""
    lock, reference = parse_lock(lock_text), parse_lock(reference_text)
    return sorted(
        f"{name}=={entry['version']}, the reference has {reference[name]['version'] if name in reference else 'none'}"
        for name, entry in lock.items()
        if reference.get(name, {}).get("version") != entry["version"]
    )


def test_the_docs_lock_builds_the_site_the_site_workflow_builds():
    """freshness.yml builds from the docs lock, site.yml from the test lock: the docs lock is a part of it,
    every package at the same version (after a version change, lock.py regenerates both)."""
    docs, test = (read(lock_script.lock_path(group, "linux", "3.12")) for group in ("docs", "test"))
    assert version_drift(docs, test) == []
    assert "mkdocs-material" in parse_lock(docs) and "torch" not in parse_lock(docs)


def test_pick_prints_the_locks_own_setuptools_with_its_hashes():
    lock = ROOT / ".github" / "locks" / "test-windows-py3.12.txt"
    result = subprocess.run(
        [sys.executable, str(ROOT / ".github" / "locks" / "pick.py"), str(lock), "setuptools"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"setuptools==[\d.]+ \\", lines[0]) and lines[0].split(" ")[0] in lock.read_text(
        encoding="utf-8"
    )
    assert len(lines) >= 2 and all(re.fullmatch(r"    --hash=sha256:[0-9a-f]{64}( \\)?", line) for line in lines[1:])
    missing = subprocess.run(
        [sys.executable, str(ROOT / ".github" / "locks" / "pick.py"), str(lock), "not-a-package"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 1 and missing.stderr.strip() == "error: not in the lock: not-a-package"
