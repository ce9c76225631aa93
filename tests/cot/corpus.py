"""A synthetic corpus shaped like real AscendC sources, with malformed files mixed in (for the fuzz test and
benchmarks/cot_stages.py). Everything here is written for this project: templates, names and text.

`write_corpus(root, ops=N, pages=M, seed=S, bad=0.1)` writes
  root/ops/   an operator repository: op_host tiling + op_kernel kernel per op, shared headers under common/inc,
              tiling unit tests in the formats of tiling_tests (parameter object, multi-line StorageShape,
              failure-expecting, table-driven), Chinese comments before includes;
  root/docs/  Markdown pages (zh and en) with HTML tables, anchors, repeated headings, combined aclnn titles;
and replaces a share `bad` of the files with malformed ones: truncated or binary sources, unbalanced braces,
NUL bytes, deep nesting, giant lines, include cycles, missing headers, dangling symlinks, unclosed fences and
tables. It returns what it planted, so a caller can check that every bad input is accounted for.
"""
from __future__ import annotations

import random
from pathlib import Path

# LeakyClip and SoftShrink are tasks of the fixture benchmark (tests/cot/fixtures/bench_suite): planted leaks.
OPS = ["LeakyClip", "SoftShrink", "Softplus", "Hardtanh", "Swish", "Selu", "Mish", "Celu", "Rsqrt", "Reciprocal", "Log1p", "Expm1",
       "Square", "Cube", "Sign", "Floor", "Ceil", "Round", "Trunc", "Erf", "Gelu", "Silu"]
ZH = ["按元素计算", "切分到各核", "双缓冲搬运", "对齐到 32 字节", "写回全局内存", "每核处理的元素数"]


def snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def op_name(i: int) -> str:
    return OPS[i] if i < len(OPS) else f"{OPS[i % len(OPS)]}V{i // len(OPS)}"


def kernel_src(op: str, rng: random.Random) -> str:
    s = snake(op)
    head = f"/* {rng.choice(ZH)}：{op} 的内核（合成夹具）。{rng.choice(ZH)}。 */\n" if rng.random() < 0.5 else ""
    return f"""{head}#include "kernel_operator.h"
#include "{s}_tiling_data.h"
#include "vec_helpers.h"

using namespace AscendC;

struct {op}Kernel {{
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const {op}TilingData& t)
    {{
        n = t.tileLength;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + t.blockLength * GetBlockIdx(), t.blockLength);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + t.blockLength * GetBlockIdx(), t.blockLength);
        pipe.InitBuffer(q, vec_helpers::kQueueDepth, n * sizeof(float));
    }}
    __aicore__ inline void Process(uint32_t tiles)
    {{
        for (uint32_t i = 0; i < tiles; ++i) {{
            LocalTensor<float> v = q.AllocTensor<float>();
            DataCopy(v, xGm[i * n], n);   // {rng.choice(ZH)}
            Muls(v, v, {rng.randint(2, 9)}.0f, n);
            DataCopy(yGm[i * n], v, n);
            q.FreeTensor(v);
        }}
    }}
    TPipe pipe;
    TQue<QuePosition::VECIN, vec_helpers::kQueueDepth> q;
    GlobalTensor<float> xGm, yGm;
    uint32_t n = 0;
}};

extern "C" __global__ __aicore__ void {s}(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    {op}TilingData t = *reinterpret_cast<__gm__ {op}TilingData*>(tiling);
    {op}Kernel k;
    k.Init(x, y, t);
    k.Process(t.tileNum);
}}
"""


def tiling_data(op: str) -> str:
    return f"#pragma once\n#include <cstdint>\nstruct {op}TilingData {{ uint32_t blockLength, tileLength, tileNum; }};\n"


def host_src(op: str) -> str:
    return (f"// {op} host tiling (synthetic)\n#include <cstdint>\nnamespace {snake(op)}_host {{\n"
            "uint32_t Blocks(uint64_t total, uint32_t cores) { return total < cores ? total : cores; }\n}\n")


