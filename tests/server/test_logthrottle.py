"""`LogThrottle` on an injected clock: one full line per kind and interval, then a count."""

from __future__ import annotations

import logging

from modernart.server.wire.logthrottle import LogThrottle


def test_each_kind_logs_once_per_interval_and_then_how_many_more(caplog):
    now = [0.0]
    throttle = LogThrottle(logging.getLogger("modernart.test"), every=60, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="modernart.test"):
        for i in range(1000):
            throttle.info("origin", "refused origin %d", i)
            throttle.info("other", "other %d", i)
        assert caplog.messages == ["refused origin 0", "other 0"]
        now[0] = 60.0  # the interval is over (no loop ran its timer): the next line says so
        throttle.info("origin", "refused origin %d", 1000)
        assert caplog.messages[2:] == [
            "999 more like this in the last 60 s (origin)",
            "refused origin 1000",
        ]
        throttle.flush()
        assert caplog.messages[4:] == ["999 more like this in the last 60 s (other)"]
    assert throttle.suppressed == 1998


def test_a_level_the_logger_drops_costs_nothing(caplog):
    throttle = LogThrottle(logging.getLogger("modernart.test"), every=60)
    with caplog.at_level(logging.WARNING, logger="modernart.test"):
        for _ in range(10):
            throttle.info("origin", "refused")
        throttle.flush()
    assert caplog.messages == [] and throttle.suppressed == 0


def test_the_first_exception_keeps_its_traceback(caplog):
    throttle = LogThrottle(logging.getLogger("modernart.test"), every=60)
    with caplog.at_level(logging.INFO, logger="modernart.test"):
        for _ in range(3):
            try:
                raise ValueError("boom")
            except ValueError:
                throttle.exception("failed", "handling failed")
    assert [bool(r.exc_info) for r in caplog.records] == [True]
