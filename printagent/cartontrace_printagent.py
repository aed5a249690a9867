#!/usr/bin/env python3
"""CartonTrace print agent: prints the server's label jobs on ZPL printers of the local network.

One file, Python 3.9+ standard library only (urllib, socket, json), for a PC or a Raspberry Pi next to
the printers. It only calls out: the browser cannot reach a printer's raw TCP port 9100, the agent can.

    python3 cartontrace_printagent.py pair --server https://cartontrace.example.com --code ABCD-EFGH
    python3 cartontrace_printagent.py run
    python3 cartontrace_printagent.py status --host 192.0.2.10          # ask a printer ~HS
    python3 cartontrace_printagent.py virtual-printer --port 9100       # a printer for demos and tests

`pair` exchanges a one-time pairing code (shown on /printer/integration) for the agent's token and
saves it with the server's address in the config directory (--config-dir, default
~/.cartontrace-printagent, the file is readable by its owner only). `run` then sends a heartbeat every
30 s (with each printer's state) and long-polls for jobs. For each job it opens TCP to the printer, asks
`~HS` first (a printer with paper out, head open or paused gets no data), sends the ZPL, asks `~HS`
again and reports printed or failed with the printer's state in words. No answer to `~HS` is an error:
printers stay silent when the head is open or the media is out.

Each job carries an idempotency key. The agent writes the key to its journal (journal.json) before it
sends the ZPL, so a job offered again (a lost answer, a restart) is reported, never printed twice.
docs/printing.md in the repository describes the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

VERSION = "1.0.0"
HEARTBEAT_SECONDS = 30
POLL_WAIT_SECONDS = 25
PRINTER_TIMEOUT = 5.0
STATUS_TIMEOUT = 3.0
JOURNAL_KEEP = 2000
STX, ETX = b"\x02", b"\x03"

STATE_WORDS = {
    "ready": "ready",
    "paper_out": "paper out",
    "head_open": "head open",
    "paused": "paused",
    "ribbon_out": "ribbon out",
    "no_answer": "no answer",
    "unreachable": "unreachable",
}


# --- the printer side: raw TCP and ~HS ------------------------------------------------------------


class PrinterError(Exception):
    """`sent`: whether the label data reached the printer: False (refused before sending, so nothing
    printed), True, or None when a connection broke while sending. `closed`: the printer closed the
    connection (rather than staying silent or reporting a fault)."""

    def __init__(self, state: str, message: str, sent: bool | None = False, *, closed: bool = False) -> None:
        super().__init__(message)
        self.state = state
        self.sent = sent
        self.closed = closed


def decode_host_status(strings: list[str]) -> dict:
    """The three `~HS` strings in words.

    String 1 `aaa,b,c,dddd,eee,f,g,h,iii,j,k,l`: b paper out, c pause, eee formats in the receive
    buffer, f buffer full, j corrupt RAM, k under temperature, l over temperature.
    String 2 `mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www`: o head up, p ribbon out, q thermal transfer mode,
    uuuuuuuu labels remaining in the batch. String 3 `xxxx,y`: password, static RAM.
    """
    if len(strings) < 2:
        raise PrinterError("no_answer", "the printer's status answer is incomplete")
    one = strings[0].split(",")
    two = strings[1].split(",")
    if len(one) < 12 or len(two) < 11:
        raise PrinterError("no_answer", "the printer's status answer is not in the ~HS format")
    flags = []
    if one[1] == "1":
        flags.append("paper_out")
    if one[2] == "1":
        flags.append("paused")
    if one[5] == "1":
        flags.append("buffer_full")
    if one[9] == "1":
        flags.append("corrupt_ram")
    if one[10] == "1":
        flags.append("under_temperature")
    if one[11] == "1":
        flags.append("over_temperature")
    if two[2] == "1":
        flags.append("head_open")
    if two[3] == "1" and two[4] == "1":
        flags.append("ribbon_out")
    state = "ready"
    for candidate in ("head_open", "paper_out", "ribbon_out", "paused"):
        if candidate in flags:
            state = candidate
            break
    try:
        formats, remaining = int(one[4]), int(two[8])
    except ValueError:
        formats, remaining = 0, 0
    return {
        "state": state,
        "words": STATE_WORDS[state],
        "flags": flags,
        "formats_in_buffer": formats,
        "labels_remaining": remaining,
        "raw": strings[:3],
    }


def read_host_status(sock: socket.socket, timeout: float = STATUS_TIMEOUT) -> dict:
    """Sends `~HS` on an open connection and reads the three STX...ETX framed strings."""
    sock.sendall(b"~HS\r\n")
    sock.settimeout(timeout)
    buffer = b""
    deadline = time.monotonic() + timeout
    while buffer.count(ETX) < 3:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(1024)
        except socket.timeout:
            break
        except OSError as exc:
            raise PrinterError("no_answer", f"the printer closed the connection ({exc})", closed=True) from exc
        if not chunk:
            if not buffer:
                raise PrinterError("no_answer", "the printer closed the connection without answering ~HS", closed=True)
            break
        buffer += chunk
    strings = []
    for part in buffer.split(ETX):
        if STX in part:
            strings.append(part.split(STX, 1)[1].decode("ascii", "replace").strip())
    if not strings:
        raise PrinterError("no_answer", "no answer to ~HS (head open, media out or not a ZPL printer?)")
    return decode_host_status(strings)


def connect(host: str, port: int) -> socket.socket:
    try:
        return socket.create_connection((host, port), timeout=PRINTER_TIMEOUT)
    except ConnectionRefusedError as exc:
        raise PrinterError("unreachable", f"connection refused by {host}:{port}") from exc
    except socket.timeout as exc:
        raise PrinterError("unreachable", f"{host}:{port} did not accept the connection in time") from exc
    except OSError as exc:
        raise PrinterError("unreachable", f"cannot reach {host}:{port} ({exc})") from exc


def printer_status(host: str, port: int) -> dict:
    with connect(host, port) as sock:
        return read_host_status(sock)


def print_zpl(host: str, port: int, zpl: str, before_send=None) -> dict:
    """Checks the printer is ready, sends the ZPL, and checks again. Returns the last decoded status;
    raises PrinterError when the printer is not ready, silent or unreachable (then nothing was sent, or
    the ZPL was sent and the printer reported a fault afterwards)."""
    with connect(host, port) as sock:
        status = read_host_status(sock)
        if status["state"] != "ready":
            raise PrinterError(status["state"], f"printer not ready: {status['words']}")
        if before_send is not None:
            before_send()
        sock.settimeout(PRINTER_TIMEOUT)
        try:
            sock.sendall(zpl.encode("utf-8"))
        except OSError as exc:
            raise PrinterError("no_answer", f"sending the label failed ({exc})", sent=None) from exc
        try:
            status = read_host_status(sock)
        except PrinterError as exc:
            if not exc.closed:
                exc.sent = True
                raise
            # The printer took every byte of the label (sendall returned) and then hung up, as some do
            # after a job: the label is printed. Reporting it failed would have it printed again.
            return {"state": "ready", "words": "ready (hung up after the label)", "flags": [], "raw": []}
        if status["state"] != "ready":
            raise PrinterError(
                status["state"], f"printer reported {status['words']} after the label was sent", sent=True
            )
        return status


# --- the server side: HTTP(S) with the agent's token ----------------------------------------------


class ServerError(Exception):
    def __init__(self, status: int, message: str, error: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.error = error


class Server:
    def __init__(self, base_url: str, token: str = "", timeout: float = 15.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(self, method: str, path: str, body: dict | None = None, timeout: float | None = None):
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", f"cartontrace-printagent/{VERSION}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Agent {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:  # noqa: S310
                payload = json.loads(response.read().decode("utf-8") or "{}")
        except urllib.error.HTTPError as exc:
            try:
                payload = json.loads(exc.read().decode("utf-8") or "{}")
            except ValueError:
                payload = {}
            raise ServerError(exc.code, payload.get("message") or str(exc), payload.get("error", "")) from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ServerError(0, f"cannot reach the server: {exc}") from exc
        return payload.get("data", payload)


# --- configuration and journal --------------------------------------------------------------------


class Store:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.lock = threading.Lock()

    def _read(self, name: str, default):
        path = self.directory / name
        try:
            return json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return default

    def _write(self, name: str, value) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / name
        temporary = path.with_suffix(".tmp")
        fd = os.open(str(temporary), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle)
        os.replace(str(temporary), str(path))

    def config(self) -> dict:
        return self._read("config.json", {})

    def save_config(self, value: dict) -> None:
        self._write("config.json", value)

    def journal(self) -> dict:
        with self.lock:
            return self._read("journal.json", {})

    def remember(self, key: str, entry: dict) -> None:
        """Records a job's key (and later its result) before and after printing."""
        with self.lock:
            journal = self._read("journal.json", {})
            journal[key] = entry
            if len(journal) > JOURNAL_KEEP:
                for old in sorted(journal, key=lambda k: journal[k].get("at", 0))[: len(journal) - JOURNAL_KEEP]:
                    del journal[old]
            self._write("journal.json", journal)


