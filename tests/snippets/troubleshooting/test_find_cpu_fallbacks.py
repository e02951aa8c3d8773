"""Tests for snippets/troubleshooting/find_cpu_fallbacks.py: recording and escalating fallback warnings.

torch-directml is not here, so fallbacks are produced two ways: a Python warning with its exact message
(as microsoft/DirectML#604 shows it), and a real C++ TORCH_WARN_ONCE warning of torch itself
(torch.meshgrid without indexing=) to check that set_warn_always makes warn-once warnings repeat.
"""

from __future__ import annotations

import textwrap
import warnings

import pytest
import torch

import fake_directml as fake_directml_factory
from guide_harness import assert_one_line_error, load_snippet, run_snippet

find_cpu_fallbacks = load_snippet("troubleshooting/find_cpu_fallbacks")


def dml_warning(op: str) -> str:
    return (
        f"The operator '{op}' is not currently supported on the DML backend and will fall back to run on "
        "the CPU. This may have performance implications. (Triggered internally at "
        "C:\\__w\\1\\s\\pytorch-directml-plugin\\torch_directml\\csrc\\dml\\dml_cpu_fallback.cpp:17.)"
    )


def test_operators_are_listed_once_each_and_other_warnings_ignored():
    def step():
        for op in ("aten::_foreach_lerp_.Scalar", "aten::cumprod.out", "aten::_foreach_lerp_.Scalar"):
            warnings.warn(dml_warning(op), UserWarning, stacklevel=1)
        warnings.warn("something unrelated", UserWarning, stacklevel=1)

    assert find_cpu_fallbacks.find_cpu_fallbacks(step) == ["aten::_foreach_lerp_.Scalar", "aten::cumprod.out"]


def test_no_fallback_gives_an_empty_list_and_restores_warn_always():
    before = torch.is_warn_always_enabled()
    assert find_cpu_fallbacks.find_cpu_fallbacks(lambda: torch.ones(2) + 1) == []
    assert torch.is_warn_always_enabled() == before


def test_warn_once_warnings_from_cpp_are_seen_every_time():
    def meshgrid():
        torch.meshgrid(torch.arange(2), torch.arange(2))

    meshgrid_pattern = r"(?P<op>torch\.meshgrid): in an upcoming release"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshgrid()  # spends the TORCH_WARN_ONCE: without set_warn_always it would never warn again
    assert find_cpu_fallbacks.find_cpu_fallbacks(meshgrid, meshgrid_pattern) == ["torch.meshgrid"]


def test_strict_mode_turns_a_fallback_into_an_exception():
    before = torch.is_warn_always_enabled()
    try:
        with warnings.catch_warnings():
            find_cpu_fallbacks.fail_on_cpu_fallback()
            assert torch.is_warn_always_enabled()
            with pytest.raises(UserWarning, match="aten::multinomial"):
                warnings.warn(dml_warning("aten::multinomial"), UserWarning, stacklevel=1)
            with pytest.warns(UserWarning, match="unrelated"):  # other warnings stay warnings
                warnings.warn("an unrelated warning", UserWarning, stacklevel=1)
    finally:
        torch.set_warn_always(before)


# A stand-in torch_directml whose Adam step falls back as in microsoft/DirectML#604; it computes on the CPU.
ADAM_FALLS_BACK = textwrap.dedent(f"""
    import warnings
    _adam_step = torch.optim.Adam.step
    def _step(self, *args, **kwargs):
        warnings.warn({dml_warning("aten::_foreach_lerp_.Scalar")!r}, UserWarning)
        return _adam_step(self, *args, **kwargs)
    torch.optim.Adam.step = _step
""")


@pytest.fixture
def fake_directml(tmp_path):
    return fake_directml_factory.install(tmp_path, extra=ADAM_FALLS_BACK)


def test_script_lists_the_fallbacks(tmp_path, fake_directml):
    result = run_snippet("troubleshooting/find_cpu_fallbacks.py", cwd=tmp_path, PYTHONPATH=fake_directml)
    assert result.returncode == 0, result.stderr
    assert "these operators ran on the CPU:\n  aten::_foreach_lerp_.Scalar" in result.stdout


def test_script_strict_stops_with_one_line(tmp_path, fake_directml):
    result = run_snippet("troubleshooting/find_cpu_fallbacks.py", "--strict", cwd=tmp_path, PYTHONPATH=fake_directml)
    assert_one_line_error(result, "aten::_foreach_lerp_.Scalar", "is not currently supported on the DML backend")


def test_script_on_the_cpu_finds_nothing(tmp_path):
    result = run_snippet("troubleshooting/find_cpu_fallbacks.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    if "running on the CPU" in result.stdout:  # no torch-directml: nothing can fall back
        assert result.stdout.rstrip().endswith("no operator fell back to the CPU")


@pytest.mark.directml
def test_real_directml_training_step_is_checked():
    import torch_directml

    step = find_cpu_fallbacks.make_training_step(torch_directml.device())
    operators = find_cpu_fallbacks.find_cpu_fallbacks(step)
    assert all(op.startswith("aten::") for op in operators), operators
