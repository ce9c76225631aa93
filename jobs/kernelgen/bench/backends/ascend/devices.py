"""Device health: after an AI Core exception or a timeout, a canary op checks the NPU in a fresh process; a device
whose canary fails is quarantined (recorded in a state file that every evaluator on the node reads) and reported.

An AI Core exception usually poisons the process context, and sometimes the device; killing the candidate's
process group and proving the device still computes `x + x` correctly before reusing it is the cheap recovery.
Hard recovery (`npu-smi`/`ascend-dmi` reset) needs root and stops every NPU process on the board, so it is left to
the cluster admin (docs/ascend.md).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

CANARY_TIMEOUT_S = 120
# runs in a fresh interpreter with ASCEND_RT_VISIBLE_DEVICES set to the device under test
CANARY_CODE = (
    "import torch, torch_npu\n"
    "torch.npu.set_device(0)\n"
    "x = torch.arange(4096, dtype=torch.float32).npu()\n"
    "y = (x + x).sum().item()\n"
    "torch.npu.synchronize()\n"
    "assert y == 4096 * 4095, y\n"
    "print('canary ok')\n"
)


class DeviceHealth:
    def __init__(self, state_dir: Path, canary_cmd: list[str] | None = None,
                 env_fn: Callable[[], dict[str, str]] | None = None, timeout_s: float = CANARY_TIMEOUT_S):
        self.state_dir = Path(state_dir)
        self.canary_cmd = canary_cmd or [sys.executable, "-c", CANARY_CODE]
        self.env_fn = env_fn or (dict)
        self.timeout_s = timeout_s

    @property
    def state_file(self) -> Path:
        return self.state_dir / "quarantine.json"

    def _load(self) -> dict[str, dict]:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, json.JSONDecodeError):
            return {}

    def quarantined(self, device: int) -> str:
        """Why the device is quarantined, or '' if it is usable."""
        entry = self._load().get(str(device))
        return entry["reason"] if entry else ""

    def quarantine(self, device: int, reason: str) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        state = self._load()
        state[str(device)] = {"reason": reason, "since": datetime.now(UTC).isoformat(timespec="seconds"),
                              "host": os.uname().nodename}
        tmp = self.state_file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(state, indent=1))
        os.replace(tmp, self.state_file)

    def release(self, device: int) -> None:
        state = self._load()
        if state.pop(str(device), None) is not None:
            self.state_file.write_text(json.dumps(state, indent=1))

    def canary(self, device: int) -> tuple[bool, str]:
        """Run the canary op on `device` in its own process group; (ok, output tail)."""
        env = {k: os.environ[k] for k in ("PATH", "LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_OPP_PATH",
                                          "PYTHONPATH", "HOME") if k in os.environ}
        env.update(self.env_fn())
        env["ASCEND_RT_VISIBLE_DEVICES"] = str(device)
        t0 = time.monotonic()
        try:
            proc = subprocess.Popen(self.canary_cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, errors="replace", start_new_session=True)
        except OSError as e:
            return False, f"canary could not start: {e}"
        try:
            out, _ = proc.communicate(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.communicate()
            return False, f"canary timed out after {self.timeout_s:g}s"
        tail = out.strip().splitlines()[-3:]
        if proc.returncode != 0:
            return False, f"canary exit code {proc.returncode} after {time.monotonic() - t0:.1f}s: {' | '.join(tail)}"
        return True, " | ".join(tail)

    def check(self, device: int) -> tuple[bool, str]:
        """Canary the device; quarantine it when the canary fails. (ok, why)."""
        ok, why = self.canary(device)
        if not ok:
            self.quarantine(device, why)
        return ok, why
