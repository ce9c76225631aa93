"""StageHooks: the callbacks through which a stage reports progress to whoever runs it (the CLI's rich progress
bars, a log, or nothing)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class StageHooks:
    """All optional: `start(stage, total)` once a stage knows its units, `advance(stage, n)` as they finish,
    `message(text)` for warnings and notes."""

    start: Callable[[str, int], None] = lambda stage, total: None
    advance: Callable[[str, int], None] = lambda stage, n: None
    message: Callable[[str], None] = lambda text: None
