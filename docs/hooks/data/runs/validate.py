"""Validate a reader's run report (snippets/report.py) from a run-report issue, without running anything from it.

    python docs/hooks/data/runs/validate.py --event EVENT.json --comment comment.md [--proposal DIR]
    python docs/hooks/data/runs/validate.py --file report.json          # one report file (the site's data)

The workflow .github/workflows/run-report.yml runs it; it lives beside the schemas it applies (schema-N.json).
The issue's body is read from GitHub's event file (``$GITHUB_EVENT_PATH``), never from a ``${{ }}``
expression. The report is the first ```json block under the form's heading "### The report", in the body as
GitHub shows it (HTML comments taken out), and the form's consent box must be ticked. The report must be at
most MAX_REPORT bytes and MAX_DEPTH levels deep, parse as JSON without NaN or Infinity, and pass schema-N.json
for its ``schema_version`` (an integer only a JSON integer: 26100.0 is not one). Then rules, each over every
string of the report (keys too):

* characters, by allow-list: printable ASCII, and in the fields that can hold the reader's language, letters
  of named Unicode scripts (SCRIPT_LETTERS, FIELD_SCRIPTS: Latin, Greek, Cyrillic, Han, kana, Hangul) that are
  their own NFKC form; then no word that mixes Latin, Cyrillic or Greek letters or spells a Latin-looking
  word in Cyrillic or Greek letters ("Н200");
* markup: no tag, comment, entity or script URL;
* privacy, read through JSON and URL escapes (``\\u5f20``, ``%3A``): a path is relative to the scripts
  folder, or cut to ``...`` and its last two parts, or under %PYTHONHOME% (what report.py writes): no drive,
  drive-relative, root-relative, UNC, POSIX root or home path, no other environment variable, never two
  levels up; no 8.3 short name (ZHANGS~1), SID, network address, generated host name (DESKTOP-A1B2C3D,
  ZHANGSAN-PC) or user@host; a link only to a host that the scripts themselves write (snippets/*.py); no ***
  glued to a word (a redaction inside a word, "***nux");
* plausibility: the summary agrees with the epochs, the check's result with its numbers and with
  verify_training.py's own tolerance; the batch size and guide version report.py writes; the back-end with
  the device, the OS and the GPU's vendor; the back-end, OS, Python and torch against one table of what exists
  (what_exists(): pyproject.toml's pins, guide.gpus.BACKENDS, Windows' first builds); every epoch no faster
  than any GPU of its class can run one (TIMING_FLOOR) and an accuracy no LeNet reaches (ACCURACY_CEILING); a
  real day since schema 1 existed and since its guide version.

Every line it prints is printable ASCII (keys and values escaped), so no report text can start a workflow
command in the step's log; the workflow also stops commands around it.

Every GPU name is looked up through one function (device_entries: match.js on the device table and gpus.yml). A GPU
or adapter that the table does not know, or knows only as a vendor's generic entry, is flagged for the
maintainer, never a reason to refuse.

Each problem is one line with the field it is in. ``--comment`` writes the comment for the issue;
``--proposal DIR`` writes a valid report to DIR/issue-N.json, as report.py writes it (json.dumps of the
parsed report, indent 1, ASCII), for the workflow's pull request. With $GITHUB_OUTPUT
set it writes ``valid=true|false`` and ``issue=N`` there. Exit status: 0 valid, 1 invalid, 2 for a
wrong command line or an unreadable event file, 3 for an error inside the validator (one line; the
workflow tells the reporter that the check, not the report, failed).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import functools
import json
import math
import os
import re
import sys
import unicodedata
import urllib.parse
from pathlib import Path

try:
    import jsonschema
except ImportError as missing:  # main() says it in one line, as any error of the validator's own
    jsonschema, MISSING = None, missing
else:
    MISSING = None

ROOT = Path(__file__).resolve().parents[4]
# guide (docs/hooks/guide/): the one table of GPUs, and the page model that reads the form's fence.
sys.path.insert(0, str(ROOT / "docs" / "hooks"))
RUNS = Path(__file__).resolve().parent
SCRIPTS = ROOT / "snippets"
SCHEMA_VERSIONS = {1: RUNS / "schema-1.json"}
MAX_EVENT = 1_000_000  # GitHub caps an issue body at 65,536 characters
MAX_REPORT = 48_000  # bytes: a real report is about 8 KB
# The proposal in base64 is one environment variable of the propose step, which Linux caps at 128 KiB
# (MAX_ARG_STRLEN): a report of non-ASCII text grows 2 to 6 times as ASCII JSON, then by 4/3.
MAX_PROPOSAL = 120_000
MAX_DEPTH = 8  # brackets: a report nests 4 deep (report.doctor.findings[0])
FULL_TRAINING_SET = 60_000  # MNIST's and Fashion-MNIST's training images
FIRST_DAY = datetime.date(2026, 12, 1)  # schema 1 and report.py's first day (git log of schema-1.json)
EXIT_VALID, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

# The device each back-end trains on (ROCm's torch names its GPUs cuda), and the vendor its GPU is from.
DEVICE_TYPE = {"DirectML": "privateuseone", "CUDA": "cuda", "ROCm": "cuda", "XPU": "xpu", "CPU": "cpu"}
VENDOR = {"CUDA": "nvidia", "ROCm": "amd", "XPU": "intel"}
# Seconds per epoch of 60,000 images (train_mnist.py's LeNet, batch 64) that no device of a class beats: half
# the fastest run measured of the kind. A GPU: the H200, 2.3 s (seed-h200-cuda-2026-12-01.json; again 2.3 s
# on 2026-12-04, torch 2.11.0+cu130). A CPU: 3.2 s and 3.4 s on a 16-core Xeon server (the same machine and
# day, `train_mnist.py --device cpu --epochs 2` on random pictures of the set's size: the time does not depend
# on them). An integrated GPU or the software adapter (DirectML on the CPU) has no run yet: the CPU's floor.
TIMING_FLOOR = {"dedicated": 1.0, "integrated": 1.5, "software": 1.5, "cpu": 1.5}
# The highest test accuracy a LeNet run can report, by data set, well above what LeNet reaches (about 0.99 on
# MNIST; the seeds' 0.87 on Fashion-MNIST after 2 epochs); 1.0, every test picture right, is no real run.
ACCURACY_CEILING = {"mnist": 0.998, "fashion-mnist": 0.96}

# Markup in a string: a tag, a comment, an entity, or a script URL. Reports hold plain text only.
MARKUP = re.compile(r"<\s*[A-Za-z!/?]|&#?\w+;|javascript\s*:|\bon[a-z]+\s*=", re.IGNORECASE)
# The characters a report's strings may hold, by allow-list: printable ASCII (U+0020 the only space), and
# letters of these named Unicode scripts, each as the code points of its letters that the languages of the
# guide's readers use (a folder name inside the project, a Windows adapter name in Chinese or Japanese).
# Only letters (LETTER_CATEGORIES) are taken from them: no mark (Mn, Me), no digit but ASCII's, no symbol.
SCRIPT_LETTERS = {
    "Latin": ((0x00C0, 0x00FF), (0x0100, 0x017F), (0x0218, 0x021B)),  # Latin-1 letters, Extended-A, Romanian
    "Greek": ((0x0386, 0x03CE),),
    "Cyrillic": ((0x0400, 0x045F), (0x0490, 0x0491)),
    "Han": ((0x3400, 0x4DBF), (0x4E00, 0x9FFF)),
    "Hiragana": ((0x3041, 0x3096),),
    "Katakana": ((0x30A1, 0x30FA), (0x30FC, 0x30FC)),
    "Hangul": ((0xAC00, 0xD7A3),),
}
LETTER_CATEGORIES = {"Lu", "Ll", "Lo", "Lm"}
# The scripts each field may hold beyond ASCII: names that Windows gives in the reader's language (adapters,
# CPUs) in East Asian scripts only; versions, OS, device, dates, keys: ASCII; free text: every script above.
FIELD_SCRIPTS = {
    "gpu.name": {"Han", "Hiragana", "Katakana", "Hangul"},
    "gpu.windows_adapters.name": {"Han", "Hiragana", "Katakana", "Hangul"},
    "doctor.findings.text": set(SCRIPT_LETTERS),
    "doctor.findings.fix": set(SCRIPT_LETTERS),
    "training_check.reason": set(SCRIPT_LETTERS),
}
# Cyrillic and Greek letters drawn like Latin ones: a word of only these (and digits) reads as Latin.
LATIN_LOOKING = set("АВЕЅІЈКМНОРСТХУаеіјорсхуѕԁԛԝӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοικνρτυχ")
SCRIPTS_SEEN = ("LATIN", "CYRILLIC", "GREEK")

# Where a personal name sits, by structure: the validator cannot know the reader's names.
PRIVACY = (
    (
        re.compile(r"(?<![A-Za-z0-9])[A-Za-z]:[\\/]"),
        "an absolute path ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (
        re.compile(r"(?<![\w.\\])\\\\+[\w?.$-]"),
        "a network or device path ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (
        # A path from the root of a drive without its letter (\\Users\\x), or from the file system's root
        # (/home/x, //host/share, /***/x): anything but a word, a dot or a path before its first separator.
        re.compile(r"(?<![\w.%~\\/*])(?:/(?=[\w.~$%*/-])|\\(?=[\w.~$%*-]))"),
        "an absolute path ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (
        re.compile(r"(?<![\w:])[A-Za-z]:[^\s\\/:\"'|]+[\\/]"),
        "a path on another drive's current folder ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (
        re.compile(r"(?<![\w.])~[\w.-]*[\\/]"),
        "a home folder's path ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (
        re.compile(r"%(?!PYTHONHOME%)[A-Za-z_][\w()]*%|\$\{?(?:env:)?[A-Za-z_]\w*"),
        "a path through an environment variable ({found}): report.py writes only %PYTHONHOME% so",
    ),
    (
        re.compile(r"(?<![\w.])\.\.[\\/](?:\.?[\\/])*\.\.(?![^\\/\s])"),
        "a path above the project folder ({found}): a report keeps only paths relative to the scripts folder",
    ),
    (re.compile(r"\bS-1-\d{1,2}(?:-\d+){2,}"), "a Windows account's security ID ({found})"),
    (
        re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])"),
        "a network address ({found})",
    ),
    (re.compile(r"(?<![\w~])\w{1,6}~\d{1,2}(?!\w)"), "an 8.3 short name ({found}), which holds a folder's name"),
    (
        re.compile(
            r"\b(?:(?:DESKTOP|LAPTOP)-[A-Z0-9]{7}|WIN-[A-Z0-9]{11}|\w{2,}-(?:PC|LAPTOP|DESKTOP))\b", re.IGNORECASE
        ),
        "a computer name ({found})",
    ),
    (re.compile(r"[\w.+-]+@[A-Za-z0-9][\w-]*(?:\.[\w-]+)*"), "a user or mail name ({found})"),
    (re.compile(r"\w\*{3}|\*{3}\w"), "a redaction inside a word ({found}): a name was replaced inside a longer word"),
)
URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>()]*")
ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})")
AGAIN = "make the report again with the guide's current report.py, and paste it unchanged"


class EventError(Exception):
    """The event file cannot be read (not the reader's fault)."""


def where(path) -> str:
    """A field's place in the report, as report.field[2].name: a key that is not a plain name is quoted with
    every character outside printable ASCII escaped (a report's keys are the reader's text: one with a line
    break would start a line of the step's log, where `::` begins a workflow command)."""
    words = "report"
    for part in path:
        if isinstance(part, int):
            words += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z0-9_.-]{1,60}", part):
            words += f".{part}"
        else:
            words += "[" + json.dumps(part[:60], ensure_ascii=True).replace("`", "\\u0060") + "]"
    return words


