"""The local EU information system the end-to-end server files with (traces_system.py), through the
product's own client: each statement gets its own identifiers, the status reads find it, verification
follows it, and the process writes its address only once it listens and stops on SIGTERM."""

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.test import override_settings

from apps.eudr.dds import xml as dds_xml
from apps.eudr.traces import TracesClient, TracesCredentials
from apps.eudr.traces.client import environment_url

from .test_traces_client import REQUEST
from .traces_system import ALPHABET, UNKNOWN, RunningSystem

CREDENTIALS = TracesCredentials(username="eurotrade-ws", auth_key="e2e-key", client_id="eudr-test")


@pytest.fixture
def system():
    with RunningSystem() as running:
        yield running


def test_each_statement_gets_its_own_numbers_and_the_status_reads_find_it(system):
    client = TracesClient(CREDENTIALS, base_url=system.url)
    first = client.submit_dds(dds_xml.submit_request(REQUEST))
    second = client.submit_dds(dds_xml.submit_request(REQUEST))
    assert first != second
    [overview] = client.get_dds(first)
    assert overview.uuid == first and overview.status == "AVAILABLE"
    assert len(overview.reference_number) == 14 and overview.reference_number.startswith("26NL")
    assert set(overview.reference_number[4:] + overview.verification_number) <= set(ALPHABET)
    assert client.get_dds(second)[0].reference_number != overview.reference_number
    [by_reference] = client.get_dds_by_internal_reference("DLV-2026-001-ABCD1234")
    assert by_reference.uuid == first
    assert client.get_dds_by_internal_reference("NOBODY-FILED-THIS") == []


def test_verification_follows_what_it_holds(system):
    client = TracesClient(CREDENTIALS, base_url=system.url)
    uuid = client.submit_dds(dds_xml.submit_request(REQUEST))
    [overview] = client.get_dds(uuid)
    assert (
        client.verify_declaration(overview.reference_number, overview.verification_number).result
        == "EXISTING_USABLE"
    )
    assert (
        client.verify_declaration("25FIUPSTREAM01", "UPVERIF9").result == "EXISTING_USABLE"
    )  # another operator's
    assert client.verify_declaration(*next(iter(UNKNOWN))).result == "NON_EXISTENT"
    client.withdraw_dds(uuid)
    assert client.get_dds(uuid)[0].status == "WITHDRAWN"
    withdrawn = client.verify_declaration(overview.reference_number, overview.verification_number)
    assert withdrawn.result == "EXISTING_NON_USABLE"


def test_the_environment_urls_setting_points_the_client_at_it(system):
    with override_settings(EUDR_TRACES_URLS={"acceptance": system.url}):
        assert environment_url("acceptance") == system.url
        uuid = TracesClient(CREDENTIALS).submit_dds(dds_xml.submit_request(REQUEST))
    assert system.kept[uuid]["status"] == "AVAILABLE"


def test_the_process_writes_its_address_once_it_listens_and_stops_on_sigterm(tmp_path: Path):
    url_file = tmp_path / "traces.url"
    process = subprocess.Popen(
        [sys.executable, "-m", "apps.eudr.tests.traces_system", "--url-file", str(url_file)],
        cwd=Path(__file__).resolve().parents[3],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        while not url_file.exists():
            assert process.poll() is None, "the local system exited before it listened"
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.05)  # until it exits or the file appears
        url = url_file.read_text()
        answer = httpx.post(
            url + "ws/EUDRDueDiligenceStatementServiceV3", headers={"SOAPAction": '"x/getDds"'}, content=b""
        )
        assert answer.status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
