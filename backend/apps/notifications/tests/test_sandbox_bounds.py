"""The e-mail template sandbox is bounded (apps/notifications/rendering.py): each attack ends quickly in a
RenderError instead of allocating memory or running for minutes; ordinary templates still render."""

from __future__ import annotations

import time

import pytest

from apps.notifications.rendering import RenderError, render

CONTEXT = {"s": "x" * 30000, "name": "Anna", "items": ["a", "b"], "order": {"total": "12.50"}}


@pytest.mark.parametrize(
    "source",
    [
        "{{ ('x' * 10**8)|length }}",  # a large operand: 100 MB
        "{{ [1] * 100000000 }}",
        "{{ 9**9**9 }}",
        "{{ 10**100000 }}",
        "{{ ('x' * 90000) + ('y' * 90000) }}",
        "{{ '%99999999s' % 'a' }}",
        "{% for a in s %}{% for b in s %}{{ 1 }}{% endfor %}{% endfor %}",  # 9 * 10**8 loop steps
        "{{ 'x'|center(100000000) }}",  # filter arguments
        "{{ 'x'|indent(100000000) }}",
        "{{ '%99999999s'|format('a') }}",
        "{{ ('x' * 90000)|replace('', 'y' * 9000) }}",
        "{{ s|wordwrap(100000000) }}",
    ],
)
def test_each_attack_is_refused_quickly(source):
    started = time.monotonic()
    with pytest.raises(RenderError):
        render(source, CONTEXT)
    assert time.monotonic() - started < 60  # minutes without the bounds; generous for a busy machine


@pytest.mark.parametrize("html", [False, True])
def test_ordinary_templates_render(html):
    source = (
        "Dear {{ name }}, {% for item in items %}{{ item|upper }}{% if not loop.last %}, {% endif %}{% endfor %}"
        " total {{ order.total }} {{ 2 * 21 }} {{ 'ab' * 3 }} {{ items|join('/') }} {{ '%.2f'|format(3.14159) }}"
        " {{ name|replace('A', 'a') }} {{ name|center(9) }}"
    )
    out = render(source, CONTEXT, html=html)
    assert out.startswith("Dear Anna, A, B total 12.50 42 ababab a/b 3.14 anna")


def test_a_limit_is_told_in_the_users_language():
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(RenderError) as refused:
        render("{{ 'x' * 10**8 }}", CONTEXT)
    assert "结果" in str(refused.value)
    with translation.override("en"), pytest.raises(RenderError) as refused:
        render("{{ 'x' * 10**8 }}", CONTEXT)
    assert str(refused.value) == "The result of * would be too large."
