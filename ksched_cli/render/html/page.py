"""Render a page's data dict with its Jinja2 template into one self-contained HTML file.

Each page kind (``plan``, ``diff``, ``capacity``, ``simulate``) is one template
``templates/<kind>.html.j2`` extending ``base.html.j2`` (or another kind's template)
and the scripts ``SCRIPTS[kind]`` in order, ending with its own ``static/<kind>.js``;
the stylesheet and ``static/report.js`` (tables, paging, bars, formatting) are shared,
as are the parts several kinds draw (``cluster.js``: nodes before and after;
``whatif.js``: operations and pod changes). Everything is inlined: the page loads
nothing, and its Content-Security-Policy forbids it to.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Jinja2 is imported only when a page is rendered (CLI start-up).
    import jinja2

# Per page kind, the scripts it runs after static/report.js, in order.
SCRIPTS = {
    "plan": ("cluster.js", "whatif.js", "plan.js"),
    "diff": ("whatif.js", "diff.js"),
    "capacity": ("cluster.js", "whatif.js", "capacity.js"),
    "simulate": ("cluster.js", "whatif.js", "plan.js", "timeline.js"),
}
PAGE_KINDS = tuple(SCRIPTS)


def render_page(kind: str, data: dict[str, Any]) -> str:
    """The HTML file for ``data`` (from ``plan_page``, ``diff_page``, ...)."""
    if kind not in PAGE_KINDS:
        raise ValueError(f"unknown page kind {kind!r}; known: {', '.join(PAGE_KINDS)}")
    from markupsafe import Markup

    template = _environment().get_template(f"{kind}.html.j2")
    return template.render(
        data=data,
        data_json=Markup(embed_json(data)),
        css=Markup(_static("report.css")),
        common_js=Markup(_static("report.js")),
        page_js=Markup("\n".join(_static(name) for name in SCRIPTS[kind])),
    )


def embed_json(data: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<`` or ``>``."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _environment() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ksched_cli.render.html", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["amount"] = amount
    env.filters["percent"] = percent
    return env


def amount(value: int, resource: str) -> str:
    """cpu millicores as cores, memory bytes in binary units, counts as they are.

    static/report.js's ``amount`` formats the same way; the two must agree.
    """
    if resource == "cpu":
        return _trim(value / 1000)
    if resource == "memory":
        for unit, size in (("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
            if abs(value) >= size:
                return _trim(value / size) + unit
    return str(value)


def _trim(x: float) -> str:
    # Half up to two decimals with the same float operations as report.js, so both agree.
    rounded = math.floor(x * 100 + 0.5) / 100
    return str(int(rounded)) if rounded.is_integer() else repr(rounded)


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage ("-" when nothing is allocatable)."""
    return f"{round(100 * part / whole)}%" if whole > 0 else "-"


@cache
def _static(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")
