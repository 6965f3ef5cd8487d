"""`benchmarks/fifths.py`: the prefixes it plans and the per-fifth arithmetic (callgrind
itself is replaced: the counts here are made up, so nothing is timed or run under it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchmarks import fifths


def _tiny() -> Iterator[dict[str, Any]]:
    yield {"kind": "Node", "metadata": {"name": "n"}}
    yield {"kind": "Pod", "metadata": {"name": "running"}, "spec": {"nodeName": "n"}}
    for i in range(10):
        yield {"kind": "Pod", "metadata": {"name": f"p{i}"}, "spec": {}}


@pytest.fixture(autouse=True)
def _tiny_workload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fifths.WORKLOADS, "tiny", _tiny)


def test_prefixes_keep_everything_but_the_later_pending_pods(tmp_path: Path) -> None:
    files = fifths._prefixes("tiny", tmp_path)
    assert [count for _, count in files] == [2, 4, 6, 8, 10]
    names = [[d["metadata"]["name"] for d in yaml.safe_load_all(p.read_text())] for p, _ in files]
    assert names[0] == ["n", "running", "p0", "p1"]
    assert names[-1] == ["n", "running", *(f"p{i}" for i in range(10))]


def test_each_fifth_is_the_difference_between_prefixes(monkeypatch: pytest.MonkeyPatch) -> None:
    def counted(path: Path, version: str, plan: bool, env: dict[str, str]) -> int:
        pending = sum(1 for d in yaml.safe_load_all(path.read_text())
                      if d["kind"] == "Pod" and not d["spec"])
        loading = 1_000 + 7 * pending
        # Planning costs 100 per pod plus 5 per pod already pending before it: a cost that
        # grows with the pods placed, which the fifths must show rising.
        return loading + (sum(100 + 5 * i for i in range(pending)) if plan else 0)

    monkeypatch.setattr(fifths, "_instructions", counted)
    per_pod = fifths.fifths("tiny", "1.36")
    assert per_pod == [102.5, 112.5, 122.5, 132.5, 142.5]
