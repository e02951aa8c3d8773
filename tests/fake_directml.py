"""The one stand-in for ``torch_directml`` that tests use, so they behave the same on every machine.

``source()`` writes the module's text; ``install()`` puts it first on a script's import path (pass the
returned folder as PYTHONPATH); ``module()`` builds it in-process, to monkeypatch a loader with.
Adapters compute on the CPU unless ``device_type`` says otherwise: this exercises the scripts' own logic.
"""

from __future__ import annotations

import textwrap
import types
from pathlib import Path

NOT_INSTALLED = 'ModuleNotFoundError("No module named \'torch_directml\'", name="torch_directml")'


def source(
    names=("Fake DirectML adapter",),
    *,
    import_error: str | None = None,
    device_type: str = "cpu",
    float64_adapters=(0,),
    extra: str = "",
) -> str:
    """torch_directml's calls (is_available, device_count, default_device, device_name,
    has_float64_support, device) over the given adapter names; or a module whose import raises."""
    if import_error is not None:
        return f"raise {import_error}\n"
    if device_type == "cpu":
        device = 'torch.device("cpu")'  # prints as "cpu", as the scripts' CPU runs do
    else:
        device = f"torch.device({device_type!r}, 0 if i is None else i)"
    return textwrap.dedent(f"""
        import torch
        NAMES = {list(names)!r}
        def is_available(): return bool(NAMES)
        def device_count(): return len(NAMES)
        def default_device(): return 0
        def device_name(i): return NAMES[i]
        def has_float64_support(i): return i in {tuple(float64_adapters)!r}
        def device(i=None): return {device}
    """) + textwrap.dedent(extra)


def install(folder: Path, *args, **kwargs) -> str:
    """Write folder/fake/torch_directml.py; returns the folder to put first on PYTHONPATH."""
    fake = Path(folder) / "fake"
    fake.mkdir(exist_ok=True)
    (fake / "torch_directml.py").write_text(source(*args, **kwargs), encoding="utf-8")
    return str(fake)


def module(*args, **kwargs) -> types.ModuleType:
    """The same stand-in as an in-process module object."""
    fake = types.ModuleType("torch_directml")
    exec(source(*args, **kwargs), fake.__dict__)
    return fake
