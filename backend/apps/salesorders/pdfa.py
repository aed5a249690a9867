"""What a Factur-X file needs of its PDF to be the PDF/A-3 it says it is, checked on the file itself: the
XMP metadata naming PDF/A-3, the output intent, the embedded `factur-x.xml`, and every font the pages use
embedded (the rule a PDF made with standard fonts breaks: apps/common/document_pdf.py embeds its font).

These are the PDF/A rules the product's own file could break; a full PDF/A validator (veraPDF) checks
far more (colour spaces, transparency, annotations) and is not part of the product. Each finding is a
`Problem` named `PDFA-*`, as the EN 16931 rules are named `BR-*`: `cii.invoice_facturx_pdf` refuses a file
with findings, and `manage.py check_einvoice` reports them for any Factur-X file.
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from pypdf import PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import DictionaryObject

from apps.salesorders.en16931 import Problem

XML_NAME = "factur-x.xml"
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def _resolved(value):
    return value.get_object() if hasattr(value, "get_object") else value


def _font_embedded(font: DictionaryObject) -> bool:
    """A Type 3 font draws its glyphs in the file itself; a composite (Type 0) font keeps its program in
    its descendant's descriptor; every other font in its own descriptor."""
    subtype = font.get("/Subtype")
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        descendants = _resolved(font.get("/DescendantFonts")) or []
        return bool(descendants) and all(_font_embedded(_resolved(d)) for d in descendants)
    descriptor = _resolved(font.get("/FontDescriptor"))
    return descriptor is not None and any(key in descriptor for key in FONT_FILES)


def _fonts(resources, seen: set[int]) -> dict[str, DictionaryObject]:
    """The fonts of a resource dictionary and of the form XObjects it draws, by base font name."""
    found: dict[str, DictionaryObject] = {}
    resources = _resolved(resources)
    if not resources or id(resources) in seen:
        return found
    seen.add(id(resources))
    for font in (_resolved(resources.get("/Font")) or {}).values():
        font = _resolved(font)
        found[str(font.get("/BaseFont", "?"))] = font
    for xobject in (_resolved(resources.get("/XObject")) or {}).values():
        xobject = _resolved(xobject)
        if xobject.get("/Subtype") == "/Form":
            found.update(_fonts(xobject.get("/Resources"), seen))
    return found


def problems(content: bytes) -> list[Problem]:
    """The PDF/A-3 findings of a Factur-X PDF (empty: none)."""
    try:
        reader = PdfReader(io.BytesIO(content))
        root = reader.trailer["/Root"]
        metadata = _resolved(root.get("/Metadata"))
        xmp = metadata.get_data().decode("utf-8", "replace") if metadata is not None else ""
        intents = [_resolved(i) for i in (_resolved(root.get("/OutputIntents")) or [])]
        attachments = reader.attachments
        fonts: dict[str, DictionaryObject] = {}
        seen: set[int] = set()
        for page in reader.pages:
            fonts.update(_fonts(page.get("/Resources"), seen))
    except (PyPdfError, KeyError, AttributeError, ValueError) as exc:
        return [Problem("PDFA-READ", _("The PDF cannot be read: %(error)s") % {"error": exc})]
    found: list[Problem] = []
    if "<pdfaid:part>3</pdfaid:part>" not in xmp and 'pdfaid:part="3"' not in xmp:
        found.append(Problem("PDFA-XMP", _("The XMP metadata does not declare PDF/A-3 (pdfaid:part 3).")))
    if not any(intent.get("/S") == "/GTS_PDFA1" and "/DestOutputProfile" in intent for intent in intents):
        found.append(
            Problem("PDFA-OUTPUT-INTENT", _("The PDF has no PDF/A output intent with its ICC profile."))
        )
    if XML_NAME not in attachments:
        found.append(Problem("PDFA-ATTACHMENT", _("The PDF does not carry %(name)s.") % {"name": XML_NAME}))
    bare = sorted(name.lstrip("/") for name, font in fonts.items() if not _font_embedded(font))
    if bare:
        found.append(
            Problem(
                "PDFA-FONT",
                _("These fonts are used but not embedded: %(fonts)s.") % {"fonts": ", ".join(bare)},
            )
        )
    return found
