"""Demo e-mail scenarios (tenant 3): templates in English and Chinese and ready scenarios for the events
people ask for first (the invoice to the customer with its PDF, a new purchase order to the supplier,
the shipment to the customer with the delivery note, a certificate about to expire), and a few messages
in the log, made by the scenarios for the latest demo records exactly as the events would make them.

The demo's messages go to the local outbox whatever the installation's mail settings are (the demo
addresses are invented): nothing leaves the machine. Loaded after the sales, purchasing and EUDR demos
(app order), so the records exist.
"""

from __future__ import annotations

from apps.notifications import events as registry
from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate
from apps.notifications.services import message_deliver, messages_for_event
from apps.tenancy.context import tenant_context

TENANT = 3

TEMPLATES = {
    "invoice": {
        "name": "Invoice to the customer",
        "event": "invoice.posted",
        "subject_en": (
            "{% if invoice.kind == 'credit_note' %}Credit note{% else %}Invoice{% endif %} {{ invoice.number }} from {{ company.name }}"
        ),
        "subject_zh": "{{ company.name }} {% if invoice.kind == 'credit_note' %}贷项通知单{% else %}发票{% endif %} {{ invoice.number }}",
        "body_html_en": (
            "<p>Dear {{ customer.name }},</p>"
            "<p>please find attached our {% if invoice.kind == 'credit_note' %}credit note{% else %}invoice{% endif %} "
            "<b>{{ invoice.number }}</b> of {{ invoice.issue_date }} "
            "for order {{ order.number }}{% if order.customer_reference %} (your reference "
            "{{ order.customer_reference }}){% endif %}.</p>"
            "{% if invoice.kind == 'credit_note' %}<p>Amount credited: <b>{{ invoice.total_gross }} {{ invoice.currency }}</b>.</p>"
            "{% else %}<p>Amount due: <b>{{ invoice.total_gross }} {{ invoice.currency }}</b>, "
            "payable by {{ invoice.due_date }}.</p>{% endif %}"
            "<p>Kind regards,<br>{{ company.name }}</p>"
        ),
        "body_text_en": (
            "Dear {{ customer.name }},\n\n"
            "please find attached our {% if invoice.kind == 'credit_note' %}credit note{% else %}invoice{% endif %} "
            "{{ invoice.number }} of {{ invoice.issue_date }} for order {{ order.number }}.\n"
            "{% if invoice.kind == 'credit_note' %}Amount credited: {{ invoice.total_gross }} {{ invoice.currency }}."
            "{% else %}Amount due: {{ invoice.total_gross }} {{ invoice.currency }}, "
            "payable by {{ invoice.due_date }}.{% endif %}"
            "\n\nKind regards,\n{{ company.name }}"
        ),
        "body_html_zh": (
            "<p>{{ customer.name }}，您好：</p>"
            "<p>附件为订单 {{ order.number }} 的{% if invoice.kind == 'credit_note' %}贷项通知单{% else %}发票{% endif %} "
            "<b>{{ invoice.number }}</b>（开票日期 "
            "{{ invoice.issue_date }}）。</p>"
            "{% if invoice.kind == 'credit_note' %}<p>贷记金额：<b>{{ invoice.total_gross }} {{ invoice.currency }}</b>。</p>"
            "{% else %}<p>应付金额：<b>{{ invoice.total_gross }} {{ invoice.currency }}</b>，"
            "请于 {{ invoice.due_date }} 前付款。</p>{% endif %}"
            "<p>此致<br>{{ company.name }}</p>"
        ),
        "body_text_zh": (
            "{{ customer.name }}，您好：\n\n附件为订单 {{ order.number }} 的"
            "{% if invoice.kind == 'credit_note' %}贷项通知单{% else %}发票{% endif %} {{ invoice.number }}。\n"
            "{% if invoice.kind == 'credit_note' %}贷记金额：{{ invoice.total_gross }} {{ invoice.currency }}。"
            "{% else %}应付金额：{{ invoice.total_gross }} {{ invoice.currency }}，"
            "请于 {{ invoice.due_date }} 前付款。{% endif %}"
            "\n\n此致\n{{ company.name }}"
        ),
    },
    "purchase_order": {
        "name": "New purchase order to the supplier",
        "event": "purchase_order.sent",
        "subject_en": "Purchase order {{ order.number }} from {{ company.name }}",
        "subject_zh": "{{ company.name }} 采购订单 {{ order.number }}",
        "body_html_en": (
            "<p>Dear {{ parent_vendor.name }},</p>"
            "<p>we have placed purchase order <b>{{ order.number }}</b> of {{ order.date }} with "
            "{{ supplier.name }}: {{ order.total }} {{ order.currency }}"
            "{% if order.promise_date %}, needed by {{ order.promise_date }}{% endif %}.</p>"
            '<p><a href="{{ record.url }}">Open the order in CartonTrace</a> to see its lines.</p>'
            "<p>{{ owner.name }}<br>{{ company.name }}</p>"
        ),
        "body_text_en": (
            "Dear {{ parent_vendor.name }},\n\n"
            "we have placed purchase order {{ order.number }} of {{ order.date }} with {{ supplier.name }}: "
            "{{ order.total }} {{ order.currency }}.\nThe order in CartonTrace: {{ record.url }}\n\n"
            "{{ owner.name }}\n{{ company.name }}"
        ),
        "body_html_zh": (
            "<p>{{ parent_vendor.cname or parent_vendor.name }}，您好：</p>"
            "<p>我们已向 {{ supplier.name }} 下达采购订单 <b>{{ order.number }}</b>（{{ order.date }}），"
            "金额 {{ order.total }} {{ order.currency }}"
            "{% if order.promise_date %}，要求交期 {{ order.promise_date }}{% endif %}。</p>"
            '<p><a href="{{ record.url }}">在 CartonTrace 中查看订单</a></p>'
            "<p>{{ owner.name }}<br>{{ company.name }}</p>"
        ),
        "body_text_zh": (
            "{{ parent_vendor.cname or parent_vendor.name }}，您好：\n\n"
            "我们已向 {{ supplier.name }} 下达采购订单 {{ order.number }}（{{ order.date }}），"
            "金额 {{ order.total }} {{ order.currency }}。\n订单链接：{{ record.url }}\n\n"
            "{{ owner.name }}\n{{ company.name }}"
        ),
    },
    "shipment": {
        "name": "Shipment to the customer",
        "event": "sales_shipment.shipped",
        "subject_en": "Your order {{ order.number }} has shipped ({{ shipment.number }})",
        "subject_zh": "您的订单 {{ order.number }} 已发货（{{ shipment.number }}）",
        "body_html_en": (
            "<p>Dear {{ customer.name }},</p>"
            "<p>shipment <b>{{ shipment.number }}</b> of your order {{ order.number }} left our warehouse "
            "on {{ shipment.shipped_at }}{% if shipment.carrier %} with {{ shipment.carrier }}{% endif %}"
            "{% if shipment.tracking_number %}, tracking number {{ shipment.tracking_number }}{% endif %}."
            "</p><p>The delivery note is attached.</p><p>Kind regards,<br>{{ company.name }}</p>"
        ),
        "body_text_en": (
            "Dear {{ customer.name }},\n\nshipment {{ shipment.number }} of your order {{ order.number }} "
            "left our warehouse on {{ shipment.shipped_at }}. The delivery note is attached.\n\n"
            "Kind regards,\n{{ company.name }}"
        ),
        "body_html_zh": (
            "<p>{{ customer.name }}，您好：</p>"
            "<p>您的订单 {{ order.number }} 的货物 <b>{{ shipment.number }}</b> 已于 "
            "{{ shipment.shipped_at }} 发出。</p><p>附件为送货单。</p><p>此致<br>{{ company.name }}</p>"
        ),
        "body_text_zh": (
            "{{ customer.name }}，您好：\n\n您的订单 {{ order.number }} 的货物 {{ shipment.number }} 已于 "
            "{{ shipment.shipped_at }} 发出。附件为送货单。\n\n此致\n{{ company.name }}"
        ),
    },
    "certificate": {
        "name": "Certificate about to expire",
        "event": "raw_material.expiring",
        "subject_en": "The certificate of delivery {{ delivery.number }} expires on "
        "{{ delivery.certificate_expiry }}",
        "subject_zh": "原材料 {{ delivery.number }} 的证书将于 {{ delivery.certificate_expiry }} 到期",
        "body_html_en": (
            "<p>The FM or COC certificate of raw-material delivery <b>{{ delivery.number }}</b> "
            "({{ delivery.forest_supplier }}, {{ delivery.country }}) expires in "
            "{{ delivery.days_to_expiry }} days, on {{ delivery.certificate_expiry }}.</p>"
            "<p>Please upload the renewed certificate: "
            '<a href="{{ record.url }}">{{ delivery.number }}</a>.</p>'
        ),
        "body_text_en": (
            "The certificate of raw-material delivery {{ delivery.number }} expires in "
            "{{ delivery.days_to_expiry }} days, on {{ delivery.certificate_expiry }}.\n"
            "Please upload the renewed certificate: {{ record.url }}"
        ),
        "body_html_zh": (
            "<p>原材料批次 <b>{{ delivery.number }}</b>（{{ delivery.forest_supplier }}，{{ delivery.country }}）"
            "的 FM 或 COC 证书将在 {{ delivery.days_to_expiry }} 天后（{{ delivery.certificate_expiry }}）"
            '到期。</p><p>请上传更新后的证书：<a href="{{ record.url }}">{{ delivery.number }}</a></p>'
        ),
        "body_text_zh": (
            "原材料批次 {{ delivery.number }} 的证书将在 {{ delivery.days_to_expiry }} 天后"
            "（{{ delivery.certificate_expiry }}）到期。\n请上传更新后的证书：{{ record.url }}"
        ),
    },
}


