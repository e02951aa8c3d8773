"""The cases of the generated fuzz of the run-report validator (docs/hooks/data/runs/validate.py), beside the
hand-written table (tests/repo/run_reports/hostile.yml): Hypothesis strategies, and what the validator did
with each case (tests/repo/test_run_report_fuzz.py).

Valid reports (made by report.py's own functions on generated PCs, or with free text in every script the
allow-list names) and issue bodies as the form writes them must be accepted. A hostile report, a valid one
with one generated change of a class (HOSTILE), and a hidden report or a body without consent must be refused,
never crash the validator, and never start a line of its output with `::` (a workflow command in the step's
log). Each class draws a fixed number of cases from a fixed seed (derandomize); FUZZ_EXAMPLES (environment)
changes the number (80).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import unicodedata
from collections import Counter
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from guide.pins import load_pins

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "tests" / "repo" / "run_reports"
RUNS = ROOT / "docs" / "hooks" / "data" / "runs"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "80"))
TEMP = Path(os.environ.get("TMPDIR", "/tmp"))

# FUZZ_VALIDATOR: another copy of the validator beside validate.py (an older commit's, to count what it did).
_spec = importlib.util.spec_from_file_location(
    "run_report_validate_fuzz", RUNS / os.environ.get("FUZZ_VALIDATOR", "validate.py")
)
validator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validator)

report_py = pytest.importorskip("report")  # snippets/report.py (imports torch: the product tier's environment)
doctor = report_py.doctor

FIXTURE = json.loads((REPORTS / "report.json").read_text(encoding="utf-8"))
SEEDS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RUNS.glob("seed-*.json"))]
SCHEMA = json.loads((RUNS / "schema-1.json").read_text(encoding="utf-8"))


# --- what the validator did with a case ------------------------------------------------------------------------


def judged(args: list[str]) -> str:
    """accepted, refused, crash (an exception), or command (a line of its output starts with ::): what the
    validator's command line did with ``args``."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = validator.main(args)
    except BaseException as error:  # noqa: BLE001 - a crash is what is counted
        return f"crash {type(error).__name__}"
    if any(line.startswith("::") for line in out.getvalue().splitlines()):
        return "command"
    return {0: "accepted", 1: "refused"}.get(status, f"crash (exit {status})")


def verdict(label: str, text: str) -> str:
    path = TEMP / f"fuzz-{os.getpid()}.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return judged(["--file", str(path)])


def tally(strategy, judge=verdict, n: int = EXAMPLES) -> tuple[Counter, list[str]]:
    """What the validator did with n cases drawn from ``strategy`` (a fixed seed), each (label, text) judged by
    ``judge``, and a few labels of each verdict."""
    seen, shown = Counter(), {}

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(case):
        outcome = judge(*case)
        seen[outcome] += 1
        shown.setdefault(outcome, []).append(case[0]) if len(shown.get(outcome, [])) < 4 else None

    draw()
    return seen, [f"{outcome}: {labels}" for outcome, labels in shown.items()]


def dumped(report: dict) -> str:
    return json.dumps(report, indent=1, ensure_ascii=True)


# --- valid reports, as report.py makes them -------------------------------------------------------------------

# Letters of the scripts a user's or a folder's name is written in, one script per name (Latin with accents,
# Han, Cyrillic): a user's name with at least one letter that is not ASCII.
ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz\u00e9\u00f1\u00f8\u0142\u00fc\u00e7",
    "\u5f20\u4e09\u674e\u56db\u738b\u5c0f\u660e",
    "\u0434\u0438\u043c\u0430\u0436\u043b\u044f",
]
names = st.sampled_from(ALPHABETS).flatmap(lambda a: st.text(alphabet=a, min_size=3, max_size=10))
names = names.filter(lambda n: not n.isascii())
folder_names = st.sampled_from(ALPHABETS).flatmap(
    lambda a: st.text(alphabet=a + "0123456789 -_", min_size=1, max_size=16)
)
folder_names = folder_names.map(str.strip).filter(bool)


