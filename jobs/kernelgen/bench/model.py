"""Data types shared by the BenchRun harness, its backends and everything that reads its records.

This module is the contract between the task loader, the candidate sources, the backends (`sim`, `ascend`)
and the consumers of records (metrics, reports, preference construction, debug CoT). Keep it free of
heavy imports.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


class Verdict(str, enum.Enum):
    """Outcome of one (task, case, sample). Ordered roughly by how far the candidate got."""

    PARSE_ERROR = "parse_error"          # no code could be extracted from the response
    COMPILE_ERROR = "compile_error"      # host, kernel or binding failed to build
    LOAD_ERROR = "load_error"            # built, but the module/op could not be loaded or resolved
    RUNTIME_ERROR = "runtime_error"      # crashed, raised, or the simulator's strict layer rejected it
    TIMEOUT = "timeout"                  # exceeded the run time limit (process group killed)
    MEMORY_EXCEEDED = "memory_exceeded"  # exceeded the address-space limit
    SHAPE_MISMATCH = "shape_mismatch"
    DTYPE_MISMATCH = "dtype_mismatch"
    NAN_MISMATCH = "nan_mismatch"        # non-finite pattern differs from the reference
    VALUE_MISMATCH = "value_mismatch"    # outside tolerance
    INPUT_MUTATION = "input_mutation"    # candidate wrote into an input tensor
    INFRA_ERROR = "infra_error"          # the harness itself failed; not the candidate's fault
    OK = "ok"

    @property
    def compiled(self) -> bool:
        return self not in (Verdict.PARSE_ERROR, Verdict.COMPILE_ERROR, Verdict.INFRA_ERROR)

    @property
    def executed(self) -> bool:
        """Ran to completion and produced outputs that could be compared (right or wrong)."""
        return self in (Verdict.OK, Verdict.SHAPE_MISMATCH, Verdict.DTYPE_MISMATCH, Verdict.NAN_MISMATCH,
                        Verdict.VALUE_MISMATCH, Verdict.INPUT_MUTATION)


class CompileErrorClass(str, enum.Enum):
    """The paper's six compile-error classes (Appendix B), plus `other` for anything unclassified."""

    API_SIGNATURE = "api_signature"        # no matching overload, wrong argument count/order
    DATA_TYPE = "data_type"                # invalid types, illegal conversions
    SCOPE = "scope"                        # undeclared identifiers, use outside scope
    MEMORY_OBJECT = "memory_object"        # misuse of TPipe/LocalTensor/GlobalTensor members
    SYNTAX = "syntax"                      # C++ syntax, incomplete class definitions
    MACRO = "macro"                        # macro/tiling preprocessing errors
    OTHER = "other"


@dataclass(frozen=True)
class TestCase:
    """One row of a task's test_cases.csv; `values` holds the parsed Python literals by column name."""

    case_id: int
    values: dict[str, Any]
    raw: dict[str, str] = field(default_factory=dict, compare=False)   # cell text as written in the CSV


@dataclass
class Task:
    """One NPUKernelBench-layout task directory."""

    root: Path                 # tasks/levelN/<Category>/<OpName>
    level: int
    category: str
    op_name: str               # CamelCase, directory name cut at the first '_'
    kernel_name: str           # snake_case: file names, kernel entry, python binding
    api_desc: str
    question_files: dict[str, str]   # relpath (op_host/x.cpp, op_kernel/x.cpp) -> text
    answer_dir: Path | None          # answer/0 if present
    cases: list[TestCase]
    validation_dir: Path             # module.py, prepare_inputs.py, pybind.cpp, test_cases.csv
    suite: str = ""                  # suite name, e.g. "builtin" or "npukernelbench-sample"

    @property
    def task_id(self) -> str:
        return f"level{self.level}/{self.category}/{self.op_name}"


@dataclass
class Candidate:
    """Source files proposed for a task: relpath under the op project (op_host/..., op_kernel/...) -> text.

    A kernel-only candidate has just op_kernel/<kernel>.cpp; the host file then comes from the task's
    question template.
    """

    task_id: str
    sample: int
    files: dict[str, str]
    origin: str                      # "reference", "jsonl:<uri>", "dir:<path>", "generate:<model>"
    response_sha256: str = ""        # hash of the raw model response (empty for non-generated)
    meta: dict[str, Any] = field(default_factory=dict)
    parse_error: str = ""            # set when files could not be extracted from a response


@dataclass
class Workspace:
    """A prepared per-candidate build directory owned by one backend."""

    root: Path
    task: Task
    candidate: Candidate
    content_sha256: str              # hash of everything that determines the build


@dataclass
class CompileResult:
    ok: bool
    seconds: float
    log: str = ""                    # compiler diagnostics, trimmed
    cached: bool = False
    error_class: CompileErrorClass | None = None
    verdict: Verdict | None = None   # COMPILE_ERROR, TIMEOUT or INFRA_ERROR when not ok


