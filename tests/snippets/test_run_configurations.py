"""The shared PyCharm run configurations in snippets/.run/ are valid and point at real things.

PyCharm loads ``*.run.xml`` files from anywhere in a project in the ProjectRunConfigurationManager
format. The reader opens snippets/ as the project, so ``$PROJECT_DIR$`` is snippets/. Each Python
configuration must name an existing script, and its parameters must be accepted by that script's own
argparse parser: the script is run with them, stopped right after ``parse_args``. The pytest
configuration must name the test folder and arguments that pytest accepts.
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from guide_harness import ROOT, SNIPPETS, run_python

# PyCharm's files and argparse: a script stops right after parse_args, before any torch work, and the pytest
# configuration is only collected. The same under every torch: the pins leg runs these (pyproject.toml).
pytestmark = pytest.mark.any_torch

RUN_DIR = SNIPPETS / ".run"
CONFIGS = sorted(RUN_DIR.glob("*.run.xml"))
KNOWN_TYPES = {("PythonConfigurationType", "Python"), ("tests", "py.test")}

# Runs a script as __main__ with the given argv, but stops as soon as argparse has parsed it,
# so nothing is trained or downloaded: exit 0 and a JSON line of the parsed options, or argparse's
# own exit 2 and "error: ..." when an argument is invalid.
PARSE_ONLY = textwrap.dedent("""
    import argparse, json, runpy, sys
    original = argparse.ArgumentParser.parse_args
    def parse_then_stop(self, args=None, namespace=None):
        parsed = original(self, args, namespace)
        print("PARSED " + json.dumps(vars(parsed), default=str))
        raise SystemExit(0)
    argparse.ArgumentParser.parse_args = parse_then_stop
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, str(__import__("pathlib").Path(script).parent))
    runpy.run_path(script, run_name="__main__")
    print("the script finished without calling parse_args", file=sys.stderr)
    raise SystemExit(3)
""")


def configuration(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == "component" and root.get("name") == "ProjectRunConfigurationManager", path.name
    configs = root.findall("configuration")
    assert len(configs) == 1, f"{path.name}: one configuration per file"
    return configs[0]


def options(config: ET.Element) -> dict[str, str]:
    return {o.get("name"): o.get("value") for o in config.findall("option")}


def resolve_macros(value: str) -> Path:
    assert "$" not in value.replace("$PROJECT_DIR$", ""), f"unknown PyCharm macro in {value!r}"
    return Path(value.replace("$PROJECT_DIR$", str(SNIPPETS))).resolve()


def parse_only(script: Path, parameters: list[str], cwd: Path):
    return run_python(["-c", PARSE_ONLY, str(script), *parameters], cwd=cwd, timeout=120)


def test_there_are_configurations_for_verify_train_and_tests():
    names = {p.name for p in CONFIGS}
    assert {"verify_directml.run.xml", "train_mnist.run.xml", "tests.run.xml"} <= names, names


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_configuration_format(path):
    config = configuration(path)
    assert (config.get("type"), config.get("factoryName")) in KNOWN_TYPES, path.name
    assert config.get("name"), f"{path.name}: a configuration needs a name"
    opts = options(config)
    # An SDK_HOME would be a path on the author's machine; empty means "the project's interpreter".
    assert opts.get("SDK_HOME") == "" and opts.get("IS_MODULE_SDK") == "true", path.name
    assert resolve_macros(opts["WORKING_DIRECTORY"]).is_dir(), opts["WORKING_DIRECTORY"]
    # PyCharm names a project's module after its folder (the pages suggest dml-guide; readers pick anything): a
    # <module name="..."/> that is not the reader's folder leaves no interpreter, a red cross ("Module '...'
    # doesn't exist in project"); without one, IntelliJ's RunConfigurationModule takes the project's first module.
    assert config.findall("module") == [], f"{path.name}: a <module> ties it to one folder name"


PYTHON_CONFIGS = [p for p in CONFIGS if configuration(p).get("type") == "PythonConfigurationType"]


@pytest.mark.parametrize("path", PYTHON_CONFIGS, ids=lambda p: p.name)
def test_python_configuration_runs_an_existing_script_with_valid_parameters(path, tmp_path):
    opts = options(configuration(path))
    script = resolve_macros(opts["SCRIPT_NAME"])
    assert opts.get("MODULE_MODE") == "false", path.name
    assert script.is_file(), f"{path.name} runs {script.relative_to(ROOT)}, which does not exist"
    assert script.parent == SNIPPETS, f"{path.name}: the script must be in the reader's project folder"
    parameters = shlex.split(opts.get("PARAMETERS", ""))
    result = parse_only(script, parameters, tmp_path)
    assert result.returncode == 0, f"{script.name} rejects {parameters}:\n{result.stderr[-2000:]}"
    parsed = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("PARSED "))[7:])
    if script.name == "train_mnist.py":
        assert parsed["epochs"] == 1, parsed


def test_parameter_check_rejects_bad_parameters(tmp_path):
    """The check above can fail: a parameter the script does not know is refused by its parser."""
    result = parse_only(SNIPPETS / "verify_directml.py", ["--no-such-option"], tmp_path)
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-option" in result.stderr


def test_pytest_configuration_selects_the_directml_tests():
    """Read, not run (a collection of the whole suite took 45 s): the configuration runs pytest on tests/ from
    the repository's root, where pyproject.toml's settings (--strict-markers) apply; its -m expression names
    only registered markers (else every test is an error), and the directml marker it selects marks some test
    files, not all of them."""
    opts = options(configuration(RUN_DIR / "tests.run.xml"))
    target = resolve_macros(json.loads(opts["_new_target"]))
    assert json.loads(opts["_new_targetType"]) == "PATH" and target == ROOT / "tests", target
    assert resolve_macros(opts["WORKING_DIRECTORY"]) == ROOT
    arguments = shlex.split(json.loads(opts["_new_additionalArguments"]))
    assert len(arguments) == 2 and arguments[0] == "-m", arguments
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    registered = {re.match(r"[\w-]+", line).group(0) for line in settings["markers"]}
    named = set(re.findall(r"[A-Za-z_]\w*", arguments[1])) - {"and", "or", "not"}
    assert named and named <= registered, f"{named - registered} not registered in pyproject.toml"
    files = list(target.rglob("test_*.py"))
    marked = [p for p in files if re.search(r"pytest\.mark\.directml\b", p.read_text(encoding="utf-8"))]
    assert 0 < len(marked) < len(files), marked


def test_every_backend_has_a_verify_configuration_that_passes_there():
    """verify_directml.py without --allow-fallback exits 1 where torch-directml is missing (ROCm, XPU, CUDA,
    CPU environments): those readers need a configuration with the flag, and the training check beside it."""
    scripts = {}
    for path in PYTHON_CONFIGS:
        opts = options(configuration(path))
        scripts.setdefault(Path(opts["SCRIPT_NAME"]).name, []).append(shlex.split(opts["PARAMETERS"]))
    assert [] in scripts["verify_directml.py"], "DirectML: verify_directml.py as it is"
    assert ["--allow-fallback"] in scripts["verify_directml.py"], "the other back-ends: with --allow-fallback"
    assert "verify_training.py" in scripts, "the training check, for every back-end"