def field_of(path) -> str:
    """The schema's name of a place, without list indexes: doctor.findings.text."""
    return ".".join(str(p) for p in path if not isinstance(p, int))


def script_of(char: str) -> str | None:
    """The named script of SCRIPT_LETTERS that a letter is in, or None."""
    if unicodedata.category(char) not in LETTER_CATEGORIES:
        return None
    code = ord(char)
    return next((name for name, spans in SCRIPT_LETTERS.items() for a, b in spans if a <= code <= b), None)


def allowed(char: str, scripts=frozenset(SCRIPT_LETTERS)) -> bool:
    """Printable ASCII, or a letter of ``scripts`` that is its own NFKC form (not a ligature such as U+0132
    or a compatibility form such as the long s U+017F, which stand for ASCII letters)."""
    if " " <= char <= "~":
        return True
    return script_of(char) in scripts and unicodedata.normalize("NFKC", char) == char


def strings(value):
    """Every string in the report (keys too), with its place: without recursion, so no depth can crash it."""
    stack = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                stack.append(((*path, key), child))
                stack.append((path, str(key)))
        elif isinstance(item, list):
            stack.extend(((*path, index), child) for index, child in reversed(list(enumerate(item))))


def shown(text: str, limit: int = 60) -> str:
    """A piece of the reader's text for a comment: one line, short, no backticks, every character outside
    the allow-list as its code (U+202E), so that the comment shows what it names and draws nothing."""
    text = "".join(c if allowed(c) else f"<U+{ord(c):04X}>" for c in text)
    text = text.replace("`", "'")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def no_constants(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def depth(text: str) -> int:
    """How deep the brackets of a JSON text nest, strings aside (counted in one pass: any text is safe)."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def parse(text: str) -> tuple[object, list[str]]:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_REPORT:
        return None, [f"the report is {size} bytes, more than {MAX_REPORT}: paste the file report.py wrote, unchanged"]
    levels = depth(text)
    if levels > MAX_DEPTH:
        return None, [f"the report nests {levels} levels deep, more than {MAX_DEPTH}: {AGAIN}"]
    try:
        return json.loads(text, parse_constant=no_constants), []
    except (ValueError, RecursionError) as error:  # json.JSONDecodeError is a ValueError
        return None, [f"the report is not valid JSON: {shown(str(error), 120)}"]


def strict_validator(schema: dict):
    """JSON Schema's validator, with an integer only a JSON integer: the standard counts 26100.0 (and 1e0) as
    one, which the site would then show as "26100.0"."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)(schema)


def schema_problems(report: dict) -> list[str]:
    version = report.get("schema_version")
    if type(version) is not int or version not in SCHEMA_VERSIONS:
        known = ", ".join(map(str, SCHEMA_VERSIONS))
        return [f"unknown schema version {shown(repr(version))}: this validator knows {known}; {AGAIN}"]
    schema = json.loads(SCHEMA_VERSIONS[version].read_text(encoding="utf-8"))
    validator = strict_validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(report), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        value = repr(error.instance)  # jsonschema's message starts with the value: shortened, the rule stays
        message = shown(value, 40) + error.message[len(value) :] if error.message.startswith(value) else error.message
        problems.append(f"{where(error.absolute_path)}: {shown(message, 160)}")
    return problems


def character_problem(text: str, scripts=frozenset(SCRIPT_LETTERS)) -> str | None:
    """The first character rule a string breaks, as words, or None: a character outside the allow-list
    (printable ASCII, and the letters of ``scripts``); then a word of two scripts or a Latin-looking word in
    Cyrillic or Greek letters ("Н200")."""
    for char in text:
        if not allowed(char, scripts):
            name = unicodedata.name(char, "") or "a control or unassigned character"
            category = unicodedata.category(char)
            where_from = f"the {script_of(char)} script" if script_of(char) else f"category {category}"
            return (
                f"holds U+{ord(char):04X} ({name}, {where_from}), which is not a character of this field: "
                "printable ASCII" + (f" and letters of {', '.join(sorted(scripts))}" if scripts else " only")
            )
    for word in re.findall(r"\w+", text):
        scripts = {unicodedata.name(c, "").split(" ")[0] for c in word if c.isalpha()} & set(SCRIPTS_SEEN)
        if len(scripts) > 1:
            return f"mixes {' and '.join(sorted(scripts)).lower()} letters in one word ({shown(word)})"
        letters = [c for c in word if c.isalpha()]
        if scripts and scripts != {"LATIN"} and all(c in LATIN_LOOKING for c in letters):
            return f"spells {shown(word)} in {scripts.pop().lower()} letters that look like Latin ones"
    return None


def character_problems(report) -> list[str]:
    return [
        f"{where(path)}: {problem}: a report holds the text report.py wrote, nothing else"
        for path, text in strings(report)
        for problem in [character_problem(text, frozenset(FIELD_SCRIPTS.get(field_of(path), ())))]
        if problem
    ]


def markup_problems(report) -> list[str]:
    return [
        f"{where(path)}: holds markup ({shown(found.group(0))}): a report holds plain text only"
        for path, text in strings(report)
        for found in [MARKUP.search(text)]
        if found
    ]


def unescaped(text: str) -> str:
    """The text as a reader would see it: JSON escapes left in it (\\u5f20) and URL escapes (%3A) read."""
    text = ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)
    return urllib.parse.unquote(text)


