"""What every stage function receives: the teacher, options, the contamination checker, the shard slice."""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .budget import PromptBudget
from .records import StageStats
from .teacher import Teacher

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class Options:
    """Knobs of a build that are not part of the spec (defaults are the production choices)."""

    lenient: bool = False             # keep truncated answers and answers without <think> (smoke builds)
    questions_per_chunk: int = 3
    retrieve_k: int = 3
    chunk_chars: int = 2000
    max_snippet_chars: int = 60000
    debug_per_cluster: int = 2        # compile errors kept per normalised signature
    licence: str = "unknown"          # recorded on every record whose source does not say


@dataclass
class StageContext:
    teacher: Teacher
    spec: Any                          # kernelgen.specs.cotbuild.CoTBuildSpec
    options: Options
    decontam: Any                      # decontam.Decontaminator | None
    work: Path                         # local scratch for this shard
    shard: int = 0
    shards: int = 1
    stats: dict[str, StageStats] = field(default_factory=dict)
    budget: PromptBudget | None = None   # the teacher's context window; None: prompts are not measured

    def stage_stats(self, name: str) -> StageStats:
        return self.stats.setdefault(name, StageStats(stage=name))

    def mine(self, item_id: str) -> bool:
        """Whether this shard owns the item (stable across runs and machines)."""
        if self.shards <= 1:
            return True
        h = int.from_bytes(hashlib.sha256(item_id.encode()).digest()[:8], "little")
        return h % self.shards == self.shard

    def attempt(self, st: StageStats, item: str, fn: Callable[..., T], *args: Any) -> tuple[bool, T | None]:
        """(ok, result) of fn(*args). Real repositories hold files no parser expects; one such file is skipped and
        counted (`bad_input:<error type>`, the message in drops.jsonl), never allowed to abort the whole build."""
        try:
            return True, fn(*args)
        except (MemoryError, KeyboardInterrupt):
            raise
        except Exception as e:  # noqa: BLE001 - see the docstring: any failure is confined to its input
            log.warning("%s: skipping %s (%s: %s)", st.stage, item, type(e).__name__, e)
            st.drop(f"bad_input:{type(e).__name__}", item=item, detail=str(e))
            return False, None

    def fits(self, st: StageStats, item: str, messages: list[dict[str, str]], *, record: bool = True) -> bool:
        """Whether a prompt leaves room for a full answer in the teacher's context; when not and `record`, the item
        is dropped as prompt_too_long with its token count."""
        if self.budget is None:
            return True
        ok, n = self.budget.check(messages)
        if not ok and record:
            st.drop("prompt_too_long", item=item,
                    detail=f"{n} prompt tokens ({self.budget.counter}) > {self.budget.limit} "
                           f"(context {self.budget.context_tokens} - maxTokens {self.budget.max_new_tokens})")
        return ok

    def keep_reply(self, rep, st: StageStats, *, need_reasoning: bool = True, item: str | None = None) -> bool:
        """The common quality gate on teacher replies: none, truncated, or missing reasoning."""
        if rep is None:
            st.drop("teacher_failed", item=item)
            return False
        if rep.finish_reason == "length" and not self.options.lenient:
            st.drop("truncated", item=item)
            return False
        if need_reasoning and not rep.reasoning.strip() and not self.options.lenient:
            st.drop("no_reasoning", item=item)
            return False
        return True

    def count_teacher(self, st: StageStats, before: tuple[int, int]) -> None:
        st.teacher_calls += self.teacher.calls - before[0]
        st.teacher_cached += self.teacher.cached - before[1]

    def teacher_mark(self) -> tuple[int, int]:
        return self.teacher.calls, self.teacher.cached
