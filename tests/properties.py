"""Shared Hypothesis settings and checks for the robustness (property-based) tests.

Every property test is derandomized (a fixed seed per test: CI runs are reproducible),
keeps no example database, and is bounded in examples so the whole set stays a few
seconds of the suite.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ksched_cli.cli.main import _register, cli


def bounded(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,  # wall time is asserted by the tests themselves, per run
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# JSON values: what a file or a reply can hold.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def mutate(text: str, data: st.DataObject) -> str:
    """``text`` with a few characters deleted, replaced or inserted."""
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        if not text:
            break
        at = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
        what = data.draw(st.sampled_from(["delete", "replace", "insert"]))
        char = data.draw(st.sampled_from(list("{}[]:,\"'-&*!#\n 0aZ\t\\%")))
        if what == "delete":
            text = text[:at] + text[at + 1 :]
        elif what == "replace":
            text = text[:at] + char + text[at + 1 :]
        else:
            text = text[:at] + char + text[at:]
    return text


def run_cli(*args: str) -> Result:
    _register()
    return CliRunner().invoke(cli, list(args))


@contextmanager
def within(seconds: float) -> Iterator[None]:
    started = time.monotonic()
    yield
    assert time.monotonic() - started < seconds


_ERROR_LINE = re.compile(r"^(?P<file>[^\n]+?)(:\d+:\d+)?(?: \(document \d+\))?: error: .+$")


def assert_clean_exit(
    result: Result, allowed: tuple[int, ...], named: str, one_error: bool = True
) -> None:
    """No traceback; an allowed exit code; on 1 (with ``one_error``) exactly one error
    line on stderr, naming ``named``."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {result.exception!r}") from result.exception
    assert result.exit_code in allowed, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 1 and one_error:
        errors = [line for line in result.stderr.splitlines() if ": error: " in line]
        assert len(errors) == 1, result.stderr
        match = _ERROR_LINE.match(errors[0])
        assert match is not None and match.group("file") == named, errors[0]