@functools.cache
def script_hosts() -> set[str]:
    """The hosts of the links the scripts themselves write: the only links a report can hold."""
    found = set()
    for script in sorted(SCRIPTS.glob("*.py")):
        found |= {h.lower() for h in re.findall(r"https?://([A-Za-z0-9.-]+)", script.read_text(encoding="utf-8"))}
    return found


@functools.cache
def script_paths() -> re.Pattern:
    """The absolute paths the scripts themselves write (C:\\dev\\project, C:\\Windows), each as a whole path
    or the start of one: the only absolute paths a report can hold, for they name no one."""
    found = set()
    for script in sorted(SCRIPTS.glob("*.py")):
        for path in re.findall(r"[A-Za-z]:(?:\\{1,2}[A-Za-z0-9_.-]+)+", script.read_text(encoding="utf-8")):
            found.add(re.escape(path.replace("\\\\", "\\")).replace(r"\\", r"[\\/]"))
    return re.compile("(?:" + "|".join(sorted(found)) + r")(?![\w.-])", re.IGNORECASE)


def privacy_problem(text: str, hosts: set[str], paths: re.Pattern) -> str | None:
    """The first privacy rule a string breaks, as words, or None."""
    view = unescaped(text)
    for link in URL.finditer(view):
        parts = urllib.parse.urlsplit(link.group(0))
        if parts.username or parts.password or parts.scheme.lower() not in ("http", "https"):
            return f"a link with a name or a file in it ({shown(link.group(0))})"
        if (parts.hostname or "") not in hosts:
            return f"a link to {shown(parts.hostname or '')}: a report holds links only to what its scripts name"
    outside = paths.sub("_", URL.sub(" ", view))  # "_": the rest of such a path is no new path
    for rule, words in PRIVACY:
        found = rule.search(outside)
        if found:
            return words.format(found=shown(re.match(r"\S*", outside[found.start() :]).group(0) or found.group(0)))
    return None


