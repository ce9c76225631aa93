"""CoTBuild: the Ascend-CoT dataset builder (paper §4.1, §4.2.1).

Stages are functions over records, composed by `pipeline.build_shard` / `pipeline.merge`:
docs (documentation CoT), kernel (kernel-level CoT), project (project-level CoT), general (filtered open CoT),
debug (error-derived CoT), then decontamination against a benchmark suite and the trl exports.
"""
