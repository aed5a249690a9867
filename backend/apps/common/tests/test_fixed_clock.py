"""The fixed clock of test servers (config/fixed_clock.py): the same instants and codes on every start."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from apps.eudr.services import new_public_code
from config import fixed_clock

MOMENT = "2026-03-02T08:00:00+00:00"


@pytest.fixture(autouse=True)
def _real_clock_after():
    yield
    fixed_clock.stop()


def test_in_steps_each_read_is_one_microsecond_later_from_the_fixed_instant():
    fixed_clock.start(MOMENT, "steps")
    first, second = timezone.now(), timezone.now()
    assert first == datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    assert second - first == timedelta(microseconds=1)
    assert timezone.localdate().isoformat() == "2026-03-02"


def test_running_starts_at_the_fixed_instant_and_runs_on():
    fixed_clock.start("2026-03-02T09:00:00+00:00", "running")
    now = timezone.now()
    assert datetime(2026, 3, 2, 9, 0, tzinfo=UTC) <= now < datetime(2026, 3, 2, 9, 1, tzinfo=UTC)


def test_codes_repeat_for_the_same_instant_and_are_random_without_one():
    fixed_clock.start(MOMENT, "steps")
    codes = [new_public_code() for _ in range(3)]
    fixed_clock.start(MOMENT, "steps")
    assert [new_public_code() for _ in range(3)] == codes
    assert len(set(codes)) == 3
    fixed_clock.stop()
    assert not time_machine.escape_hatch.is_travelling()
    assert new_public_code() not in codes and new_public_code() != new_public_code()


def test_a_time_without_an_offset_or_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="offset"):
        fixed_clock.start("2026-03-02T08:00:00")
    with pytest.raises(ValueError, match="running"):
        fixed_clock.start(MOMENT, "fast")


def test_nothing_is_fixed_without_a_time(monkeypatch):
    monkeypatch.delenv(fixed_clock.ENV, raising=False)
    fixed_clock.start()
    assert fixed_clock._travel is None
    assert abs(timezone.now() - datetime.now(UTC)) < timedelta(seconds=5)