def privacy_problems(report) -> list[str]:
    hosts, paths = script_hosts(), script_paths()
    problems = []
    for path, text in strings(report):
        problem = privacy_problem(text, hosts, paths)
        if problem:
            problems.append(f"{where(path)}: {problem}; {AGAIN}")
    return problems


@functools.cache
def constants(script: str) -> dict:
    """The constants a script of snippets/ sets at its top level (NAME = value, or A, B = 1, 2), read from its
    source without running it: the validator judges a report by what report.py and verify_training.py do."""
    found = {}
    for node in ast.parse((SCRIPTS / script).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            pairs = (
                zip(target.elts, value.elts, strict=False)
                if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                else [(target, value)]
            )
            for name, item in pairs:
                if isinstance(name, ast.Name):
                    with contextlib.suppress(ValueError):
                        found[name.id] = ast.literal_eval(item)
    return found


def bf16_tolerance() -> float:
    """The bfloat16 check's tolerance, as snippets/verify_training.py sets it."""
    return constants("verify_training.py")["BF16_TOLERANCE"]


def tolerance() -> float:
    """The training check's tolerance, as snippets/verify_training.py sets it (a report's own is not trusted)."""
    return constants("verify_training.py")["TOLERANCE"]


def version_tuple(text: str) -> tuple[int, ...]:
    """The release numbers of a version: "2.11.0+cu130" is (2, 11, 0); "0.2.5.dev240914" (0, 2, 5)."""
    return tuple(int(n) for n in re.findall(r"\d+", re.split(r"[+a-zA-Z]", text, maxsplit=1)[0]))


@functools.cache
def what_exists() -> dict:
    """The one table of what a report's system can be, from the project's own sources: the pins of
    pyproject.toml (guide.pins: torch-directml and the torch it pins; the newest torch on PyPI), the Pythons
    and Windows versions each back-end has (guide.gpus.BACKENDS, each with its vendor's source), and report.py's
    and verify_training.py's constants."""
    from guide import gpus
    from guide.pins import load_pins

    pins = load_pins()
    pythons = {name: span for name, span in ((b, gpus.BACKENDS[b]["python"]) for b in gpus.BACKENDS)}
    return {
        "directml": pins["torch-directml"],
        "directml torch": version_tuple(pins["torch"]),
        "oldest torch": version_tuple(pins["torch"]),  # the oldest the guide installs: torch-directml's
        "newest torch": version_tuple(pins["newest-torch"]),
        # The report's back-end names and gpus.BACKENDS' keys; a span of None: no source names one.
        "pythons": {
            "DirectML": pythons["directml"],
            "ROCm": pythons["rocm"],
            "XPU": pythons["xpu"],
            "CUDA": pythons["cuda"],
            "CPU": pythons["cpu"],
        },
        "windows": {b: gpus.BACKENDS[b]["windows"] for b in gpus.BACKENDS},
        "batch size": constants("report.py")["BATCH_SIZE"],
        "guide version": constants("report.py")["GUIDE_VERSION"],
    }


# Windows builds: 10240 is Windows 10's first release (1507) and 22000 Windows 11's first (21H2), as Microsoft's
# release information lists them (learn.microsoft.com/windows/release-health/release-information and
# windows11-release-information, read 2026-12-05).
WINDOWS_FIRST_BUILD = {"10": 10240, "11": 22000}


def combination_problems(report: dict) -> list[str]:
    """The back-end, OS, Python and torch of a report, against what_exists(): each version a release that the
    guide's sources know, and each pair one that exists."""
    table, problems = what_exists(), []
    system, gpu = report["system"], report["gpu"]
    backend, torch, python = system["backend"], system["torch"], system["python"]
    on_windows = system["os"].startswith("Windows")
    torch_release = version_tuple(torch)
    if not table["oldest torch"] <= torch_release[:3] <= table["newest torch"]:
        problems.append(
            f"report.system.torch: {shown(torch)} is not a torch between the guide's oldest "
            f"({'.'.join(map(str, table['oldest torch']))}) and the newest on PyPI "
            f"({'.'.join(map(str, table['newest torch']))})"
        )
    span = table["pythons"][backend]
    if span and not version_tuple(span[0]) <= version_tuple(python)[:2] <= version_tuple(span[1]):
        problems.append(
            f"report.system.python: {backend} has no torch for Python {shown(python)} ({span[0]} to {span[1]})"
        )
    local = torch.partition("+")[2]
    if backend == "DirectML":
        if system["backend_version"] != table["directml"]:
            problems.append(
                f"report.system.backend_version: torch-directml {shown(str(system['backend_version']))} is not the "
                f"guide's {table['directml']}"
            )
        if torch_release[:3] != table["directml torch"]:
            problems.append(
                f"report.system.torch: torch-directml {table['directml']} runs on torch "
                f"{'.'.join(map(str, table['directml torch']))}, not {shown(torch)}"
            )
    elif backend == "CPU" and system["backend_version"] is not None:
        problems.append(
            f"report.system.backend_version: a CPU run has no back-end version ({shown(system['backend_version'])})"
        )
    elif backend == "CUDA":
        cuda = re.fullmatch(r"cu(\d+)(\d)", local)
        if system["backend_version"] is None or (
            cuda and version_tuple(system["backend_version"])[:2] != (int(cuda.group(1)), int(cuda.group(2)))
        ):
            problems.append(
                f"report.system.backend_version: {shown(str(system['backend_version']))} is not the CUDA of torch {shown(torch)}"
            )
    elif backend == "ROCm" and local and not local.startswith("rocm"):
        problems.append(f"report.system.torch: {shown(torch)} is not a ROCm build of torch")
    if on_windows:
        build, names = system["windows_build"], re.findall(r"\d+", system["os"])
        release = "11" if names[:1] == ["11"] else "10"
        said = re.search(r"10\.0\.(\d{4,5})", system["os"])
        if isinstance(build, int) and (
            build < WINDOWS_FIRST_BUILD[release] or (said is not None and int(said.group(1)) != build)
        ):
            problems.append(f"report.system.windows_build: {build} is not a build of {shown(system['os'])}")
        adapters = [a["name"] for a in gpu["windows_adapters"]]
        if backend != "CPU" and adapters and gpu["name"] not in adapters:
            problems.append(
                f"report.gpu.name: {shown(gpu['name'])} is not among the adapters Windows lists in the report"
            )
    return problems


def report_problems(report: dict) -> list[str]:
    """What report.py always writes: its batch size, its guide version (or, before it had one, a commit), a
    date no earlier than that version's, and the doctor's count of its own PROBLEM findings."""
    table, problems = what_exists(), []
    timed, guide = report["timed_run"], report["guide"]
    if timed["batch_size"] != table["batch size"]:
        problems.append(f"report.timed_run.batch_size: {timed['batch_size']}, not report.py's {table['batch size']}")
    version = guide.get("version")
    if version is None and guide.get("commit") is None:
        problems.append(f"report.guide: neither the guide's version nor a commit: {AGAIN}")
    if version is not None:
        if version_tuple(version) > version_tuple(table["guide version"]):
            problems.append(
                f"report.guide.version: {shown(version)} is later than the guide's {table['guide version']}"
            )
        elif report["date"] < "{}-{:02}-{:02}".format(*version_tuple(version)):
            problems.append(f"report.date: {shown(report['date'])} is earlier than the guide version {shown(version)}")
    if not guide["scripts"]:
        problems.append(f"report.guide.scripts: no script's hash: {AGAIN}")
    findings = report["doctor"]["findings"]
    if report["doctor"]["problems"] != sum(f["status"] == "PROBLEM" for f in findings):
        problems.append("report.doctor.problems: is not the number of PROBLEM findings")
    return problems


def device_entries(names) -> dict:
    """The one door to the table of devices: each name's answer (its vendor, and .gpu(): the guide's row for it,
    or None when unknown), read by docs/javascripts/gpu/match.js on the device table joined with gpus.yml
    (guide.gpu_names), the matcher the chooser uses. Every GPU name of a report is looked up here only."""
    from guide import gpu_names

    return gpu_names.answers(dict.fromkeys(names))


@functools.cache
def device_entry(name: str):
    return device_entries([name])[name]


def gpu_class(report: dict) -> str:
    """cpu, or the gpus.yml kind of the named GPU (dedicated when unknown or ambiguous: the lowest floor)."""
    if report["system"]["backend"] == "CPU":
        return "cpu"
    gpu = device_entry(report["gpu"]["name"]).gpu()
    return gpu.kind if gpu and not gpu.ambiguous else "dedicated"


def summary_problems(report: dict) -> list[str]:
    """The summary agrees with the epochs, the check's result with its numbers, the date is a real past day."""
    problems = []
    timed, check = report["timed_run"], report["training_check"]
    epochs = timed["epochs"]
    if [e["epoch"] for e in epochs] != list(range(1, len(epochs) + 1)):
        problems.append("report.timed_run.epochs: not numbered 1, 2, ... in order")
    if timed["train_images"] != FULL_TRAINING_SET:
        problems.append(
            f"report.timed_run.train_images: {timed['train_images']}, not the full {FULL_TRAINING_SET}: "
            "a run on part of the set is not comparable"
        )
    if timed["seconds_per_epoch"] != epochs[-1]["seconds"]:
        problems.append("report.timed_run.seconds_per_epoch: is not the last epoch's seconds")
    if timed["accuracy"] != epochs[-1]["accuracy"]:
        problems.append("report.timed_run.accuracy: is not the last epoch's accuracy")
    if check["tolerance"] != tolerance():
        problems.append(
            f"report.training_check.tolerance: {check['tolerance']!r}, not verify_training.py's {tolerance()!r}"
        )
    if check["passed"]:
        limits = {"loss_difference": tolerance(), "weight_difference": tolerance()}
        limits["bf16_difference"] = bf16_tolerance()
        for key, limit in limits.items():
            value = check[key]
            if (value is None and key != "bf16_difference") or (
                value is not None and (not math.isfinite(value) or value > limit)
            ):
                problems.append(f"report.training_check.{key}: {value!r} does not fit a passed check (limit {limit})")
    elif not check["reason"].strip():
        problems.append("report.training_check.reason: a failed check without its reason")
    try:
        day = datetime.date.fromisoformat(report["date"])
    except ValueError:
        day = None
    if day is None or not FIRST_DAY <= day <= datetime.date.today() + datetime.timedelta(days=1):
        problems.append(
            f"report.date: {shown(report['date'])} is not a day between {FIRST_DAY} (the first report) and today"
        )
    return problems


def hardware_problems(report: dict) -> list[str]:
    """The back-end agrees with the device, the OS and the GPU; no epoch or accuracy beyond the hardware."""
    problems = []
    system, gpu, timed = report["system"], report["gpu"], report["timed_run"]
    backend, device, os_name = system["backend"], gpu["device"], system["os"]
    on_windows = os_name.startswith("Windows")
    if device.split(":")[0] != DEVICE_TYPE[backend]:
        problems.append(f"report.gpu.device: {device} is not a {backend} device ({DEVICE_TYPE[backend]})")
    if (system["windows_build"] is not None) != on_windows:
        problems.append(f"report.system.windows_build: {system['windows_build']} does not fit the OS {shown(os_name)}")
    if backend == "DirectML" and not (on_windows or "microsoft" in os_name.lower()):
        problems.append(f"report.system.os: DirectML runs on Windows and WSL, not on {shown(os_name)}")
    named = device_entry(gpu["name"])
    vendor = named.vendor
    if backend in VENDOR and vendor != VENDOR[backend]:
        problems.append(
            f"report.gpu.name: {shown(gpu['name'])} is not a GPU that {backend} runs on (an {VENDOR[backend]} GPU)"
        )
    if backend == "CPU" and (vendor == "nvidia" or (named.gpu() is not None and named.gpu().kind != "software")):
        problems.append(f"report.gpu.name: a CPU run named after a GPU ({shown(gpu['name'])})")
    kind = gpu_class(report)
    floor = TIMING_FLOOR[kind]
    images = timed.get("train_images") or 60000
    for index, epoch in enumerate(timed["epochs"]):
        # An epoch of part of the set, scaled to the whole set's 60,000 images: the floor is per whole epoch.
        if epoch["seconds"] * 60000 / images < floor:
            problems.append(
                f"report.timed_run.epochs[{index}].seconds: {epoch['seconds']!r} s for {images:,} images, faster "
                f"than any {kind if kind == 'cpu' else kind + ' GPU'} can train LeNet (at least {floor} s for 60,000)"
            )
        if epoch["loss"] == 0:
            problems.append(f"report.timed_run.epochs[{index}].loss: 0, which no real training reaches")
        ceiling = ACCURACY_CEILING[timed["dataset"]]
        if epoch["accuracy"] > ceiling:
            problems.append(
                f"report.timed_run.epochs[{index}].accuracy: {epoch['accuracy']!r}, above what LeNet reaches "
                f"on {timed['dataset']} ({ceiling})"
            )
    return problems


def gpu_notes(report: dict) -> list[str]:
    """A GPU or adapter that gpus.yml does not know, or knows only by its vendor: flagged, never refused."""
    names = [] if report["system"]["backend"] == "CPU" else [report["gpu"]["name"]]
    names += [a["name"] for a in report["gpu"]["windows_adapters"]]
    notes = []
    note = "the run is kept; the table may need the card, with its vendor's source"
    for name, found in device_entries(names).items():
        gpu = found.gpu()
        if gpu is None:
            notes.append(f"the GPU `{shown(name)}` is not in docs/hooks/data/gpus.yml: {note}")
        elif gpu.ambiguous:
            entry = gpu.name
            notes.append(f"the GPU `{shown(name)}` matches only the generic entry `{entry}` of gpus.yml: {note}")
    return notes


def validate(text: str) -> tuple[dict | None, list[str], list[str]]:
    """(report, problems, notes): no problems means valid."""
    report, problems = parse(text)
    if problems:
        return None, problems, []
    if not isinstance(report, dict):
        return None, ["the report is not a JSON object: paste the whole file report.py wrote"], []
    problems = schema_problems(report)
    if problems and problems[0].startswith("unknown schema version"):
        return None, problems, []
    problems += character_problems(report) + markup_problems(report) + privacy_problems(report)
    if problems:
        return None, problems, []
    problems = summary_problems(report) + hardware_problems(report) + combination_problems(report)
    problems += report_problems(report)
    if not problems:
        size = len(proposal(report).encode("ascii")) * 4 // 3  # base64, as the workflow passes it on
        if size > MAX_PROPOSAL:
            problems.append(
                f"the report is {size} bytes as the pull request carries it (ASCII, base64), more than "
                f"{MAX_PROPOSAL}: paste the file report.py wrote, unchanged"
            )
    return (report if not problems else None), problems, (gpu_notes(report) if not problems else [])


def proposal(report: dict) -> str:
    """The file the pull request adds: the report as report.py writes it (json.dumps, indent 1, ASCII)."""
    return json.dumps(report, indent=1, ensure_ascii=True) + "\n"


REPORT_HEADING, CONSENT_HEADING = "The report", "Consent"  # the form's two fields (.github/ISSUE_TEMPLATE)
COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)  # what GitHub does not show: a comment, closed or not
TICKED = re.compile(r"^\s*[-*] \[[xX]\] \S", re.MULTILINE)