# --- the agent ------------------------------------------------------------------------------------


def log(message: str) -> None:
    print(time.strftime("%Y-%m-%d %H:%M:%S"), message, flush=True)


class Agent:
    def __init__(self, server: Server, store: Store) -> None:
        self.server = server
        self.store = store
        self.printers: list[dict] = []
        self.printer_lock = threading.Lock()
        self.stopping = threading.Event()
        self.heartbeat_seconds = HEARTBEAT_SECONDS
        self.poll_wait = POLL_WAIT_SECONDS
        self.fixed_wait: int | None = None

    def heartbeat(self) -> None:
        states = []
        for printer in list(self.printers):
            with self.printer_lock:
                try:
                    state = printer_status(printer["host"], int(printer["port"]))["state"]
                except PrinterError as exc:
                    state = exc.state
            states.append({"id": printer["id"], "state": state})
        answer = self.server.call(
            "POST",
            "/api/printer/heartbeat/",
            {"hostname": socket.gethostname(), "version": VERSION, "printers": states},
        )
        self.printers = answer.get("printers", [])
        self.heartbeat_seconds = int(answer.get("heartbeat_seconds") or HEARTBEAT_SECONDS)
        if self.fixed_wait is None:
            self.poll_wait = int(answer.get("poll_wait_seconds") or POLL_WAIT_SECONDS)

    def heartbeat_loop(self) -> None:
        while not self.stopping.is_set():
            try:
                self.heartbeat()
            except ServerError as exc:
                log(f"heartbeat failed: {exc}")
                if exc.status == 401:
                    self.stopping.set()
                    return
            self.stopping.wait(self.heartbeat_seconds)

    def process(self, job: dict) -> dict:
        """Prints one job (or only reports it, when its key is in the journal) and returns the result."""
        key = str(job["idempotency_key"])
        done = self.store.journal().get(key)
        if done is not None:
            log(f"job {job['id']}: already handled, reporting it again without printing")
            return done.get("result") or {
                "printed": False,
                "data_sent": None,
                "error": "interrupted after sending; check the printer before printing again",
                "printer_status": {},
            }
        printer = job["printer"]
        host, port = printer["host"], int(printer["port"])
        with self.printer_lock:
            try:
                if job.get("source") == "status_check" or not job.get("zpl"):
                    status = printer_status(host, port)
                    ok = status["state"] == "ready"
                    result = {
                        "printed": ok,
                        "data_sent": False,
                        "error": "" if ok else f"printer {status['words']}",
                        "printer_status": _status_payload(status),
                    }
                else:
                    status = print_zpl(
                        host, port, job["zpl"], before_send=lambda: self.store.remember(key, {"at": time.time()})
                    )
                    result = {
                        "printed": True,
                        "data_sent": True,
                        "error": "",
                        "printer_status": _status_payload(status),
                    }
            except PrinterError as exc:
                result = {
                    "printed": False,
                    "data_sent": exc.sent,
                    "error": str(exc),
                    "printer_status": {"state": exc.state, "raw": [], "flags": []},
                }
        if result["printed"] or key in self.store.journal():
            self.store.remember(key, {"at": time.time(), "result": result})
        log(f"job {job['id']} on {printer.get('name', host)}: {'printed' if result['printed'] else result['error']}")
        return result

    def report(self, job: dict, result: dict) -> None:
        body = {"idempotency_key": str(job["idempotency_key"]), **result}
        for attempt in range(5):
            try:
                self.server.call("POST", f"/api/printer/jobs/{int(job['id'])}/result/", body)
                return
            except ServerError as exc:
                if exc.status and exc.status < 500:
                    log(f"job {job['id']}: result refused: {exc}")
                    return
                log(f"job {job['id']}: reporting failed ({exc}), retrying")
                self.stopping.wait(min(30, 2**attempt))
        log(f"job {job['id']}: result not delivered; the server will offer the job again")

    def poll_once(self, wait: int | None = None) -> int:
        wait = self.poll_wait if wait is None else wait
        answer = self.server.call("GET", f"/api/printer/jobs/?wait={wait}", timeout=wait + 15)
        jobs = answer.get("jobs", [])
        for job in jobs:
            self.report(job, self.process(job))
        return len(jobs)

    def run(self) -> int:
        self.heartbeat()
        log(f"agent running for {self.server.base_url}; printers: {', '.join(p['name'] for p in self.printers) or '-'}")
        thread = threading.Thread(target=self.heartbeat_loop, daemon=True)
        thread.start()
        backoff = 1
        while not self.stopping.is_set():
            try:
                self.poll_once()
                backoff = 1
            except ServerError as exc:
                if exc.status == 401:
                    log(f"the server refused the agent's token: {exc}. Pair again.")
                    return 2
                log(f"poll failed: {exc}")
                self.stopping.wait(backoff)
                backoff = min(60, backoff * 2)
        return 0


