"""One build step in its own process group, bounded by a deadline: shared by the sim and ascend backends."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


class StepTimedOut(Exception):
    """The deadline passed; `started` tells whether the step ran at all (its whole process group was killed)."""

    def __init__(self, started: bool):
        super().__init__("timed out" if started else "deadline passed before the step started")
        self.started = started


def run_group(argv: list[str], deadline: float, *, cwd: Path | None = None,
              env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run argv (stdout+stderr merged) until `deadline` (time.monotonic()); returns (exit code, output).

    Raises OSError when the program cannot start, StepTimedOut past the deadline.
    """
    left = deadline - time.monotonic()
    if left <= 0:
        raise StepTimedOut(started=False)
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace", start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=left)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:   # a process that escaped the group may still hold the pipe: never wait on it unbounded
            proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.stdout.close()
        raise StepTimedOut(started=True) from None
    return proc.returncode, out
