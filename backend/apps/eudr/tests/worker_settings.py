"""Settings of a Celery worker process a test starts: the installation's, plus what a test points at its
own local servers (settings a real installation takes from its code, not from the environment)."""

import json
import os

from config.settings import *  # noqa: F403

EUDR_TRACES_URLS = json.loads(os.environ.get("TEST_EUDR_TRACES_URLS") or "{}")
EUDR_DDS_QUEUE = os.environ.get("TEST_EUDR_DDS_QUEUE") or None