def _status_payload(status: dict) -> dict:
    return {"state": status["state"], "raw": status.get("raw", []), "flags": status.get("flags", [])}


# --- a virtual printer (demos, tests) -------------------------------------------------------------


def host_status_strings(state: str, formats: int = 0) -> bytes:
    paper = "1" if state == "paper_out" else "0"
    pause = "1" if state == "paused" else "0"
    head = "1" if state == "head_open" else "0"
    one = f"030,{paper},{pause},1245,{formats:03d},0,0,0,000,0,0,0"
    two = f"001,0,{head},0,0,2,6,0,00000000,1,000"
    three = "1234,0"
    return b"".join(STX + s.encode("ascii") + ETX + b"\r\n" for s in (one, two, three))


def virtual_printer(host: str, port: int, state: str, save_dir: Path | None) -> None:
    """A ZPL printer on `host:port` that keeps what it receives and answers ~HS for `state`."""
    server = socket.create_server((host, port))
    log(f"virtual printer on {host}:{port}, state {state}")
    counter = 0
    while True:
        conn, _address = server.accept()
        with conn:
            conn.settimeout(10)
            received = b""
            try:
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    received += chunk
                    while b"~HS" in received:
                        before, received = received.split(b"~HS", 1)
                        if before.strip():
                            counter += 1
                            labels = before.count(b"^XZ")
                            log(f"received {labels} label(s), {len(before)} bytes")
                            if save_dir is not None:
                                save_dir.mkdir(parents=True, exist_ok=True)
                                (save_dir / f"job-{counter:05d}.zpl").write_bytes(before)
                        if state != "silent":
                            conn.sendall(host_status_strings(state))
            except (socket.timeout, OSError):
                pass