def _scenarios(ctx: dict) -> list[dict]:
    purchasing = ctx.get("roles", {}).get(TENANT, {}).get("Purchasing")
    certificate_recipients = [{"type": "contact", "role": "parent_vendor_users", "match": ""}]
    if purchasing is not None:
        certificate_recipients.append({"type": "role", "role": purchasing.pk})
    return [
        {
            "name": "Invoice to the customer's accounts payable",
            "template": "invoice",
            # the customer's contact with the role "Accounts payable", else the customer's own address
            "recipients": [{"type": "contact", "role": "customer", "match": "Accounts payable"}],
            "attachments": ["invoice_pdf"],
        },
        {
            "name": "New purchase order to the supplier",
            "template": "purchase_order",
            "recipients": [
                {"type": "contact", "role": "parent_vendor", "match": ""},
                {"type": "contact", "role": "parent_vendor_users", "match": ""},
            ],
            "attachments": ["purchase_order_pdf"],
        },
        {
            "name": "Shipment shipped to the customer",
            "template": "shipment",
            "recipients": [{"type": "contact", "role": "customer", "match": ""}],
            "attachments": ["delivery_note"],
        },
        {
            "name": "Certificate expiring in 30 days",
            "template": "certificate",
            "recipients": certificate_recipients,
            "days": 30,
        },
    ]


