"""Replace ``{{ checked.NAME }}`` in a page with the date its source was last checked.

docs/hooks/data/ is the one place that holds each "checked on" date. Every file there (YAML, JSON or
TOML) may hold any number of entries: a mapping with a ``checked:`` date and the ``source:`` it was
checked against, optionally ``every:`` (days until it is due again). ``read_entries()`` finds them
wherever they sit in a file, so the freshness check (.github/scripts/freshness.py) reads sources.yml and
any other table of facts (a GPU table with per-row ``source:`` and ``checked:``) the same way.

A page quotes an entry by name: the short name of an entry of sources.yml's ``sources:`` mapping
(``{{ checked.amd-rocm-windows }}``), or for any file its stem and the path to the entry, joined by
dots (``{{ checked.sources.sources.amd-rocm-windows }}``, ``{{ checked.gpus.gfx1100 }}``). An
unknown NAME fails the build.
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from guide import DOCS
from guide.placeholders import names, substitute

DATA = DOCS / "hooks" / "data"
SOURCES = "sources"  # sources.yml's mapping of short names
DEFAULT_EVERY = 30  # days, for an entry that does not say
SUFFIXES = (".yml", ".yaml", ".json", ".toml")


@dataclass(frozen=True)
class Entry:
    """One dated fact: where it is (file and path inside it), its source, when and how often to check."""

    file: Path
    path: tuple[str, ...]
    source: str
    checked: dt.date
    every: int
    title: str = ""

    @property
    def name(self) -> str:
        return ".".join((self.file.stem, *self.path))

    @property
    def due(self) -> dt.date:
        """The day it is to be checked again."""
        return self.checked + dt.timedelta(days=self.every)


def _load(path: Path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return tomllib.loads(text)
    if path.suffix == ".json":
        return json.loads(text)
    import yaml  # PyYAML: MkDocs' own dependency, in every group that builds the site

    # libyaml's loader where PyYAML has it (the wheels do): gpus.yml took about 0.2 s in the pure-Python one
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _as_date(value, where: str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{where}: checked: {value!r} is not a date (YYYY-MM-DD)") from None


def _walk(node, path: tuple[str, ...]):
    if isinstance(node, dict):
        if "checked" in node:
            yield path, node
        for key, value in node.items():
            yield from _walk(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            key = value.get("id", value.get("name", index)) if isinstance(value, dict) else index
            yield from _walk(value, (*path, str(key)))


def read_entries(data_dir: Path = DATA) -> list[Entry]:
    """Every entry with a ``checked:`` date in every data file; ValueError names a bad one."""
    files = sorted(p for p in data_dir.rglob("*") if p.suffix in SUFFIXES and p.is_file())
    # Read once per build, not once per page that quotes a date (that was a third of the build's time);
    # a file that changes (mkdocs serve, a test's copy) is read again.
    stamps = tuple((file, file.stat().st_mtime_ns, file.stat().st_size) for file in files)
    return list(_entries(stamps, data_dir))


@lru_cache(maxsize=8)
def _entries(stamps: tuple[tuple[Path, int, int], ...], data_dir: Path) -> tuple[Entry, ...]:
    entries = []
    for file, *_ in stamps:
        for path, node in _walk(_load(file), ()):
            where = f"{file.relative_to(data_dir)}: {'.'.join(path) or '(top)'}"
            source = node.get("source")
            if not isinstance(source, str) or not source.startswith(("https://", "http://")):
                raise ValueError(f"{where}: a checked: date needs the source: URL it was checked against")
            every = node.get("every", DEFAULT_EVERY)
            if not isinstance(every, int) or isinstance(every, bool) or every < 1:
                raise ValueError(f"{where}: every: {every!r} is not a number of days")
            checked = _as_date(node["checked"], where)
            entries.append(Entry(file, path, source, checked, every, str(node.get("title", ""))))
    return tuple(entries)


def checked_dates(entries: list[Entry] | None = None) -> dict[str, str]:
    """The names a page may quote, each with its date as YYYY-MM-DD."""
    entries = read_entries() if entries is None else entries
    dates = {}
    for entry in entries:
        dates[entry.name] = entry.checked.isoformat()
        if entry.file.stem == "sources" and len(entry.path) == 2 and entry.path[0] == SOURCES:
            dates[entry.path[1]] = entry.checked.isoformat()
    return dates


def expand_checked(markdown: str, dates: dict[str, str] | None = None) -> str:
    """Return ``markdown`` with every ``{{ checked.NAME }}`` replaced; KeyError names an unknown one."""
    if not names(markdown, "checked"):
        return markdown
    dates = checked_dates() if dates is None else dates

    def replace(name: str, _arg: str | None) -> str:
        if name not in dates:
            short = sorted(n for n in dates if "." not in n)
            raise KeyError(f"unknown checked date {name!r}; docs/hooks/data/sources.yml has: {', '.join(short)}")
        return dates[name]

    return substitute(markdown, "checked", replace)
