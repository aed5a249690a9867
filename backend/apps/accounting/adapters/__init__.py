"""Adapters to accounting systems, one class per provider behind `base.Adapter` (docs/accounting.md)."""

from __future__ import annotations

from .base import Adapter, TokenSource


def adapter_for(provider: str, config, tokens: TokenSource) -> Adapter:
    from .visma_eaccounting import VismaEAccountingAdapter
    from .visma_net import VismaNetAdapter

    classes = {"visma_net": VismaNetAdapter, "visma_eaccounting": VismaEAccountingAdapter}
    return classes[provider](config, tokens)
