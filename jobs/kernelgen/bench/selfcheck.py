"""`make demo`'s self-check: a run of reference answers must pass every case, or the install is broken.

A demo that prints a report with 0/16 compiled is not a demo that works (a drifted torch once did exactly that):
this reads the run's records and, when any reference failed, prints the first real compiler error (the first
`error:` lines, not the tail of the notes) and what to do, and exits non-zero.

    python -m kernelgen.bench.selfcheck runs/demo
"""
from __future__ import annotations

import sys
from pathlib import Path

from .errors import first_errors
from .model import Verdict
from .records import read_records

_HINTS = {
    "compile_error": "the simulator could not build a reference answer: check the toolchain with "
                     "`python -m kernelgen.bench.torch_cxx --check` and reinstall from the lock with `make setup-python`",
    "infra_error": "the harness could not run a case (sandbox, worker start): the message above says why",
}


def failures(run_dir: Path) -> tuple[int, list]:
    paths = [run_dir / "records.jsonl", *sorted((run_dir / "records").glob("*.jsonl"))]
    recs = read_records(p for p in paths if p.exists())
    return len(recs), [r for r in recs if r.verdict != Verdict.OK.value]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m kernelgen.bench.selfcheck RUN_DIR", file=sys.stderr)
        return 2
    run_dir = Path(argv[0])
    total, bad = failures(run_dir)
    if total == 0:
        print(f"self-check FAILED: no records in {run_dir}: nothing was evaluated", file=sys.stderr)
        return 1
    if not bad:
        print(f"self-check passed: all {total} reference cases ok")
        return 0
    tasks = sorted({r.task_id for r in bad})
    first = bad[0]
    cause = first_errors(first.compile_log) or first.message or "\n".join(first.diagnostics[-5:])
    print(f"self-check FAILED: {len(bad)} of {total} reference cases are not ok ({len(tasks)} tasks: "
          f"{', '.join(tasks[:8])}{' ...' if len(tasks) > 8 else ''})\n"
          f"first failure: {first.task_id} case {first.case_id}: {first.verdict}\n{cause}\n"
          f"what to do: {_HINTS.get(first.verdict, 'a reference answer gives a wrong result in this install: report it with the run directory')}",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
