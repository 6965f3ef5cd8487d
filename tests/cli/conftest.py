"""Fixtures of the CLI tests."""

from __future__ import annotations

import pytest

from .helpers import REPO


@pytest.fixture
def at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository root, so relative paths in arguments and output hold."""
    monkeypatch.chdir(REPO)
