from decimal import Decimal

from apps.products.models import Product, ProductGroup


def make_group(name: str = "Single wall", **fields) -> ProductGroup:
    return ProductGroup.objects.create(name=name, **fields)


def make_product(article_number: str = "CT-1", **fields) -> Product:
    defaults = {
        "name": f"Carton {article_number}",
        "weight_per_carton_kg": Decimal("0.320"),
        "hs_code": "481910",
        "purchase_price": Decimal("0.42"),
        "sales_price": Decimal("0.69"),
    }
    return Product.objects.create(article_number=article_number, **{**defaults, **fields})
