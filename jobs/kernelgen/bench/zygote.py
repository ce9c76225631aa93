"""Fork server for the case steps: pays torch's import once, then forks one fresh process per step.

Started by `kernelgen.bench.sandbox` inside the same isolation as a plain worker (its own session, no
network namespace, sanitized environment). It imports torch and the worker module, prints ``READY`` and then
reads one JSON request per line on stdin. For each it forks a child that:
  - becomes the leader of a new session / process group (the harness kills the group on timeout),
  - sets RLIMIT_CORE=0 and RLIMIT_CPU, replaces the environment, points fds 0/1/2 at /dev/null and a log file,
  - runs exactly one step: the judge's ``prepare`` or ``compare`` (`kernelgen.bench.judge`, trusted: never
    loads candidate code), or ``run``: enters the jail (`kernelgen.bench.jail`) and runs the candidate
    (`kernelgen.bench.runner`), which tightens RLIMIT_AS before any candidate code loads; or ``serve``: becomes
    a long-lived judge that runs many judge steps (`kernelgen.bench.judge_server`);
  - ``_exit``s without interpreter teardown.
Where the zygote may create PID namespaces (root, or root of its own user namespace), a ``run`` child is forked
straight into a fresh one as its PID 2 (`jail.PidNamespaceForker`; the zygote kills that namespace's PID 1 when the
child ends or is killed), saving `jail.enter` its own fork of this torch-sized process. Exits are seen through
pidfds, so a finished step is reported at once, not at the next poll.
The fork server itself is non-dumpable and never holds a case's inputs, references or verdict (its children
write them to files), so a candidate forked from it finds nothing of the judge in its memory. Replies on stdout: ``STARTED <id> <pid>`` and ``EXITED <id> <status>``; the
request ``KILL <id>`` kills that case's process group (pids are the zygote's: where the zygote runs in its own
PID namespace — the default where unshare allows it — only it can name them). In a PID namespace the cases
cannot see or signal the harness, and the zygote (PID 1 there) cannot be killed by them.
The zygote never runs task or candidate code itself and stays single-threaded, so forking it is safe; it exits
(killing any children left) when its stdin closes, i.e. when the harness goes away.
"""
from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys


def _child(req: dict, pid2: bool, inherited: list[int]) -> None:
    """One step of a case: ``prepare`` / ``compare`` (the judge, trusted) or ``run`` (the candidate, jailed);
    `pid2`: forked as PID 2 of a fresh PID namespace (`jail.PidNamespaceForker`)."""
    from kernelgen.bench import jail, judge, judge_server, runner

    code = 0
    try:
        for fd in inherited:   # the server's pidfds of other cases: a case must not be able to signal them
            os.close(fd)
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if req.get("cpu_s"):   # the long-lived judge has none: its client's deadline per step bounds it
            cpu = int(req["cpu_s"])
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        null = os.open(os.devnull, os.O_RDONLY)
        log = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        sys.stdout = sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
        with open(req["job"]) as f:
            job = json.load(f)
        if req["role"] == "run":
            (jail.enter_as_pid2 if pid2 else jail.enter)(runner.jail_spec(job))
            os.environ.clear()
            os.environ.update(req["env"])
            runner.execute(job)
        elif req["role"] == "serve":
            judge_server.serve(job)
        else:
            os.chdir(req["cwd"])
            os.environ.clear()
            os.environ.update(req["env"])
            judge.execute(req["role"], job)
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the parent sees a missing result and a non-zero status
        import traceback
        traceback.print_exc()
        code = 70
    os._exit(code)


def main() -> None:
    import torch  # noqa: F401  - the point of the zygote: imported once, shared copy-on-write

    from kernelgen.bench import compare, jail, judge, judge_server, runner, tensorio  # noqa: F401

    jail.set_non_dumpable()   # no case can read or write this process's memory (/proc/<pid>/mem, ptrace)

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    forker = jail.PidNamespaceForker.create()   # None where not root: `jail.enter` forks inside instead
    children: dict[int, str] = {}
    inits: dict[int, object] = {}      # a run's pid -> PID 1 of its namespace (killing it ends the namespace)
    pidfds: dict[int, int] = {}        # pidfd -> pid: a child's exit wakes select at once (no polling delay)
    dying: dict[int, object] = {}      # pidfd -> a killed PID 1, reaped once it is gone
    out = sys.stdout
    out.write("READY\n")
    out.flush()
    buf = b""
    stdin = sys.stdin.fileno()

    def end_namespace(pid: int) -> None:
        # never wait for PID 1 here: it cannot finish dying before we have reaped the case (our child) in it
        init = inits.pop(pid, None)
        if init is not None:
            init.kill()
            dying[os.pidfd_open(init.pid)] = init

    while True:
        ready, _, _ = select.select([stdin, *pidfds, *dying], [], [], None if pidfds or dying else 1.0)
        # taken now: closing one pidfd below and opening another may reuse its number within this round
        exited = [fd for fd in ready if fd in pidfds]
        gone = [fd for fd in ready if fd in dying]
        if stdin in ready:
            chunk = os.read(stdin, 65536)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if not line.strip():
                    continue
                if line.startswith(b"KILL "):
                    rid = line.split()[1].decode()
                    for pid, r in list(children.items()):
                        if r == rid:
                            _killpg(pid)
                            end_namespace(pid)
                    continue
                req = json.loads(line)
                inherited = [*pidfds, *dying, *((forker.own,) if forker else ())]
                pid = -1
                if req["role"] == "run" and forker is not None:
                    try:
                        pid, init = forker.fork()
                    except OSError as e:   # e.g. out of processes: the old way (fork, then `jail.enter`)
                        print(f"zygote: PID-namespace fork failed ({e}); forking plainly", file=sys.stderr)
                    if pid == 0:
                        _child(req, True, inherited)
                    if pid > 0:
                        inits[pid] = init
                if pid < 0:
                    pid = os.fork()
                    if pid == 0:
                        _child(req, False, inherited)
                children[pid] = req["id"]
                pidfds[os.pidfd_open(pid)] = pid
                out.write(f"STARTED {req['id']} {pid}\n")
                out.flush()
        for fd in exited:
            pid = pidfds.pop(fd)
            os.close(fd)
            _, status = os.waitpid(pid, 0)
            rid = children.pop(pid, None)
            _killpg(pid)               # grandchildren the case left behind
            end_namespace(pid)
            if rid is not None:
                out.write(f"EXITED {rid} {os.waitstatus_to_exitcode(status)}\n")
                out.flush()
        for fd in gone:
            dying.pop(fd).wait()
            os.close(fd)
    for pid in children:
        _killpg(pid)
        end_namespace(pid)

def _killpg(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


if __name__ == "__main__":
    main()
