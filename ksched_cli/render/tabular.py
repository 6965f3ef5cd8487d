"""Tables for text output; the tabulate package is imported on first use."""

from __future__ import annotations

from typing import Any


def tabulate(rows: Any, **options: Any) -> str:
    """tabulate, imported on first use (JSON and YAML output never need it)."""
    from tabulate import tabulate as render

    return str(render(rows, **options))
