"""The `openai` engine against a real OpenAI-compatible server: llama-cpp-python's server on the SmolLM2 GGUF
(hack/llama-server/build.sh builds and caches it). Includes killing the server mid-run."""
from __future__ import annotations

import threading
import time

import pytest
from kernelgen.generate.engine import Prompt, SamplingParams
from kernelgen.generate.openai_engine import OpenAIEngine, parse_choice

from .conftest import SMOL_GGUF
from .llama_server import LlamaServer, available
from .test_stage import bench_spec, check_candidates, read_candidates

ok, why = available()
needs_server = pytest.mark.skipif(not ok, reason=why)
CODE = [{"role": "user", "content": "Write a C++ add function."}]


@pytest.fixture(scope="module")
def server(smol_dir, tmp_path_factory):
    srv = LlamaServer(smol_dir / SMOL_GGUF, log_path=tmp_path_factory.mktemp("llama") / "server.log").start()
    yield srv
    srv.stop()


def test_parse_choice_reads_server_reasoning_fields():
    # vllm / DeepSeek reasoning parsers put the trace in reasoning_content; newer servers in reasoning.
    for field in ("reasoning_content", "reasoning"):
        data = {"choices": [{"message": {"content": "<kernel_impl>x</kernel_impl>", field: "plan"},
                             "finish_reason": "length"}], "usage": {"prompt_tokens": 7, "completion_tokens": 5}}
        text, content, reasoning, finish, pt, ct = parse_choice(data, "chat")
        assert (content, reasoning, finish, pt, ct) == ("<kernel_impl>x</kernel_impl>", "plan", "length", 7, 5)
        assert text == "<think>\nplan\n</think>\n<kernel_impl>x</kernel_impl>"
    # no reasoning field: an inline think block is split; completions text continues the prefill
    data = {"choices": [{"message": {"content": "<think>a</think>b"}}]}
    assert parse_choice(data, "chat")[1:3] == ("b", "a")
    data = {"choices": [{"text": "plan</think>\nanswer", "finish_reason": "stop"}]}
    assert parse_choice(data, "completions", "<think>\n")[:3] == ("<think>\nplan</think>\nanswer", "answer", "plan")


@needs_server
@pytest.mark.model
@pytest.mark.parametrize("endpoint", ["chat", "completions"])
def test_chat_and_completions_endpoints(server, endpoint):
    # One request at a time: llama.cpp batches concurrent requests, and a different batch changes float rounding,
    # so seeded reproducibility is only bit-exact for requests that run alone.
    eng = OpenAIEngine(server.url, "smollm2", endpoint=endpoint, max_concurrency=1, timeout_s=120)
    assert eng.models() == ["smollm2"]
    prefix = "<think>\n" if endpoint == "completions" else ""
    params = SamplingParams(temperature=0.7, max_tokens=16, seed=5)
    got = {c.sample: c for c in eng.generate([Prompt("t", CODE, [0, 1, 2], assistant_prefix=prefix)], params)}
    assert sorted(got) == [0, 1, 2]
    for c in got.values():
        assert c.ok and c.finish_reason in ("stop", "length") and 0 < c.completion_tokens <= 16
        assert c.prompt_tokens > 10 and c.seed is not None
        if prefix:
            assert c.text.startswith("<think>\n") and c.reasoning   # the open think block is reasoning
    # per-sample seeds: asking for sample 1 again alone reproduces it
    again = next(iter(eng.generate([Prompt("t", CODE, [1], assistant_prefix=prefix)], params)))
    assert again.text == got[1].text
    eng.close()


@needs_server
@pytest.mark.model
def test_failed_requests_are_reported_not_raised(smol_dir):
    eng = OpenAIEngine("http://127.0.0.1:9", "smollm2", retries=1, backoff_s=0.05, timeout_s=2)
    c = next(iter(eng.generate([Prompt("t", CODE, [0])], SamplingParams(max_tokens=4))))
    assert not c.ok and c.finish_reason == "error" and "ConnectError" in c.error


SAMPLES = 2   # per task, 3 tasks: 6 generations with ~1k-token prompts per phase on 2 CPU cores


def _openai_spec(tmp_path, url):
    from kernelgen.specs import load_spec

    gen = {"engine": "openai", "endpoint": url, "model": {"uri": "smollm2"}, "maxConcurrency": 2,
           "requestTimeoutSeconds": 900, "sampling": {"samples": SAMPLES, "temperature": 0.7, "topP": 0.9, "maxTokens": 48,
                                                       "seed": 0}}
    return load_spec(bench_spec(tmp_path / "runs", gen, name="oa-gen"))


def _wait_lines(path, n, timeout=600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) >= n:
            return path.read_bytes().splitlines()
        time.sleep(0.2)
    raise AssertionError(f"{path} never reached {n} lines")


@needs_server
@pytest.mark.model
@pytest.mark.slow
@pytest.mark.timeout(2400)   # ~2 min of CPU; far longer on a loaded 2-core machine
def test_server_killed_mid_run_loses_and_regenerates_nothing(tmp_path, smol_dir):
    from kernelgen.bench.generate_stage import run_generate
    from kernelgen.bench.rundir import RunError

    srv = LlamaServer(smol_dir / SMOL_GGUF, log_path=tmp_path / "server.log").start()
    try:
        spec = _openai_spec(tmp_path, srv.url)
        out = tmp_path / "runs" / "oa-gen" / "candidates.jsonl"

        # 1. Kill the server mid-run and bring it back on the same port: in-flight requests retry with backoff
        #    and the run completes.
        box: dict = {}
        th = threading.Thread(target=lambda: box.setdefault("res", run_generate(spec, progress=False)))
        th.start()
        before_kill = _wait_lines(out, 3)
        srv.stop()
        time.sleep(2.0)
        srv.start()
        th.join(timeout=900)
        assert not th.is_alive() and box["res"].ok, box
        lines = out.read_bytes().splitlines()
        assert lines[:len(before_kill)] == before_kill          # completed samples untouched
        check_candidates(read_candidates(out), engine="openai", n=SAMPLES)
        assert box["res"].written + box["res"].existing == 3 * SAMPLES

        # 2. A rerun finds everything: nothing is regenerated.
        res = run_generate(spec, progress=False)
        assert (res.existing, res.written) == (3 * SAMPLES, 0)
        assert out.read_bytes().splitlines() == lines

        # 3. Server gone for good mid-run: the stage fails after writing what completed; once the server is
        #    back, the rerun generates exactly the missing samples.
        keep = len(lines) - 3
        out.write_bytes(b"\n".join(lines[:keep]) + b"\n")
        from kernelgen.generate import make_engine

        flaky = make_engine(spec.spec.generator, retries=1, backoff_s=0.05)
        srv.stop()
        with pytest.raises(RunError, match="failed and were not written"):
            run_generate(spec, progress=False, engine=flaky)
        assert out.read_bytes().splitlines() == lines[:keep]
        srv.start()
        res = run_generate(spec, progress=False)
        assert (res.existing, res.written) == (keep, 3)
        final = out.read_bytes().splitlines()
        assert final[:keep] == lines[:keep]
        check_candidates(read_candidates(out), engine="openai", n=SAMPLES)
        assert {json_key(x) for x in final} == {json_key(x) for x in lines}
    finally:
        srv.stop()


def json_key(line: bytes) -> tuple[str, int]:
    import json

    r = json.loads(line)
    return r["task_id"], r["sample"]


