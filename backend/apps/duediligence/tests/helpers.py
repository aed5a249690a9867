"""Shared pieces of the due diligence tests."""

from __future__ import annotations

from apps.duediligence.services import CRITERIA

RAW = "/api/eudr/raw-materials/"
DD = "/api/duediligence/"
REFERENCE = "26NLQ8M3ZP41TK"
VERIFICATION = "K7R8LA90XQ"


def criteria(risk: tuple[str, ...] = ()) -> list[dict]:
    return [
        {
            "code": code,
            "finding": "risk" if code in risk else "no_risk",
            "evidence": f"Checked {code}: see file",
        }
        for code in CRITERIA
    ]


def record(client, delivery_id, reference: str = REFERENCE):
    return client.post(
        f"{RAW}{delivery_id}/filed-dds/",
        {"dds_reference_number": reference, "dds_verification_number": VERIFICATION},
        format="json",
    )


PLOT_BR = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {"ProducerCountry": "BR", "Area": 2},
            "geometry": {"type": "Point", "coordinates": [-47.882778, -15.793889]},
        }
    ],
}