@st.composite
def pcs(draw):
    """A reader's PC: (places as report.this_pc() gives them, the doctor's findings, the user's name)."""
    user = draw(names)
    windows = draw(st.booleans())
    pure = PureWindowsPath if windows else PurePosixPath
    home = pure(r"C:\Users" if windows else "/home") / user
    project = home / draw(folder_names) if draw(st.booleans()) else home / "dml-guide"
    scripts = project / draw(st.sampled_from(["", "scripts"]))
    where = draw(st.sampled_from(["project", "home", "elsewhere"]))
    venv_name = draw(st.sampled_from([".venv", "venv", f"{user}-dml"]))
    venv = {
        "project": project / venv_name,
        "home": home / ".venvs" / venv_name,
        "elsewhere": pure(r"D:\venvs" if windows else "/opt") / venv_name,
    }[where]
    python = venv / (r"Scripts\python.exe" if windows else "bin/python")
    base = pure(r"C:\Program Files\Python312" if windows else "/usr") if draw(st.booleans()) else home / "py312"
    findings = doctor.python_findings(version=(3, 12, 7), bits=64, executable=str(python))
    findings += doctor.environment_findings(str(venv), "", scripts)
    findings += doctor.console_findings("utf-8", str(scripts), str(home))
    return (scripts, base, [python, venv, scripts, home]), findings, user


@st.composite
def reports_of_report_py(draw):
    places, findings, user = draw(pcs())
    report = json.loads(json.dumps(draw(bases)))
    kept = [doctor.Finding(**f) for f in report["doctor"]["findings"] if f["topic"] not in ("python", "environment")]
    report["doctor"] = json.loads(doctor.report(findings + kept, []))
    made = report_py.redacted(report, [user], places)
    return f"{user} {places[0]}", dumped(made)


# --- hostile reports: one generated change to a valid one -------------------------------------------------------


def strings_of(report, path=()):
    """(path, is_key) of every string in the report, keys too."""
    if isinstance(report, dict):
        for key, value in report.items():
            yield (*path, key), True
            yield from strings_of(value, (*path, key))
    elif isinstance(report, list):
        for index, value in enumerate(report):
            yield from strings_of(value, (*path, index))
    elif isinstance(report, str):
        yield path, False


def put(report: dict, path: tuple, is_key: bool, change) -> dict:
    """The report with the string at ``path`` (a key when ``is_key``) replaced by change(old)."""
    report = json.loads(json.dumps(report))
    *parents, last = path
    place = report
    for part in parents:
        place = place[part]
    if is_key:
        place[change(last)] = place.pop(last)
    else:
        place[last] = change(place[last])
    return report


@st.composite
def with_character(draw, characters):
    """A valid report with one character of ``characters`` put into one of its strings (or keys)."""
    base = draw(bases)
    path, is_key = draw(st.sampled_from(list(strings_of(base))))
    char = draw(characters)
    position = draw(st.integers(0, 40))
    changed = put(base, path, is_key, lambda s: s[: min(position, len(s))] + char + s[min(position, len(s)) :])
    return f"U+{ord(char):04X} {unicodedata.category(char)} in {path}{' (key)' if is_key else ''}", dumped(changed)


BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)]
invisible = st.one_of(
    st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Mn", "Me", "Co"], exclude_characters="\t"),
    st.characters(categories=["Zs"], exclude_characters=" "),
    st.sampled_from(BIDI + ["\t", "\u3164", "\u115f", "\u2800"]),  # and the fillers and blank that draw nothing
)
# What NFKC folds to ASCII (fullwidth, mathematical, circled, superscript letters and digits), and letters and
# digits of scripts outside the allow-list (Cherokee, Lisu, small capitals, Roman numerals, other digits).
folds_to_ascii = st.sampled_from(
    [
        c
        for c in map(chr, range(0x80, 0x20000))
        if unicodedata.normalize("NFKC", c).isascii() and unicodedata.normalize("NFKC", c).isalnum()
    ]
)
other_scripts = st.one_of(
    st.characters(min_codepoint=0x13A0, max_codepoint=0x13F4),  # Cherokee
    st.characters(min_codepoint=0xA4D0, max_codepoint=0xA4F7),  # Lisu
    st.characters(min_codepoint=0x1D00, max_codepoint=0x1D2B),  # small capitals
    st.characters(min_codepoint=0x2160, max_codepoint=0x2188),  # Roman numerals
    st.characters(categories=["Nd"]).filter(lambda c: not c.isascii()),
    st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo"], min_codepoint=0x0530, max_codepoint=0x2FFF).filter(
        lambda c: not 0x1100 <= ord(c) <= 0x11FF  # Hangul's jamo: the allow-list takes its syllables only
    ),
)


