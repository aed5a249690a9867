"""Demo parent vendors and suppliers (carton factories) for tenants 2 and 3.

PV-SEP and PV-NBC have supplier users in tenant 3 (`supplier`, `supplier2`); PV-GSP has none, so the
parent-vendor page shows a vendor that can be deleted once its supplier is gone.
"""

from apps.suppliers.models import ParentVendor, Supplier
from apps.tenancy.context import tenant_context

PARENT_VENDORS = [
    {
        "code": "PV-SEP",
        "name": "Shanghai Evergreen Packaging",
        "cname": "上海常青包装",
        "contact": "Li Wei",
        "email": "sales@evergreen-pack.example",
        "phone": "+86 21 5888 1200",
        "country": "CN",
        "suppliers": [
            {
                "number": "S-1001",
                "name": "Evergreen Carton Factory No.1",
                "country": "CN",
                "address": "1288 Jiangchang Road, Jing'an District, Shanghai 200072",
                "email": "orders@evergreen-pack.example",
                "phone": "+86 21 5888 1201",
                "visma_code": "70101",
                "payment_terms": "60 days net",
                "currency": "USD",
                "contacts": [
                    {
                        "name": "Li Wei",
                        "role": "Sales manager",
                        "email": "li.wei@evergreen-pack.example",
                        "phone": "+86 138 0013 8000",
                    },
                    {
                        "name": "Zhang Min",
                        "role": "Quality",
                        "email": "zhang.min@evergreen-pack.example",
                        "phone": "+86 139 1000 2000",
                    },
                ],
                "notes": "FSC Mix certified. Ships from Yangshan port.",
            },
            {
                "number": "S-1002",
                "name": "Evergreen Paper Products Kunshan",
                "country": "CN",
                "address": "66 Qianjin East Road, Kunshan, Jiangsu 215300",
                "email": "kunshan@evergreen-pack.example",
                "phone": "+86 512 5771 3300",
                "visma_code": "70102",
                "payment_terms": "60 days net",
                "currency": "USD",
                "contacts": [
                    {
                        "name": "Wu Hao",
                        "role": "Plant manager",
                        "email": "wu.hao@evergreen-pack.example",
                        "phone": "+86 136 2000 3000",
                    },
                ],
                "notes": "",
            },
        ],
    },
    {
        "code": "PV-NBC",
        "name": "Ningbo Bluewave Cartons",
        "cname": "宁波蓝波纸箱",
        "contact": "Chen Jing",
        "email": "export@bluewave-cartons.example",
        "phone": "+86 574 8765 4300",
        "country": "CN",
        "suppliers": [
            {
                "number": "S-2001",
                "name": "Bluewave Corrugated Ningbo",
                "country": "CN",
                "address": "9 Xingye Avenue, Beilun District, Ningbo, Zhejiang 315800",
                "email": "orders@bluewave-cartons.example",
                "phone": "+86 574 8765 4301",
                "visma_code": "70201",
                "payment_terms": "30 days net",
                "currency": "EUR",
                "contacts": [
                    {
                        "name": "Chen Jing",
                        "role": "Export sales",
                        "email": "chen.jing@bluewave-cartons.example",
                        "phone": "+86 135 7400 1100",
                    },
                ],
                "notes": "Prefers consolidated containers from Ningbo-Zhoushan.",
            },
            {
                "number": "S-2002",
                "name": "Bluewave Printing & Packaging",
                "country": "CN",
                "address": "215 Chuangye Road, Yinzhou District, Ningbo 315100",
                "email": "print@bluewave-cartons.example",
                "phone": "+86 574 8765 4302",
                "visma_code": "70202",
                "payment_terms": "30 days net",
                "currency": "EUR",
                "contacts": [],
                "notes": "Printed cartons (flexo, up to 4 colours).",
            },
        ],
    },
    {
        "code": "PV-GSP",
        "name": "Guangzhou Sunrise Paper",
        "cname": "广州日出纸业",
        "contact": "Liu Yang",
        "email": "info@sunrise-paper.example",
        "phone": "+86 20 3456 7800",
        "country": "CN",
        "suppliers": [
            {
                "number": "S-3001",
                "name": "Sunrise Kraft Mill Dongguan",
                "country": "CN",
                "address": "3 Industrial Park Road, Machong Town, Dongguan, Guangdong 523130",
                "email": "kraft@sunrise-paper.example",
                "phone": "+86 769 8800 1200",
                "visma_code": "70301",
                "payment_terms": "45 days net",
                "currency": "CNY",
                "contacts": [
                    {
                        "name": "Liu Yang",
                        "role": "Key account",
                        "email": "liu.yang@sunrise-paper.example",
                        "phone": "+86 137 2800 4400",
                    },
                ],
                "notes": "Kraft liner supplier; no portal users yet.",
            },
        ],
    },
]


def load(ctx: dict) -> None:
    for tenant_id in (2, 3):
        with tenant_context(ctx["tenants"][tenant_id]):
            for spec in PARENT_VENDORS:
                vendor_fields = {k: v for k, v in spec.items() if k not in ("name", "suppliers")}
                vendor, _ = ParentVendor.objects.update_or_create(name=spec["name"], defaults=vendor_fields)
                for supplier in spec["suppliers"]:
                    fields = {k: v for k, v in supplier.items() if k != "number"}
                    Supplier.objects.update_or_create(
                        number=supplier["number"], defaults={**fields, "parent_vendor": vendor}
                    )
