"""The weight balance (docs/specification.md section 4) and the carton refusals, at the service layer: each refusal's
stable key and docs/specification.md's message, net weight per carton, and property tests (hypothesis) that no
sequence of generations and deletions makes the remaining weight negative or lets the used weight drift
from the labels."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common.exceptions import DomainError
from apps.eudr import services
from apps.eudr.models import CartonLabel, RawMaterialDelivery, SupplierPolicy
from apps.eudr.selectors import carton_cap_of, used_weight_recount, weight_balance, weight_balance_of

from . import factories

pytestmark = pytest.mark.django_db


def test_balance_arithmetic():
    balance = weight_balance_of(
        original_kg=Decimal("1000"), loss_rate_percent=Decimal("2.5"), used_kg=Decimal("100")
    )
    assert balance.original_kg == Decimal("1000.000")
    assert balance.loss_kg == Decimal("25.000")
    assert balance.available_kg == Decimal("975.000")
    assert balance.used_kg == Decimal("100.000")
    assert balance.remaining_kg == Decimal("875.000")


def test_cap_modes():
    assert (
        carton_cap_of(
            cap_mode="by_weight", cap_value=None, available_kg=Decimal("99.9"), min_consumption=Decimal("0.5")
        )
        == 199
    )
    assert (
        carton_cap_of(
            cap_mode="fixed", cap_value=40, available_kg=Decimal("99.9"), min_consumption=Decimal("0.5")
        )
        == 40
    )
    assert (
        carton_cap_of(
            cap_mode="none", cap_value=None, available_kg=Decimal("99.9"), min_consumption=Decimal("0.5")
        )
        is None
    )
    assert (
        carton_cap_of(
            cap_mode="by_weight", cap_value=None, available_kg=Decimal("0"), min_consumption=Decimal("0.5")
        )
        == 0
    )


@pytest.fixture
def setup(eudr_world, in_tenant):
    with in_tenant(eudr_world.tenant3):
        yield eudr_world


def refusal(callable_, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        callable_(**kwargs)
    return info.value


def test_no_weight_available(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    factories.policy(w.vendor_a)  # later policy: the delivery keeps its built-in snapshot (no loss)
    factories.generate(d, w.line_a, 200)  # 200 x 0.5 kg = 100 kg: all of it
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=1)
    assert (error.error, str(error.message), error.status_code) == (
        "no_weight_available",
        "No weight available",
        409,
    )


def test_no_weight_available_when_loss_takes_everything(setup):
    w = setup
    factories.policy(w.vendor_a, loss_rate_percent=Decimal("100"))
    d = factories.delivery(w.vendor_a, weight="100")
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=1)
    assert error.error == "no_weight_available"


def test_insufficient_weight_min(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="30")
    factories.generate(d, w.line_a, 41)  # 20.5 kg used, 9.5 kg left
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=1)
    assert (error.error, str(error.message)) == (
        "insufficient_weight_min",
        "Insufficient weight (min 10kg required)",
    )


def test_exactly_ten_kg_left_still_generates(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="30")
    factories.generate(d, w.line_a, 40)  # 10 kg left
    factories.generate(d, w.line_a, 20)
    d.refresh_from_db()
    assert weight_balance(d).remaining_kg == 0


def test_insufficient_weight(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="50")
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=101)  # 50.5 kg > 50 kg
    assert (error.error, str(error.message)) == ("insufficient_weight", "Insufficient weight")
    assert error.data["max_cartons"] == 100
    factories.generate(d, w.line_a, 100)


def test_weight_limit_exceeded_and_cap_approval(setup):
    w = setup
    factories.policy(
        w.vendor_a, cap_mode=SupplierPolicy.CapMode.FIXED, cap_value=10, loss_rate_percent=Decimal("0")
    )
    d = factories.delivery(w.vendor_a, weight="1000")
    assert d.allowed_carton_cap == 10
    factories.generate(d, w.line_a, 8)
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=3)
    assert (error.error, str(error.message)) == ("weight_limit_exceeded", "Weight limit exceeded")
    assert error.data["max_cartons"] == 2
    services.cap_approve(delivery_id=d.pk, extra_cartons=5, reason="Customer reorder", user=w.admin)
    factories.generate(d, w.line_a, 3)
    d.refresh_from_db()
    assert (d.issued_cartons, d.approved_over_cap) == (11, 5)
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=5)
    assert error.error == "weight_limit_exceeded"


def test_by_weight_cap_follows_min_consumption(setup):
    w = setup
    # min consumption 2 kg > the line's 0.5 kg: each carton consumes 2 kg, the cap is 100 / 2 = 50
    factories.policy(w.vendor_a, min_consumption_per_carton=Decimal("2"), loss_rate_percent=Decimal("0"))
    d = factories.delivery(w.vendor_a, weight="100")
    assert d.allowed_carton_cap == 50
    batch = factories.generate(d, w.line_a, 5)
    assert batch.net_weight_per_carton_kg == Decimal("2.000")
    assert set(CartonLabel.objects.filter(batch=batch).values_list("net_weight_kg", flat=True)) == {
        Decimal("2.000")
    }


def test_net_weight_from_line_else_product(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    line = factories.order_line(w.vendor_a, weight_per_carton=None, product_weight=Decimal("0.750"))
    batch = factories.generate(d, line, 2, code="20261121B")
    assert batch.net_weight_per_carton_kg == Decimal("0.750")
    no_weight = factories.order_line(w.vendor_a, weight_per_carton=None, product_weight=None)
    error = refusal(factories.generate, delivery_obj=d, line=no_weight, count=1, code="20261121C")
    assert error.error == "carton_weight_missing"


@pytest.mark.parametrize(
    ("status", "key"),
    [
        ("draft", "raw_material_draft"),
        ("inactive", "raw_material_inactive"),
        ("expired", "raw_material_expired"),
    ],
)
def test_only_active_deliveries_issue_cartons(setup, status, key):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    RawMaterialDelivery.objects.filter(pk=d.pk).update(status=status)
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=1)
    assert (error.error, error.status_code) == (key, 409)


def test_expired_by_date_refused_before_the_job_runs(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    RawMaterialDelivery.objects.filter(pk=d.pk).update(
        coc_certificate_expiry=date.today() - timedelta(days=1)
    )
    assert refusal(factories.generate, delivery_obj=d, line=w.line_a, count=1).error == "raw_material_expired"


def test_order_line_of_another_vendor_and_wrong_product(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    error = refusal(factories.generate, delivery_obj=d, line=w.line_b, count=1)
    assert (error.error, error.status_code) == ("purchase_order_line_mismatch", 400)
    other = factories.order_line(w.vendor_a)
    error = refusal(
        services.cartons_generate,
        delivery_id=d.pk,
        count=1,
        production_batch_code="20261121A",
        product=other.product,
        purchase_order_line=w.line_a,
    )
    assert (error.error, error.status_code) == ("product_mismatch", 400)


def test_cancelled_order_refused(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    line = factories.order_line(w.vendor_a, status="cancelled")
    assert refusal(factories.generate, delivery_obj=d, line=line, count=1).error == "purchase_order_cancelled"


def test_batch_code_continues_and_belongs_to_one_delivery(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    factories.generate(d, w.line_a, 3)
    batch = factories.generate(d, w.line_a, 2)
    assert batch.carton_count == 5
    assert list(
        CartonLabel.objects.filter(batch=batch)
        .order_by("batch_sequence")
        .values_list("batch_sequence", flat=True)
    ) == [1, 2, 3, 4, 5]
    other = factories.delivery(w.vendor_a, weight="100")
    assert (
        refusal(factories.generate, delivery_obj=other, line=w.line_a, count=1).error == "batch_code_in_use"
    )
    another_line = factories.order_line(w.vendor_a)
    assert refusal(factories.generate, delivery_obj=d, line=another_line, count=1).error == "batch_mismatch"


def test_continuing_a_batch_with_another_container_is_refused(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    factories.generate(d, w.line_a, 3, container="MSKU1234567")
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=2, container="TGHU7654321")
    assert (error.error, error.status_code) == ("batch_container_mismatch", 409)
    assert str(error.message) == (
        "Production batch 20261121A was started for container MSKU1234567, not TGHU7654321: use a new "
        "batch code for this container."
    )
    assert error.data == {"container": ["This batch was started for another container."]}
    # an empty container is another container too
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=2, container="")
    assert error.error == "batch_container_mismatch"
    # nothing was issued by the refusals
    d.refresh_from_db()
    assert d.issued_cartons == 3
    # the same container typed in another case (and with spaces) continues the batch with its spelling
    batch = factories.generate(d, w.line_a, 2, container=" msku1234567 ")
    assert batch.carton_count == 5
    assert set(CartonLabel.objects.filter(batch=batch).values_list("container", flat=True)) == {"MSKU1234567"}
    # a new batch code takes the other container
    other = factories.generate(d, w.line_a, 1, code="20261121B", container="TGHU7654321")
    assert other.container == "TGHU7654321"


def test_continuing_a_batch_with_another_net_weight_is_refused(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    batch = factories.generate(d, w.line_a, 4)
    assert batch.net_weight_per_carton_kg == Decimal("0.500")
    w.line_a.weight_per_carton = Decimal("0.650")
    w.line_a.save()
    error = refusal(factories.generate, delivery_obj=d, line=w.line_a, count=2)
    assert (error.error, error.status_code) == ("batch_weight_mismatch", 409)
    assert str(error.message) == (
        "Production batch 20261121A was started with 0.500 kg per carton; the order line now gives 0.650 kg: "
        "use a new batch code."
    )
    d.refresh_from_db()
    batch.refresh_from_db()
    assert (d.issued_cartons, d.used_kg, batch.carton_count) == (4, Decimal("2.000"), 4)
    assert used_weight_recount(d.pk) == (Decimal("2.000"), 4)
    # the new weight goes into a new batch, and each batch's used weight stays count x weight
    new = factories.generate(d, w.line_a, 2, code="20261121B")
    assert (new.net_weight_per_carton_kg, new.carton_count) == (Decimal("0.650"), 2)
    d.refresh_from_db()
    assert d.used_kg == Decimal("3.300") == Decimal("0.500") * 4 + Decimal("0.650") * 2


def test_codes_are_random_and_unique(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="1000")
    factories.generate(d, w.line_a, 500)
    codes = list(CartonLabel.objects.values_list("code", flat=True))
    assert len(set(codes)) == 500
    assert all(len(code) == 20 and code.isalnum() and code.isupper() for code in codes)


def test_generated_labels_carry_every_fact_of_their_batch(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="1000")
    batch = factories.generate(d, w.line_a, 3, container="MSKU1234567")
    batch = factories.generate(d, w.line_a, 4, container="MSKU1234567")
    rows = list(
        CartonLabel.objects.filter(batch=batch)
        .order_by("batch_sequence")
        .values(
            "tenant_id",
            "raw_material_id",
            "production_batch_code",
            "batch_sequence",
            "product_id",
            "article_number",
            "purchase_order_line_id",
            "purchase_order",
            "container",
            "net_weight_kg",
            "status",
            "voided_at",
        )
    )
    assert [row.pop("batch_sequence") for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert all(
        row
        == {
            "tenant_id": w.tenant3.pk,
            "raw_material_id": d.pk,
            "production_batch_code": "20261121A",
            "product_id": w.line_a.product_id,
            "article_number": w.line_a.product.article_number,
            "purchase_order_line_id": w.line_a.pk,
            "purchase_order": w.line_a.order.order_number,
            "container": "MSKU1234567",
            "net_weight_kg": Decimal("0.500"),
            "status": "active",
            "voided_at": None,
        }
        for row in rows
    )
    created = set(CartonLabel.objects.filter(batch=batch).values_list("created_at", flat=True))
    assert len(created) == 2 and all(moment.tzinfo is not None for moment in created)


def test_generation_queries_do_not_grow_with_the_count(setup, django_assert_num_queries):
    """The labels go in one statement on PostgreSQL (in batches of LABEL_INSERT_BATCH elsewhere): no
    query per carton."""
    w = setup
    d = factories.delivery(w.vendor_a, weight="10000")
    factories.generate(d, w.line_a, 1)  # the batch exists: both calls below continue it
    with CaptureQueriesContext(connection) as few:
        factories.generate(d, w.line_a, 2)
    # one INSERT on PostgreSQL; on SQLite one more for the second batch of rows
    more = 0 if connection.vendor == "postgresql" else 1
    with django_assert_num_queries(len(few.captured_queries) + more):
        factories.generate(d, w.line_a, services.LABEL_INSERT_BATCH + 1)
    assert CartonLabel.objects.filter(raw_material=d).count() == 4 + services.LABEL_INSERT_BATCH


def test_lines_cannot_shrink_below_used_weight(setup):
    w = setup
    d = factories.delivery(w.vendor_a, weight="100")
    factories.generate(d, w.line_a, 100)  # 50 kg
    with pytest.raises(DomainError) as info:
        services.raw_material_update(delivery_id=d.pk, data={}, lines=[factories.paper_line("40")], user=None)
    assert info.value.error == "weight_below_used"
    services.raw_material_update(delivery_id=d.pk, data={}, lines=[factories.paper_line("60")], user=None)
    d.refresh_from_db()
    assert weight_balance(d).remaining_kg == Decimal("10.000")


operations = st.lists(
    st.one_of(
        st.tuples(st.just("generate"), st.integers(min_value=1, max_value=60)),
        st.tuples(st.just("delete"), st.integers(min_value=1, max_value=30)),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ops=operations,
    weight=st.decimals(min_value=Decimal("5"), max_value=Decimal("80"), places=1),
    loss=st.decimals(min_value=Decimal("0"), max_value=Decimal("30"), places=1),
    net=st.decimals(min_value=Decimal("0.1"), max_value=Decimal("3"), places=2),
)
def test_property_remaining_never_negative_and_used_equals_labels(setup, ops, weight, loss, net):
    w = setup
    RawMaterialDelivery.objects.update(delivery_number="")  # numbers free for the next example
    SupplierPolicy.objects.all().delete()
    factories.policy(w.vendor_a, loss_rate_percent=loss, min_consumption_per_carton=Decimal("0.05"))
    line = factories.order_line(w.vendor_a, weight_per_carton=net)
    d = factories.delivery(w.vendor_a, weight=weight)
    for op, n in ops:
        if op == "generate":
            try:
                factories.generate(d, line, n, code=_code(d, line))
            except DomainError as exc:
                assert exc.error in {
                    "no_weight_available",
                    "insufficient_weight_min",
                    "insufficient_weight",
                    "weight_limit_exceeded",
                }
        else:
            ids = list(
                CartonLabel.objects.filter(raw_material=d, status="active")
                .order_by("?")
                .values_list("pk", flat=True)[:n]
            )
            if ids:
                services.cartons_delete(ids=ids, queryset=CartonLabel.objects.all())
        d.refresh_from_db()
        balance = weight_balance(d)
        assert balance.remaining_kg >= 0
        used, count = used_weight_recount(d.pk)
        assert used == d.used_kg == balance.used_kg
        assert count == d.issued_cartons


_sequence = {"n": 0}


def _code(delivery, line) -> str:
    """A fresh batch code per generation (batch codes belong to one delivery and one product)."""
    _sequence["n"] += 1
    n = _sequence["n"]
    day = date(2026, 1, 1) + timedelta(days=n // 26)
    return f"{day:%Y%m%d}{chr(ord('A') + n % 26)}"
