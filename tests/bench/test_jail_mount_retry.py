"""The sandbox's mount(2) calls retry a transient EBUSY a few times, then fail closed; other errors fail at once.

BOUNDARY DOUBLE: libc's mount is replaced by a stand-in here, because a transient EBUSY from the kernel (seen once in
a CI run, on the read-only remount of a fresh sandbox root) cannot be produced on demand."""
from __future__ import annotations

import ctypes
import errno

import pytest

from kernelgen.bench import jail


class FlakyMount:
    def __init__(self, failures: int, err: int = errno.EBUSY):
        self.failures, self.err, self.calls = failures, err, 0

    def mount(self, *args) -> int:
        self.calls += 1
        if self.calls <= self.failures:
            ctypes.set_errno(self.err)
            return -1
        ctypes.set_errno(0)
        return 0


@pytest.fixture
def flaky(monkeypatch):
    def install(failures: int, err: int = errno.EBUSY) -> FlakyMount:
        fake = FlakyMount(failures, err)
        monkeypatch.setattr(jail, "_libc", fake)
        monkeypatch.setattr(jail.time, "sleep", lambda s: None)
        return fake
    return install


def test_a_transient_busy_is_retried(flaky):
    fake = flaky(2)
    jail._mount(None, "/", None, jail.MS_REMOUNT | jail.MS_BIND | jail.MS_RDONLY)
    assert fake.calls == 3


def test_a_busy_that_persists_fails_closed(flaky):
    fake = flaky(100)
    with pytest.raises(jail.JailError, match="Device or resource busy"):
        jail._mount(None, "/", None, jail.MS_REMOUNT)
    assert fake.calls == jail.MOUNT_BUSY_RETRIES


def test_other_errors_are_not_retried(flaky):
    fake = flaky(1, errno.EPERM)
    with pytest.raises(jail.JailError, match="Operation not permitted"):
        jail._mount("proc", "/x/proc", "proc", 0)
    assert fake.calls == 1
