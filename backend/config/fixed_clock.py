"""A fixed clock and fixed random codes for test servers and tests whose output is compared as pictures.

`E2E_FIXED_NOW` (an ISO 8601 instant with its offset, e.g. `2026-03-02T09:00:00+00:00`) sets this
process's clock to that instant when Django loads its settings, so `timezone.now()`,
`timezone.localdate()`, `auto_now` columns and token lifetimes all count from it. How it goes on from
there, `E2E_FIXED_CLOCK`:

- `running` (the default): at the real pace, for a server, whose waits and timeouts must still end;
- `steps`: one microsecond each time anything reads it, for loading demo data: every record gets a
  timestamp of its own, in the order it was made, and the same ones on every load, however busy the
  machine (a load that took a minute would otherwise show 08:01 on one run and 08:00 on the next).

The demo data loaded under it has the same dates on every day the tests run, and a server started under
it shows the same "today". scripts/e2e-server.sh sets both for the pictures' server only
(E2E_FIXED_DAY); production never sets them, and time-machine, which moves the clock, is a development
dependency.

`random_bytes(n)` answers `secrets.token_bytes(n)`, except under a fixed clock: there it answers bytes
from a generator seeded with the fixed instant, so the carton codes the demo issues (and the QR codes
drawn from them) are the same on every load. Only codes that must look random but need not be secret
take their bytes here; keys, tokens and passwords always come from `secrets`.
"""

from __future__ import annotations

import itertools
import os
import random
import secrets
import threading
from datetime import datetime
from typing import Any

ENV = "E2E_FIXED_NOW"
MODE_ENV = "E2E_FIXED_CLOCK"
STEP_NS = 1_000

_lock = threading.Lock()
_seeded: random.Random | None = None
_travel: Any = None


def start(instant: str | None = None, mode: str | None = None) -> None:
    """Moves this process's clock to `instant` (else E2E_FIXED_NOW; nothing when neither is set)."""
    global _seeded, _travel
    instant = (instant if instant is not None else os.environ.get(ENV, "")).strip()
    if not instant:
        return
    mode = mode or os.environ.get(MODE_ENV, "").strip() or "running"
    if mode not in ("running", "steps"):
        raise ValueError(f"{MODE_ENV} is 'running' or 'steps', not {mode!r}")
    moment = datetime.fromisoformat(instant)
    if moment.tzinfo is None:
        raise ValueError(f"{ENV} needs an offset, e.g. 2026-03-02T09:00:00+00:00")
    stop()

    import time_machine

    travel = time_machine.travel(moment, tick=mode == "running")
    traveller = travel.start()
    if mode == "steps":
        reads = itertools.count()
        # The fixed instant plus a microsecond per read so far (shift() still moves the instant).
        traveller.time_ns = lambda: traveller._destination_timestamp_ns + next(reads) * STEP_NS
    _travel = travel
    _seeded = random.Random(f"cartontrace-fixed:{moment.isoformat()}")


def stop() -> None:
    """Gives this process its real clock and random codes back (tests that fixed them)."""
    global _seeded, _travel
    if _travel is not None:
        _travel.stop()
    _travel = None
    _seeded = None


def random_bytes(count: int) -> bytes:
    """`count` random bytes: secrets.token_bytes, or the seeded generator's under a fixed clock."""
    if _seeded is None:
        return secrets.token_bytes(count)
    with _lock:
        return _seeded.randbytes(count)