def tiling_test(op: str, rng: random.Random) -> str:
    cases = []
    for j in range(rng.randint(1, 4)):
        d0, d1 = rng.choice([1, 2, 8, 32]), rng.choice([256, 1024, 4096])
        kind = rng.choice(["param", "param", "storage", "negative", "table"])
        if kind == "param":
            cases.append(f"""TEST_F({op}Tiling, case_{j})
{{
    optiling::{op}CompileInfo compileInfo = {{{rng.choice([8, 20, 40])}, 196608}};
    gert::TilingContextPara para("{op}",
        {{{{{{{{{d0}, {d1}}}, {{{d0}, {d1}}}}}, ge::DT_FLOAT, ge::FORMAT_ND}},}},
        {{{{{{{{{d0}, {d1}}}, {{{d0}, {d1}}}}}, ge::DT_FLOAT, ge::FORMAT_ND}},}},
        &compileInfo);
    uint64_t expectTilingKey = {rng.randint(1, 3)};
    ExecuteTestCase(para, ge::GRAPH_SUCCESS, expectTilingKey);
}}
""")
        elif kind == "storage":
            cases.append(f"""TEST_F({op}Tiling, case_{j})
{{
    gert::StorageShape x_shape = {{
        {{{d0},
         {d1}}},
        {{{d0}, {d1}}}}};
    EXPECT_EQ(tiling_func(ctx), ge::GRAPH_SUCCESS);
    EXPECT_EQ(ctx->GetTilingKey(), {rng.randint(1, 3)});
}}
""")
        elif kind == "negative":
            cases.append(f"""TEST_F({op}Tiling, case_{j})
{{
    optiling::{op}CompileInfo compileInfo = {{8, 196608}};
    gert::TilingContextPara para("{op}", {{{{{{{{0}}, {{0}}}}, ge::DT_INT8, ge::FORMAT_ND}},}},
                                 {{{{{{{{0}}, {{0}}}}, ge::DT_INT8, ge::FORMAT_ND}},}}, &compileInfo);
    ExecuteTestCase(para, ge::GRAPH_FAILED);
}}
""")
        else:
            cases.append(f"TEST_P({op}TilingTable, case_{j})\n{{\n    RunCase(GetParam());\n}}\n")
    return f"// {rng.choice(ZH)}\n#include <gtest/gtest.h>\n\n" + "\n".join(cases)


def doc_page(i: int, rng: random.Random) -> tuple[str, str]:
    op = op_name(i)
    if rng.random() < 0.5:
        rel = f"zh/{op}.md"
        text = (f"# aclnn{op}&aclnnInplace{op}\n\n<a name=\"s{i}\"></a>\n## 功能说明\n\n{rng.choice(ZH)}，{rng.choice(ZH)}。"
                f"{op} 对输入逐元素计算。\n\n## 参数说明\n\n<table><thead><tr><th>参数</th><th>说明</th></tr></thead>"
                f"<tbody><tr><td>self</td><td>输入<br>张量</td></tr></tbody></table>\n\n"
                f"## 调用示例\n\n```cpp\naclnnStatus aclnn{op}GetWorkspaceSize(const aclTensor* self, aclTensor* out,"
                f" uint64_t* ws, aclOpExecutor** ex);\n```\n\n## 调用示例\n\n{rng.choice(ZH)}，然后再次调用。\n")
    else:
        rel = f"en/guide_{i}.md"
        text = (f"# Tiling guide {i}\n\n## Splitting work\n\nEach core takes blockLength elements; the tile length "
                f"is bounded by the unified buffer of {rng.choice([192, 248])} KB.\n\n## Splitting work\n\n"
                "The second section with the same heading covers the tail tile and its alignment to 32 bytes.\n")
    return rel, text