@st.composite
def latin_word_with_a_cyrillic_or_greek_letter(draw):
    """A Latin letter of a GPU's or an OS's name replaced with any Cyrillic or Greek letter: a word of two
    scripts (the look-alikes among them, Н for H, are what the rule is for)."""
    base = draw(bases)
    field = draw(st.sampled_from([("gpu", "name"), ("system", "os")]))
    text = base[field[0]][field[1]]
    index = draw(st.sampled_from([i for i, c in enumerate(text) if c.isascii() and c.isalpha()]))
    letter = draw(
        st.one_of(
            st.characters(min_codepoint=0x0391, max_codepoint=0x03C9, categories=["Lu", "Ll"]),
            st.characters(min_codepoint=0x0410, max_codepoint=0x044F),
        )
    )
    changed = json.loads(json.dumps(base))
    changed[field[0]][field[1]] = text[:index] + letter + text[index + 1 :]
    return f"{changed[field[0]][field[1]]!r}", dumped(changed)


# Path forms that hold a private name: absolute, drive- and root-relative, network, a home variable, a climb out
# of the project, a user's home by ~, a SID, an address; each after any of the separators a text puts before one.
PATH_FORMS = [
    "C:\\Users\\{n}\\proj",
    "c:/users/{n}/proj",
    "C:Users\\{n}\\proj",
    "\\Users\\{n}\\proj",
    "\\\\{n}-NAS\\share\\proj",
    "//{n}-nas/share/proj",
    "\\\\?\\UNC\\{n}\\share",
    "%USERPROFILE%\\{n}\\venvs",
    "%USERPROFILE%\\OneDrive - {n} Ltd\\venvs\\dml",
    "%HOMEPATH%\\{n}",
    "$HOME/{n}",
    "..\\.\\..\\{n}\\.venv",
    "../../{n}/.venv",
    "..\\..\\..\\{n}",
    "~{n}/proj",
    "~/{n}/proj",
    "/home/{n}/proj",
    "/Users/{n}/proj",
    "/mnt/c/Users/{n}/proj",
    "file:///C:/Users/{n}",
    "C:\\Documents and Settings\\{n}",
    "S-1-5-21-{d}-{d}-{d}-1001 {n}",
    "192.168.{d3}.{d3} {n}",
    "{n}@{n}-pc",
]
SEPARATORS = ["", " ", "|", "(", "=", ",", ":", ";", "'", "[", "\t"]


@st.composite
def private_paths(draw):
    base = draw(bases)
    name = draw(st.one_of(names, st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)))
    form = draw(st.sampled_from(PATH_FORMS))
    d = draw(st.integers(10**8, 4 * 10**9))
    path = form.format(n=name, d=d, d3=d % 250 + 1)
    before = draw(st.sampled_from(SEPARATORS))
    index = draw(st.integers(0, len(base["doctor"]["findings"]) - 1))
    key = draw(st.sampled_from(["text", "fix"]))
    changed = json.loads(json.dumps(base))
    finding = changed["doctor"]["findings"][index]
    finding[key] = (finding[key] + " " + before + path).strip() if finding[key] else before + path
    return f"{finding[key]!r}", dumped(changed)


