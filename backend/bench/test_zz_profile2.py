import cProfile, pstats, io, time
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from bench.test_bench_eudr import eudr_bench  # noqa

@pytest.mark.django_db
def test_profile(eudr_bench, api):
    client = api(eudr_bench["user"], eudr_bench["tenant"])
    params = {"page_size": 50}
    for _ in range(3):
        client.get("/api/eudr/raw-materials/", params)
    t = time.perf_counter()
    for _ in range(10):
        client.get("/api/eudr/raw-materials/", params)
    print("deliveries", (time.perf_counter() - t) / 10 * 1000, "ms")
    with CaptureQueriesContext(connection) as c:
        client.get("/api/eudr/raw-materials/", params)
    for q in c.captured_queries:
        print("  ", q["time"], q["sql"][:200])
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(10):
        client.get("/api/eudr/raw-materials/", params)
    pr.disable()
    for key in ("cumulative", "tottime"):
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats(key).print_stats(70)
        print(s.getvalue())
