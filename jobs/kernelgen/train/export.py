"""Publish the trained model: a plain HF checkpoint (LoRA merged) that vLLM and transformers load, plus a card."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from kernelgen.storage import StoreError
from kernelgen.train import artifacts, distributed, models


def export(trainer: Any, tokenizer: Any, stock_template: str | None, *, spec: Any, base: Path, out: str, work: Path,
           device: str, summary: dict[str, Any]) -> str:
    """Write <out>/model; returns its URI. Every rank must call this (saving gathers sharded weights)."""
    import torch

    model_uri = artifacts.join(out, "model")
    final = work / "final"
    if getattr(trainer, "is_fsdp_enabled", False):
        trainer.accelerator.state.fsdp_plugin.set_state_dict_type("FULL_STATE_DICT")   # one loadable file set
    trainer.save_model(str(final))   # full weights, or the LoRA adapter
    distributed.barrier()
    if not distributed.is_main():
        return model_uri
    model_dir = work / "model"
    shutil.rmtree(model_dir, ignore_errors=True)
    dtype = torch.float32 if device == "cpu" else torch.bfloat16
    lora = spec.peft.method == "lora"
    if lora and not spec.export.merge_lora:
        shutil.copytree(final, model_dir)
    else:
        if lora:
            from peft import PeftModel

            model = PeftModel.from_pretrained(models.load_model(base, dtype), final).merge_and_unload()
        else:
            model = models.load_model(final, dtype)
        model.save_pretrained(model_dir)
    tokenizer.chat_template = stock_template   # the markered training template is for the loss mask only
    tokenizer.save_pretrained(model_dir)
    if spec.export.model_card:
        (model_dir / "README.md").write_text(model_card(spec, summary, merged=not lora or spec.export.merge_lora))
    artifacts.delete_dir(model_uri)
    artifacts.upload_dir(model_dir, model_uri)
    return model_uri


def _source_results(records_uri: str | None) -> dict[str, Any] | None:
    """The BenchRun summary of the run the preferences came from, when it is there."""
    if not records_uri:
        return None
    uri = artifacts.join(records_uri.removesuffix("/records.jsonl"), "summary.json")
    try:
        return json.loads(artifacts.read_bytes(uri))
    except (OSError, ValueError, StoreError):
        return None


def model_card(spec: Any, summary: dict[str, Any], *, merged: bool) -> str:
    s = summary["settings"]
    report = summary["data"]["report"]
    lengths = report["lengths"]
    losses = [h["loss"] for h in summary["history"] if "loss" in h]
    lines = [
        "---",
        "library_name: transformers",
        f"base_model: {spec.model.uri}",
        "tags: [kernelgen, ascendc, " + spec.method.lower() + ("" if spec.peft.method == "none" else ", lora") + "]",
        "---",
        f"# {summary['name']}",
        "",
        f"KernelGen-LM stage **{spec.method}** ({'full fine-tuning' if spec.peft.method == 'none' else 'LoRA'}"
        f"{', merged' if spec.peft.method == 'lora' and merged else ''}) of `{spec.model.uri}`, trained with trl "
        f"on {summary['device']} ({summary['worldSize']} process(es)). Load it with transformers or vLLM.",
        "",
        "## Data",
        f"- dataset: `{summary['data']['dataset']}` ({report['format']})",
        f"- records: {report['read']} read, {report['kept']} used; invalid: {report['invalid'] or 'none'}; "
        f"over {report['max_length']} tokens: {report['over_length']} "
        f"({report['dropped_over_length']} dropped, {report['trimmed_over_length']} trimmed)",
        f"- tokens per record: mean {lengths['mean']}, p50 {lengths['p50']}, p90 {lengths['p90']}, "
        f"p99 {lengths['p99']}, max {lengths['max']}; {lengths['tokens']} in all",
    ]
    pref = summary["data"].get("preferences")
    if pref:
        lines.append(f"- preference pairs: {pref['pairs']} ({pref['strategy']}, at most {pref['maxPairsPerTask']} per "
                     f"task) from BenchRun(s) {', '.join(pref['runs'])}; samples {pref['samples']}; "
                     f"provenance in `{pref['uri']}`")
    lines += ["", "## Hyperparameters", "", "| setting | value |", "| --- | --- |"]
    irrelevant = {"trl_extra"} | ({"beta"} if spec.method == "SFT" else {"packing", "assistant_only_loss"})
    shown = {k: v for k, v in s.items() if k not in irrelevant and v is not None}
    shown.update({f"peft.{k}": v for k, v in spec.peft.model_dump().items()} if spec.peft.method == "lora" else {})
    shown.update({f"trl.{k}": v for k, v in s["trl_extra"].items()})
    lines += [f"| {k} | {v} |" for k, v in shown.items()]
    lines += ["", "## Results", "",
              f"- optimizer steps: {summary['globalStep']}"
              + (f" (resumed from {summary['resumedFrom']})" if summary.get("resumedFrom") else ""),
              f"- training loss: first logged {losses[0] if losses else 'n/a'}, last {losses[-1] if losses else 'n/a'}, "
              f"mean {round(summary['trainLoss'], 4)}"]
    last = summary["history"][-2] if len(summary["history"]) > 1 else (summary["history"] or [{}])[-1]
    for key in ("rewards/accuracies", "rewards/margins"):
        if key in last:
            lines.append(f"- DPO {key} at the last logged step: {last[key]}")
    bench = _source_results(spec.preferences.records_uri) if spec.method == "DPO" else None
    if bench:
        results = bench.get("results", bench)
        lines.append(f"- BenchRun that produced the preferences: {json.dumps(results)[:600]}")
    lines += ["- kernel-generation results of this model: run a BenchRun with `generator.model.uri` set to this "
              "model; they are not part of training.", ""]
    return "\n".join(lines)