# --- command line ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cartontrace_printagent", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--config-dir",
        default=os.environ.get("CARTONTRACE_AGENT_DIR", str(Path.home() / ".cartontrace-printagent")),
        help="where the token and the journal are kept",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    pair = sub.add_parser("pair", help="pair with a one-time code from /printer/integration")
    pair.add_argument("--server", required=True, help="the CartonTrace address, e.g. https://ct.example.com")
    pair.add_argument("--code", required=True)
    run = sub.add_parser("run", help="heartbeat and print jobs until stopped")
    run.add_argument("--once", action="store_true", help="one heartbeat and one poll, then exit")
    run.add_argument("--wait", type=int, default=None, help="long-poll seconds (default: the server's)")
    status = sub.add_parser("status", help="ask a printer ~HS and print its state")
    status.add_argument("--host", required=True)
    status.add_argument("--port", type=int, default=9100)
    virtual = sub.add_parser("virtual-printer", help="a ZPL printer on this machine, for demos")
    virtual.add_argument("--host", default="127.0.0.1")
    virtual.add_argument("--port", type=int, default=9100)
    virtual.add_argument("--state", default="ready", choices=["ready", "paper_out", "head_open", "paused", "silent"])
    virtual.add_argument("--save-dir", default=None, help="keep each received job as a .zpl file here")
    args = parser.parse_args(argv)
    store = Store(Path(args.config_dir).expanduser())

    if args.command == "pair":
        server = Server(args.server)
        try:
            answer = server.call(
                "POST", "/api/printer/pair/", {"code": args.code, "hostname": socket.gethostname(), "version": VERSION}
            )
        except ServerError as exc:
            print(f"pairing failed: {exc}", file=sys.stderr)
            return 1
        store.save_config({"server": server.base_url, "token": answer["token"], "agent": answer.get("agent")})
        print(f"paired as '{answer.get('name')}'; settings saved in {store.directory}. Start it with: run")
        return 0
    if args.command == "run":
        config = store.config()
        if not config.get("token"):
            print("not paired yet: run the pair command first", file=sys.stderr)
            return 1
        agent = Agent(Server(config["server"], config["token"]), store)
        if args.once:
            try:
                agent.heartbeat()
                agent.poll_once(args.wait if args.wait is not None else 0)
            except ServerError as exc:
                print(f"failed: {exc}", file=sys.stderr)
                return 2 if exc.status == 401 else 1
            return 0
        if args.wait is not None:
            agent.fixed_wait = agent.poll_wait = args.wait
        try:
            return agent.run()
        except KeyboardInterrupt:
            return 0
    if args.command == "status":
        try:
            result = printer_status(args.host, args.port)
        except PrinterError as exc:
            print(f"{STATE_WORDS.get(exc.state, exc.state)}: {exc}")
            return 1
        print(f"{result['words']} (flags: {', '.join(result['flags']) or 'none'})")
        return 0 if result["state"] == "ready" else 1
    if args.command == "virtual-printer":
        try:
            virtual_printer(args.host, args.port, args.state, Path(args.save_dir) if args.save_dir else None)
        except KeyboardInterrupt:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
