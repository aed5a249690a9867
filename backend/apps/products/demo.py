"""Demo catalogue for tenants 2 and 3: product groups and about 50 products with carton weights.

Carton weights are computed from the carton's blank (regular slotted case) and the board's grammage,
so they are as plausible as real ones; goods carry the net weight of their master carton.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from apps.products.models import Product, ProductGroup
from apps.tenancy.context import tenant_context

# (code, name, parent code, description)
GROUPS = [
    ("CC", "Corrugated cartons", None, "Shipping cartons of corrugated board"),
    ("CC-SW", "Single wall", "CC", "Single-wall corrugated cartons (B or C flute)"),
    ("CC-DW", "Double wall", "CC", "Double-wall corrugated cartons (BC flute)"),
    ("CC-TW", "Triple wall", "CC", "Triple-wall heavy duty cartons"),
    ("FB", "Folding boxes", None, "Printed folding boxes of solid board"),
    ("PA", "Packaging accessories", None, "Tapes, dividers, pads and labels"),
    ("GD", "Goods", None, "Trade goods shipped in master cartons"),
    ("GD-KW", "Kitchenware", "GD", "Cookware, utensils and tableware"),
    ("GD-HT", "Home textiles", "GD", "Kitchen and bed linen, cushions, throws"),
    ("GD-ST", "Storage & organisation", "GD", "Baskets, boxes and organisers"),
]

# Board grammage in g/m² per group (for the computed carton weight).
GRAMMAGE = {"CC-SW": 480, "CC-DW": 780, "CC-TW": 1150, "FB": 350}

# Cartons: (article, group, (L, W, H) mm, name suffix, name_zh suffix)
CARTONS = [
    ("CT-SW-3020", "CC-SW", (300, 200, 150), "print 1 colour", "单色印刷"),
    ("CT-SW-4030", "CC-SW", (400, 300, 200), "brown kraft", "牛皮纸"),
    ("CT-SW-4030W", "CC-SW", (400, 300, 200), "white top", "白面"),
    ("CT-SW-5035", "CC-SW", (500, 350, 250), "brown kraft", "牛皮纸"),
    ("CT-SW-6040", "CC-SW", (600, 400, 300), "brown kraft", "牛皮纸"),
    ("CT-SW-2520", "CC-SW", (250, 200, 100), "e-commerce", "电商"),
    ("CT-SW-3525", "CC-SW", (350, 250, 150), "print 2 colours", "双色印刷"),
    ("CT-SW-4535", "CC-SW", (450, 350, 300), "brown kraft", "牛皮纸"),
    ("CT-DW-4030", "CC-DW", (400, 300, 300), "brown kraft", "牛皮纸"),
    ("CT-DW-5040", "CC-DW", (500, 400, 400), "brown kraft", "牛皮纸"),
    ("CT-DW-6040", "CC-DW", (600, 400, 400), "print 1 colour", "单色印刷"),
    ("CT-DW-8060", "CC-DW", (800, 600, 400), "brown kraft", "牛皮纸"),
    ("CT-DW-6050W", "CC-DW", (600, 500, 450), "white top", "白面"),
    ("CT-DW-5545", "CC-DW", (550, 450, 350), "moving box", "搬家箱"),
    ("CT-DW-4040", "CC-DW", (400, 400, 400), "cube", "立方箱"),
    ("CT-TW-1208", "CC-TW", (1200, 800, 600), "pallet box", "托盘箱"),
    ("CT-TW-1010", "CC-TW", (1000, 1000, 800), "bulk bin", "散装箱"),
    ("CT-TW-8060", "CC-TW", (800, 600, 600), "heavy duty", "重型"),
    ("FB-2015", "FB", (200, 150, 60), "gift box, 4 colours", "四色礼品盒"),
    ("FB-1510", "FB", (150, 100, 50), "retail box, 4 colours", "四色零售盒"),
    ("FB-3020", "FB", (300, 200, 80), "shoe box", "鞋盒"),
    ("FB-1212", "FB", (120, 120, 120), "cube box, white", "白色方盒"),
    ("FB-2510", "FB", (250, 100, 100), "bottle box", "酒瓶盒"),
    ("FB-1008", "FB", (100, 80, 40), "cosmetics box", "化妆品盒"),
]

CARTON_HS = {"CC-SW": "481910", "CC-DW": "481910", "CC-TW": "481910", "FB": "481920"}
CARTON_NAMES = {
    "CC-SW": ("Single wall carton", "单瓦楞纸箱"),
    "CC-DW": ("Double wall carton", "双瓦楞纸箱"),
    "CC-TW": ("Triple wall carton", "三瓦楞纸箱"),
    "FB": ("Folding box", "折叠纸盒"),
}

# Other articles: (article, group, name, name_zh, unit, hs, carton weight kg, purchase, sales)
GOODS = [
    (
        "PA-TP-48",
        "PA",
        "Packing tape brown 48 mm x 66 m",
        "棕色封箱胶带 48毫米x66米",
        "roll",
        "391910",
        "0.450",
        "0.62",
        "1.15",
    ),
    (
        "PA-TP-50P",
        "PA",
        "Paper tape gummed 50 mm x 50 m",
        "牛皮纸湿水胶带 50毫米x50米",
        "roll",
        "482390",
        "0.380",
        "1.10",
        "1.95",
    ),
    (
        "PA-DV-12",
        "PA",
        "Carton divider set 12 cells",
        "纸箱隔板 12格",
        "set",
        "482390",
        "0.600",
        "0.35",
        "0.70",
    ),
    (
        "PA-PD-6040",
        "PA",
        "Corrugated pad 600 x 400 mm",
        "瓦楞垫板 600x400毫米",
        "pcs",
        "480810",
        "0.800",
        "0.18",
        "0.34",
    ),
    (
        "PA-CC-100",
        "PA",
        "Corner protector 35 x 35 x 1000 mm",
        "护角 35x35x1000毫米",
        "pcs",
        "482390",
        "1.200",
        "0.21",
        "0.45",
    ),
    (
        "PA-LB-A6",
        "PA",
        "Shipping label A6, 500 per roll",
        "A6运输标签 每卷500张",
        "roll",
        "482110",
        "0.400",
        "3.40",
        "6.20",
    ),
    (
        "KW-PAN-28",
        "GD-KW",
        "Frying pan stainless steel 28 cm",
        "不锈钢煎锅 28厘米",
        "pcs",
        "732393",
        "0.950",
        "7.80",
        "16.90",
    ),
    (
        "KW-POT-SET5",
        "GD-KW",
        "Cookware set 5 pieces stainless steel",
        "不锈钢锅具五件套",
        "set",
        "732393",
        "1.650",
        "24.50",
        "49.00",
    ),
    (
        "KW-KNF-BLK",
        "GD-KW",
        "Knife block with 6 knives",
        "刀座含六把刀",
        "set",
        "821192",
        "1.100",
        "11.20",
        "24.90",
    ),
    (
        "KW-PLT-27",
        "GD-KW",
        "Dinner plate porcelain 27 cm",
        "瓷餐盘 27厘米",
        "pcs",
        "691110",
        "0.900",
        "1.35",
        "3.20",
    ),
    (
        "KW-MUG-35",
        "GD-KW",
        "Stoneware mug 350 ml",
        "炻器马克杯 350毫升",
        "pcs",
        "691200",
        "0.850",
        "0.95",
        "2.40",
    ),
    (
        "KW-BRD-BMB",
        "GD-KW",
        "Cutting board bamboo 40 x 30 cm",
        "竹制砧板 40x30厘米",
        "pcs",
        "441990",
        "1.050",
        "3.10",
        "7.50",
    ),
    (
        "KW-GLS-6",
        "GD-KW",
        "Drinking glass 300 ml, set of 6",
        "玻璃水杯 300毫升 六只装",
        "set",
        "701349",
        "1.300",
        "2.90",
        "6.90",
    ),
    (
        "KW-UTN-SIL",
        "GD-KW",
        "Silicone kitchen utensil set 5 pieces",
        "硅胶厨具五件套",
        "set",
        "392410",
        "0.700",
        "3.60",
        "8.90",
    ),
    (
        "HT-TWL-KIT",
        "GD-HT",
        "Kitchen towel cotton 50 x 70 cm, 3 pack",
        "纯棉厨房毛巾 50x70厘米 三条装",
        "pack",
        "630260",
        "0.750",
        "2.40",
        "5.90",
    ),
    (
        "HT-BED-DBL",
        "GD-HT",
        "Bed linen set cotton percale 200 x 220 cm",
        "纯棉床品套件 200x220厘米",
        "set",
        "630221",
        "1.400",
        "14.50",
        "34.90",
    ),
    (
        "HT-THR-130",
        "GD-HT",
        "Fleece throw 130 x 170 cm",
        "摇粒绒毯 130x170厘米",
        "pcs",
        "630140",
        "1.150",
        "5.20",
        "12.90",
    ),
    (
        "HT-CSH-45",
        "GD-HT",
        "Cushion cover linen look 45 x 45 cm",
        "仿麻抱枕套 45x45厘米",
        "pcs",
        "630492",
        "0.650",
        "1.30",
        "3.90",
    ),
    (
        "HT-APR-CTN",
        "GD-HT",
        "Apron cotton with pocket",
        "纯棉带口袋围裙",
        "pcs",
        "621143",
        "0.700",
        "2.10",
        "5.50",
    ),
    (
        "HT-TBL-140",
        "GD-HT",
        "Tablecloth 140 x 240 cm",
        "桌布 140x240厘米",
        "pcs",
        "630251",
        "0.900",
        "6.40",
        "14.90",
    ),
    (
        "ST-BSK-SEA",
        "GD-ST",
        "Seagrass basket 30 cm",
        "海草收纳篮 30厘米",
        "pcs",
        "460219",
        "1.250",
        "3.80",
        "9.90",
    ),
    (
        "ST-BOX-3PK",
        "GD-ST",
        "Storage box with lid, 3 pack",
        "带盖收纳盒 三只装",
        "pack",
        "392690",
        "1.600",
        "4.90",
        "11.90",
    ),
    (
        "ST-DRW-ORG",
        "GD-ST",
        "Drawer organiser bamboo",
        "竹制抽屉收纳盒",
        "pcs",
        "441990",
        "0.950",
        "4.20",
        "9.50",
    ),
    (
        "ST-HNG-10",
        "GD-ST",
        "Wooden clothes hangers, 10 pack",
        "木衣架 十只装",
        "pack",
        "442110",
        "1.350",
        "3.20",
        "7.90",
    ),
    (
        "ST-VAC-BAG",
        "GD-ST",
        "Vacuum storage bags, 4 pack",
        "真空收纳袋 四只装",
        "pack",
        "392329",
        "0.600",
        "2.70",
        "6.90",
    ),
    (
        "KW-OLD-PAN",
        "GD-KW",
        "Frying pan aluminium 24 cm (discontinued)",
        "铝制煎锅 24厘米 (停产)",
        "pcs",
        "761510",
        "0.900",
        "5.10",
        "11.90",
    ),
]

INACTIVE = {"KW-OLD-PAN", "CT-SW-2520"}


def carton_weight_kg(dimensions: tuple[int, int, int], grammage: int) -> Decimal:
    """Net weight of a regular slotted case: blank (2L + 2W + glue flap) x (H + W) times grammage."""
    length, width, height = dimensions
    blank_m2 = Decimal((2 * length + 2 * width + 40) * (height + width)) / Decimal(1_000_000)
    return (blank_m2 * grammage / 1000).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)


def carton_price(weight: Decimal, printed: bool) -> tuple[Decimal, Decimal]:
    purchase = (Decimal("0.12") + weight * Decimal("1.35") + (Decimal("0.08") if printed else 0)).quantize(
        Decimal("0.01")
    )
    return purchase, (purchase * Decimal("1.45")).quantize(Decimal("0.01"))


def load(ctx: dict) -> None:
    ctx.setdefault("products", {})
    ctx.setdefault("product_groups", {})
    for tenant_id in (2, 3):
        with tenant_context(ctx["tenants"][tenant_id]):
            groups: dict[str, ProductGroup] = {}
            for code, name, parent_code, description in GROUPS:
                group, _ = ProductGroup.objects.get_or_create(
                    code=code,
                    defaults={"name": name, "description": description, "parent": groups.get(parent_code)},
                )
                groups[code] = group
            products: dict[str, Product] = {}
            for index, (article, group_code, dims, suffix, suffix_zh) in enumerate(CARTONS):
                weight = carton_weight_kg(dims, GRAMMAGE[group_code])
                purchase, sales = carton_price(weight, "colour" in suffix)
                base, base_zh = CARTON_NAMES[group_code]
                size = "x".join(str(d) for d in dims)
                product, _ = Product.objects.get_or_create(
                    article_number=article,
                    defaults={
                        "name": f"{base} {size} mm, {suffix}",
                        "name_zh": f"{base_zh} {size}毫米 {suffix_zh}",
                        "group": groups[group_code],
                        "unit": Product.Unit.PIECE,
                        "weight_per_carton_kg": weight,
                        "carton_length_mm": dims[0],
                        "carton_width_mm": dims[1],
                        "carton_height_mm": dims[2],
                        "hs_code": CARTON_HS[group_code],
                        "purchase_price": purchase,
                        "sales_price": sales,
                        "currency": "EUR",
                        "visma_code": f"30{index + 10:02d}",
                        "is_active": article not in INACTIVE,
                        "description": f"{base}, {suffix}. Board {GRAMMAGE[group_code]} g/m².",
                    },
                )
                products[article] = product
            for index, (article, group_code, name, name_zh, unit, hs, weight, purchase, sales) in enumerate(
                GOODS
            ):
                product, _ = Product.objects.get_or_create(
                    article_number=article,
                    defaults={
                        "name": name,
                        "name_zh": name_zh,
                        "group": groups[group_code],
                        "unit": unit,
                        "weight_per_carton_kg": Decimal(weight),
                        "hs_code": hs,
                        "purchase_price": Decimal(purchase),
                        "sales_price": Decimal(sales),
                        "currency": "EUR",
                        "visma_code": f"40{index + 10:02d}",
                        "is_active": article not in INACTIVE,
                    },
                )
                products[article] = product
            ctx["product_groups"][tenant_id] = groups
            ctx["products"][tenant_id] = products
