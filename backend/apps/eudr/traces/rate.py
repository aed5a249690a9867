"""One shared pace for every call to the EU information system (docs/eudr.md, "The EU system as it runs").

The system accepts at most 5 calls per second from one address. Every web worker, Celery worker and beat
process of an installation calls from the same address, so the pace is kept in one place they all see:

- **Redis** (`REDIS_URL`): a token bucket in one Lua script, on Redis's own clock (`TIME`), so processes
  on several machines agree. A call reserves the next free slot and waits until it; the bucket holds at
  most `EUDR_TRACES_BURST` tokens (1 by default: the calls are spaced 1/rate apart, so no second-long
  window ever holds more than the rate).
- **PostgreSQL** when Redis does not answer (or is not configured): a session advisory lock held for
  1/rate seconds before the call is made. Every process of the installation shares the database, so the
  spacing still holds across processes; it costs one database connection's wait, which is why Redis
  comes first.
- **This process** only when neither answers (a database that is not PostgreSQL): a lock and a clock in
  memory; then the pace holds per process, and the log says so once.

`EUDR_TRACES_RATE` (calls per second, 5) and `EUDR_TRACES_BURST` (1) are operator settings.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib

from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "eudr:traces:rate:"
# A reservation: refill the bucket for the time since the last one, take a token (the count may go
# negative: the caller then waits for its slot), answer the wait in microseconds. Redis's clock only.
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + (now - at) * rate / 1000000)
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 60000)
if tokens >= 0 then
  return 0
end
return math.ceil(-tokens * 1000000 / rate)
"""

_local_lock = threading.Lock()
_local_next: dict[str, float] = {}
_clients: dict[str, object] = {}
_redis_down_until = 0.0
_warned: set[str] = set()
REDIS_RETRY_SECONDS = 5.0


def rate() -> float:
    return float(getattr(settings, "EUDR_TRACES_RATE", 5))


def burst() -> int:
    return max(1, int(getattr(settings, "EUDR_TRACES_BURST", 1)))


def _warn_once(kind: str, message: str, *args) -> None:
    if kind not in _warned:
        _warned.add(kind)
        logger.warning(message, *args)


def _redis():
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    client = _clients.get(url)
    if client is None:
        import redis

        timeout = float(getattr(settings, "REDIS_TIMEOUT_SECONDS", 0.5))
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        _clients[url] = client
    return client


def _take_redis(key: str) -> str | None:
    """Waits for the slot Redis gives; None when Redis does not answer."""
    global _redis_down_until
    client = _redis()
    if client is None or time.monotonic() < _redis_down_until:
        return None
    try:
        wait_us = int(client.eval(RESERVE, 1, KEY_PREFIX + key, repr(rate()), burst()))
    except Exception as exc:  # any failure of Redis: the next level keeps the pace
        _redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
        _warn_once(
            "redis", "EU system rate limiter: Redis does not answer, pacing through PostgreSQL: %s", exc
        )
        return None
    _warned.discard("redis")
    if wait_us > 0:
        time.sleep(wait_us / 1_000_000)
    return "redis"


def _take_database(key: str) -> str | None:
    """Holds a PostgreSQL session advisory lock for 1/rate seconds: the next process waits for it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    lock_id = zlib.crc32((KEY_PREFIX + key).encode())
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [lock_id])
            try:
                time.sleep(1.0 / rate())
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [lock_id])
    except Exception as exc:  # the database is the caller's problem; the pace falls back to this process
        _warn_once(
            "database", "EU system rate limiter: PostgreSQL lock failed, pacing in this process: %s", exc
        )
        return None
    return "database"


def _take_local(key: str) -> str:
    with _local_lock:
        now = time.monotonic()
        slot = max(now, _local_next.get(key, now))
        _local_next[key] = slot + 1.0 / rate()
    if slot > now:
        time.sleep(slot - now)
    return "process"


def take(key: str) -> str:
    """Waits until a call to `key` (the system's host) may be made; answers which level kept the pace."""
    if rate() <= 0:
        return "off"
    return _take_redis(key) or _take_database(key) or _take_local(key)


def reset_for_tests() -> None:
    global _redis_down_until
    _redis_down_until = 0.0
    _clients.clear()
    _local_next.clear()
    _warned.clear()