def sections(body: str) -> dict[str, str]:
    """The issue as GitHub shows it, by the form's ### headings: {heading: the text under it}, the HTML
    comments (hidden on the page) taken out first, so that what is judged is what the issue shows."""
    from guide.page import Page

    text = COMMENT.sub("", body.replace("\r\n", "\n"))
    page = Page.parse(text, "the issue's body")
    lines = text.split("\n")
    found = {}
    headings = [h for h in page.headings if h.level == 3]
    for heading, after in zip(headings, [*headings[1:], None], strict=False):
        end = after.line - 1 if after else len(lines)
        found.setdefault(heading.text.strip(), (heading.line, end))
    return {name: "\n".join(lines[start:end]) for name, (start, end) in found.items()} | {"": text}


def report_text(body: str) -> tuple[str, list[str]]:
    """The issue form's report: the first fenced block under its heading "The report", and the problems of the
    body itself (no such heading or block, the consent box not ticked)."""
    from guide.page import Page

    parts, problems = sections(body), []
    if REPORT_HEADING not in parts:
        return "", [f"the issue has no section '### {REPORT_HEADING}': open it with the run-report form"]
    fences = Page.parse(parts[REPORT_HEADING], "the report's section").fences
    if not fences:
        return "", ["the section 'The report' holds no fenced json block: paste the file into the form's field"]
    if not TICKED.search(parts.get(CONSENT_HEADING, "")):
        problems.append(
            "the consent box is not ticked: the report is published only with it (edit the issue and tick it)"
        )
    return fences[0].body.strip(), problems


