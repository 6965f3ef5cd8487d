"""Tables for text output; the tabulate package is imported on first use."""

from __future__ import annotations

from typing import Any

from ..errors import printable


def tabulate(rows: Any, **options: Any) -> str:
    """tabulate, imported on first use (JSON and YAML output never need it)."""
    from tabulate import tabulate as render

    # A cell is one line: a line break or a control character in it is escaped.
    safe = [[printable(c) if isinstance(c, str) else c for c in row] for row in rows]
    headers = options.get("headers")
    if isinstance(headers, list):
        options["headers"] = [printable(h) if isinstance(h, str) else h for h in headers]
    return str(render(safe, **options))
