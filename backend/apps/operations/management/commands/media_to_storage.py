"""Moves the files of a local media folder into the configured storage (S3) and verifies each one."""

import hashlib
from pathlib import Path

from django.core.files import File
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.management.base import BaseCommand, CommandError


def _sha256(handle) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    for chunk in iter(lambda: handle.read(1024 * 1024), b""):
        digest.update(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


class Command(BaseCommand):
    help = (
        "Copy every file under a local media folder into the default storage under the same name (the "
        "names stored in the database stay valid), then read each back and compare its SHA-256. Files "
        "already there with the same content are skipped, so the command can run again after a failure."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="the local media folder the files were stored in (MEDIA_ROOT)")
        parser.add_argument("--verify-only", action="store_true", help="compare, copy nothing")

    def handle(self, *args, source, verify_only, **options):
        root = Path(source)
        if not root.is_dir():
            raise CommandError(f"{root} is not a folder.")
        if (
            isinstance(default_storage, FileSystemStorage)
            and Path(default_storage.location).resolve() == root.resolve()
        ):
            raise CommandError(
                "The default storage is this folder itself: set S3_BUCKET (docs/operations.md)."
            )
        copied = same = 0
        problems = []
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            name = path.relative_to(root).as_posix()
            with path.open("rb") as handle:
                local_sha, local_size = _sha256(handle)
            if default_storage.exists(name):
                with default_storage.open(name, "rb") as handle:
                    remote_sha, _ = _sha256(handle)
                if remote_sha == local_sha:
                    same += 1
                    continue
                if verify_only:
                    problems.append(f"{name}: differs in the storage")
                    continue
                default_storage.delete(name)
            elif verify_only:
                problems.append(f"{name}: missing from the storage")
                continue
            with path.open("rb") as handle:
                saved = default_storage.save(name, File(handle, name=path.name))
            if saved != name:
                problems.append(f"{name}: stored as {saved}")
                continue
            with default_storage.open(name, "rb") as handle:
                remote_sha, remote_size = _sha256(handle)
            if (remote_sha, remote_size) != (local_sha, local_size):
                problems.append(f"{name}: the copy does not read back the same")
                continue
            copied += 1
        for problem in problems:
            self.stderr.write(problem)
        summary = f"{copied} file(s) copied, {same} already there"
        if problems:
            raise CommandError(f"{summary}; {len(problems)} problem(s).")
        self.stdout.write(f"{summary}; every file verified.")
