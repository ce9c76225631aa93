import json

import pytest
from .conftest import FIXTURES
from kernelgen.cot.general import (
    detect_shape,
    read_rows,
    repetition,
    split_think,
    to_triple,
)
from kernelgen.cot.ngram_lm import CharNgramLM
from kernelgen.cot.scorers import NgramScorer


@pytest.mark.parametrize("row,shape,triple", [
    ({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<think>r</think>a"}]},
     "messages", ("q", "r", "a")),
    ({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "reasoning_content": "r", "content": "a"}]},
     "messages", ("q", "r", "a")),
    ({"conversations": [{"from": "human", "value": "q"}, {"from": "gpt", "value": "<think>r</think>a"}]},
     "sharegpt", ("q", "r", "a")),
    ({"instruction": "i", "input": "x", "output": "r</think>a"}, "alpaca", ("i\n\nx", "r", "a")),
    ({"input": "q", "reasoning_content": "r", "content": "a"}, "r1-distill", ("q", "r", "a")),
    ({"message": "q", "reasoning": "r", "answer": "a"}, "message-reasoning-answer", ("q", "r", "a")),
    ({"problem": "q", "solution": "<|begin_of_thought|>r<|end_of_thought|><|begin_of_solution|>a<|end_of_solution|>"},
     "problem-solution", ("q", "r", "a")),
    ({"question": "q", "answer": "a"}, "question-answer", ("q", "", "a")),
])
def test_record_shapes(row, shape, triple):
    assert detect_shape(row) == shape
    assert to_triple(row, shape) == triple


def test_unterminated_think_is_rejected():
    assert split_think("<think>never closed") is None
    assert to_triple({"instruction": "q", "output": "<think>cut"}, "alpaca") is None


def test_reads_jsonl_json_array_and_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = list(read_rows(FIXTURES / "general/alpaca_en.json"))
    assert len(rows) == 9 and all("instruction" in r for r in rows)
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "x.parquet")
    assert list(read_rows(tmp_path / "x.parquet")) == rows
    (tmp_path / "x.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n{torn")
    assert list(read_rows(tmp_path / "x.jsonl")) == rows


def test_ngram_lm_prefers_text_like_its_corpus():
    corpus = ["the tile is copied into the unified buffer", "the queue holds two buffers for the copy",
              "the vector unit computes while the copy runs"] * 3
    lm = CharNgramLM(3).fit(corpus)
    assert lm.perplexity("the copy runs into the buffer") < lm.perplexity("zq#x@@vk ~~ pwq!! jjz")


def test_ngram_scorer_is_relative_and_leave_one_out():
    texts = ["the copy runs into the buffer"] * 5 + ["zq#x@@vk ~~ pwq!! jjz qq%%"]
    s = NgramScorer().scores(texts)
    assert s[0] == pytest.approx(1.0) and s[-1] > 2.0


def test_repetition_flags_degenerate_loops():
    assert repetition("the same words again " * 20) > 0.5
    assert repetition("a varied sentence with many different words that never repeat in any way at all here") == 0
