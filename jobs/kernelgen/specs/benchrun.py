"""BenchRun: generate n candidate kernels per task with an LLM, then compile, run and time them (NPUKernelBench-style)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from kernelgen.specs.backends import BACKENDS, BackendName
from kernelgen.specs.common import (
    MAX_LIST,
    LocalObjectReference,
    ModelRef,
    Resource,
    RunControls,
    RunStatus,
    Sampling,
    ShortStr,
    SpecModel,
    TrainRunRef,
    Uri,
    field_error,
)


class GeneratorModel(ModelRef):
    """The model to sample from: a uri, or the model another TrainRun exported (exactly one)."""

    cel_rules: ClassVar = [
        {"rule": "has(self.uri) != has(self.fromTrainRun)", "message": "set exactly one of uri and fromTrainRun"}
    ]

    uri: Uri | None = Field(  # type: ignore[assignment]
        default=None, description="Model directory or file: a path, file://, s3:// (synced to a local cache first)."
    )
    from_train_run: TrainRunRef | None = Field(
        default=None, description="Sample from the model this TrainRun exported (status.modelURI); the run waits "
        "until it is Complete."
    )

    @model_validator(mode="after")
    def _exactly_one_source(self) -> GeneratorModel:
        if (self.uri is None) == (self.from_train_run is None):
            raise field_error("uri", "set exactly one of uri and fromTrainRun")
        return self


class Suite(SpecModel):
    """Which tasks to evaluate."""

    uri: Uri = Field(
        default="builtin",
        description="'builtin' (the project's own suite), a directory in the NPUKernelBench layout, or an s3:// prefix.",
    )
    levels: list[Literal[1, 2, 3]] = Field(
        default_factory=lambda: [1, 2, 3], min_length=1, max_length=3, description="Difficulty levels to include."
    )
    categories: list[ShortStr] = Field(
        default_factory=list, max_length=MAX_LIST, description="Only these categories (empty: all)."
    )
    names: list[ShortStr] = Field(default_factory=list, max_length=MAX_LIST, description="Only these tasks (empty: all).")
    limit: int | None = Field(default=None, ge=1, description="At most this many tasks, after filtering.")
    shape_mode: Literal["static", "dynamic"] = Field(
        default="static", description="static: shapes fixed at compile time; dynamic: shapes passed at run time."
    )
    max_cases: int | None = Field(default=None, ge=1, description="At most this many test cases per task.")


class Candidates(SpecModel):
    """Where the candidate kernels come from."""

    cel_rules: ClassVar = [
        {
            "rule": "!has(self.source) || !(self.source in ['jsonl', 'directory']) || has(self.uri)",
            "message": "uri is required when source is jsonl or directory",
            "fieldPath": ".uri",
        }
    ]

    source: Literal["generate", "reference", "jsonl", "directory"] = Field(
        default="generate",
        description="generate: sample from the generator; reference: the suite's reference answers; "
        "jsonl: a JSONL file of generations; directory: one file per task and sample.",
    )
    uri: Uri | None = Field(default=None, description="The JSONL file or directory (required for jsonl/directory).")

    @model_validator(mode="after")
    def _uri_when_needed(self) -> Candidates:
        if self.source in ("jsonl", "directory") and self.uri is None:
            raise field_error("uri", f"required when source is {self.source}")
        return self


class Generator(SpecModel):
    """The LLM that writes the kernels."""

    cel_rules: ClassVar = [
        {
            "rule": "!has(self.engine) || self.engine != 'openai' || has(self.endpoint)",
            "message": "endpoint is required when engine is openai",
            "fieldPath": ".endpoint",
        }
    ]

    engine: Literal["vllm", "openai", "transformers"] = Field(
        default="vllm",
        description="vllm: offline engine in the pod; openai: an OpenAI-compatible server at endpoint; "
        "transformers: plain transformers generate (slow; for small models and tests).",
    )
    model: GeneratorModel = Field(description="The model to sample from.")
    endpoint: ShortStr | None = Field(default=None, description="Base URL of the OpenAI-compatible server (openai).")
    api_key_secret_ref: LocalObjectReference | None = Field(
        default=None, description="Secret with key OPENAI_API_KEY for the openai engine."
    )
    template: Literal["kernel-only", "full"] = Field(
        default="kernel-only",
        description="kernel-only: the model writes the kernel body; full: it writes the three project files.",
    )
    sampling: Sampling = Field(default_factory=Sampling, description="Sampling parameters.")
    tensor_parallel_size: int = Field(default=1, ge=1, le=64, description="Tensor-parallel degree (vllm).")
    batch_size: int | None = Field(default=None, ge=1, description="Prompts per engine batch (unset: engine default).")
    max_concurrency: int = Field(default=16, ge=1, le=4096, description="Concurrent requests (openai).")
    request_timeout_seconds: int = Field(default=600, ge=1, description="Timeout of one request (openai).")
    npus: int = Field(default=1, ge=0, le=64, description="NPUs for the generate stage.")

    @model_validator(mode="after")
    def _endpoint_for_openai(self) -> Generator:
        if self.engine == "openai" and not self.endpoint:
            raise field_error("endpoint", "required when engine is openai")
        return self


class Tolerance(SpecModel):
    """Absolute and relative tolerance for one dtype: |out - ref| <= atol + rtol * |ref|."""

    atol: float = Field(ge=0, description="Absolute tolerance.")
    rtol: float = Field(ge=0, description="Relative tolerance.")


class Evaluation(SpecModel):
    """How candidates are compiled, run and timed."""

    backend: BackendName = Field(
        default="sim", description="; ".join(f"{b.name}: {b.summary}" for b in BACKENDS.values()) + "."
    )
    compile_timeout_seconds: int = Field(default=600, ge=1, description="Time limit for one compile.")
    run_timeout_seconds: int = Field(default=120, ge=1, description="Time limit for running one test case.")
    memory_limit_mib: int = Field(
        default=4096, ge=64, alias="memoryLimitMiB", description="Memory limit of one candidate process, in MiB."
    )
    warmup: int = Field(default=1, ge=0, le=1000, description="Untimed runs before timing.")
    trials: int = Field(default=10, ge=1, le=10000, description="Timed runs per case.")
    seed: int | None = Field(default=None, description="Seed for generated inputs (each case and input draw derives "
                             "its own). Unset: a fresh seed per run, recorded in the run's seed.json and "
                             "summary.json; set it to reproduce a run.")
    draws: int | None = Field(default=None, ge=1, le=16, description="Input draws per test case, each compared "
                              "(unset: 2 in static shape mode, 1 in dynamic mode).")
    workers: int | None = Field(default=None, ge=1, le=256, description="Parallel candidate processes (unset: CPUs).")
    timing: bool = Field(default=False, description="Measure speedup against the reference (needs exclusive devices).")
    tolerances: dict[str, Tolerance] = Field(
        default_factory=dict,
        max_length=16,
        description="Per-dtype overrides keyed by dtype name (float16, bfloat16, float32, ...).",
    )
    npus: int | None = Field(
        default=None, ge=0, le=64,
        description="NPUs per evaluator pod (unset: 1 for ascend, 0 for sim). With sim, 1 places the simulator's "
                    "evaluations on Ascend nodes (what a cluster without spare CPU nodes does).",
    )
    exclusive_device: bool = Field(default=True, description="One whole NPU per evaluator so timings are not shared.")
    runtime_class_name: ShortStr | None = Field(
        default=None,
        description="RuntimeClass of the evaluate pods, which run untrusted generated kernels (e.g. gvisor or kata "
        "for a second sandbox around the harness's own); default: the operator's evaluation.runtimeClassName.",
    )
    sync_check: Literal["off", "warn", "error"] = Field(
        default="off",
        description="sim backend: ascsim's missing-synchronisation detector (pipes that would race on the device); "
                    "warn adds its reports to each case's diagnostics, error fails the case.",
    )


class Metrics(SpecModel):
    """Which summary figures to compute."""

    k: list[int] = Field(
        default_factory=lambda: [1, 10, 100],
        min_length=1,
        max_length=16,
        description="k values for pass@k (reported only where n >= k).",
    )
    fast_p: list[Annotated[float, Field(ge=0, le=1000)]] = Field(
        default_factory=lambda: [1.0, 1.5, 2.0],
        max_length=16,
        description="p values of KernelBench's fast_p: the share of candidates that are correct and at least p times "
        "faster than the baseline (needs evaluation.timing).",
    )
    bootstrap_samples: int = Field(default=1000, ge=0, le=100000, description="Bootstrap resamples (0: no intervals).")
    confidence: float = Field(default=0.95, gt=0, lt=1, description="Confidence level of the intervals.")


class BenchRunSpec(RunControls):
    """What to evaluate and how."""

    immutable_fields: ClassVar = ("suite", "candidates", "generator", "evaluation")
    cel_rules: ClassVar = [
        {
            "rule": "(has(self.candidates) && has(self.candidates.source) && self.candidates.source != 'generate') "
            "|| has(self.generator)",
            "message": "generator is required when candidates.source is generate",
            "fieldPath": ".generator",
        }
    ]

    suite: Suite = Field(default_factory=Suite, description="Which tasks to evaluate; immutable.")
    candidates: Candidates = Field(default_factory=Candidates, description="Where candidates come from; immutable.")
    generator: Generator | None = Field(
        default=None, description="The LLM (required when candidates.source is generate); immutable."
    )
    evaluation: Evaluation = Field(default_factory=Evaluation, description="Compile/run/time settings; immutable.")
    metrics: Metrics = Field(default_factory=Metrics, description="Summary figures.")
    eval_shards: int = Field(default=1, ge=1, le=256, description="Evaluator shards (one Indexed Job index each).")

    @model_validator(mode="after")
    def _generator_when_generating(self) -> BenchRunSpec:
        if self.candidates.source == "generate" and self.generator is None:
            raise field_error("generator", "required when candidates.source is generate")
        return self


class LevelResults(SpecModel):
    """Figures for one difficulty level."""

    tasks: int | None = Field(default=None, description="Tasks evaluated.")
    compile_rate: float | None = Field(default=None, description="Fraction of candidates that compiled.")
    exec_rate: float | None = Field(default=None, description="Fraction of candidates that ran correctly.")
    pass_at1: float | None = Field(default=None, alias="passAt1", description="Unbiased pass@1.")
    pass_at10: float | None = Field(default=None, alias="passAt10", description="Unbiased pass@10.")
    pass_at100: float | None = Field(default=None, alias="passAt100", description="Unbiased pass@100.")
    fast_p: dict[str, float] = Field(
        default_factory=dict, description="KernelBench fast_p by p (e.g. '1.5'): share of candidates correct and at "
        "least p times faster (absent when correct candidates were not timed).")
    speedup_geomean: float | None = Field(default=None, description="Geometric-mean speedup over correct candidates.")


class BenchResults(LevelResults):
    """Headline figures of the run."""

    by_level: dict[str, LevelResults] = Field(default_factory=dict, description="The same figures per level.")
    compile_error_classes: dict[str, int] = Field(
        default_factory=dict, description="Candidates that failed to compile, by the paper's six error classes (+ other).")
    verdicts: dict[str, int] = Field(default_factory=dict, description="Candidates by verdict (first failing case).")


class BenchRunStatus(RunStatus):
    """BenchRun status: the common fields plus the results."""

    results: BenchResults | None = Field(default=None, description="Headline figures (when the report stage ran).")


class BenchRun(Resource):
    """A benchmark run: generate kernels, compile, run and time them, report pass@k and speedups."""

    kind_name: ClassVar = "BenchRun"
    plural: ClassVar = "benchruns"
    short_names: ClassVar = ("brun",)
    extra_printer_columns: ClassVar = [
        {"name": "Pass@1", "type": "number", "jsonPath": ".status.results.passAt1", "description": "Unbiased pass@1."},
    ]

    kind: Literal["BenchRun"] = Field(description="BenchRun")
    spec: BenchRunSpec = Field(description="What to evaluate and how.")
    status: BenchRunStatus | None = Field(default=None, description="Written by the operator.")