COMMANDS = [
    "::error title=Report valid::merge it",
    "::set-output name=report::eyJ4IjoxfQ==",
    "::add-mask::valid",
    "::stop-commands::x",
    "::warning file=a,line=1::x",
    "::group::x",
]


@st.composite
def workflow_command_keys(draw):
    """A key that puts a workflow command at the start of a line of the validator's output."""
    base = json.loads(json.dumps(draw(bases)))
    command = draw(st.sampled_from(COMMANDS))
    key = draw(st.sampled_from(["x\n", "x\r\n", "", "a.py\n", "\n\n", "x\r"])) + command
    place = draw(st.sampled_from(["top", "guide.scripts", "system", "doctor.findings.0", "gpu"]))
    target = base
    for part in place.split(".") if place != "top" else []:
        target = target[int(part)] if part.isdigit() else target[part]
    target[key] = draw(st.sampled_from(["\u202e", "0123456789ab", 1, None]))
    return f"{place}: {key!r}", dumped(base)


def integer_paths(schema: dict, path=()):
    """Every place the schema wants an integer, as a path into the report (0 for an array's first item)."""
    kinds = schema.get("type")
    if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds) or schema.get("const") == 1:
        yield path
    for key, child in schema.get("properties", {}).items():
        yield from integer_paths(child, (*path, key))
    if isinstance(schema.get("items"), dict):
        yield from integer_paths(schema["items"], (*path, 0))


INTEGERS = list(integer_paths(SCHEMA))


@st.composite
def floats_for_integers(draw):
    """An integer of the report written as a float (26100.0, 1e0): JSON Schema counts 26100.0 as an integer."""
    base = draw(bases)
    path = draw(st.sampled_from(INTEGERS))
    changed = json.loads(json.dumps(base))
    place = changed
    for part in path[:-1]:
        place = place[part]
    if not isinstance(place.get(path[-1]) if isinstance(place, dict) else place[path[-1]], int):
        place[path[-1]] = 26100 if path[-1] == "windows_build" else 1
    text = dumped(changed)
    value = place[path[-1]]
    form = draw(st.sampled_from([f"{value}.0", f"{value}e0", f"{value}.00", f"{float(value):e}"]))
    quoted = json.dumps(path[-1])
    needle = f"{quoted}: {value}"
    assert needle in text, (path, needle)
    index = draw(st.sampled_from([i for i in range(len(text)) if text.startswith(needle, i)]))
    return f"{path} = {form}", text[:index] + f"{quoted}: {form}" + text[index + len(needle) :]


# The versions this project pins and knows (pyproject.toml, through guide.pins, as the pages quote them).
PINS = load_pins()
KNOWN = {"directml": PINS["torch-directml"], "directml torch": PINS["torch"], "newest torch": PINS["newest-torch"]}
# The H200 seed as a DirectML run on an RX 7900 XTX under Windows 11, with the pinned torch-directml.
DIRECTML = {
    "system.os": "Windows 11",
    "system.windows_build": 26100,
    "system.backend": "DirectML",
    "system.backend_version": KNOWN["directml"],
    "system.torch": KNOWN["directml torch"],
    "system.python": "3.12.7",
    "gpu.name": "AMD Radeon RX 7900 XTX",
    "gpu.device": "privateuseone:0",
    "gpu.windows_adapters": [{"name": "AMD Radeon RX 7900 XTX", "driver": "32.0.21025.1024"}],
    "training_check.bf16_difference": None,
}


def changed_by(report: dict, changes: dict) -> dict:
    """A copy of ``report`` with each dotted path (an array's index as a number) set to its value."""
    report = json.loads(json.dumps(report))
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        place = report
        for part in parents:
            place = place[int(part)] if part.isdigit() else place[part]
        place[int(last) if last.isdigit() else last] = value
    return report


BASES = [FIXTURE, *SEEDS, changed_by(SEEDS[-1], DIRECTML)]
bases = st.sampled_from(BASES)


