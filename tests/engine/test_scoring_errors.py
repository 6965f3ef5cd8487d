"""RunScorePlugins' errors: Score for every plugin, then NormalizeScore for every plugin,
then the range check, each error wrapped as kube-scheduler wraps it (v1.30.6-v1.36.2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.engine.scoring import run_score
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import NodeScore
from tests.fakes import make_node, make_pod


@dataclass
class Scorer:
    """A Score plugin scoring each node by a fixed table; ``error`` fails Score on the
    node of that name, ``normalize`` adds to every score in NormalizeScore (or fails)."""

    name: str
    scores: dict[str, int]
    error: str = ""
    normalize: int | str | None = None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        if node_info.name == self.error:
            return 0, Status(Code.ERROR, error="boom")
        return self.scores[node_info.name], None

    def score_extensions(self) -> Scorer | None:
        return self if self.normalize is not None else None

    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None:
        if isinstance(self.normalize, str):
            return Status(Code.ERROR, error=self.normalize)
        for entry in scores:
            entry.score += self.normalize or 0
        return None


@dataclass
class Framework:
    score_plugins: Sequence[Scorer]
    score_weights: dict[str, int] = field(default_factory=dict)
    vectorize: bool = False


def _nodes() -> list[NodeInfo]:
    return list(Snapshot([make_node("a"), make_node("b")]).list())


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        # A bad score of the first plugin is found only after every plugin scored.
        (
            [Scorer("Big", {"a": 101, "b": 0}), Scorer("Broken", {"a": 1, "b": 1}, error="b")],
            'running Score plugins: plugin "Broken" failed with: boom',
        ),
        (
            [
                Scorer("Big", {"a": 0, "b": 0}, normalize=200),
                Scorer("Norm", {"a": 1, "b": 1}, normalize="cannot"),
            ],
            'running Normalize on Score plugins: plugin "Norm" failed with: cannot',
        ),
        (
            [Scorer("Fine", {"a": 3, "b": 4}), Scorer("Low", {"a": 5, "b": 6}, normalize=-7)],
            'plugin "Low" returns an invalid score -2, it should in the range of [0, 100] '
            "after normalizing",
        ),
        (
            [Scorer("High", {"a": 100, "b": 101}), Scorer("Low", {"a": -1, "b": 0})],
            'plugin "High" returns an invalid score 101, it should in the range of [0, 100] '
            "after normalizing",
        ),
    ],
)
def test_score_errors_in_kube_schedulers_order(plugins: list[Scorer], message: str) -> None:
    table, status = run_score(Framework(plugins), CycleState(), make_pod("p"), _nodes())  # type: ignore[arg-type]
    assert table is None and status is not None
    assert (status.code, status.message()) == (Code.ERROR, message)


def test_weights_and_totals() -> None:
    plugins = [Scorer("One", {"a": 10, "b": 20}), Scorer("Two", {"a": 7, "b": 0}, normalize=3)]
    fwk = Framework(plugins, {"One": 2, "Two": 5})
    table, status = run_score(fwk, CycleState(), make_pod("p"), _nodes())  # type: ignore[arg-type]
    assert status is None and table is not None
    assert table.raw["Two"].tolist() == [7, 0]
    assert table.normalized["Two"].tolist() == [10, 3]
    assert table.weighted["One"].tolist() == [20, 40]
    assert table.total.tolist() == [70, 55]
