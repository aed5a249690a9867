"""Separate Celery queues (config/settings.py CELERY_TASK_ROUTES, docs/operations.md "Queues"): each
partner's calls, the imports and everything else go to queues of their own, so a hanging partner holds
up only its own work."""

from config.celery import app


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_partner_calls_imports_and_the_rest_go_to_separate_queues():
    assert queue_of("eudr.file_dds") == "partner.eudr"
    assert queue_of("accounting.process_outbox") == "partner.accounting"
    assert queue_of("accounting.read_payment_status") == "partner.accounting"
    assert queue_of("notifications.send_message") == "partner.email"
    assert queue_of("common.run_import") == "imports"
    for task in (
        "eudr.build_dds_package",
        "eudr.recover_filings",
        "notifications.sweep_queued",
        "notifications.daily_events",
        "common.recover_imports",
        "common.purge_idempotent_requests",
        "common.count_search_grams",
    ):
        assert queue_of(task) == "celery", task


def test_every_periodic_task_exists():
    app.loader.import_default_modules()
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks, entry["task"]
