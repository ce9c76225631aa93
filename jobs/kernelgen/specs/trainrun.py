"""TrainRun: KernelGen-LM training with trl: SFT (full or LoRA) or DPO on execution-based preferences."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from kernelgen.specs.common import (
    OpaqueObject,
    Quantity,
    Resource,
    RunControls,
    RunStatus,
    ShortStr,
    SpecModel,
    TrainRunRef,
    Uri,
    field_error,
)


class TrainModel(SpecModel):
    """The model to train: a base model for SFT, usually the SFT output for DPO (a uri or fromTrainRun)."""

    cel_rules: ClassVar = [
        {"rule": "has(self.uri) != has(self.fromTrainRun)", "message": "set exactly one of uri and fromTrainRun"}
    ]

    uri: Uri | None = Field(
        default=None, description="Model directory or file: a path, file://, s3:// (synced to a local cache first)."
    )
    from_train_run: TrainRunRef | None = Field(
        default=None, description="Start from the model this TrainRun exported (status.modelURI), e.g. DPO after "
        "SFT; the run waits until it is Complete."
    )
    gguf_file: ShortStr | None = Field(default=None, description="GGUF file name inside uri, when the model is GGUF.")
    revision: ShortStr | None = Field(default=None, description="Revision label recorded with the outputs.")

    @model_validator(mode="after")
    def _exactly_one_source(self) -> TrainModel:
        if (self.uri is None) == (self.from_train_run is None):
            raise field_error("uri", "set exactly one of uri and fromTrainRun")
        return self


class CoTBuildRef(SpecModel):
    """A CoTBuild in the same namespace whose output is the dataset."""

    name: ShortStr = Field(min_length=1, description="Name of the CoTBuild.")


class BenchRunRef(SpecModel):
    """A BenchRun in the same namespace whose records are the execution feedback."""

    name: ShortStr = Field(min_length=1, description="Name of the BenchRun.")


class Dataset(SpecModel):
    """Training data: a uri, or the output of a CoTBuild (exactly one)."""

    cel_rules: ClassVar = [
        {
            "rule": "has(self.uri) != has(self.fromCoTBuild)",
            "message": "set exactly one of uri and fromCoTBuild",
        }
    ]

    uri: Uri | None = Field(default=None, description="Dataset file or directory (JSONL or Parquet).")
    from_co_t_build: CoTBuildRef | None = Field(
        default=None,
        alias="fromCoTBuild",
        description="Use the output of this CoTBuild; the run waits until it is Complete.",
    )
    format: Literal["auto", "messages", "prompt-completion", "preference"] = Field(
        default="auto", description="Record format (auto: detected from the first records)."
    )

    @model_validator(mode="after")
    def _exactly_one_source(self) -> Dataset:
        if (self.uri is None) == (self.from_co_t_build is None):
            raise field_error("uri", "set exactly one of uri and fromCoTBuild")
        return self


class Preferences(SpecModel):
    """DPO pairs built from BenchRun records (execution feedback, paper Table 4): recordsUri or fromBenchRun."""

    cel_rules: ClassVar = [
        {"rule": "!(has(self.recordsUri) && has(self.fromBenchRun))",
         "message": "set at most one of recordsUri and fromBenchRun"}
    ]

    records_uri: Uri | None = Field(default=None, description="BenchRun records (records.jsonl or its run directory).")
    from_bench_run: BenchRunRef | None = Field(
        default=None, description="Pairs from this BenchRun's records (its status.outputs.uri); the run waits until "
        "it is Complete."
    )
    strategy: Literal["green-vs-orange", "green-vs-purple", "green-vs-both"] = Field(
        default="green-vs-both",
        description="chosen = a correct kernel (green); rejected = one that compiled but was wrong (orange), "
        "one that failed to compile (purple), or both.",
    )
    max_pairs_per_task: int = Field(default=16, ge=1, le=10000, description="Cap on pairs per task.")

    @model_validator(mode="after")
    def _at_most_one_source(self) -> Preferences:
        if self.records_uri is not None and self.from_bench_run is not None:
            raise field_error("recordsUri", "set at most one of recordsUri and fromBenchRun")
        return self

    def has_source(self) -> bool:
        return self.records_uri is not None or self.from_bench_run is not None


class Peft(SpecModel):
    """Parameter-efficient fine-tuning."""

    method: Literal["none", "lora"] = Field(default="lora", description="none: full fine-tuning; lora: LoRA adapters.")
    r: int = Field(default=16, ge=1, le=1024, description="LoRA rank.")
    alpha: int = Field(default=32, ge=1, description="LoRA alpha.")
    dropout: float = Field(default=0.05, ge=0, lt=1, description="LoRA dropout.")
    target_modules: list[ShortStr] = Field(
        default_factory=lambda: ["all-linear"], min_length=1, max_length=64, description="Modules that get adapters."
    )


class Hyperparameters(SpecModel):
    """A typed subset of the trl config; anything else goes in extra. Unset fields take the preset's value."""

    preset: Literal["paper", "none"] = Field(
        default="none", description="paper: the paper's settings for the method; none: trl defaults."
    )
    learning_rate: float | None = Field(default=None, gt=0, description="Peak learning rate.")
    epochs: float | None = Field(default=None, gt=0, description="Training epochs.")
    max_steps: int | None = Field(default=None, ge=1, description="Stop after this many optimizer steps.")
    per_device_batch_size: int | None = Field(default=None, ge=1, description="Batch size per device.")
    gradient_accumulation_steps: int | None = Field(default=None, ge=1, description="Gradient accumulation steps.")
    max_length: int | None = Field(default=None, ge=16, description="Maximum sequence length in tokens.")
    warmup_ratio: float | None = Field(default=None, ge=0, lt=1, description="Warm-up fraction of the steps.")
    lr_scheduler: ShortStr | None = Field(default=None, description="Learning-rate schedule, e.g. cosine.")
    packing: bool | None = Field(default=None, description="Pack short examples into full sequences (SFT).")
    assistant_only_loss: bool | None = Field(default=None, description="Loss on assistant tokens only (SFT).")
    beta: float | None = Field(default=None, gt=0, description="DPO beta (default 0.1).")
    extra: OpaqueObject = Field(default_factory=dict, description="Further trl config fields, passed through as is.")


