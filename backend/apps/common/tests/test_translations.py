"""Server messages in Chinese (docs/design.md section 4): the zh_Hans catalogue translates every string the
code marks, is not stale against the code, its compiled .mo matches the .po, and the API answers in the
language of Accept-Language.

A failure of the catalogue tests means a string was added or changed without its translation: run
`make messages`, translate the new or changed entries in backend/locale/zh_Hans/LC_MESSAGES/django.po
(no "#, fuzzy" left), run `make messages` again to compile, and commit the .po and the .mo.
"""

from __future__ import annotations

import ast
import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

BACKEND = Path(settings.BASE_DIR)
LOCALE = BACKEND / "locale"
PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
FIX = "run `make messages`, translate the entries in backend/locale/zh_Hans/LC_MESSAGES/django.po, commit"


# --- the catalogue ---------------------------------------------------------------------------------


def parse_po(path: Path) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (list), flags, line. Comments other
    than flags are skipped; obsolete entries (#~) are returned with obsolete=True."""
    entries: list[dict] = []
    entry: dict | None = None
    key: str | None = None

    def new(line_no: int) -> dict:
        return {
            "msgctxt": None,
            "msgid": None,
            "msgid_plural": None,
            "msgstr": [],
            "flags": set(),
            "obsolete": False,
            "line": line_no,
        }

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, key = None, None
            continue
        if entry is None:
            entry = new(number)
            entries.append(entry)
        if line.startswith("#~"):
            entry["obsolete"] = True
            continue
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if match:
            key, text = match.group(1), ast.literal_eval(match.group(2))
            if key.startswith("msgstr"):
                entry["msgstr"].append(text)
            else:
                entry[key] = text
        elif line.startswith('"') and key:
            text = ast.literal_eval(line)
            if key.startswith("msgstr"):
                entry["msgstr"][-1] += text
            else:
                entry[key] += text
    return [e for e in entries if e["msgid"] is not None]


PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0 +]*\d*(?:\.\d+)?[sdif]|\{\w*\}")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


@pytest.fixture(scope="module")
def catalogue() -> list[dict]:
    return [e for e in parse_po(PO) if not e["obsolete"]]


def test_the_catalogue_has_the_server_messages(catalogue):
    assert len(catalogue) > 500
    assert settings.LOCALE_PATHS == [LOCALE]
    assert ("zh-hans", "Simplified Chinese") in [(code, str(name)) for code, name in settings.LANGUAGES]


def test_every_message_is_translated_and_none_is_fuzzy(catalogue):
    header = [e for e in catalogue if e["msgid"] == ""]
    assert len(header) == 1 and "fuzzy" not in header[0]["flags"], "the .po header is missing or fuzzy"
    untranslated = [e["msgid"] for e in catalogue if e["msgid"] and not all(s.strip() for s in e["msgstr"])]
    fuzzy = [e["msgid"] for e in catalogue if e["msgid"] and "fuzzy" in e["flags"]]
    assert not untranslated, f"untranslated ({FIX}): {untranslated}"
    assert not fuzzy, f"fuzzy, check the translation and remove the flag ({FIX}): {fuzzy}"


def test_translations_keep_the_placeholders(catalogue):
    wrong = []
    for e in catalogue:
        if not e["msgid"]:
            continue
        expected = [placeholders(e["msgid"])]
        if e["msgid_plural"]:
            expected.append(placeholders(e["msgid_plural"]))
        wrong += [(e["msgid"], s) for s in e["msgstr"] if placeholders(s) not in expected]
    assert not wrong, f"a translation lost or changed a placeholder: {wrong}"


def test_translations_are_chinese(catalogue):
    """A msgstr without any Chinese character is allowed only for codes and names kept as they are."""
    kept = {"FSC", "PEFC", "FM", "COC", "UBL", "CII"}  # certificate schemes and e-invoice syntaxes
    latin = [
        e["msgid"]
        for e in catalogue
        if e["msgid"] and e["msgid"] not in kept and not re.search(r"[\u4e00-\u9fff]", "".join(e["msgstr"]))
    ]
    assert not latin, f"not translated into Chinese: {latin}"


def test_the_compiled_catalogue_matches_the_po(catalogue):
    """The committed .mo is what the server reads: it must hold every translation of the .po."""
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for e in catalogue:
        if not e["msgid"]:
            continue
        msgid = e["msgid"] if e["msgctxt"] is None else f"{e['msgctxt']}\x04{e['msgid']}"
        if e["msgid_plural"]:
            found = compiled.ngettext(msgid, e["msgid_plural"], 1)
        else:
            found = compiled.gettext(msgid)
        if found != e["msgstr"][0]:
            stale.append(e["msgid"])
    assert not stale, f"django.mo is stale (run `make messages` and commit the .mo): {stale[:20]}"