def read_event(path: Path) -> tuple[int, str]:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise EventError(f"cannot read the event file {path}: {error.strerror}") from None
    if len(raw) > MAX_EVENT:
        raise EventError(f"the event file is {len(raw)} bytes, more than {MAX_EVENT}")
    try:
        event = json.loads(raw)
        issue = event["issue"]
        number, body = issue["number"], issue.get("body") or ""
    except (ValueError, KeyError, TypeError, RecursionError):
        raise EventError(f"{path} is not an issue event") from None
    if not isinstance(number, int) or isinstance(number, bool) or number < 1 or not isinstance(body, str):
        raise EventError(f"{path} is not an issue event")
    return number, body


def comment(problems: list[str], notes: list[str]) -> str:
    """The issue comment: the verdict and what to do. The workflow adds what became of the pull request, and
    the line that says what checked it."""
    if problems:
        lines = ["**The run report was not accepted.** Each reason, with the field it is in:", ""]
        lines += [f"- `{shown(p, 300)}`" for p in problems[:20]]
        if len(problems) > 20:
            lines.append(f"- ... and {len(problems) - 20} more")
        lines += ["", "Edit the issue with the file `report.py` wrote (unchanged) and this check runs again."]
        if any(AGAIN in p for p in problems):
            lines += [
                "",
                "This issue is public, and GitHub keeps each earlier version of it in its edit history: after "
                "you edit, delete the earlier version there (the issue's *edited* menu), or close this issue "
                "and open a new one with the new report.",
            ]
    else:
        lines = ["**The run report is valid.**"]
        lines += [""] + [f"- Note: {n}" for n in notes] if notes else []
    return "\n".join(lines) + "\n"