@st.composite
def impossible(draw):
    """A combination no PC has: each one against a fact of the project (pins, the scripts' own constants)."""
    base = json.loads(json.dumps(draw(bases)))
    known, directml = KNOWN, DIRECTML
    newest = tuple(int(p) for p in known["newest torch"].split("."))
    kind = draw(
        st.sampled_from(
            [
                "directml torch",
                "directml python",
                "directml version",
                "torch newer than any",
                "old windows build",
                "build and os disagree",
                "cpu backend version",
                "tolerance",
                "batch size",
                "guide version from the future",
                "date before the guide version",
                "problems count",
                "no version",
                "gpu not among the adapters",
            ]
        )
    )
    changes = dict(directml) if kind.startswith(("directml", "old windows", "build and", "gpu not")) else {}
    minor = draw(st.integers(0, 20))
    if kind == "directml torch":
        changes["system.torch"] = draw(
            st.sampled_from(["2.3.1", "2.5.0", "2.11.0", known["newest torch"], f"2.{minor}.1"]).filter(
                lambda v: v != known["directml torch"]
            )
        )
    elif kind == "directml python":
        changes["system.python"] = f"3.{draw(st.sampled_from([13, 14, 15, 7, 6]))}.{minor}"
    elif kind == "directml version":
        changes["system.backend_version"] = draw(st.sampled_from(["0.3.0", "1.0.0", "0.2.9.dev250101", "2.4.1"]))
    elif kind == "torch newer than any":
        changes["system.torch"] = f"{newest[0]}.{newest[1] + 1 + minor}.0"
    elif kind == "old windows build":
        changes["system.windows_build"] = draw(st.integers(7600, 10239))
    elif kind == "build and os disagree":
        os_name, builds = draw(
            st.sampled_from([("Windows 11", [19045, 18363, 10240]), ("Windows-11-10.0.26100-SP0", [22631, 19045])])
        )
        changes["system.os"], changes["system.windows_build"] = os_name, draw(st.sampled_from(builds))
    elif kind == "cpu backend version":
        changes = {
            "system.backend": "CPU",
            "gpu.device": "cpu",
            "gpu.name": "Intel(R) Xeon(R) Processor",
            "training_check.bf16_difference": None,
            "system.backend_version": draw(st.sampled_from(["13.0", "12.1", "6.2", "0.2.5"])),
        }
    elif kind == "tolerance":
        tolerance = draw(st.sampled_from([1.0, 0.5, 0.01, 0.002]))
        difference = tolerance * 0.9
        changes = {
            "training_check.tolerance": tolerance,
            "training_check.loss_difference": difference,
            "training_check.weight_difference": difference,
        }
    elif kind == "batch size":
        changes["timed_run.batch_size"] = draw(st.sampled_from([1, 32, 128, 256, 4096]))
    elif kind == "guide version from the future":
        changes["guide.version"] = f"20{draw(st.integers(27, 99))}.{draw(st.integers(1, 12))}.1"
    elif kind == "date before the guide version":
        changes["guide.version"] = "2026.12.4"
        changes["date"] = "2026-12-02"
    elif kind == "problems count":
        changes["doctor.problems"] = draw(st.integers(1, 100))
    elif kind == "no version":
        base["guide"].pop("version", None)
        base["guide"].pop("commit", None)
    elif kind == "gpu not among the adapters":
        changes["gpu.windows_adapters"] = [{"name": "Intel(R) UHD Graphics 770", "driver": "31.0.101.4502"}]
    return f"{kind}: {changes}", dumped(changed_by(base, changes))


HOSTILE = {
    "invisible characters (Cc, Cf, Zs, Zl, Zp, Mn, Me, Co, bidi, fillers)": with_character(invisible),
    "look-alikes: NFKC folds to ASCII": with_character(folds_to_ascii),
    "look-alikes: letters and digits of other scripts": with_character(other_scripts),
    "look-alikes: a Cyrillic or Greek letter in a Latin word": latin_word_with_a_cyrillic_or_greek_letter(),
    "private path forms": private_paths(),
    "keys with workflow commands": workflow_command_keys(),
    "floats for integers": floats_for_integers(),
    "impossible combinations": impossible(),
}


