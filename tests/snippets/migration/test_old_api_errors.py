"""Tests for snippets/migration/old_api_errors.py: the exact errors the 1.8-era API gets from torch today."""

from __future__ import annotations

import torch

from guide_harness import load_snippet, run_snippet

old_api_errors = load_snippet("migration/old_api_errors")

# What torch 2.4.1 says (checked by running it); the list of device types differs between torch versions.
DEVICE_ERROR_START = "RuntimeError: Expected one of cpu, cuda,"
DEVICE_ERROR_END = "privateuseone device type at start of device string: dml"
MODULE_ERROR = "AttributeError: module 'torch' has no attribute 'dml'"


def test_old_device_string_is_refused():
    message = old_api_errors.old_device_error()
    assert message.startswith(DEVICE_ERROR_START), message
    assert message.endswith(DEVICE_ERROR_END), message


def test_old_module_is_missing():
    assert old_api_errors.old_module_error() == MODULE_ERROR


def test_script_prints_both_errors(tmp_path):
    result = run_snippet("migration/old_api_errors.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"torch {torch.__version__}" in result.stdout
    assert DEVICE_ERROR_END in result.stdout
    assert MODULE_ERROR in result.stdout
