"""The Redis cache as a cache, not as a single point of failure.

`ResilientRedisCache` is Django's Redis backend with one difference: when Redis does not answer
(stopped, restarting, unreachable), no caller sees an error.

- A read is a miss, so every user of the cache computes the value from the database as it does on a
  miss (the public trace, the import progress). Nothing the product must not lose lives only in the
  cache: ended sessions are on the user row (apps/users/tokens.py), jobs in their tables.
- A write is dropped, except for the keys of `LOCAL_FALLBACK_PREFIXES` (the rate limits): those go to
  this process's memory meanwhile, so a throttle keeps counting (per process instead of shared) rather
  than letting everything through or refusing everything.
- The key of every write that could not reach Redis is remembered (up to `LOST_WRITES_MAX`); when Redis
  answers again they are deleted there first, so a value that was changed or invalidated meanwhile
  (e.g. the public trace's generation) is not read back stale.
- After a failure Redis is not asked again for `RETRY_SECONDS`, so an outage costs one failed connection
  every few seconds, not one per call; the connection and socket timeouts are short (settings).

Each outage is logged once when it starts and once when it ends, not on every call.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
LOCAL_FALLBACK_PREFIXES = ("throttle_",)
LOST_WRITES_MAX = 10_000
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._local = LocMemCache("resilient-fallback", {"MAX_ENTRIES": 10_000})
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._down = False
        self._lost: set[str] = set()
        self.retry_seconds = float(params.get("RETRY_SECONDS", RETRY_SECONDS))

    # The state of the connection -------------------------------------------------------------------

    @property
    def available(self) -> bool:
        """Whether to ask Redis: it answered last time, or the pause after a failure is over. Coming
        back from an outage, the keys whose writes were lost are deleted there before anything is read."""
        if not self._down:
            return True
        if time.monotonic() < self._down_until:
            return False
        with self._lock:
            lost, self._lost = self._lost, set()
        if lost:
            try:
                super().delete_many(list(lost))
            except UNAVAILABLE as exc:
                self._remember_lost(lost)
                self._failed(exc)
                return False
            self._answered()
        return True

    def _failed(self, exc: BaseException) -> None:
        with self._lock:
            if not self._down:
                logger.warning("Redis cache unavailable, serving without it: %s", exc)
            self._down = True
            self._down_until = time.monotonic() + self.retry_seconds

    def _answered(self) -> None:
        if self._down:
            with self._lock:
                was_down, self._down = self._down, False
            if was_down:
                logger.warning("Redis cache available again")

    def _remember_lost(self, keys) -> None:
        with self._lock:
            for key in keys:
                if len(self._lost) >= LOST_WRITES_MAX:
                    break
                self._lost.add(key)

    @staticmethod
    def _local_key(key) -> bool:
        return str(key).startswith(LOCAL_FALLBACK_PREFIXES)

    def _read(self, method, key, fallback, **kwargs):
        if self.available:
            try:
                value = getattr(super(), method)(key, **kwargs)
            except UNAVAILABLE as exc:
                self._failed(exc)
            else:
                self._answered()
                return value
        if self._local_key(key):
            return getattr(self._local, method)(key, **kwargs)
        return fallback

    def _write(self, method, keys, *args, default=None, **kwargs):
        if self.available:
            try:
                value = getattr(super(), method)(*args, **kwargs)
            except UNAVAILABLE as exc:
                self._failed(exc)
            else:
                self._answered()
                return value
        self._remember_lost(keys)
        local = [key for key in keys if self._local_key(key)]
        if local and len(local) == len(keys):
            return getattr(self._local, method)(*args, **kwargs)
        return default

    # Django's cache API ------------------------------------------------------------------------------

    def get(self, key, default=None, version=None):
        return self._read("get", key, default, default=default, version=version)

    def has_key(self, key, version=None):
        return bool(self._read("has_key", key, False, version=version))

    def get_many(self, keys, version=None):
        keys = list(keys)
        if self.available:
            try:
                value = super().get_many(keys, version=version)
            except UNAVAILABLE as exc:
                self._failed(exc)
            else:
                self._answered()
                return value
        return self._local.get_many([k for k in keys if self._local_key(k)], version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._write("set", [key], key, value, timeout=timeout, version=version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return bool(self._write("add", [key], key, value, timeout=timeout, version=version, default=False))

    def delete(self, key, version=None):
        return bool(self._write("delete", [key], key, version=version, default=False))

    def delete_many(self, keys, version=None):
        keys = list(keys)
        return self._write("delete_many", keys, keys, version=version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        result = self._write("set_many", list(data), data, timeout=timeout, version=version)
        return [] if result is None else result

    def incr(self, key, delta=1, version=None):
        return self._write("incr", [key], key, delta=delta, version=version, default=delta)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return bool(self._write("touch", [key], key, timeout=timeout, version=version, default=False))

    def clear(self):
        self._local.clear()
        with self._lock:
            self._lost.clear()
        return self._write("clear", [], default=False)
