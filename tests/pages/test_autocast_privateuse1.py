"""Why autocast casts nothing on torch-directml (docs/troubleshooting.md, "Mixed precision ... does nothing").

torch.autocast("privateuseone") only switches autocast on for the back-end; the casting itself is done by
kernels registered for the dispatch key AutocastPrivateUse1, which the back-end must register (torch
registers them for CPU, CUDA and XPU only). A stand-in PrivateUse1 device built on the installed torch
shows all three cases: no kernels and no fallthrough (an error), a fallthrough only (runs, casts nothing:
what the guide's readers see on torch-directml), and a registered cast kernel (float16).

Each case runs in its own interpreter: the registrations are global to a process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

STAND_IN = textwrap.dedent("""\
    import json, sys, types
    import torch

    seen = []

    class OnDevice(torch.Tensor):
        # A tensor that says it lives on privateuseone:0 and computes on the CPU.
        @staticmethod
        def __new__(cls, elem):
            return torch.Tensor._make_wrapper_subclass(
                cls, elem.shape, dtype=elem.dtype, device="privateuseone:0")

        def __init__(self, elem):
            self.elem = elem

        @classmethod
        def __torch_dispatch__(cls, func, types_, args=(), kwargs=None):
            if func is torch.ops.aten.mm.default:
                seen.append([str(a.dtype) for a in args])
            unwrap = lambda a: a.elem if isinstance(a, OnDevice) else a
            out = func(*map(unwrap, args), **{k: unwrap(v) for k, v in (kwargs or {}).items()})
            return OnDevice(out) if isinstance(out, torch.Tensor) else out

    module = types.ModuleType("stand_in")
    module.get_amp_supported_dtype = lambda: [torch.float16, torch.bfloat16]
    module.is_available = lambda: True
    torch._register_device_module("privateuseone", module)

    case = sys.argv[1]
    key = torch._C.DispatchKey.AutocastPrivateUse1
    if case == "fallthrough":
        library = torch._C._dispatch_library("IMPL", "_", "AutocastPrivateUse1")
        library.fallback_fallthrough()
    elif case == "kernel":
        library = torch.library.Library("aten", "IMPL")

        def mm_in_half(a, b):
            with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(key)):
                return torch.mm(a.half(), b.half())

        library.impl("mm", mm_in_half, "AutocastPrivateUse1")

    a, b = OnDevice(torch.randn(2, 2)), OnDevice(torch.randn(2, 2))
    result = {"registered": {k: torch._C._dispatch_has_kernel_for_dispatch_key("aten::mm", k)
                             for k in ("AutocastCPU", "AutocastCUDA", "AutocastPrivateUse1")}}
    try:
        with torch.autocast("privateuseone", dtype=torch.float16):
            result["enabled"] = torch.is_autocast_enabled("privateuseone")
            out = torch.mm(a, b)
        result.update(mm_saw=seen, result=str(out.dtype))
    except NotImplementedError as error:
        result["error"] = str(error).splitlines()[0]
    print(json.dumps(result))
""")


def run_case(case: str) -> dict:
    result = subprocess.run([sys.executable, "-c", STAND_IN, case], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_torch_registers_no_autocast_kernels_for_privateuse1_and_without_any_autocast_fails():
    result = run_case("nothing")
    assert result["registered"] == {"AutocastCPU": True, "AutocastCUDA": True, "AutocastPrivateUse1": False}
    assert "Could not run 'aten::mm' with arguments from the 'AutocastPrivateUse1' backend" in result["error"]


def test_a_backend_that_registers_no_autocast_kernels_runs_and_casts_nothing():
    result = run_case("fallthrough")
    assert result["enabled"] is True  # torch.autocast switched it on ...
    assert result["mm_saw"] == [["torch.float32", "torch.float32"]]  # ... and mm still got float32
    assert result["result"] == "torch.float32"


def test_a_registered_autocast_kernel_is_what_casts():
    result = run_case("kernel")
    assert result["mm_saw"] == [["torch.float16", "torch.float16"]]
    assert result["result"] == "torch.float16"
