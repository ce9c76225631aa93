from __future__ import annotations

from kernelgen.bench.prompts import build_prompt, render_cases
from kernelgen.bench.tasks import load_task

from .helpers import make_task

LONG = "[" + ", ".join(f"[{i}, {i + 1}, 64]" for i in range(40)) + "]"


def _task(tmp_path):
    csv = f"case_id;input_shape;dtype;scale\n0;[48, 1024];float16;1.0\n1;{LONG};bfloat16;0.5\n"
    return load_task(make_task(tmp_path, "Scale", "scale", csv=csv))


def test_kernel_only_prompt_structure(tmp_path):
    t = _task(tmp_path)
    p = build_prompt(t, template="kernel-only", shape_mode="static")
    order = ["# Instructions", "# Implementation requirements", "# api_desc.md", "# Test cases", "# Hardware",
             "# Host template", "# Kernel template", "# Output template", "# Your task"]
    assert [p.index(h) for h in order] == sorted(p.index(h) for h in order)
    assert "<kernel_impl>" in p and "TilingDataDef" in p and "GET_TILING_DATA" in p
    assert "## Supported Data Types\n- float16" in p               # static mode states the case dtype
    assert "0;[48, 1024];float16;1.0" in p and LONG not in p      # static: case 0 only


def test_dynamic_prompt_renders_every_case_in_full(tmp_path):
    t = _task(tmp_path)
    p = build_prompt(t, template="full", shape_mode="dynamic")
    assert f"1;{LONG};bfloat16;0.5" in p                          # never truncated
    assert "Supported Data Types" not in p
    for path in ("op_host/scale_tiling.h", "op_host/scale.cpp", "op_kernel/scale.cpp"):
        assert f"================== {path} ==================" in p
    out_template = p[p.index("# Output template"):]
    assert "SetBlockDim" not in out_template                       # the model chooses the core count
    assert render_cases(t, t.cases).splitlines()[0] == "case_id;input_shape;dtype;scale"