def _latest(event_name: str, **filters):
    model = registry.get_event(event_name).model_class()
    if model is None:
        return None
    return model.objects.filter(**filters).order_by("-pk").first()


def load(ctx: dict) -> None:
    tenant = ctx["tenants"][TENANT]
    with tenant_context(tenant):
        if EmailTemplate.objects.exists() or EmailScenario.objects.exists():
            return
        templates = {key: EmailTemplate.objects.create(**fields) for key, fields in TEMPLATES.items()}
        scenarios = {}
        for spec in _scenarios(ctx):
            spec = dict(spec)
            template = templates[spec.pop("template")]
            scenarios[template.event] = EmailScenario.objects.create(
                event=template.event, template=template, language="recipient", **spec
            )

        # The log: what the scenarios made for the latest demo records, sent to the local outbox.
        occurrences = [
            ("invoice.posted", _latest("invoice.posted", status="posted", kind="invoice"), "number"),
            ("purchase_order.sent", _latest("purchase_order.sent", status="sent"), None),
            ("sales_shipment.shipped", _latest("sales_shipment.shipped", status="shipped"), None),
        ]
        made: list[EmailMessage] = []
        for event_name, record, key_field in occurrences:
            if record is None:
                continue
            key = str(getattr(record, key_field)) if key_field else ""
            made += messages_for_event(
                event_name=event_name,
                record_pk=record.pk,
                key=key,
                scenario_ids=[scenarios[event_name].pk],
            )
    for message in made:
        if message.status == EmailMessage.Status.QUEUED:
            message_deliver(tenant_id=tenant.pk, message_id=message.pk, local_outbox=True)
