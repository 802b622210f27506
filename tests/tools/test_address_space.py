"""The address-space bound is held only while calls run, and never loosens a limit already set."""

from __future__ import annotations

import resource
import threading

import pytest

from analytics_agent.tools.address_space import AddressSpaceCap, address_space

GIB = 1024**3

pytestmark = pytest.mark.skipif(address_space() is None, reason="the system does not report address space")


def soft() -> int:
    return resource.getrlimit(resource.RLIMIT_AS)[0]


def test_the_limit_is_set_while_calls_run_and_put_back_after_the_last() -> None:
    cap, before = AddressSpaceCap(), resource.getrlimit(resource.RLIMIT_AS)
    used = address_space()
    assert used is not None
    with cap.held(GIB):
        during = soft()
        assert used + GIB <= during < address_space() + GIB + 64 * 1024**2  # type: ignore[operator]
        with cap.held(2 * GIB):  # a second call at once shares the first one's limit
            assert soft() == during
        assert soft() == during  # the first call still runs
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_calls_on_other_threads_share_one_count() -> None:
    cap, before = AddressSpaceCap(), resource.getrlimit(resource.RLIMIT_AS)
    inside, release = threading.Event(), threading.Event()

    def call() -> None:
        with cap.held(GIB):
            inside.set()
            release.wait(30)

    worker = threading.Thread(target=call)
    worker.start()
    inside.wait(30)
    with cap.held(GIB):
        held = soft()
    assert soft() == held != before[0]  # the other thread's call still holds it
    release.set()
    worker.join(30)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_lower_limit_already_set_is_kept() -> None:
    before = resource.getrlimit(resource.RLIMIT_AS)
    lower = address_space() + GIB // 2  # type: ignore[operator]
    resource.setrlimit(resource.RLIMIT_AS, (lower, before[1]))
    try:
        with AddressSpaceCap().held(4 * GIB):
            assert soft() == lower
        assert soft() == lower
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)
