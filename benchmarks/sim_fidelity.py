"""Simulator fidelity on NPUKernelBench: every task's reference answer (AscendC that passes on real hardware) built
and run in the sim backend, case by case, exactly as a BenchRun evaluates a candidate.

    python benchmarks/sim_fidelity.py [--suite DIR] [--levels 1 2 3] [--tasks 'level2/Norm/*'] [--jobs 2]
                                      [--json out.json] [--save-dir DIR] [--cold]

A correct answer that fails here is a simulator false negative. Prints pass counts per level, then the failure
classes grouped (compile errors by build step, error class and first error line; runtime errors; wrong answers),
then the wall time. Not counted: tasks without an answer/0 and cases whose inputs the dataset's own
prepare_inputs.py cannot build on CPU torch (reported separately). A task passes when every runnable case is ok.

--json writes the per-task results to that file; --save-dir writes them to DIR/fidelity-<timestamp>.json and the
path of that file to DIR/fidelity-latest.txt. --cold builds into a fresh, empty build cache (cold-cache timing).
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import fnmatch
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "jobs"))

from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402
from rich.table import Table  # noqa: E402

from kernelgen.bench.candidates import reference_candidates  # noqa: E402
from kernelgen.bench.evaluate import derive_seed  # noqa: E402
from kernelgen.bench.model import Task, Verdict  # noqa: E402
from kernelgen.bench.runner import OOM_MARKERS  # noqa: E402
from kernelgen.bench.tasks import load_suite  # noqa: E402

DEV_SPLIT = REPO / ".." / "shared" / "fixtures" / "npukernelbench-dev" / "tasks"
WRONG = {Verdict.SHAPE_MISMATCH, Verdict.DTYPE_MISMATCH, Verdict.NAN_MISMATCH, Verdict.VALUE_MISMATCH,
         Verdict.INPUT_MUTATION}
# the dataset's own input builder failed (e.g. torch.randn for an integer dtype): not the simulator's doing
DATASET_FAULT = re.compile(r"get_inputs failed|get_init_inputs failed")
FAILED = ("compile_error", "runtime_error", "wrong_answer", "memory_limit")


def _first_error_line(log: str) -> str:
    lines = log.splitlines()
    for ln in lines:   # the linker's own complaint, not collect2's summary of it
        if "undefined reference" in ln or "multiple definition" in ln:
            return ln.strip()
    for ln in lines:
        if re.search(r"\berror\b", ln, re.IGNORECASE) and not ln.startswith("[") and "collect2" not in ln:
            return ln.strip()
    return next((ln.strip() for ln in log.splitlines() if ln.strip()), "")


def _build_step(log: str) -> str:
    """The build step that failed, from the backend's `[what] exit code N` header."""
    m = re.search(r"^\[([^\]]+)\] exit code", log, re.MULTILINE)
    if not m:
        return "driver"
    step = m.group(1)
    return re.sub(r"^(host|kernel combination) .*", r"\1", step)


def normalise(line: str) -> str:
    """A message as a grouping key: no file paths, line/column numbers, addresses or sizes."""
    line = re.sub(r"^\S*?:\d+:\d+:\s*", "", line)            # path:line:col:
    line = re.sub(r"(/[\w.+-]+)+/", "", line)                   # directories
    line = re.sub(r"0x[0-9a-fA-F]+", "0x?", line)
    line = re.sub(r"\b\d+\b", "N", line)
    return line.strip()[:160]


def evaluate_task(backend, task: Task, cand, scratch: Path, timeout_s: float, memory_mib: int,
                  slots: threading.Semaphore, cases_pool: cf.Executor) -> dict:
    """Build the answer, then run its cases; the build and each case hold one of the `slots` (--jobs), so a task
    with many cases spreads over idle CPUs instead of running them one after another."""
    from kernelgen.bench.sandbox import run_case
    t0 = time.monotonic()
    with slots:
        ws = backend.prepare(task, cand, scratch / task.task_id.replace("/", "_"))
        cres = backend.compile(ws, timeout_s=900)
    rec = {"task": task.task_id, "level": task.level, "compile_s": round(cres.seconds, 2), "cached": cres.cached}
    if not cres.ok:
        first = _first_error_line(cres.log)
        rec.update(status="compile_error", verdict=(cres.verdict or Verdict.COMPILE_ERROR).value,
                   error_class=cres.error_class.value if cres.error_class else None, step=_build_step(cres.log),
                   first_error=first, group=f"{_build_step(cres.log)}: {normalise(first)}", log_tail=cres.log[-3000:],
                   cases={}, seconds=round(time.monotonic() - t0, 2))
        return rec
    rt = backend.runtime_env(ws)

    def one(c) -> dict:
        with slots:
            r = run_case(task, c, rt, seed=derive_seed(0, task.task_id, c.case_id), timeout_s=timeout_s,
                         memory_mib=memory_mib, scratch=scratch / "cases" / task.task_id.replace("/", "_") / str(c.case_id))
        return {"verdict": r.verdict.value, "message": r.message[:1500], "diagnostics": list(r.diagnostics[:4]),
                "seconds": round(r.seconds, 2)}
    ordered = sorted(task.cases, key=lambda c: c.case_id)
    rec["cases"] = cases = dict(zip((c.case_id for c in ordered), cases_pool.map(one, ordered)))
    rec["seconds"] = round(time.monotonic() - t0, 2)
    rec.update(classify_cases(cases))
    return rec


