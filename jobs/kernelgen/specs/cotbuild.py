"""CoTBuild: build the Ascend-CoT dataset with a teacher LLM, filtered and decontaminated against the benchmark."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from kernelgen.specs.common import (
    MAX_LIST,
    ModelRef,
    Resource,
    RunControls,
    RunStatus,
    Sampling,
    ShortStr,
    SpecModel,
    Uri,
    field_error,
)

# Sources are compared whole by the immutability rule; a small bound keeps its CEL cost estimate low.
MAX_SOURCES = 64

Stage = Literal["docs", "kernel", "project", "general", "debug"]
STAGES: tuple[str, ...] = ("docs", "kernel", "project", "general", "debug")
# Which source list (camelCase, as in YAML) feeds each stage.
STAGE_SOURCES: dict[str, str] = {
    "docs": "docs",
    "kernel": "kernels",
    "project": "projects",
    "general": "general",
    "debug": "benchRecords",
}


class Teacher(SpecModel):
    """The LLM that writes the chains of thought."""

    cel_rules: ClassVar = [
        {
            "rule": "!has(self.engine) || self.engine != 'openai' || has(self.endpoint)",
            "message": "endpoint is required when engine is openai",
            "fieldPath": ".endpoint",
        }
    ]

    engine: Literal["vllm", "openai", "transformers"] = Field(
        default="vllm", description="vllm: offline engine in the pod; openai: a server at endpoint; transformers: slow."
    )
    model: ModelRef = Field(description="The teacher model.")
    endpoint: ShortStr | None = Field(default=None, description="Base URL of the OpenAI-compatible server (openai).")
    sampling: Sampling = Field(default_factory=Sampling, description="Sampling parameters.")
    tensor_parallel_size: int = Field(default=1, ge=1, le=64, description="Tensor-parallel degree (vllm).")
    npus: int = Field(default=1, ge=0, le=64, description="NPUs per generate shard.")
    retries: int = Field(default=3, ge=0, le=20, description="Retries of one failed or unparseable generation.")
    token_budget: int | None = Field(default=None, ge=1, description="Stop after this many generated tokens in total.")
    max_context_tokens: int | None = Field(
        default=None, ge=256, le=4194304,
        description="The teacher's context window in tokens (unset: the model config's). Prompts that leave no room "
        "for maxTokens of answer are skipped and counted (prompt_too_long).",
    )

    @model_validator(mode="after")
    def _endpoint_for_openai(self) -> Teacher:
        if self.engine == "openai" and not self.endpoint:
            raise field_error("endpoint", "required when engine is openai")
        return self


class DocSource(SpecModel):
    """Documentation to turn into documentation CoT."""

    uri: Uri = Field(description="A file or directory of Markdown/HTML/text documentation.")
    language: Literal["auto", "zh", "en"] = Field(default="auto", description="Document language (auto: detected).")


class KernelSource(SpecModel):
    """Kernel sources for kernel-level CoT."""

    uri: Uri = Field(description="A directory of kernel sources.")
    include_roots: list[Uri] = Field(
        default_factory=list, max_length=64,
        description="Extra include directories (relative to uri, or absolute: e.g. a toolkit's include directory).",
    )
    compile_check: Literal["off", "report", "require"] = Field(
        default="off",
        description="Syntax-check each snippet against the simulator headers and includeRoots: report records the "
        "outcome and its reason, require also drops snippets that fail.",
    )


class ProjectSource(SpecModel):
    """Whole operator projects for project-level CoT."""

    uri: Uri = Field(description="A directory of projects.")
    include_roots: list[Uri] = Field(
        default_factory=list, max_length=64, description="Extra include directories (relative to uri, or absolute)."
    )


class GeneralSource(SpecModel):
    """General reasoning data, filtered before use."""

    uri: Uri = Field(description="A JSONL or Parquet dataset.")
    format: Literal["auto", "messages", "prompt-completion", "alpaca", "sharegpt"] = Field(
        default="auto", description="Record format (auto: detected)."
    )


class BenchRecordsSource(SpecModel):
    """BenchRun records whose failures become debug CoT."""

    uri: Uri = Field(description="A BenchRun output directory or its records.jsonl.")


class Sources(SpecModel):
    """Inputs of the build; each stage reads its own list."""

    cel_rules: ClassVar = [
        {
            "rule": " || ".join(
                f"(has(self.{f}) && size(self.{f}) > 0)" for f in ("docs", "kernels", "projects", "general", "benchRecords")
            ),
            "message": "set at least one source",
        }
    ]

    docs: list[DocSource] = Field(default_factory=list, max_length=MAX_SOURCES, description="Documentation (docs stage).")
    kernels: list[KernelSource] = Field(default_factory=list, max_length=MAX_SOURCES, description="Kernels (kernel stage).")
    projects: list[ProjectSource] = Field(
        default_factory=list, max_length=MAX_SOURCES, description="Projects (project stage)."
    )
    general: list[GeneralSource] = Field(
        default_factory=list, max_length=MAX_SOURCES, description="General reasoning data (general stage)."
    )
    bench_records: list[BenchRecordsSource] = Field(
        default_factory=list, max_length=MAX_SOURCES, description="BenchRun records (debug stage)."
    )

    @model_validator(mode="after")
    def _at_least_one(self) -> Sources:
        if not any((self.docs, self.kernels, self.projects, self.general, self.bench_records)):
            raise field_error("docs", "set at least one source (docs, kernels, projects, general, benchRecords)")
        return self


class Perplexity(SpecModel):
    """Perplexity filter for general data."""

    scorer: Literal["ngram", "causal-lm", "vllm"] = Field(
        default="ngram", description="ngram: a character n-gram model (fast, CPU); causal-lm / vllm: a language model."
    )
    max: float | None = Field(default=None, gt=0, description="Drop records above this perplexity (unset: keep all).")


class Dedup(SpecModel):
    """Near-duplicate removal."""

    threshold: float = Field(default=0.85, gt=0, le=1, description="Jaccard similarity above which records are merged.")


class Filters(SpecModel):
    """Quality filters applied to every record."""

    languages: list[Literal["en", "zh"]] = Field(
        default_factory=lambda: ["en", "zh"], min_length=1, max_length=2, description="Languages to keep."
    )
    min_chars: int | None = Field(default=None, ge=0, description="Drop records shorter than this.")
    max_chars: int | None = Field(default=None, ge=1, description="Drop records longer than this.")
    perplexity: Perplexity = Field(default_factory=Perplexity, description="Perplexity filter.")
    dedup: Dedup = Field(default_factory=Dedup, description="Near-duplicate removal.")


class Decontamination(SpecModel):
    """Removal of records that overlap the benchmark."""

    suite_uri: Uri = Field(default="builtin", description="Suite to decontaminate against (builtin or a path).")
    ngram: int = Field(default=13, ge=3, le=64, description="Word n-gram length for overlap checks.")
    containment: float = Field(default=0.5, gt=0, le=1, description="Drop when this share of a task's n-grams appear.")
    similarity: float = Field(default=0.8, gt=0, le=1, description="Drop when similarity to a task exceeds this.")
    blocklist: list[ShortStr] = Field(
        default_factory=list, max_length=MAX_LIST, description="Extra strings whose presence drops a record."
    )


class CoTExport(SpecModel):
    """Output formats of the dataset."""

    formats: list[Literal["jsonl", "parquet"]] = Field(
        default_factory=lambda: ["jsonl", "parquet"], min_length=1, max_length=2, description="File formats."
    )
    kinds: list[Literal["messages", "prompt-completion", "dpo"]] = Field(
        default_factory=lambda: ["messages", "prompt-completion", "dpo"],
        min_length=1,
        max_length=3,
        description="Record shapes to write.",
    )


def _stages_rule() -> str:
    parts = [
        f"(s != '{stage}' || (has(self.sources.{src}) && size(self.sources.{src}) > 0))"
        for stage, src in STAGE_SOURCES.items()
    ]
    return "!has(self.stages) || self.stages.all(s, " + " && ".join(parts) + ")"


class CoTBuildSpec(RunControls):
    """What to build and how."""

    immutable_fields: ClassVar = ("teacher", "sources", "shards")
    cel_rules: ClassVar = [
        {"rule": _stages_rule(), "message": "every stage in stages needs its source", "fieldPath": ".stages"},
        {
            "rule": "!has(self.allowedFailedShards) || !has(self.shards) || self.allowedFailedShards < self.shards",
            "message": "allowedFailedShards must be less than shards",
            "fieldPath": ".allowedFailedShards",
        },
    ]

    teacher: Teacher = Field(description="The teacher LLM; immutable.")
    sources: Sources = Field(description="Inputs; immutable.")
    stages: list[Stage] | None = Field(
        default=None,
        min_length=1,
        max_length=5,
        description="Stages to run: docs, kernel, project, general, debug (default: every stage whose source is set).",
    )
    filters: Filters = Field(default_factory=Filters, description="Quality filters.")
    decontamination: Decontamination = Field(default_factory=Decontamination, description="Benchmark decontamination.")
    export: CoTExport = Field(default_factory=CoTExport, description="Output formats.")
    shards: int = Field(default=1, ge=1, le=1024, description="Generate shards (one Indexed Job index each); immutable.")
    max_parallel_shards: int = Field(default=1, ge=1, le=1024, description="Shards running at once.")
    allowed_failed_shards: int = Field(default=0, ge=0, description="Shards that may fail without failing the build.")

    @model_validator(mode="after")
    def _cross_checks(self) -> CoTBuildSpec:
        if self.stages is not None:
            for stage in self.stages:
                if not getattr(self.sources, _snake(STAGE_SOURCES[stage])):
                    raise field_error("stages", f"stage {stage} needs sources.{STAGE_SOURCES[stage]}")
        if self.allowed_failed_shards >= self.shards:
            raise field_error("allowedFailedShards", f"must be less than shards ({self.shards})")
        return self

    def effective_stages(self) -> list[str]:
        """The stages that will run, in pipeline order."""
        if self.stages is not None:
            return [s for s in STAGES if s in self.stages]
        return [s for s in STAGES if getattr(self.sources, _snake(STAGE_SOURCES[s]))]


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


class CoTBuildStatus(RunStatus):
    """CoTBuild status: the common fields plus record counts."""

    records: int | None = Field(default=None, description="Records in the dataset.")
    dropped: dict[str, int] = Field(default_factory=dict, description="Records dropped, per filter.")


class CoTBuild(Resource):
    """A dataset build: chains of thought from a teacher LLM, filtered and decontaminated."""

    kind_name: ClassVar = "CoTBuild"
    plural: ClassVar = "cotbuilds"
    short_names: ClassVar = ("cotb",)
    extra_printer_columns: ClassVar = [
        {"name": "Records", "type": "integer", "jsonPath": ".status.records", "priority": 1},
    ]

    kind: Literal["CoTBuild"] = Field(description="CoTBuild")
    spec: CoTBuildSpec = Field(description="What to build and how.")
    status: CoTBuildStatus | None = Field(default=None, description="Written by the operator.")
