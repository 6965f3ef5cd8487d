"""Where an object of the input came from, and its errors positioned there."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..errors import KschedError, Location
from ..yamlio import read_text


class Origin(NamedTuple):
    """Where an object came from: file, 0-based document, 0-based ``items`` index of a List."""

    path: Path
    document: int
    item: int | None


def positioned_error(
    origin: Origin,
    what: str,
    field_path: str,
    message: str,
    text: str | None = None,
    documents: int | None = None,
) -> KschedError:
    """One line: ``FILE:LINE:COL: error: WHAT (document N): FIELD: MESSAGE``.

    ``text`` is the file's text if at hand, ``documents`` its number of documents if known.
    """
    field_path = field_path.lstrip(".")
    if origin.item is not None:
        field_path = f"items[{origin.item}]" + (f".{field_path}" if field_path else "")
    if text is None:
        text = read_text(origin.path)
    number = origin.document + 1
    from .positions import field_position  # PyYAML: imported for a problem only

    pos = field_position(text, origin.document, field_path, documents)
    file = str(origin.path)
    # Without a line, Location would print the document again; the label already has it.
    loc = Location(file, pos[0], pos[1], number) if pos else Location(file)
    label = f"{what} (document {number})"
    return KschedError(message, loc, f"{label}: {field_path}" if field_path else label)
