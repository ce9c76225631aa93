"""Training artifacts on the real S3 server: datasets read from a prefix, preference sets and checkpoints written,
pruned and fetched back for a resume."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from transformers import TrainerState, TrainingArguments

from kernelgen.storage import open_store
from kernelgen.train import artifacts, checkpoints, data
from kernelgen.train import preferences as prefs

from .helpers import DATA, cot_records

pytestmark = pytest.mark.s3


def test_dataset_and_preferences_on_s3(s3_env):
    from kernelgen.cot.export import write_exports

    bucket = s3_env.new_bucket()
    write_exports(open_store(f"s3://{bucket}/cot"), cot_records(6), ["messages", "dpo"], ["jsonl", "parquet"])
    rows = data.read_records(f"s3://{bucket}/cot", "SFT")
    assert len(rows) == 6 and all("messages" in r for r in rows)
    run = open_store(f"s3://{bucket}/runs/prefsrc")
    for name in ("records.jsonl", "candidates.jsonl", "summary.json"):
        run.write_bytes(name, (DATA / "benchrun-mul" / name).read_bytes())
    pref = prefs.from_uris([f"s3://{bucket}/runs/prefsrc"], strategy="green-vs-both")
    uri = prefs.write(pref, f"s3://{bucket}/prefs")
    assert uri == f"s3://{bucket}/prefs/preferences.jsonl" and pref.manifest["pairs"] == 2
    assert json.loads(artifacts.read_bytes(f"s3://{bucket}/prefs/manifest.json"))["pairsByNegative"] == \
        {"orange": 1, "purple": 1}


def test_checkpoint_sync_prune_and_fetch(s3_env, tmp_path):
    bucket = s3_env.new_bucket()
    uri = f"s3://{bucket}/run/checkpoints"
    args = TrainingArguments(output_dir=str(tmp_path / "trainer"), use_cpu=True, report_to="none")
    sync = checkpoints.CheckpointSync(uri, keep=2)
    for step in (10, 20, 30):
        local = tmp_path / "trainer" / f"checkpoint-{step}"
        local.mkdir(parents=True)
        (local / "trainer_state.json").write_text(json.dumps({"global_step": step}))
        (local / "optimizer.pt").write_bytes(bytes([step]) * 1000)
        sync.on_save(args, TrainerState(global_step=step), None)
    assert checkpoints.complete_checkpoints(uri) == [(20, "checkpoint-20"), (30, "checkpoint-30")]
    assert not artifacts.list_files(f"{uri}/checkpoint-10")
    # An upload without its COMPLETE marker (a pod killed mid-upload) is never resumed from.
    artifacts.write_bytes(f"{uri}/checkpoint-40/trainer_state.json", b"{}")
    assert checkpoints.latest(uri) == (30, "checkpoint-30")
    got = checkpoints.fetch(uri, "checkpoint-30", tmp_path / "restart")
    assert got == tmp_path / "restart" / "checkpoint-30"
    assert (got / "optimizer.pt").read_bytes() == bytes([30]) * 1000 and not (got / "COMPLETE").exists()
    # the Trainer's files plus the record of what was saved (step, world size, optimizer digest) for the resume check
    assert sorted(p.name for p in Path(got).iterdir()) == [checkpoints.DIGEST_FILE, "optimizer.pt", "trainer_state.json"]
    assert json.loads((got / checkpoints.DIGEST_FILE).read_text())["step"] == 30
