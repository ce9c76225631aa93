"""The sim build cache stays under its size bound, evicting least recently used entries, never fresh ones."""
import os
import time

import pytest

from kernelgen.bench.backends import sim_cache


def _entry(path, size, age_s, now):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".o":
        path.write_bytes(b"x" * size)
        path.with_name(path.name + ".sha256").write_text("h")
    else:
        path.mkdir()
        (path / "mod.so").write_bytes(b"x" * size)
    os.utime(path, (now - age_s, now - age_s))


def test_prune_evicts_oldest_first_until_under_the_bound(tmp_path):
    now = time.time()
    _entry(tmp_path / "build-old", 4000, 9 * 3600, now)
    _entry(tmp_path / "objs" / "k-old.o", 3000, 8 * 3600, now)
    _entry(tmp_path / "torch-pch-mid", 3000, 5 * 3600, now)
    _entry(tmp_path / "build-new", 3000, 2 * 3600, now)
    evicted = sim_cache.prune(tmp_path, 7000, now=now)
    assert [p.name for p in evicted] == ["build-old", "k-old.o"]
    assert not (tmp_path / "objs" / "k-old.o.sha256").exists()   # the side file goes with its object
    assert (tmp_path / "torch-pch-mid").is_dir() and (tmp_path / "build-new").is_dir()


def test_prune_never_evicts_what_was_used_in_the_last_hour(tmp_path):
    now = time.time()
    _entry(tmp_path / "in-use", 10_000, 60, now)
    _entry(tmp_path / "idle", 10_000, 2 * 3600, now)
    assert [p.name for p in sim_cache.prune(tmp_path, 1, now=now)] == ["idle"]
    assert (tmp_path / "in-use").is_dir()


def test_touch_makes_an_entry_recent(tmp_path):
    now = time.time()
    _entry(tmp_path / "b", 10, 5 * 3600, now)
    sim_cache.touch(tmp_path / "b")
    assert sim_cache.prune(tmp_path, 1) == []


def test_bound_from_the_environment(monkeypatch):
    monkeypatch.setenv("KERNELGEN_SIM_CACHE_MAX_GB", "0.5")
    assert sim_cache.max_bytes() == 1 << 29
    monkeypatch.setenv("KERNELGEN_SIM_CACHE_MAX_GB", "lots")
    with pytest.raises(ValueError, match="KERNELGEN_SIM_CACHE_MAX_GB"):
        sim_cache.max_bytes()
