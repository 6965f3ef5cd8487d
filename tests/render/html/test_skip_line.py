"""Without a browser, the HTML report's browser tests skip locally, and pytest's summary
says so in one line (issue 26 item 8); in CI (``CI=true``) they fail instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ONE_TEST = "tests/render/html/test_browser.py::test_report_opens_on_what_did_not_fit"


def _pytest(**env: str) -> subprocess.CompletedProcess[str]:
    # A browser that cannot start (no such file): the module's page fixture gives up.
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    environ |= {"KSCHED_CHROMIUM": str(REPO / "no-such-chromium"), **env}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", ONE_TEST],
        cwd=REPO, env=environ, capture_output=True, text=True, check=False,
    )


def test_a_skipped_browser_test_is_one_summary_line() -> None:
    result = _pytest()
    assert result.returncode == 0, result.stdout
    lines = [line for line in result.stdout.splitlines() if "browser test(s) skipped" in line]
    assert lines == [
        f"1 HTML report browser test(s) skipped: [Errno 2] No such file or directory: "
        f"'{REPO / 'no-such-chromium'}'; they need Debian's chromium (apt-get install "
        "chromium) or $KSCHED_CHROMIUM"
    ]


def test_in_ci_a_missing_browser_fails() -> None:
    result = _pytest(CI="true")
    assert result.returncode == 1
    assert "CI=true and no browser can run: " in result.stdout
    assert "browser test(s) skipped" not in result.stdout
