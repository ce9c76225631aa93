"""Dataset reading, validation, token lengths and the over-length policy (SmolLM2 tokenizer, no model)."""
from __future__ import annotations

import json

import pytest

from kernelgen.train import data, templates

from .helpers import cot_records


def test_cotbuild_folder_picks_the_export_kind_for_the_method(cot_dataset):
    sft = data.read_records(str(cot_dataset), "SFT")
    dpo = data.read_records(str(cot_dataset), "DPO")
    assert len(sft) == 12 and all("messages" in r for r in sft)      # jsonl only, not jsonl + parquet
    assert len(dpo) == 12 and all({"prompt", "chosen", "rejected"} <= set(r) for r in dpo)
    assert data.detect_format(sft[0]) == "messages" and data.detect_format(dpo[0]) == "preference"


def test_parquet_only_folder_and_s3_style_uri(tmp_path):
    from kernelgen.cot.export import write_exports
    from kernelgen.storage import open_store

    write_exports(open_store(tmp_path), cot_records(5), ["prompt-completion"], ["parquet"])
    rows = data.read_records(f"file://{tmp_path}", "SFT")
    assert len(rows) == 5 and data.detect_format(rows[0]) == "prompt-completion"


def test_reasoning_field_is_inlined_as_think():
    rec = {"messages": [{"role": "user", "content": "q"},
                        {"role": "assistant", "content": "answer", "reasoning": "because"}]}
    row = data.normalise(rec, "messages")
    assert row["messages"][-1]["content"] == "<think>\nbecause\n</think>\n\nanswer"


@pytest.mark.parametrize("record,reason", [
    ({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<think>x"}]},
     "unterminated-think"),
    ({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<think>x</think>  "}]},
     "empty-answer"),
    ({"messages": [{"role": "user", "content": "q"}]}, "no-assistant-turn"),
    ({"messages": [{"role": "robot", "content": "q"}, {"role": "assistant", "content": "a"}]}, "bad-role"),
])
def test_invalid_records_are_counted_by_reason(smol_tokenizer, record, reason):
    good = {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}
    rows, report = data.prepare([good, record, good], smol_tokenizer, uri="mem", max_length=512)
    assert len(rows) == 2 and report.invalid == {reason: 1} and report.kept == 2


def test_token_stats_and_over_length_drop_or_trim(smol_tokenizer):
    short = {"prompt": "Add two numbers.", "completion": "Use Add(dst, a, b, n)."}
    long = {"prompt": "Explain tiling. " * 60, "completion": "Split the tensor into tiles. " * 40}
    n_short = data.token_length(smol_tokenizer, data.normalise(short, "prompt-completion"))
    n_long = data.token_length(smol_tokenizer, data.normalise(long, "prompt-completion"))
    assert n_short < 64 < n_long
    rows, rep = data.prepare([short, long, short], smol_tokenizer, uri="mem", max_length=64, over_length="drop")
    assert len(rows) == 2 and rep.over_length == 1 and rep.dropped_over_length == 1 and rep.trimmed_over_length == 0
    assert rep.lengths.records == 2 and rep.lengths.max == n_short and rep.lengths.tokens == 2 * n_short
    rows, rep = data.prepare([short, long, short], smol_tokenizer, uri="mem", max_length=64, over_length="trim")
    assert len(rows) == 3 and rep.trimmed_over_length == 1 and rep.lengths.max == n_long
    assert rep.lengths.p50 == n_short


def test_preference_rows_need_distinct_sides(smol_tokenizer):
    same = {"prompt": "q", "chosen": "a", "rejected": "a"}
    ok = {"prompt": "q", "chosen": {"reasoning": "r", "content": "a"}, "rejected": "b"}
    rows, rep = data.prepare([same, ok], smol_tokenizer, uri="mem", fmt="auto", max_length=256)
    assert rep.format == "preference" and rep.invalid == {"chosen-equals-rejected": 1}
    assert rows[0]["chosen"][0]["content"].startswith("<think>\nr\n</think>")


def test_markered_template_renders_like_smollm2s_own(smol_tokenizer):
    import copy

    tok = copy.deepcopy(smol_tokenizer)
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "<think>\nx\n</think>\nyo"}]
    with_system = [{"role": "system", "content": "sys"}] + msgs
    stock = [tok.apply_chat_template(m, tokenize=False) for m in (msgs, with_system)]
    assert templates.install_training_template(tok)
    assert "{% generation %}" in tok.chat_template
    assert [tok.apply_chat_template(m, tokenize=False) for m in (msgs, with_system)] == stock
    out = tok.apply_chat_template(msgs, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    masked = [t for t, m in zip(out["input_ids"], out["assistant_masks"]) if m]
    assert tok.decode(masked) == "<think>\nx\n</think>\nyo<|im_end|>"


def test_empty_or_unknown_dataset_is_an_error(tmp_path, smol_tokenizer):
    (tmp_path / "x.jsonl").write_text(json.dumps({"foo": 1}) + "\n")
    with pytest.raises(data.DatasetError):
        data.prepare(data.read_records(str(tmp_path / "x.jsonl")), smol_tokenizer, uri="x", max_length=64)
    with pytest.raises(data.DatasetError):
        data.read_records(str(tmp_path / "empty-dir-that-is-missing"))
