"""Sales order rules: status derivation, the hand-set actions, reservations, shipping and cartons."""

from decimal import Decimal

import pytest

from apps.common.exceptions import DomainError
from apps.inventory import services as inventory
from apps.inventory.models import Reservation, Stock, StockMove
from apps.salesorders import errors as sales_errors
from apps.salesorders import services
from apps.salesorders.models import SalesOrder, SalesOrderLine, ShipmentCarton
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

D = Decimal
S = SalesOrder.Status


def _ship(order, quantities, in_tenant, tenant, **kw):
    with in_tenant(tenant):
        lines = list(order.lines.order_by("line_number"))
        shipment = services.shipment_create(
            sales_order=order,
            lines=[
                services.ShipmentLineInput(order_line=line, quantity=D(q))
                for line, q in zip(lines, quantities, strict=False)
                if q
            ],
        )
        if kw.get("ship", True):
            services.shipment_ship(shipment=shipment)
        return shipment


def test_totals_from_lines(sales_world, make_sales_order, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        order = services.sales_order_create(
            customer=w["customer"],
            order_date=__import__("datetime").date(2026, 3, 1),
            lines=[
                services.LineInput(
                    product=w["carton"],
                    quantity=D("3"),
                    unit_price=D("9.99"),
                    discount_percent=D("10"),
                    vat_rate=D("21"),
                ),
                services.LineInput(product=w["box"], quantity=D("1"), unit_price=D("100"), vat_rate=D("9")),
            ],
        )
        assert order.status == S.DRAFT
        assert order.order_number.startswith("SO-2026-")
        assert (order.total_net, order.total_vat, order.total_gross) == (D("126.97"), D("14.66"), D("141.63"))
        assert order.ship_to_city == "Rotterdam"


def test_editing_a_draft_takes_the_new_customer_and_product(sales_world, make_sales_order, in_tenant):
    """A draft moved to another customer gets that customer's address and terms (as on creation); a
    line moved to another product gets that product's name, not the old one's."""
    w = sales_world
    order = make_sales_order(confirm=False)
    with in_tenant(w["tenant3"]):
        w["customer_b"].payment_terms_days = 14
        w["customer_b"].delivery_city = "Hamburg"
        w["customer_b"].delivery_country = "DE"
        w["customer_b"].save()
        line = order.lines.get()
        assert line.description == w["carton"].name
        services.sales_order_update(
            order=order,
            fields={"customer": w["customer_b"]},
            lines=[
                services.LineInput(
                    id=line.pk, product=w["box"], quantity=D("2"), unit_price=D("5"), vat_rate=D("21")
                )
            ],
        )
        order.refresh_from_db()
        line.refresh_from_db()
        assert (order.customer_id, order.ship_to_city, order.ship_to_country) == (
            w["customer_b"].pk,
            "Hamburg",
            "DE",
        )
        assert order.payment_terms_days == 14 and order.ship_to_name == w["customer_b"].name
        assert (line.product_id, line.description) == (w["box"].pk, w["box"].name)
        assert order.total_gross == D("12.10")


def test_status_derivation_through_every_step(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order(confirm=False)
    assert order.status == S.DRAFT
    with in_tenant(w["tenant3"]):
        order = services.sales_order_confirm(order=order)
        assert order.status == S.CONFIRMED
        assert order.lines.get().quantity_reserved == D("100")
    first = _ship(order, ["30"], in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        order.refresh_from_db()
        assert order.status == S.PARTIALLY_SHIPPED
        line = order.lines.get()
        assert (line.quantity_shipped, line.quantity_reserved) == (D("30"), D("70"))
    _ship(order, ["70"], in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        order.refresh_from_db()
        assert order.status == S.SHIPPED
        invoice = services.invoice_create(shipments=[first])
        services.invoice_post(invoice=invoice)
        order.refresh_from_db()
        assert order.status == S.PARTIALLY_INVOICED
        rest = services.invoice_create(sales_order=order)
        assert rest.lines.get().quantity == D("70")
        services.invoice_post(invoice=rest)
        order.refresh_from_db()
        assert order.status == S.INVOICED
        order = services.sales_order_close(order=order)
        assert order.status == S.CLOSED
        with pytest.raises(sales_errors.OrderNotClosable):
            services.sales_order_close(order=order)


def test_illegal_actions(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    draft = make_sales_order(confirm=False)
    with in_tenant(w["tenant3"]):
        with pytest.raises(sales_errors.OrderNotClosable) as exc:
            services.sales_order_close(order=draft)
        assert exc.value.error == "order_not_closable" and exc.value.status_code == 409
        confirmed = services.sales_order_confirm(order=draft)
        with pytest.raises(sales_errors.OrderNotConfirmable) as exc:
            services.sales_order_confirm(order=confirmed)
        assert exc.value.error == "order_not_confirmable"
    _ship(confirmed, ["10"], in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        confirmed.refresh_from_db()
        with pytest.raises(sales_errors.OrderNotCancellable) as exc:
            services.sales_order_cancel(order=confirmed)
        assert exc.value.error == "order_not_cancellable"
        cancelled = services.sales_order_cancel(order=make_sales_order(confirm=False))
        for act in (services.sales_order_confirm, services.sales_order_cancel, services.sales_order_close):
            with pytest.raises(DomainError):
                act(order=cancelled)
        with pytest.raises(sales_errors.NoOpenQuantity):
            services.shipment_create(
                sales_order=cancelled,
                lines=[services.ShipmentLineInput(order_line=cancelled.lines.get(), quantity=D("1"))],
            )


def test_cancel_releases_the_reservation(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        assert Reservation.objects.filter(status="active").count() == 1
        services.sales_order_cancel(order=order)
        assert not Reservation.objects.filter(status="active").exists()
        assert order.lines.get().quantity_reserved == 0
    # the stock is free again for another order
    make_sales_order()


def test_confirm_refused_without_stock_unless_backorders(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "50")
    order = make_sales_order(confirm=False)
    with in_tenant(w["tenant3"]):
        with pytest.raises(inventory.InsufficientAvailableStock):
            services.sales_order_confirm(order=order)
        order.refresh_from_db()
        assert order.status == S.DRAFT and order.confirmed_at is None
        w["tenant3"].allow_backorders = True
        w["tenant3"].save()
        assert services.sales_order_confirm(order=order).status == S.CONFIRMED


def test_over_shipping_refused(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order()
    draft = _ship(order, ["60"], in_tenant, w["tenant3"], ship=False)
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        with pytest.raises(sales_errors.OverShipment) as exc:
            services.shipment_create(
                sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=D("41"))]
            )
        assert exc.value.error == "over_shipment"
        assert exc.value.data["open"] == "40.000"
        services.shipment_ship(shipment=draft)
        with pytest.raises(sales_errors.OverShipment):
            services.shipment_create(
                sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=D("40.001"))]
            )


def test_shipping_posts_moves_and_consumes(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    order = make_sales_order()
    shipment = _ship(order, ["30"], in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        move = StockMove.objects.get(kind="issue")
        assert (move.quantity, move.from_location, move.reference) == (
            D("30"),
            w["storage"],
            shipment.shipment_number,
        )
        assert Stock.objects.get(product=w["carton"]).quantity == D("70")
        assert Reservation.objects.get(status="consumed").quantity == D("30")
        assert Reservation.objects.get(status="active").quantity == D("70")


def test_shipping_failure_posts_nothing(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    w["tenant3"].allow_backorders = True
    w["tenant3"].save()
    order = make_sales_order(lines=[(w["carton"], "50", "1"), (w["box"], "20", "1")])
    shipment = _ship(order, ["50", "20"], in_tenant, w["tenant3"], ship=False)
    with in_tenant(w["tenant3"]):
        with pytest.raises(inventory.InsufficientStock):
            services.shipment_ship(shipment=shipment)  # no boxes in stock
        shipment.refresh_from_db()
        assert shipment.status == "draft"
        assert not StockMove.objects.filter(kind="issue").exists()
        assert Stock.objects.get(product=w["carton"]).quantity == D("100")
        assert not Reservation.objects.filter(status="consumed").exists()
        assert sum(line.quantity_shipped for line in SalesOrderLine.objects.all()) == 0


def test_shipped_lines_are_read_only(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order()
    _ship(order, ["10"], in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        with pytest.raises(sales_errors.LineShippedReadOnly):
            services.sales_order_update(
                order=order,
                fields={},
                lines=[
                    services.LineInput(
                        id=line.pk, product=w["carton"], quantity=D("90"), unit_price=D("2.50")
                    )
                ],
            )


def test_changing_a_confirmed_line_reserves_again(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        services.sales_order_update(
            order=order,
            fields={},
            lines=[
                services.LineInput(
                    id=line.pk, product=w["carton"], quantity=D("150"), unit_price=D("2.50"), vat_rate=D("21")
                )
            ],
        )
        line.refresh_from_db()
        assert line.quantity_reserved == D("150")
        assert Reservation.objects.filter(status="active").get().quantity == D("150")


# -- cartons -------------------------------------------------------------------------------------------------


def test_cartons_on_a_shipment(sales_world, put_stock, make_sales_order, carton_codes, in_tenant):
    # two cartons picked of a larger line: the company ships the rest as unlabelled stock
    Tenant.objects.filter(pk=sales_world["tenant3"].pk).update(allow_unlabelled_shipping=True)
    w = sales_world
    put_stock(w["carton"], "500")
    codes = carton_codes(w["carton"], 3)
    box_codes = carton_codes(w["box"], 1)
    order = make_sales_order()
    first = _ship(order, ["10"], in_tenant, w["tenant3"], ship=False)
    second = _ship(order, ["10"], in_tenant, w["tenant3"], ship=False)
    with in_tenant(w["tenant3"]):
        added = services.shipment_cartons_add(shipment=first, codes=[codes[0], f" {codes[1]} "])
        assert len(added) == 2
        # a second scan of the same carton is accepted, nothing doubles
        services.shipment_cartons_add(shipment=first, codes=[codes[0]])
        assert ShipmentCarton.objects.filter(shipment=first).count() == 2
        with pytest.raises(sales_errors.CartonOnOtherShipment) as exc:
            services.shipment_cartons_add(shipment=second, codes=[codes[2], codes[0]])
        assert exc.value.error == "carton_on_other_shipment" and exc.value.data["code"] == codes[0]
        assert not ShipmentCarton.objects.filter(shipment=second).exists()  # all or nothing
        with pytest.raises(sales_errors.CartonWrongProduct) as exc:
            services.shipment_cartons_add(shipment=second, codes=box_codes)
        assert exc.value.error == "carton_wrong_product"
        with pytest.raises(sales_errors.CartonNotFound) as exc:
            services.shipment_cartons_add(shipment=second, codes=["NOSUCHCODE"])
        assert exc.value.error == "carton_not_found" and exc.value.status_code == 404
        services.shipment_ship(shipment=first)
        with pytest.raises(sales_errors.ShipmentAlreadyShipped) as exc:
            services.shipment_cartons_add(shipment=first, codes=[codes[2]])
        assert exc.value.error == "shipment_already_shipped"


def test_carton_of_another_tenant_is_unknown(sales_world, put_stock, make_sales_order, make_order, in_tenant):
    from apps.eudr.models import CartonLabel, ProductionBatch
    from apps.eudr.tests.trace_data import make_delivery

    w = sales_world
    po = make_order(supplier=w["supplier_x"], lines=[(w["product_x"], "10", "1")], tenant=w["tenant2"])
    with in_tenant(w["tenant2"]):
        line = po.lines.get()
        delivery = make_delivery(vendor_name="Vendor X", delivery_number="DLV-X-1")
        batch = ProductionBatch.objects.create(
            delivery=delivery,
            production_batch_code="20260301X",
            product=w["product_x"],
            purchase_order_line=line,
            net_weight_per_carton_kg=D("0.5"),
            carton_count=1,
            last_sequence=1,
        )
        CartonLabel.objects.create(
            batch=batch,
            raw_material=delivery,
            code="OTHERTENANT01",
            production_batch_code=batch.production_batch_code,
            batch_sequence=1,
            product=w["product_x"],
            article_number="X-1",
            purchase_order_line=line,
            purchase_order=po.order_number,
            net_weight_kg=D("0.5"),
        )
    put_stock(w["carton"], "500")
    order = make_sales_order()
    shipment = _ship(order, ["10"], in_tenant, w["tenant3"], ship=False)
    messages = []
    for code in ("OTHERTENANT01", "NOSUCHCODE01"):
        with in_tenant(w["tenant3"]), pytest.raises(sales_errors.CartonNotFound) as exc:
            services.shipment_cartons_add(shipment=shipment, codes=[code])
        messages.append((exc.value.error, str(exc.value.message).replace(code, "<code>")))
    assert messages[0] == messages[1] == ("carton_not_found", "No carton has the code <code>.")


def test_carton_unique_in_the_database(sales_world, put_stock, make_sales_order, carton_codes, in_tenant):
    from django.db import IntegrityError, transaction

    from apps.eudr.models import CartonLabel

    w = sales_world
    put_stock(w["carton"], "500")
    codes = carton_codes(w["carton"], 1)
    order = make_sales_order()
    a = _ship(order, ["10"], in_tenant, w["tenant3"], ship=False)
    b = _ship(order, ["10"], in_tenant, w["tenant3"], ship=False)
    with in_tenant(w["tenant3"]):
        carton = CartonLabel.objects.get(code=codes[0])
        ShipmentCarton.objects.create(shipment=a, shipment_line=a.lines.get(), carton=carton)
        with pytest.raises(IntegrityError), transaction.atomic():
            ShipmentCarton.objects.create(shipment=b, shipment_line=b.lines.get(), carton=carton)
