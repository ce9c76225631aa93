"""Resumable runs: skip work whose output already exists.

Two granularities: whole outputs (a task's result file exists -> skip the task), and records in an append-only JSONL
(a record with that id was written -> skip that unit). Because records are only written once their work finished
(and each flushed line is durable), a killed run restarted with the same spec redoes at most the units in flight.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from kernelgen.storage.base import Store

T = TypeVar("T")


def pending_outputs(store: Store, items: Iterable[T], output_key: Callable[[T], str]) -> list[T]:
    """The items whose output object does not exist yet (one listing, not one request per item)."""
    items = list(items)
    existing = set(store.list())
    return [item for item in items if output_key(item) not in existing]


def done_ids(store: Store, jsonl_key: str, record_id: Callable[[dict[str, Any]], Hashable]) -> set[Hashable]:
    """Ids of the records already in jsonl_key."""
    return {record_id(r) for r in store.iter_jsonl(jsonl_key)}


def pending_records(
    store: Store, jsonl_key: str, items: Iterable[T], item_id: Callable[[T], Hashable],
    record_id: Callable[[dict[str, Any]], Hashable],
) -> list[T]:
    """The items with no record in jsonl_key yet, in their original order."""
    done = done_ids(store, jsonl_key, record_id)
    return [item for item in items if item_id(item) not in done]
