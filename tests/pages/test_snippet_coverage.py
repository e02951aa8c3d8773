"""Each snippet has its own test file, mirroring snippets/ under tests/snippets/ (FastAPI-style)."""

from __future__ import annotations

from guide_harness import ROOT, SNIPPETS, TESTS


def test_every_snippet_has_a_test_that_runs_it():
    missing = []
    for snippet in sorted(SNIPPETS.rglob("*.py")):
        relative = snippet.relative_to(SNIPPETS)
        test = TESTS / "snippets" / relative.parent / f"test_{relative.name}"
        if not test.is_file() or relative.name not in test.read_text(encoding="utf-8"):
            missing.append(f"{snippet.relative_to(ROOT)} -> {test.relative_to(ROOT)}")
    assert not missing, "snippets without a test that names them:\n" + "\n".join(missing)