def _malformed_cpp(rng: random.Random, good: str) -> bytes:
    kind = rng.choice(["truncate", "binary", "braces", "nul", "deep", "long_line", "bad_utf8", "empty"])
    if kind == "truncate":
        return good[:rng.randint(0, len(good))].encode()
    if kind == "binary":
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4000)))
    if kind == "braces":
        return (good.replace("}", "", rng.randint(1, 5)) + "{{{(((" + '"unterminated').encode()
    if kind == "nul":
        return good.encode().replace(b"\n", b"\n\0", 3)
    if kind == "deep":
        return (b"TEST(A, b) " + b"{" * 5000 + b"StorageShape x = {{1,\n2}, {1, 2}};" + b"}" * 10)
    if kind == "long_line":
        return ("// " + "非" * 50000 + "\n" + good).encode()
    if kind == "bad_utf8":
        return b"/* \xff\xfe\xc3 */\n" + good.encode() + b"\xe4\xb8"
    return b""


def _malformed_md(rng: random.Random, good: str) -> bytes:
    kind = rng.choice(["fence", "table", "binary", "headings", "giant", "bad_utf8"])
    if kind == "fence":
        return (good + "\n```cpp\nint x = <open;\n").encode()
    if kind == "table":
        return (good + "\n<table><tr><td>" * 50 + "<a name=\"x").encode()
    if kind == "binary":
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3000)))
    if kind == "headings":
        return "\n".join("#" * rng.randint(1, 7) + " 标题" for _ in range(500)).encode()
    if kind == "giant":
        return ("# 大段\n\n" + "很长的段落" * 10000).encode()
    return b"\xff# \xc3(\n" + good.encode()


def write_corpus(root: Path, *, ops: int = 40, pages: int = 40, seed: int = 0, bad: float = 0.1) -> dict:
    rng = random.Random(seed)
    repo, docs = root / "ops", root / "docs"
    planted = {"bad_cpp": [], "bad_md": [], "dangling": [], "cycle": []}
    inc = repo / "common/inc"
    inc.mkdir(parents=True, exist_ok=True)
    (inc / "vec_helpers.h").write_text('#pragma once\n#include "kernel_operator.h"\n'
                                       "namespace vec_helpers { constexpr int32_t kQueueDepth = 2; }\n")
    # an include cycle: each header includes the other (guards make it legal C++)
    (inc / "cycle_a.h").write_text('#ifndef CYA\n#define CYA\n#include "cycle_b.h"\nint a_fn();\n#endif\n')
    (inc / "cycle_b.h").write_text('#ifndef CYB\n#define CYB\n#include "cycle_a.h"\nint b_fn();\n#endif\n')
    for i in range(ops):
        op = op_name(i)
        d = repo / "math" / snake(op)
        for sub in ("op_host", "op_kernel", "tests/ut/op_host"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        (d / "op_host" / f"{snake(op)}_tiling.cpp").write_text(host_src(op))
        (d / "op_kernel" / f"{snake(op)}_tiling_data.h").write_text(tiling_data(op))
        kfile = d / "op_kernel" / f"{snake(op)}.cpp"
        tfile = d / "tests/ut/op_host" / f"test_{snake(op)}_tiling.cpp"
        ksrc, tsrc = kernel_src(op, rng), tiling_test(op, rng)
        if rng.random() < 0.05:
            ksrc = ksrc.replace('#include "vec_helpers.h"', '#include "vec_helpers.h"\n#include "cycle_a.h"')
            planted["cycle"].append(kfile.relative_to(repo).as_posix())
        kfile.write_bytes(_malformed_cpp(rng, ksrc) if rng.random() < bad else ksrc.encode())
        if rng.random() < bad:
            tfile.write_bytes(_malformed_cpp(rng, tsrc))
            planted["bad_cpp"].append(tfile.relative_to(repo).as_posix())
        else:
            tfile.write_text(tsrc)
        if rng.random() < bad / 2:
            dangling = d / "tests/ut/op_host" / f"test_{snake(op)}_extra_tiling.cpp"
            dangling.symlink_to(root / "no-such-file.cpp")
            planted["dangling"].append(dangling.relative_to(repo).as_posix())
    for i in range(pages):
        rel, text = doc_page(i, rng)
        f = docs / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        if rng.random() < bad:
            f.write_bytes(_malformed_md(rng, text))
            planted["bad_md"].append(rel)
        else:
            f.write_text(text)
    return planted
