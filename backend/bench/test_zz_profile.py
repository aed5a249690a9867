import cProfile, pstats, io, time
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from bench.test_bench_lists import big_catalogue, SEARCH  # noqa

@pytest.mark.django_db
def test_profile(big_catalogue, api):
    tenant, user = big_catalogue
    client = api(user, tenant)
    for _ in range(3):
        client.get("/api/products/", {"search": SEARCH, "page_size": 50})
    for label, params in [("search", {"search": SEARCH, "page_size": 50}), ("page", {"page": 1000, "page_size": 50, "ordering": "article_number"}), ("first", {"page_size": 50})]:
        t = time.perf_counter()
        for _ in range(10):
            client.get("/api/products/", params)
        print(label, (time.perf_counter() - t) / 10 * 1000, "ms")
        with CaptureQueriesContext(connection) as c:
            client.get("/api/products/", params)
        for q in c.captured_queries:
            print("  ", q["time"], q["sql"][:300])
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(10):
        client.get("/api/products/", {"search": SEARCH, "page_size": 50})
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(45)
    print(s.getvalue())
