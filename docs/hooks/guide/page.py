"""One parsed page: its fences (language, attributes, directives, line numbers), headings and anchors,
and includes, read by one scanner. Every reader of a page's code blocks is to ask this module instead of
a regular expression of its own (tests/guide/test_page.py fails on a new one elsewhere).

The scanner follows CommonMark's fenced code blocks, as Python-Markdown's SuperFences reads the pages: a
fence opens with three or more backticks or tildes, indented or not (inside an admonition or a tab), and
closes with a line of the same character, at least as long, and nothing else. Nothing inside a fence is
a heading, an include or a directive. Free of MkDocs: it reads text, so a move off MkDocs keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
LANGUAGE = re.compile(r"^\{?\s*\.?([\w+-]*)")  # ```python title="x" and ``` { .python title="x" }
ATTRIBUTE = re.compile(r"""([\w-]+)=("[^"]*"|'[^']*'|\S+)""")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+\{#([\w-]+)\})?[ \t]*#*[ \t]*$")
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+["']?([^"':\s]+)(?::([\w-]+))?["']?[ \t]*$""")


@dataclass(frozen=True)
class Fence:
    """One fenced code block. Lines count from 1, in the page's source."""

    line: int  # the opening fence's line
    end: int  # the closing fence's line (the page's last line when it never closes)
    indent: str
    marker: str  # ``` or ~~~ (as long as written)
    language: str  # "python", "powershell", "text", ... ("" when none)
    info: str  # the whole info string after the marker
    body: str  # the lines between the fences, de-indented by the fence's indent
    attributes: dict[str, str] = field(default_factory=dict)  # title="x", linenums="1", ...
    directives: dict[str, str] = field(default_factory=dict)  # its <!-- site-block: ... --> keys
    closed: bool = True  # False: no closing line, so CommonMark runs it to the end of the page


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    text: str
    anchor: str | None  # the {#anchor} written after it, or None (MkDocs' toc makes one from the text)


@dataclass(frozen=True)
class Include:
    """A --8<-- line outside fences or as a fence's whole body: the file and its section."""

    line: int
    path: str
    section: str | None


@dataclass(frozen=True)
class Page:
    where: str  # a name for messages: the path, or what the text came from
    source: str
    fences: tuple[Fence, ...]
    headings: tuple[Heading, ...]
    includes: tuple[Include, ...]

    @classmethod
    def read(cls, path: Path) -> Page:
        return cls.parse(path.read_text(encoding="utf-8"), str(path))

    @classmethod
    def parse(cls, text: str, where: str = "<page>") -> Page:
        """The page of ``text``: its fences, headings and includes. guide.directives.with_directives(page)
        gives each fence its site-block keys (the page model imports nothing of the package)."""
        fences, headings, includes = _scan(text)
        return cls(where, text, tuple(fences), tuple(headings), tuple(includes))

    def with_fences(self, fences: list[Fence]) -> Page:
        """This page with ``fences`` in place of its own (the same page, annotated)."""
        return Page(self.where, self.source, tuple(fences), self.headings, self.includes)

    def blocks(self, *languages: str) -> list[Fence]:
        """The fences of these languages (all of them when none is named), in page order."""
        wanted = {language.lower() for language in languages}
        return [f for f in self.fences if not wanted or f.language in wanted]

    def lines(self) -> Iterator[tuple[int, str, Fence | None]]:
        """(number, line, fence) for each line not inside a fence, in order: ``fence`` is the Fence that
        opens on that line, None on any other line. A fence's body and closing line are left out, so a
        reader of comments, prose or markers above fences walks the page with no fence scanner of its own."""
        opening = {fence.line: fence for fence in self.fences}
        inside = {n for fence in self.fences for n in range(fence.line + 1, fence.end + 1)}
        for number, line in enumerate(self.source.splitlines(), 1):
            if number not in inside:
                yield number, line, opening.get(number)

    def outside_fences(self) -> str:
        """The source with every fence's lines blanked: line numbers stay, code is gone."""
        lines = self.source.splitlines()
        for fence in self.fences:
            for index in range(fence.line - 1, min(fence.end, len(lines))):
                lines[index] = ""
        return "\n".join(lines)


def _fence(number: int, opening: re.Match[str], body: list[str], end: int, closed: bool = True) -> Fence:
    indent, marker, info = opening["indent"], opening["fence"], opening["info"].strip()
    language = LANGUAGE.match(info).group(1).lower()
    attributes = {key: value.strip("\"'") for key, value in ATTRIBUTE.findall(info)}
    text = "\n".join(line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in body)
    return Fence(number, end, indent, marker, language, info, text + "\n" if body else "", attributes, closed=closed)


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(marker) and not stripped.strip(marker[0])


def _scan(text: str) -> tuple[list[Fence], list[Heading], list[Include]]:
    fences: list[Fence] = []
    headings: list[Heading] = []
    includes: list[Include] = []
    lines = text.splitlines()
    opening, start, body = None, 0, []
    for number, line in enumerate(lines, 1):
        if opening is not None:
            if _closes(line, opening["fence"]):
                fences.append(_fence(start, opening, body, number))
                opening = None
            else:
                body.append(line)
            continue
        match = OPEN.match(line)
        if match and not (match["fence"][0] == "`" and "`" in match["info"]):  # ``` in the info: inline code
            opening, start, body = match, number, []
            continue
        heading = HEADING.match(line)
        if heading:
            headings.append(Heading(number, len(heading[1]), heading[2].strip(), heading[3]))
        include = INCLUDE.match(line)
        if include:
            includes.append(Include(number, include[1], include[2]))
    if opening is not None:  # never closed: CommonMark runs it to the end of the page
        fences.append(_fence(start, opening, body, len(lines), closed=False))
    for fence in fences:  # an include as a fence's whole body (the pages' way of showing a snippet)
        include = INCLUDE.match(fence.body.strip()) if fence.body.strip().count("\n") == 0 else None
        if include:
            includes.append(Include(fence.line + 1, include[1], include[2]))
    includes.sort(key=lambda i: i.line)
    return fences, headings, includes