def ascii_line(text: str) -> str:
    """One line of printable ASCII: every other character escaped (\\n, \\u202e), so that nothing from a report
    can begin a line of the step's log (a workflow command) or hide in it."""
    return "".join(c if " " <= c <= "~" else c.encode("unicode_escape").decode("ascii") for c in text)


def run(args: argparse.Namespace) -> int:
    number, body_problems = 0, []
    try:
        if args.event:
            number, body = read_event(args.event)
            text, body_problems = report_text(body)
        else:
            text = args.file.read_text(encoding="utf-8")
    except EventError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {args.file}: {error}", file=sys.stderr)
        return EXIT_USAGE
    report, problems, notes = validate(text) if text else (None, [], [])
    if body_problems:
        report, problems, notes = None, body_problems + problems, []
    for line in problems:
        print(ascii_line(f"invalid: {line}"))
    for line in notes:
        print(ascii_line(f"note: {line}"))
    if args.comment and args.event:
        args.comment.write_text(comment(problems, notes), encoding="utf-8")
    if report is not None and args.proposal and args.event:
        args.proposal.mkdir(parents=True, exist_ok=True)
        (args.proposal / f"issue-{number}.json").write_text(proposal(report), encoding="utf-8")
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as output:
            output.write(f"valid={'true' if report is not None else 'false'}\nissue={number}\n")
    print("valid" if report is not None else f"invalid: {len(problems)} problem(s)")
    return EXIT_VALID if report is not None else EXIT_INVALID


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--event", type=Path, help="GitHub's event file of an issue event")
    source.add_argument("--file", type=Path, help="one report file")
    parser.add_argument("--comment", type=Path, help="write the issue comment here (with --event)")
    parser.add_argument("--proposal", type=Path, help="write a valid report here as issue-N.json (with --event)")
    args = parser.parse_args(argv)
    if MISSING is not None:
        print(ascii_line(f"error: the validator cannot start: {MISSING}; install the run-report group's lock"))
        return EXIT_INTERNAL
    try:
        return run(args)
    except Exception as error:  # noqa: BLE001 - any failure of the validator itself: one line, its own status
        where_ = error.__traceback__
        while where_ and where_.tb_next:
            where_ = where_.tb_next
        line = f" ({Path(where_.tb_frame.f_code.co_filename).name} line {where_.tb_lineno})" if where_ else ""
        detail = shown(f"{type(error).__name__}: {error}", 160)
        print(ascii_line(f"error: the validator itself failed{line}: {detail}; the report was not judged"))
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
