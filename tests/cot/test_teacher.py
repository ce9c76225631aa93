from kernelgen.cot.teacher import Teacher, TeacherCache, TeacherRequest
from kernelgen.generate.engine import Completion, SamplingParams
from kernelgen.storage import open_store


class CountingEngine:
    """Stand-in for the model (the boundary): answers `bad` first for prompts containing 'flaky'."""

    name = "counting"
    model_id = "counting"

    def __init__(self):
        self.asked = []

    def generate(self, prompts, params):
        for p in prompts:
            self.asked.append((p.key, p.samples[0]))
            text = "bad" if "flaky" in p.messages[-1]["content"] and p.samples[0] == 0 else "<think>r</think>good"
            yield Completion(key=p.key, sample=p.samples[0], text=text, content=text.split("</think>")[-1],
                             reasoning="r" if "think" in text else "", prompt_tokens=3, completion_tokens=10,
                             finish_reason="stop", seconds=0.0)

    def close(self):
        pass


def make(tmp_path, engine, **kw):
    store = open_store(tmp_path)
    return Teacher(lambda: engine, "m", SamplingParams(max_tokens=16, temperature=0), TeacherCache(store, "cache.jsonl"),
                   **kw)


def req(key, text, accept=None):
    return TeacherRequest(key=key, messages=[{"role": "user", "content": text}], accept=accept)


def test_cache_means_a_rerun_asks_nothing(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng)
    out = t.ask([req("a", "one"), req("b", "two")])
    t.close()
    assert {k: v.content for k, v in out.items()} == {"a": "good", "b": "good"} and len(eng.asked) == 2
    built = []

    def factory():
        built.append(1)
        return eng
    t2 = Teacher(factory, "m", SamplingParams(max_tokens=16, temperature=0),
                 TeacherCache(open_store(tmp_path), "cache.jsonl"))
    again = t2.ask([req("a", "one"), req("b", "two")])
    assert not built, "all answers were cached: the model must not even be loaded"
    assert all(r.cached for r in again.values()) and t2.calls == 0 and t2.cached == 2


def test_a_torn_last_cache_line_is_ignored(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng)
    t.ask([req("a", "one")])
    t.close()
    with open(tmp_path / "cache.jsonl", "a") as fh:
        fh.write('{"h": "dead", "text": "tor')
    t2 = make(tmp_path, eng)
    assert t2.ask([req("a", "one")])["a"].cached


def test_retry_with_a_new_attempt_when_the_answer_is_unusable(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng, retries=2)
    out = t.ask([req("x", "flaky question", accept=lambda r: r.content == "good")])
    assert out["x"].content == "good" and out["x"].attempts == 2
    assert [s for _, s in eng.asked] == [0, 1]


def test_retries_exhausted_gives_none(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng, retries=1)
    out = t.ask([req("x", "q", accept=lambda r: False)])
    assert out["x"] is None and len(eng.asked) == 2


def test_token_budget_counts_cached_answers_too(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng, token_budget=15)
    out = t.ask([req(str(i), f"q{i}") for i in range(3)])
    # one batch is in flight when the budget runs out; nothing after it is asked
    assert len(eng.asked) == 3 and t.spent == 30
    t.close()
    t2 = make(tmp_path, eng, token_budget=15)
    out = t2.ask([req("new", "another")])
    assert out["new"] is None and len(eng.asked) == 3


def test_identical_prompts_are_asked_once(tmp_path):
    eng = CountingEngine()
    t = make(tmp_path, eng)
    out = t.ask([req("a", "same"), req("b", "same")])
    assert len(eng.asked) == 1 and out["a"].content == out["b"].content == "good"