# --- issue bodies: what GitHub shows is what is judged, and only with consent ---------------------------------


# The reason the comment gives the reporter for each kind of refused body.
BODY_REASONS = {
    "hidden valid report": "report.timed_run.accuracy: 1.2 is greater than the maximum of 1",
    "unticked": "the consent box is not ticked",
    "no consent": "the consent box is not ticked",
    "consent hidden": "the consent box is not ticked",
    "heading hidden": "no section '### The report'",
    "heading level": "no section '### The report'",
    "no report": "holds no fenced json block",
}


def body_verdict(kind: str, body: str) -> str:
    """What the workflow's validator did with an issue's body; refused only with the kind's reason in the comment."""
    event, comment = TEMP / f"fuzz-event-{os.getpid()}.json", TEMP / f"fuzz-{os.getpid()}.md"
    issue = {"number": 7, "title": "Run report", "body": body, "labels": [{"name": "run-report"}]}
    event.write_text(json.dumps({"action": "opened", "issue": issue}), encoding="utf-8")
    outcome = judged(["--event", str(event), "--comment", str(comment)])
    if outcome == "refused" and BODY_REASONS.get(kind, "") not in comment.read_text(encoding="utf-8"):
        return "refused for another reason"
    return outcome


def section(heading: str, text: str) -> str:
    return f"### {heading}\n\n{text}\n\n"


def fenced(report: dict) -> str:
    return f"```json\n{dumped(report)}\n```"


TICKED = "- [X] I have read the report, and I agree that it is published"
UNTICKED = "- [ ] I have read the report, and I agree that it is published"


@st.composite
def bodies(draw, hostile: bool):
    """An issue body as the form writes it, with generated noise a browser or an edit adds (CRLF, a lower-case
    x, comments and text elsewhere); hostile: the visible report refused while a valid one hides in a comment,
    or the consent box unticked, hidden or missing, or the report's heading hidden or of another level, or no
    report under it."""
    report = draw(bases)
    refused = changed_by(report, {"timed_run.accuracy": 1.2})
    comment = draw(st.sampled_from(["", "<!-- a note -->\n\n", "<!--\n\nedited\n-->\n"]))
    tick = TICKED.replace("[X]", draw(st.sampled_from(["[X]", "[x]"])))
    parts = [section("The report", fenced(report)), section("Consent", tick)]
    kind = "valid"
    if hostile:
        kind = draw(
            st.sampled_from(
                ["hidden valid report", "unticked", "no consent", "consent hidden", "heading hidden", "heading level"]
                + ["no report"]
            )
        )
        if kind == "hidden valid report":
            hidden = "<!--\n" + section("The report", fenced(report)) + "-->\n"
            parts[0] = section("The report", draw(st.sampled_from([hidden, ""])) + fenced(refused))
            parts.insert(draw(st.integers(0, 1)), hidden)
        elif kind == "unticked":
            parts[1] = section("Consent", UNTICKED)
        elif kind == "no consent":
            parts.pop()
        elif kind == "consent hidden":
            parts[1] = section("Consent", f"{UNTICKED}\n<!-- {TICKED} -->")
        elif kind == "no report":  # the form's field left empty
            parts[0] = section("The report", "_No response_")
        elif kind == "heading hidden":
            parts[0] = "<!-- ### The report -->\n\n" + fenced(report) + "\n\n"
        else:
            parts[0] = parts[0].replace("### The report", draw(st.sampled_from(["## The report", "#### The report"])))
    body = comment + "".join(parts) + draw(st.sampled_from(["", "\n\nThanks!\n", "\n<!-- -->\n"]))
    if draw(st.booleans()):
        body = body.replace("\n", "\r\n")
    return kind, body


# --- from the schema: every field with a value it forbids; free text in every script the allow-list names -------