@dataclass
class RuntimeEnv:
    """How the harness's sandboxed case worker must be started to use a compiled candidate."""

    env: dict[str, str]              # extra environment variables
    python_path: list[Path]          # directories that hold kernel_gen_ops (and shims such as torch_npu)
    device: str                      # torch device for ModelNew inputs, e.g. "cpu" (sim) or "npu:0"
    # The op's definition says it updates inputs (an output named like an input, CANN's Ref form, or no output
    # at all): writing into an input is then its contract, not a fault. Inputs are cloned per call and the
    # reference is computed from its own copy, so this relaxes a semantics check, never a verdict's basis.
    inplace_op: bool = False


def updates_inputs(inputs: set[str], outputs: set[str]) -> bool:
    """Whether an OpDef with these parameter names updates inputs (`RuntimeEnv.inplace_op`): an output named like
    an input (CANN's Ref form), or inputs and no output at all."""
    return bool(inputs) and (not outputs or bool(inputs & outputs))


@runtime_checkable
class Backend(Protocol):
    """prepare -> compile -> runtime_env; the harness runs cases in its sandboxed worker with that env.

    A backend is registered by name in kernelgen.specs.backends (what it needs of the cluster, which spec fields
    it reads) and lives in kernelgen.bench.backends.<name>. Backends subclass this protocol: the two hooks at the
    end have defaults that do nothing, and a backend overrides those it needs.
    """

    name: str

    def versions(self) -> dict[str, str]:
        """Toolchain versions recorded with every result (compiler, simulator, CANN, torch_npu...)."""
        ...

    def available(self) -> tuple[bool, str]:
        """Whether this backend can run here, and why not."""
        ...

    def prepare(self, task: Task, candidate: Candidate, workdir: Path) -> Workspace: ...

    def compile(self, ws: Workspace, timeout_s: float) -> CompileResult: ...

    def runtime_env(self, ws: Workspace) -> RuntimeEnv: ...

    # -- hooks with defaults -------------------------------------------------------------------------------------
    def warm_up(self, deadline: float) -> None:
        """Build what every compile of a run shares (sim: precompiled headers) once, before concurrent compiles
        start, by `deadline` (time.monotonic()). Called only when several workers compile; a failure is ignored
        (each compile then builds what it needs and reports its own error)."""

    def after_case(self, ws: Workspace, case: TestCase, res: CaseResult) -> CaseResult:
        """Turn one case's result into the backend's verdict (ascend: typed NPU runtime errors, and a canary op
        that quarantines a device after an AI Core exception or timeout). Called after each case, before its
        record is written; returns the result to record."""
        return res


@dataclass
class CaseResult:
    """What the sandboxed case worker reports for one test case of one compiled candidate."""

    verdict: Verdict
    message: str = ""                       # why it failed, one line, shaped for humans
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatch_fraction: float | None = None  # share of elements outside tolerance
    worst: list[dict] = field(default_factory=list)           # largest differences (output, index, expected, got)
    candidate_ms: list[float] = field(default_factory=list)   # raw per-trial times, candidate
    baseline_ms: list[float] = field(default_factory=list)    # raw per-trial times, reference model
    diagnostics: list[str] = field(default_factory=list)      # simulator warnings, stderr tail
    seconds: float = 0.0                    # wall time of the whole case


# Artifact layout of a BenchRun under its output URI (all JSONL appended as work finishes; resume skips
# keys already present):
#   candidates.jsonl   one CandidateRecord per (task_id, sample)
#   records.jsonl      one EvalRecord per (task_id, case_id, sample)
#   summary.json, report.md, report.html, tasks/<task>.html (a page per task), manifest.json


@dataclass
class CandidateRecord:
    run: str
    task_id: str
    sample: int
    origin: str
    files: dict[str, str]
    candidate_sha256: str
    response_sha256: str = ""
    response: str = ""          # raw model response (content), if generated
    reasoning: str = ""         # reasoning split from the content, if any
    parse_error: str = ""
    meta: dict[str, Any] = field(default_factory=dict)   # model, sampling params, seed, tokens, timing


@dataclass
class EvalRecord:
    run: str
    task_id: str
    level: int
    category: str
    op_name: str
    case_id: int
    sample: int
    verdict: str                  # Verdict value
    message: str
    candidate_sha256: str
    compile_ok: bool
    error_class: str | None       # CompileErrorClass value when compile failed
    compile_log: str              # trimmed diagnostics
    compile_seconds: float
    compile_cached: bool
    max_abs_err: float | None
    max_rel_err: float | None
    candidate_ms: list[float]
    baseline_ms: list[float]
    speedup: float | None         # median(baseline) / median(candidate) when verdict is ok
    seed: int
    backend: str
    versions: dict[str, str]
    seconds: float
    finished_at: str              # ISO-8601 UTC
    task_sha256: str = ""         # hash of the task's files that define it (question, validation, api_desc)
    diagnostics: list[str] = field(default_factory=list)   # worker stderr tail / traceback lines when not ok
    dtype: str = ""               # the case's dtype column, if it has one (per-dtype breakdowns)
    case: dict[str, str] = field(default_factory=dict)   # the case's parameters as written, when not ok
    worst: list[dict] = field(default_factory=list)      # the largest differences, when the values mismatch

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.task_id, self.case_id, self.sample)
