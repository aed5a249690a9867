"""How each periodic task (CELERY_BEAT_SCHEDULE) makes up a run that beat could not send.

Beat sends a task at its time and moves on: when the broker is down then, that run is logged by beat and
never sent again. So no periodic task counts on a particular run happening: each one works from the state
in the database (what is pending, due or expired now), or from a record of what it last did, and the next
run catches up (docs/operations.md, "Periodic runs"). A new periodic task is added here with its reason
(apps/notifications/tests/test_daily_catch_up.py checks that every scheduled task is listed).
"""

CATCH_UP: dict[str, str] = {
    "eudr.expire_raw_materials": "state: every active delivery whose certificate has passed, whenever it runs",
    "notifications.daily_events": "a record per day emitted (DailyEventsRun): each missed day, up to 7",
    "common.purge_idempotent_requests": "state: every key older than IDEMPOTENCY_KEY_HOURS",
    "common.count_search_grams": "state: every tenant's grams, counted anew whenever it runs",
    "common.recover_imports": "state: every job running without its worker's lock",
    "eudr.recover_filings": "state: every filing pending and untouched for 5 minutes",
    "eudr.read_due_statuses": "state: every statement whose status_due_at has passed",
    "notifications.sweep_queued": "state: every message due, lost or left sending",
    "accounting.process_outbox": "state: every pending entry whose backoff or lease has passed",
    "accounting.read_payment_status": "state: every sent invoice not paid, least recently read first",
    "operations.worker_heartbeat": "none needed: a missed beat only makes the workers' last-seen older",
}
