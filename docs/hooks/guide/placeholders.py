"""The one grammar of a page's placeholders, ``{{ NAMESPACE.NAME [ARG] }}``, and its substitution per namespace.

guide.macros dispatches every namespace through it; guide.pins, guide.checked and guide.gpu_pages expand their
own namespace with ``substitute`` and read no placeholder of their own. GitHub's ``${{ ... }}`` in a quoted
workflow is not a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PLACEHOLDER = re.compile(r"(?<!\$)\{\{\s*(\w+)\.([\w.-]+)(?:\s+([\w.-]+))?\s*\}\}")


def names(text: str, namespace: str) -> set[str]:
    """The names of ``namespace`` that ``text`` quotes."""
    return {m.group(2) for m in PLACEHOLDER.finditer(text) if m.group(1) == namespace}


def substitute(text: str, namespace: str, replace: Callable[[str, str | None], str]) -> str:
    """``text`` with each ``{{ namespace.NAME [ARG] }}`` replaced by ``replace(NAME, ARG)``; other
    namespaces are left as they are."""

    def one(match: re.Match[str]) -> str:
        if match.group(1) != namespace:
            return match.group(0)
        return replace(match.group(2), match.group(3))

    return PLACEHOLDER.sub(one, text)
