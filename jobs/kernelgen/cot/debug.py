"""Stage 5, error-derived debug CoT from BenchRun records (paper §4.2.1, Tables 15-16).

API level: compile failures are clustered by a normalised error signature (paths, line numbers and
non-API identifiers removed, API names kept); a few members of each cluster get documentation retrieved by
the API names and error text, and the teacher writes the diagnosis and corrected code.
Kernel level: numerically wrong kernels (value/NaN mismatch) are paired with a verified kernel of the same task
(a candidate that passed every case, else the reference answer of `suiteUri` when the source names one), and the
teacher writes reconstruction CoT. The pair also gives a DPO triple (verified = chosen, wrong = rejected).
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from . import prompts
from .context import StageContext
from .docs import ChunkIndex, reasoning_and_answer
from .records import CoTRecord
from .teacher import TeacherRequest

NUMERIC = {"value_mismatch", "nan_mismatch"}
_DIAG = re.compile(r"^(?:.*?:\d+(?::\d+)?:\s*)?(?:fatal\s+)?error:\s*(.*)$", re.MULTILINE)


def error_signature(log: str, max_lines: int = 2) -> tuple[str, list[str]]:
    """(signature, API names) of a compiler log: the first error lines with paths/numbers stripped and
    quoted non-API identifiers replaced; CamelCase names in quotes (DataCopy, Add) are kept as the API."""
    apis: list[str] = []
    sigs = []
    for m in list(_DIAG.finditer(log))[:max_lines]:
        msg = m.group(1)

        def quoted(q: re.Match) -> str:
            name = q.group(2)
            core = re.sub(r"^.*::", "", name)
            if re.fullmatch(r"[A-Z][A-Za-z0-9]*", core):
                apis.append(core)
                return f"'{core}'"
            return "'ID'"
        msg = re.sub(r"(['‘`])([^'’`]+)(['’`])", quoted, msg)
        msg = re.sub(r"\b\d+\b", "N", msg)
        sigs.append(re.sub(r"\s+", " ", msg).strip())
    return " | ".join(sigs) or "no-diagnostic", sorted(set(apis))


def _read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def _kernel_text(files: dict[str, str]) -> str:
    ks = [v for k, v in sorted(files.items()) if "op_kernel" in k] or [v for _, v in sorted(files.items())]
    return "\n\n".join(ks)


def _suite_answer(suite: Path | None, task_id: str) -> str | None:
    if suite is None:
        return None
    root = suite / "tasks" if (suite / "tasks").is_dir() else suite
    d = root / task_id
    files = sorted((d / "answer").glob("*/op_kernel/*")) if d.is_dir() else []
    return "\n\n".join(f.read_text(errors="replace") for f in files) or None


def run_debug(ctx: StageContext, sources, doc_index: ChunkIndex | None) -> list[CoTRecord]:
    st = ctx.stage_stats("debug")
    mark = ctx.teacher_mark()
    records: list[CoTRecord] = []
    for src in sources:
        base = Path(src.local_path)
        rec_path = base / "records.jsonl" if base.is_dir() else base
        cand_path = rec_path.parent / "candidates.jsonl"
        evals = _read_jsonl(rec_path)
        cands = {(c["task_id"], c["sample"]): c for c in _read_jsonl(cand_path)}
        suite = Path(src.suite_local) if getattr(src, "suite_local", None) else None
        by_sample: dict[tuple[str, int], list[dict]] = defaultdict(list)
        for e in evals:
            by_sample[(e["task_id"], e["sample"])].append(e)
        green: dict[str, dict] = {}
        for (task, sample), es in sorted(by_sample.items()):
            if all(e["verdict"] == "ok" for e in es) and (task, sample) in cands:
                green.setdefault(task, cands[(task, sample)])
        clusters: dict[str, list] = defaultdict(list)
        numeric = []
        for (task, sample), es in sorted(by_sample.items()):
            cand = cands.get((task, sample))
            compile_err = next((e for e in es if e["verdict"] == "compile_error"), None)
            wrong = next((e for e in es if e["verdict"] in NUMERIC), None)
            if compile_err is None and wrong is None:
                continue
            # Clusters are formed over the whole record file (cheap, no teacher), so every shard picks the same
            # representatives; a shard then counts and asks only for the items it owns.
            mine = ctx.mine(f"debug:{src.uri}:{task}:{sample}")
            st.inputs += mine
            if cand is None or not cand.get("files"):
                if mine:
                    st.drop("no_candidate_files", item=f"{task}:{sample}")
                continue
            if ctx.decontam is not None:
                hit = (ctx.decontam.check_names([es[0].get("op_name", ""), task.rsplit("/", 1)[-1]])
                       or ctx.decontam.check_code(_kernel_text(cand["files"])))
                if hit:
                    if mine:
                        st.drop("decontam:" + hit.reason, item=f"{task}:{sample}")
                        ctx.decontam.report("debug", f"{src.uri}:{task}:{sample}", hit)
                    continue
            if compile_err is not None:
                sig, apis = error_signature(compile_err.get("compile_log", ""))
                clusters[sig].append((task, sample, compile_err, cand, apis, mine))
            elif mine:
                numeric.append((task, sample, wrong, cand))
        st.extra["error_clusters"] = st.extra.get("error_clusters", 0) + (len(clusters) if ctx.shard == 0 else 0)
        api_items = []
        for sig, members in sorted(clusters.items()):
            keep = members[:ctx.options.debug_per_cluster]
            for task, sample, e, cand, apis, mine in members[len(keep):]:
                if mine:
                    st.drop("cluster_surplus", item=f"{task}:{sample}")
            for task, sample, e, cand, apis, mine in keep:
                if not mine:
                    continue
                code, log = _kernel_text(cand["files"]), e["compile_log"]
                docs = doc_index.search(" ".join(apis) + " " + sig, ctx.options.retrieve_k) if doc_index else []
                while docs and not ctx.fits(st, f"api|{task}|{sample}", prompts.debug_api(code, log, [d.text for d in docs]),
                                            record=False):
                    docs = docs[:-1]                      # too long for the teacher: fewer documents first
                if not ctx.fits(st, f"api|{task}|{sample}", prompts.debug_api(code, log, [d.text for d in docs])):
                    continue
                api_items.append((f"api|{task}|{sample}", task, sample, sig, apis, code, log, docs, e))
        reps = ctx.teacher.ask([TeacherRequest(key=k, messages=prompts.debug_api(code, log, [d.text for d in docs]),
                                               accept=lambda r: bool(r.content.strip() or r.reasoning.strip()))
                                for k, _, _, _, _, code, log, docs, _ in api_items])
        for k, task, sample, sig, apis, code, log, docs, e in api_items:
            rep = reps.get(k)
            if not ctx.keep_reply(rep, st, item=k):
                continue
            reasoning, answer = reasoning_and_answer(rep)
            if not answer:
                st.drop("empty_answer", item=k)
                continue
            records.append(CoTRecord(
                kind="debug_api", source=src.uri, prompt=prompts.debug_question(code, log), reasoning=reasoning,
                answer=answer, lang="en", licence=ctx.options.licence,
                provenance={"run": e.get("run", ""), "task_id": task, "sample": sample,
                            "candidate_sha256": e.get("candidate_sha256", ""), "docs": [d.id for d in docs]},
                teacher={"diagnosis": rep.provenance(), "prompt_version": prompts.PROMPT_VERSION},
                meta={"signature": sig, "apis": apis, "error_class": e.get("error_class")}))
        kitems = []
        for task, sample, e, cand in numeric:
            ref = green.get(task)
            ref_code = _kernel_text(ref["files"]) if ref else _suite_answer(suite, task)
            if not ref_code:
                st.drop("no_reference", item=f"{task}:{sample}")
                continue
            wrong = _kernel_text(cand["files"])
            if not ctx.fits(st, f"kernel|{task}|{sample}", prompts.debug_kernel(task, wrong, ref_code, e["message"])):
                continue
            kitems.append((f"kernel|{task}|{sample}", task, sample, e, wrong, ref_code, "candidate" if ref else "suite"))
        reps = ctx.teacher.ask([TeacherRequest(key=k, messages=prompts.debug_kernel(task, wrong, ref, e["message"]),
                                               accept=lambda r: bool(r.content.strip() or r.reasoning.strip()))
                                for k, task, _, e, wrong, ref, _ in kitems])
        for k, task, sample, e, wrong, ref, ref_from in kitems:
            rep = reps.get(k)
            if not ctx.keep_reply(rep, st, item=k):
                continue
            reasoning, answer = reasoning_and_answer(rep)
            records.append(CoTRecord(
                kind="debug_kernel", source=src.uri, prompt=prompts.debug_kernel_question(task, wrong, e["message"]),
                reasoning=reasoning, answer=answer or f"```cpp\n{ref}\n```", lang="en", licence=ctx.options.licence,
                provenance={"run": e.get("run", ""), "task_id": task, "sample": sample, "reference": ref_from,
                            "candidate_sha256": e.get("candidate_sha256", "")},
                teacher={"reconstruction": rep.provenance(), "prompt_version": prompts.PROMPT_VERSION},
                meta={"verdict": e["verdict"], "max_abs_err": e.get("max_abs_err"),
                      "dpo_prompt": f"Write the AscendC kernel for task {task}.",
                      "chosen": f"```cpp\n{ref}\n```"},
                rejected={"reasoning": "", "answer": f"```cpp\n{wrong}\n```"}))
    st.outputs += len(records)
    ctx.count_teacher(st, mark)
    return records
