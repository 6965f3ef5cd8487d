"""``-o html``: one self-contained HTML report per command (docs/html-report.md).

Build a page's data dict (``plan_data.plan_page``, ``diff_data.diff_page``) and render
it with ``page.render_page(kind, data)``. Jinja2 is imported only by ``render_page``.
"""