def classify_cases(cases: dict) -> dict:
    """Task status from its case verdicts: the first failing case (runtime before wrong answers) names the group."""
    runnable = {k: v for k, v in cases.items() if not (v["verdict"] == Verdict.INFRA_ERROR.value and
                                                       DATASET_FAULT.search(v["message"]))}
    out = {"dataset_cases": len(cases) - len(runnable), "runnable_cases": len(runnable),
           "ok_cases": sum(v["verdict"] == Verdict.OK.value for v in runnable.values())}
    if not runnable:
        return {**out, "status": "dataset"}
    bad = [(k, v) for k, v in runnable.items() if v["verdict"] != Verdict.OK.value]
    if not bad:
        return {**out, "status": "pass"}
    wrong = {v.value for v in WRONG}
    bad.sort(key=lambda kv: (kv[1]["verdict"] in wrong, kv[0]))
    cid, v = bad[0]
    status = "wrong_answer" if v["verdict"] in wrong else "runtime_error"
    if v["verdict"] == Verdict.MEMORY_EXCEEDED.value or any(m in v["message"] for m in OOM_MARKERS):
        status = "memory_limit"   # the case process hit --memory-mib (inputs, reference and simulated GM together)
    msg = v["message"]
    # the simulator's own error line (EZ9999 ... / [ascsim] ...) says more than the Python traceback's tail
    key = next((ln for ln in msg.splitlines() if "EZ9999" in ln or "ascsim" in ln), msg.splitlines()[0] if msg else "")
    return {**out, "status": status, "verdict": v["verdict"], "first_error": key.strip()[:400], "failed_case": cid,
            "group": f"{v['verdict']}: {normalise(key)}"}


def reclassify(rec: dict) -> dict:
    """A saved record classified by this version's rules (older files group by older rules)."""
    if rec.get("status") == "compile_error" and "collect2" in rec.get("first_error", "") and rec.get("log_tail"):
        first = _first_error_line(rec["log_tail"])
        step = _build_step(rec["log_tail"]) if "exit code" in rec["log_tail"] else rec.get("step", "driver")
        return {**rec, "first_error": first, "group": f"{step}: {normalise(first)}"}
    if rec.get("cases") and rec.get("status") not in ("compile_error", "no_answer"):
        return {**rec, **classify_cases(rec["cases"])}
    return rec


def select(suite_root: Path, levels: list[int] | None, patterns: list[str] | None):
    suite = load_suite(suite_root.resolve(), levels=levels)
    tasks = [t for t in suite.tasks if not patterns or any(
        fnmatch.fnmatch(t.task_id, p) or fnmatch.fnmatch(t.op_name, p) for p in patterns)]
    return tasks, suite.errors


