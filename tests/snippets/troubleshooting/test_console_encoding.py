"""Tests for snippets/troubleshooting/console_encoding.py: printing to a GBK or cp1252 console, the error and the fixes.

PYTHONIOENCODING gives the script's output the code page of a Chinese (gbk) or English (cp1252) Windows, as a
pipe or a file there has. Whether a plain print() fails is asked of the codec itself, not written down here.
"""

from __future__ import annotations

import pytest

from guide_harness import SNIPPETS, load_snippet, run_python, run_snippet

SCRIPT = "troubleshooting/console_encoding.py"
ENCODINGS = ["gbk", "cp1252", "ascii", "utf-8"]

console_encoding = load_snippet("troubleshooting/console_encoding")


def encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def test_the_sample_is_outside_both_windows_code_pages():
    assert not encodes(console_encoding.SAMPLE, "gbk")
    assert not encodes(console_encoding.SAMPLE, "cp1252")
    assert encodes(console_encoding.SAMPLE, "utf-8")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_plain_print_fails_exactly_where_the_codec_lacks_a_character(tmp_path, encoding):
    result = run_snippet(SCRIPT, "--strict", cwd=tmp_path, PYTHONIOENCODING=encoding)
    assert f"stdout encoding: {encoding}" in result.stdout
    if encodes(console_encoding.SAMPLE, encoding):
        assert result.returncode == 0, result.stderr
        assert console_encoding.SAMPLE in result.stdout
    else:
        assert result.returncode == 1, result.stdout
        assert "Traceback" not in result.stderr
        # Python's own words, as readers paste them ('charmap' is how cp1252's codec names itself).
        codec = "charmap" if encoding == "cp1252" else encoding
        assert f"UnicodeEncodeError: '{codec}' codec can't encode character '\\u2713'" in result.stderr


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_reconfigure_with_backslashreplace_never_fails(tmp_path, encoding):
    result = run_snippet(SCRIPT, cwd=tmp_path, PYTHONIOENCODING=encoding)
    assert result.returncode == 0, result.stderr
    expected = console_encoding.SAMPLE if encodes(console_encoding.SAMPLE, encoding) else "training done \\u2713"
    assert expected in result.stdout


# A console whose code page is not UTF-8, whatever the machine: the C locale, not coerced to UTF-8, gives
# ASCII on Linux; Windows ignores these and gives its ANSI code page (cp1252 on the hosted runners).
NOT_UTF8 = {"PYTHONIOENCODING": "", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}


@pytest.mark.parametrize(
    "args, env",
    [([], {"PYTHONUTF8": "1"}), (["-X", "utf8"], {})],
    ids=["PYTHONUTF8=1", "-X utf8"],
)
def test_utf8_mode_is_a_fix_where_pythonioencoding_is_unset(tmp_path, args, env):
    script = str(SNIPPETS / SCRIPT)
    control = run_python([script, "--strict"], cwd=tmp_path, **NOT_UTF8)
    assert control.returncode == 1, f"the console was UTF-8 already: nothing to fix\n{control.stdout}"
    fixed = run_python([*args, script, "--strict"], cwd=tmp_path, **{**NOT_UTF8, **env})
    assert fixed.returncode == 0, fixed.stderr
    assert "stdout encoding: utf-8" in fixed.stdout