class TrainResources(SpecModel):
    """Compute for the training stage."""

    num_nodes: int = Field(default=1, ge=1, le=256, description="Nodes (more than one: an Indexed Job with torchrun).")
    npus_per_node: int = Field(default=1, ge=0, le=16, description="NPUs per node.")
    npu_resource_name: ShortStr = Field(
        default="huawei.com/Ascend910", description="Extended resource name of the NPUs."
    )
    cpu: Quantity | None = Field(default=None, description="CPU request per pod.")
    memory: Quantity | None = Field(default=None, description="Memory request per pod.")


class Checkpoint(SpecModel):
    """Checkpointing and resume."""

    uri: Uri | None = Field(default=None, description="Checkpoint root (default: <output>/checkpoints).")
    save_steps: int = Field(default=100, ge=1, description="Save every this many steps.")
    resume: bool = Field(default=True, description="Resume from the newest checkpoint when one exists.")
    keep: int = Field(default=2, ge=1, le=100, description="Checkpoints to keep.")


class Export(SpecModel):
    """What the run publishes."""

    merge_lora: bool = Field(default=True, description="Merge LoRA adapters into the base weights.")
    model_card: bool = Field(default=True, description="Write a model card with the training settings.")


class TrainRunSpec(RunControls):
    """What to train and how."""

    immutable_fields: ClassVar = ("method", "model", "dataset", "preferences")
    cel_rules: ClassVar = [
        {
            "rule": "has(self.dataset) || (self.method == 'DPO' && has(self.preferences) && "
            "(has(self.preferences.recordsUri) || has(self.preferences.fromBenchRun)))",
            "message": "dataset is required unless a DPO run takes its pairs from preferences "
            "(recordsUri or fromBenchRun)",
            "fieldPath": ".dataset",
        }
    ]

    method: Literal["SFT", "DPO"] = Field(description="SFT or DPO; immutable.")
    model: TrainModel = Field(description="The model to train; immutable.")
    dataset: Dataset | None = Field(
        default=None, description="Training data (optional for DPO with preferences from BenchRun records); immutable."
    )
    preferences: Preferences = Field(
        default_factory=Preferences, description="DPO pairs from BenchRun records (execution feedback); immutable."
    )
    peft: Peft = Field(default_factory=Peft, description="Full fine-tuning or LoRA.")
    hyperparameters: Hyperparameters = Field(default_factory=Hyperparameters, description="Training settings.")
    resources: TrainResources = Field(default_factory=TrainResources, description="Compute.")
    checkpoint: Checkpoint = Field(default_factory=Checkpoint, description="Checkpointing and resume.")
    export: Export = Field(default_factory=Export, description="What is published.")

    @model_validator(mode="after")
    def _dataset_unless_dpo_from_records(self) -> TrainRunSpec:
        if self.dataset is None and not (self.method == "DPO" and self.preferences.has_source()):
            raise field_error("dataset", "required unless a DPO run takes its pairs from preferences "
                              "(recordsUri or fromBenchRun)")
        return self


class TrainRunStatus(RunStatus):
    """TrainRun status: the common fields plus training figures."""

    final_loss: float | None = Field(default=None, description="Training loss at the last step.")
    steps: int | None = Field(default=None, description="Optimizer steps done.")
    model_uri: ShortStr | None = Field(default=None, alias="modelURI", description="The trained model.")


class TrainRun(Resource):
    """A training run: SFT or DPO of KernelGen-LM with trl."""

    kind_name: ClassVar = "TrainRun"
    plural: ClassVar = "trainruns"
    short_names: ClassVar = ("trun",)
    extra_printer_columns: ClassVar = [
        {"name": "Method", "type": "string", "jsonPath": ".spec.method"},
        {"name": "Step", "type": "integer", "jsonPath": ".status.steps", "description": "Optimizer steps done."},
        {"name": "Loss", "type": "number", "jsonPath": ".status.finalLoss", "description": "Training loss."},
    ]

    kind: Literal["TrainRun"] = Field(description="TrainRun")
    spec: TrainRunSpec = Field(description="What to train and how.")
    status: TrainRunStatus | None = Field(default=None, description="Written by the operator.")
