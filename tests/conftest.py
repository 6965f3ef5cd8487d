"""Suite-wide hooks: say it when the HTML report's browser tests could not run."""

from __future__ import annotations

import pytest

BROWSER_SKIP = "no browser: "


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return ""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when browser tests were skipped (without CI=true they skip quietly)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if _skip_reason(r).startswith(BROWSER_SKIP)]
    if skipped:
        why = _skip_reason(skipped[0]).removeprefix(BROWSER_SKIP)
        terminalreporter.write_line(
            f"{len(skipped)} HTML report browser test(s) skipped: {why}; they need Debian's "
            "chromium (apt-get install chromium) or $KSCHED_CHROMIUM", yellow=True,
        )