def test_the_catalogue_covers_the_strings_of_the_code(tmp_path, catalogue):
    """makemessages on a copy of the backend: the catalogue it produces has the same msgids as the
    committed one (no string of the code is missing, no removed string is kept)."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext (xgettext, msgmerge) is needed to check the catalogue")
        pytest.skip("GNU gettext (xgettext, msgmerge) is not installed")
    copy = tmp_path / "backend"
    copy.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for item in BACKEND.iterdir():
        if item.name.startswith("."):
            continue
        if item.is_dir():
            shutil.copytree(item, copy / item.name, ignore=ignore)
        elif item.suffix == ".py":
            shutil.copy2(item, copy / item.name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "--no-obsolete", "-v0"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr

    def keys(entries):
        return {
            (e["msgctxt"], e["msgid"], e["msgid_plural"]) for e in entries if e["msgid"] and not e["obsolete"]
        }

    fresh = keys(parse_po(copy / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"))
    committed = keys(catalogue)
    missing = sorted(k[1] for k in fresh - committed)
    gone = sorted(k[1] for k in committed - fresh)
    assert not missing, f"strings of the code missing from the catalogue ({FIX}): {missing}"
    assert not gone, f"strings no longer in the code are still in the catalogue ({FIX}): {gone}"


# --- the API in Chinese ----------------------------------------------------------------------------


@pytest.fixture
def zh_client(db, tenant3, make_user, api):
    client = api(make_user(tenant3), tenant3)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh"
    return client


@pytest.mark.django_db
def test_tenant_required_in_chinese(tenant3, make_user, api):
    client = api(make_user(tenant3))
    response = client.get("/api/suppliers/", HTTP_ACCEPT_LANGUAGE="zh")
    assert response.status_code == 400
    assert response.json()["error"] == "tenant_required"
    assert response.json()["message"] == "必须提供 tenant_id 查询参数。"
    english = client.get("/api/suppliers/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["message"] == "The tenant_id query parameter is required."


@pytest.mark.django_db
def test_failed_sign_in_in_chinese(tenant3, make_user):
    cache.clear()
    make_user(tenant3, username="lin")
    response = APIClient().post(
        "/api/users/login/",
        {"username": "lin", "password": "wrong-password"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9,en;q=0.8",
    )
    cache.clear()
    assert response.status_code == 401
    assert response.json() == {
        "code": 401,
        "message": "用户名或密码错误",
        "error": "invalid_credentials",
        "data": None,
    }


@pytest.mark.django_db
def test_required_field_errors_in_chinese(zh_client):
    response = zh_client.post("/api/suppliers/", {}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert body["message"] == "请更正标出的字段。"
    assert body["data"]["name"] == ["此项为必填项。"]


@pytest.mark.django_db
def test_domain_validation_errors_in_chinese(zh_client):
    response = zh_client.post(
        "/api/logistics/shipments/", {"container_number": "ABC", "port_of_loading": "CNSHA"}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["data"]["container_number"]
    assert errors == ["请输入由 4 个字母和 7 位数字组成的集装箱号（ISO 6346），例如 MSCU1234566。"]
    export = zh_client.get("/api/suppliers/export/", {"format": "pdf"})
    assert export.status_code == 400
    assert export.json()["data"]["format"] == ["请从以下格式中选择：csv, xlsx。"]


@pytest.mark.django_db
def test_the_permission_matrix_names_areas_models_and_permissions_in_chinese(zh_client):
    areas = {
        area["app_label"]: area
        for area in zh_client.get("/api/users/roles/permission-matrix/").json()["data"]["areas"]
    }
    assert areas["purchaseorders"]["name"] == "采购订单"
    assert areas["eudr"]["name"] == "EUDR 追溯"
    models = {m["model"]: m for area in areas.values() for m in area["models"]}
    assert models["parentvendor"]["name"] == "母供应商"
    assert models["productionbatch"]["name"] == "生产批次"
    assert models["shipmentcompany"]["name"] == "船公司"
    extra = {e["codename"]: e["name"] for m in models.values() for e in m["extra"]}
    assert extra["eudr.approve_over_cap"] == "可批准超出交付上限的纸箱"
    assert extra["purchaseorders.allow_over_receipt"] == "可超出订购数量收货"
    english = {
        area["app_label"]: area
        for area in zh_client.get("/api/users/roles/permission-matrix/", HTTP_ACCEPT_LANGUAGE="en").json()[
            "data"
        ]["areas"]
    }
    shipment_companies = next(m for m in english["logistics"]["models"] if m["model"] == "shipmentcompany")
    assert shipment_companies["name"] == "Shipment companies"
