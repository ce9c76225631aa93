"""The kernelgen operator: reconciles BenchRun, TrainRun and CoTBuild into batch/v1 Jobs (kopf)."""