def render(console: Console, results: list[dict], wall_s: float) -> None:
    levels = sorted({r["level"] for r in results})
    t = Table(title="reference answers passing in the sim (runnable cases only)")
    for col in ("level", "tasks", "with answer", "pass", "compile error", "runtime error", "wrong answer",
                "memory limit", "dataset-only", "cases ok / runnable", "dataset cases"):
        t.add_column(col, justify="right")
    for lv in levels + ["all"]:
        rs = [r for r in results if lv == "all" or r["level"] == lv]
        st = collections.Counter(r["status"] for r in rs)
        ans = [r for r in rs if r["status"] != "no_answer"]
        t.add_row(str(lv), str(len(rs)), str(len(ans)), f"{st['pass']}/{len(ans) - st['dataset']}", str(st["compile_error"]),
                  str(st["runtime_error"]), str(st["wrong_answer"]), str(st["memory_limit"]), str(st["dataset"]),
                  f"{sum(r.get('ok_cases', 0) for r in rs)}/{sum(r.get('runnable_cases', 0) for r in rs)}",
                  str(sum(r.get("dataset_cases", 0) for r in rs)))
    console.print(t)
    groups: dict[tuple, list[str]] = collections.defaultdict(list)
    for r in results:
        if r["status"] in FAILED:
            groups[(r["status"], r.get("error_class") or r.get("verdict") or "", r["group"])].append(r["task"].split("/")[-1])
    g = Table(title="failure classes (a task counted once, by its first failure)", show_lines=False)
    for col, j in (("n", "right"), ("status", "left"), ("class", "left"), ("first error (normalised)", "left"),
                   ("tasks", "left")):
        g.add_column(col, justify=j, overflow="fold")
    for (status, cls, group), names in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        g.add_row(str(len(names)), status, cls, group, ", ".join(sorted(names)))
    console.print(g)
    for r in results:
        if r["status"] == "no_answer":
            console.print(f"[dim]not counted: {r['task']}: no answer/0[/dim]")
        elif r.get("dataset_cases"):
            console.print(f"[dim]not counted: {r['task']}: {r['dataset_cases']} case(s) the dataset cannot build[/dim]")
    compiled = [r["compile_s"] for r in results if "compile_s" in r]
    cached = sum(1 for r in results if r.get("cached"))   # the cache's state, not the flag: an empty dir is cold too
    console.print(f"wall time {wall_s:.0f} s ({cached} of {len(compiled)} builds from the build cache); compile time summed "
                  f"{sum(compiled):.0f} s, case time summed "
                  f"{sum(c['seconds'] for r in results for c in r.get('cases', {}).values()):.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", type=Path, default=DEV_SPLIT)
    ap.add_argument("--levels", type=int, nargs="*")
    ap.add_argument("--tasks", nargs="*", help="glob(s) on the task id (level2/Norm/*) or the op name")
    ap.add_argument("--jobs", type=int, default=2, help="tasks built and run at once")
    ap.add_argument("--json", type=Path, help="write the per-task results here")
    ap.add_argument("--save-dir", type=Path, help="write DIR/fidelity-<timestamp>.json and DIR/fidelity-latest.txt")
    ap.add_argument("--cold", action="store_true", help="build into a fresh, empty build cache")
    ap.add_argument("--case-timeout", type=float, default=180)
    ap.add_argument("--memory-mib", type=int, default=4096, help="memory limit of one case process (BenchRun default)")
    ap.add_argument("--render", type=Path, help="print the tables of a saved results file (re-classified) and exit")
    args = ap.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    if args.render:   # a finished run's JSON, or the .partial.jsonl of one still going
        text = args.render.read_text()
        doc = ({"tasks": [json.loads(ln) for ln in text.splitlines() if ln.strip()], "wall_s": 0}
               if args.render.suffix == ".jsonl" else json.loads(text))
        render(console, [reclassify(r) for r in doc["tasks"]], doc["wall_s"])
        return 0
    if not args.suite.is_dir():
        console.print(f"suite not found: {args.suite} (../shared absent?)")
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="sim-fidelity-"))
    if args.cold:
        os.environ["KERNELGEN_SIM_CACHE"] = str(tmp / "cache")
    from kernelgen.bench.backends.sim import SimBackend
    backend = SimBackend()
    ok, why = backend.available()
    if not ok:
        console.print(f"sim backend unavailable: {why}")
        return 3
    tasks, errors = select(args.suite, args.levels, args.tasks)
    for e in errors:
        console.print(f"[yellow]task failed to load: {e}[/yellow]")
    cands = {c.task_id: c for c in reference_candidates(tasks)[0]}
    results = [{"task": t.task_id, "level": t.level, "status": "no_answer", "cases": {}}
               for t in tasks if t.task_id not in cands]
    todo = [t for t in tasks if t.task_id in cands]
    t0 = time.monotonic()
    backend.warm_up(time.monotonic() + 1800)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    partial = None   # --save-dir: results as they come (one JSON line per task), readable while a long run goes on
    if args.save_dir:
        args.save_dir.mkdir(parents=True, exist_ok=True)
        partial = (args.save_dir / f"fidelity-{stamp}.partial.jsonl").open("w")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[last]}"), console=console) as prog:
        bar = prog.add_task("reference answers", total=len(todo), last="")
        slots = threading.Semaphore(max(1, args.jobs))
        # level 3 first: its cases are the longest, started last they would set the wall time alone
        todo.sort(key=lambda t: (-t.level, t.task_id))
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool, \
             cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as cases_pool:
            futs = {pool.submit(evaluate_task, backend, t, cands[t.task_id], tmp, args.case_timeout, args.memory_mib,
                                slots, cases_pool): t for t in todo}
            for f in cf.as_completed(futs):
                t = futs[f]
                try:
                    rec = f.result()
                except Exception as e:  # noqa: BLE001 - the harness broke on this task; report it, go on
                    rec = {"task": t.task_id, "level": t.level, "status": "harness_error", "first_error": repr(e)[:400],
                           "group": "harness_error", "cases": {}}
                results.append(rec)
                if partial:
                    partial.write(json.dumps(rec) + "\n")
                    partial.flush()
                prog.update(bar, advance=1, last=f"{t.task_id}: {rec['status']}")
    wall = time.monotonic() - t0
    results.sort(key=lambda r: r["task"])
    render(console, results, wall)
    doc = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "suite": str(args.suite.resolve()),
           "wall_s": round(wall, 1), "cold_cache": args.cold,
           "cached_builds": sum(1 for r in results if r.get("cached")), "versions": backend.versions(), "tasks": results}
    outs = [args.json] if args.json else []
    if args.save_dir:
        outs.append(args.save_dir / f"fidelity-{stamp}.json")
    for p in outs:
        p.write_text(json.dumps(doc, indent=1))
        console.print(f"results: {p}")
    if args.save_dir:
        (args.save_dir / "fidelity-latest.txt").write_text(str(outs[-1].resolve()) + "\n")
        partial.close()
        Path(partial.name).unlink(missing_ok=True)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
