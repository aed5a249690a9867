"""The local EU information system as a process of its own, for the end-to-end server
(scripts/e2e-server.sh starts it and points EUDR_TRACES_URLS at it), where the browser files statements.

Unlike `FakeTraces` in a backend test, nobody queues answers here: it answers as the system does, from
what it was sent. A submitted statement gets its own UUID, and a reference and a verification number
in the system's alphabet; `getDds` and `getDdsByInternalReference` find it (AVAILABLE; WITHDRAWN once
withdrawn); `verifyDeclaration` answers EXISTING_USABLE for a statement it holds, EXISTING_NON_USABLE
for one withdrawn, and EXISTING_USABLE for any other well-formed pair (the upstream statements of the
demo's suppliers, which another operator filed), except the pairs in UNKNOWN, which answer NON_EXISTENT.

    python -m apps.eudr.tests.traces_system --url-file var/traces.url

Binds a free port on 127.0.0.1, writes its base URL to the file once it listens, and serves until
stopped.
"""

from __future__ import annotations

import argparse
import re
import secrets
import signal
import threading
import uuid as uuids
from pathlib import Path

from apps.eudr.tests.traces_server import (
    AMEND_OK,
    DDS,
    EMPTY_BY_REFERENCE,
    FakeTraces,
    envelope,
    overview,
    verified,
)

# The system's characters for reference and verification numbers (no I, O, 0 or 1 to misread).
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
# A reference nobody filed, for a journey that checks the refusal of an unknown number.
UNKNOWN = {("25XXUNKNOWN001", "NOTFOUND")}


def _value(body: bytes, name: str) -> str:
    found = re.search(rf"<[\w:]*{name}>([^<]*)</".encode(), body)
    return found.group(1).decode() if found else ""


class RunningSystem(FakeTraces):
    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[str, dict[str, str]] = {}  # uuid -> internal, reference, verification, status

    def _new_statement(self, internal: str) -> dict[str, str]:
        reference = "26NL" + "".join(secrets.choice(ALPHABET) for _ in range(10))
        verification = "".join(secrets.choice(ALPHABET) for _ in range(8))
        return {
            "internal": internal,
            "reference": reference,
            "verification": verification,
            "status": "AVAILABLE",
        }

    def _overview(self, tag: str, uuid: str) -> bytes:
        kept = self.kept[uuid]
        return overview(
            tag,
            uuid=uuid,
            status=kept["status"],
            reference=kept["reference"],
            verification=kept["verification"],
            internal=kept["internal"],
        )

    def respond(self, action: str, body: bytes) -> tuple[bytes, int] | None:
        with self.lock:
            if action == "submitDds":
                uuid = str(uuids.uuid4())
                self.kept[uuid] = self._new_statement(_value(body, "internalReferenceNumber"))
                answer = f'<ns5:SubmitDdsResponse xmlns:ns5="{DDS}"><ns5:uuid>{uuid}</ns5:uuid></ns5:SubmitDdsResponse>'
                return envelope(answer), 200
            if action == "getDds":
                uuid = _value(body, "uuidList")
                if uuid in self.kept:
                    return self._overview("GetDdsResponse", uuid), 200
                return envelope(f'<ns5:GetDdsResponse xmlns:ns5="{DDS}"/>'), 200
            if action == "getDdsByInternalReference":
                internal = _value(body, "internalReference")
                for uuid, kept in self.kept.items():
                    if internal and kept["internal"] == internal:
                        return self._overview("GetDdsByInternalReferenceResponse", uuid), 200
                return EMPTY_BY_REFERENCE, 200
            if action == "amendDds":
                return AMEND_OK.replace(
                    b"071874bd-8c62-4cac-8eb6-b2fbe003410c", _value(body, "uuid").encode()
                ), 200
            if action == "withdrawDds":
                uuid = _value(body, "uuid")
                if uuid in self.kept:
                    self.kept[uuid]["status"] = "WITHDRAWN"
                answer = (
                    f'<ns5:WithdrawDdsResponse xmlns:ns5="{DDS}"><ns5:uuid>{uuid}</ns5:uuid>'
                    "<ns5:status>WITHDRAWN</ns5:status></ns5:WithdrawDdsResponse>"
                )
                return envelope(answer), 200
            if action == "verify-declaration":
                pair = (_value(body, "referenceNumber"), _value(body, "verificationNumber"))
                if pair in UNKNOWN:
                    return verified("NON_EXISTENT", ""), 200
                for kept in self.kept.values():
                    if (kept["reference"], kept["verification"]) == pair and kept["status"] == "WITHDRAWN":
                        return verified("EXISTING_NON_USABLE", "WITHDRAWN"), 200
                return verified(), 200
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url-file", required=True, type=Path)
    args = parser.parse_args()
    system = RunningSystem()
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    with system:
        written = args.url_file.with_name(args.url_file.name + ".tmp")
        written.write_text(system.url)
        written.replace(args.url_file)  # whole, never half-written, for the script that waits for it
        stopped.wait()


if __name__ == "__main__":
    main()