def leaves(schema: dict, path=()):
    """(path, the field's schema) of every field the schema describes, $ref followed (0 for an array's item)."""
    if "$ref" in schema:
        schema = SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    if "properties" in schema:
        for key, child in schema["properties"].items():
            yield from leaves(child, (*path, key))
    elif isinstance(schema.get("items"), dict) and "properties" in schema["items"]:
        yield from leaves(schema["items"], (*path, 0))
    elif "anyOf" not in schema:
        yield path, schema


def forbidden(schema: dict) -> list:
    """Values the field's schema refuses: another type, past a bound, outside its pattern, enum or const."""
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    values = [{"a": 1}, [1]]
    if "string" not in kinds:
        values.append("0.5")
    if not {"number", "integer"} & set(kinds):
        values.append(7)
    if "maximum" in schema:
        values.append(schema["maximum"] + 1)
    if "minimum" in schema:
        values.append(schema["minimum"] - 1)
    if "exclusiveMinimum" in schema:
        values.append(schema["exclusiveMinimum"])
    if "maxLength" in schema:
        values.append("a" * (schema["maxLength"] + 1))
    if "pattern" in schema:
        values.append("not a match ~")
    if "enum" in schema or "const" in schema:
        values.append("Vulkan")
    return values


FIELDS = [(path, schema) for path, schema in leaves(SCHEMA) if path[-1] not in ("scripts",)]


def holds(report, path) -> bool:
    """Whether the report has a place at ``path`` (a list as long as its index)."""
    for part in path:
        if isinstance(part, int) and (not isinstance(report, list) or len(report) <= part):
            return False
        if isinstance(part, str) and (not isinstance(report, dict) or part not in report):
            return False
        report = report[part]
    return True


@st.composite
def schema_violations(draw):
    base = json.loads(json.dumps(draw(bases)))
    path, schema = draw(st.sampled_from([(p, s) for p, s in FIELDS if holds(base, p[:-1])]))
    value = draw(st.sampled_from(forbidden(schema)))
    place = base
    for part in path[:-1]:
        place = place[part]
    place[path[-1]] = value
    return f"{path} = {value!r}"[:120], dumped(base)


# Words of one script each: Latin with accents, Han, kana, Hangul, and the Cyrillic and Greek letters that look
# like no Latin one (a word of only look-alikes is refused on purpose: "Н200").
WORD_ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\u00e9\u00e8\u00e0\u00f1\u00f6\u00df\u0142\u0219",
    "\u8bad\u7ec3\u6a21\u578b\u6570\u636e\u663e\u5361\u9a71\u52a8",
    "\u3042\u3044\u3046\u30ab\u30bf\u30ab\u30ca\u30fc",
    "\ud55c\uad6d\uc5b4\ubaa8\ub378",
    "\u0431\u0433\u0434\u0436\u0437\u043b\u043f\u0444\u0446\u0447\u0448\u044b\u044d\u044e\u044f",
    "\u03b3\u03b4\u03b8\u03bb\u03be\u03c0\u03c3\u03c6\u03c8\u03c9",
]
words = st.sampled_from(WORD_ALPHABETS).flatmap(lambda a: st.text(alphabet=a, min_size=1, max_size=12))
free_texts = st.lists(
    st.tuples(words, st.sampled_from([" ", ", ", ". ", ": ", " (", ") ", " - ", "; "])), min_size=1, max_size=20
).map(lambda pairs: "".join(w + p for w, p in pairs).strip()[:400])


@st.composite
def free_text_reports(draw):
    """A valid report whose free-text fields (a finding's text and fix, a failed check's reason) hold words of
    every script the allow-list names."""
    base = json.loads(json.dumps(draw(bases)))
    finding = draw(st.sampled_from(base["doctor"]["findings"]))
    finding["text"], finding["fix"] = draw(free_texts), draw(free_texts)
    if draw(st.booleans()):
        check = base["training_check"]
        check.update(passed=False, reason=draw(free_texts), loss_difference=None, weight_difference=None)
        check["bf16_difference"] = None
    return finding["text"][:60], dumped(base)


HOSTILE["schema: every field with a value it forbids"] = schema_violations()
