"""Each pod has one final decision, in the order decisions became final."""

from __future__ import annotations

from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine
from tests.fakes import make_node, make_pod


def test_a_later_decision_replaces_an_earlier_one() -> None:
    pod, other = make_pod("p"), make_pod("q")
    engine = Engine(default_config(), Cluster(nodes=[make_node("n")], pods=[pod, other]))
    engine.decide(pod, "Scheduled", node="n")
    engine.decide(other, "Scheduled", node="n")
    engine.decide(pod, "Preempted", node="n", preempted_by="default/q")
    assert [(d.pod, d.outcome) for d in engine.plan.decisions] == [
        ("default/q", "Scheduled"),
        ("default/p", "Preempted"),
    ]
