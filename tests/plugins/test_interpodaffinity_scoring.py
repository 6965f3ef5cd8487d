"""InterPodAffinity PreScore, Score and NormalizeScore, ported from scoring_test.go.

The Go tests' default namespace "" is "default" here; the two cases about
selector values the API server rejects are left out (ksched never sees such pods).
"""

from __future__ import annotations

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import InterPodAffinityArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from tests.plugins.test_interpodaffinity import (
    Raw,
    affinity,
    node,
    plugin,
    pod,
    run_scores,
    sel,
    t_in,
    term,
    weighted,
)

SKIP = Status(Code.SKIP)
MAX = 100

CHINA = {"region": "China"}
INDIA = {"region": "India"}
AZ1 = {"az": "az1"}
AZ2 = {"az": "az2"}
CHINA_AZ1 = {"region": "China", "az": "az1"}
S1 = {"security": "S1"}
S2 = {"security": "S2"}

TEAM1 = sel(("team", "In", ["team1"]))
SECURITY_EXISTS = sel(("security", "Exists", ()), ("wrongkey", "DoesNotExist", ()))

STAY_WITH_S1_IN_REGION = affinity(pref=[weighted(5, t_in("security", "region", "S1"))])
STAY_WITH_S2_IN_REGION = affinity(pref=[weighted(6, t_in("security", "region", "S2"))])
AFFINITY3 = affinity(
    pref=[
        weighted(8, term(sel(("security", "NotIn", ["S1"]), ("security", "In", ["S2"])), "region")),
        weighted(2, term(SECURITY_EXISTS, "region")),
    ]
)
HARD_AFFINITY = affinity(
    req=[t_in("security", "region", "S1", "value2"), term(SECURITY_EXISTS, "region")]
)
AWAY_FROM_S1_IN_AZ = affinity(pref_anti=[weighted(5, t_in("security", "az", "S1"))])
AWAY_FROM_S2_IN_AZ = affinity(pref_anti=[weighted(5, t_in("security", "az", "S2"))])
STAY_WITH_S1_AWAY_FROM_S2 = affinity(
    pref=[weighted(8, t_in("security", "region", "S1"))],
    pref_anti=[weighted(5, t_in("security", "az", "S2"))],
)
_NS_TERM = term(
    sel(("security", "In", ["S1"])), "region", namespaces=["subteam2.team2"], ns_selector=TEAM1
)
AFFINITY_NS_SELECTOR = affinity(pref=[weighted(5, _NS_TERM)])
ANTI_AFFINITY_NS_SELECTOR = affinity(pref_anti=[weighted(5, _NS_TERM)])


def nodes_of(*labels: dict[str, str]) -> list[Node]:
    return [node(f"node{i}", lab) for i, lab in enumerate(labels, 1)]


def at(
    n: int, labels: dict[str, str] | None = None, aff: Raw | None = None, ns: str = "default"
) -> Pod:
    """A running pod on node ``n``."""
    return pod(labels, f"node{n}", ns=ns, aff=aff)


def _ns_pods(third_ns: str) -> list[Pod]:
    return [
        at(1, S1, ns="subteam1.team1"),
        at(1, S1, ns="subteam1.team1"),
        at(1, S1, ns=third_ns),
        at(2, S1, ns="subteam2.team1"),
    ]


def _preferred_cases() -> list[object]:
    return [
        pytest.param(
            pod(S1),
            [],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            SKIP,
            [],
            id="no affinity anywhere: skip",
        ),
        pytest.param(
            pod(S1, aff=STAY_WITH_S1_IN_REGION),
            [at(1, S1), at(2, S2), at(3, S1)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [MAX, 0, 0],
            id="affinity: topology key and matching pods score high",
        ),
        pytest.param(
            pod(aff=STAY_WITH_S1_IN_REGION),
            [at(1, S1)],
            nodes_of(CHINA, CHINA_AZ1, INDIA),
            False,
            None,
            [MAX, MAX, 0],
            id="affinity: nodes of the same topology value share the score",
        ),
        pytest.param(
            pod(S1, aff=STAY_WITH_S2_IN_REGION),
            [at(1, S2), at(1, S2), at(2, S2), at(3, S2), at(4, S2), at(5, S2)],
            nodes_of(CHINA, INDIA, CHINA, CHINA, INDIA),
            False,
            None,
            [MAX, 0, MAX, MAX, 0],
            id="affinity: the region with more matches scores high",
        ),
        pytest.param(
            pod(S1, aff=AFFINITY3),
            [at(1, S1), at(2, S2), at(3, S1)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [20, MAX, 0],
            id="affinity: several operators and weights",
        ),
        pytest.param(
            pod(S2),
            [at(1, S1, STAY_WITH_S1_IN_REGION), at(2, S2, STAY_WITH_S2_IN_REGION)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [0, MAX, 0],
            id="affinity symmetry: existing pods' preferred terms",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1"),
            [at(1, S1, AFFINITY_NS_SELECTOR), at(2, S2, STAY_WITH_S2_IN_REGION)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [MAX, 0, 0],
            id="affinity symmetry with a namespace selector",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1"),
            [at(1, S1, ANTI_AFFINITY_NS_SELECTOR), at(2, S2, STAY_WITH_S2_IN_REGION)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [0, MAX, MAX],
            id="anti-affinity symmetry with a namespace selector",
        ),
        pytest.param(
            pod(S1),
            [at(1, S1, HARD_AFFINITY), at(2, S2, HARD_AFFINITY)],
            nodes_of(CHINA, INDIA, AZ1),
            False,
            None,
            [MAX, MAX, 0],
            id="affinity symmetry: existing pods' required terms",
        ),
        pytest.param(
            pod(S1, aff=AWAY_FROM_S1_IN_AZ),
            [at(1, S1), at(2, S2)],
            nodes_of(AZ1, CHINA),
            False,
            None,
            [0, MAX],
            id="anti-affinity: nodes without matching pods score high",
        ),
        pytest.param(
            pod(S1, aff=AWAY_FROM_S1_IN_AZ),
            [at(1, S1), at(2, S1)],
            nodes_of(AZ1, CHINA),
            False,
            None,
            [0, MAX],
            id="anti-affinity: nodes without the topology key score high",
        ),
        pytest.param(
            pod(S1, aff=AWAY_FROM_S1_IN_AZ),
            [at(1, S1), at(1, S1), at(2, S2)],
            nodes_of(AZ1, INDIA),
            False,
            None,
            [0, MAX],
            id="anti-affinity: more matching pods score lower",
        ),
        pytest.param(
            pod(S2),
            [at(1, S1, AWAY_FROM_S2_IN_AZ), at(2, S2, AWAY_FROM_S1_IN_AZ)],
            nodes_of(AZ1, AZ2),
            False,
            None,
            [0, MAX],
            id="anti-affinity symmetry",
        ),
        pytest.param(
            pod(S1, aff=STAY_WITH_S1_AWAY_FROM_S2),
            [at(1, S1), at(2, S1)],
            nodes_of(CHINA, AZ1),
            False,
            None,
            [MAX, 0],
            id="affinity and anti-affinity",
        ),
        pytest.param(
            pod(S1, aff=STAY_WITH_S1_AWAY_FROM_S2),
            [at(1, S1), at(1, S1), at(2, S1), at(3, S1), at(3, S1), at(4, S1), at(5, S1)],
            nodes_of(CHINA_AZ1, INDIA, CHINA, CHINA, INDIA),
            False,
            None,
            [MAX, 0, MAX, MAX, 0],
            id="affinity and anti-affinity with pods like the incoming one",
        ),
        pytest.param(
            pod(S1, aff=STAY_WITH_S1_AWAY_FROM_S2),
            [
                at(1, S1),
                at(2, S2),
                at(3, None, STAY_WITH_S1_AWAY_FROM_S2),
                at(4, None, AWAY_FROM_S1_IN_AZ),
            ],
            nodes_of(CHINA, AZ1, INDIA, AZ2),
            False,
            None,
            [MAX, 0, MAX, 0],
            id="affinity, anti-affinity and symmetry together",
        ),
        pytest.param(
            pod(S1),
            [at(1, S1), at(2, None, STAY_WITH_S1_AWAY_FROM_S2)],
            nodes_of(CHINA, CHINA),
            False,
            None,
            [0, 0],
            id="nodes of a topology without pods with affinity",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1", aff=AFFINITY_NS_SELECTOR),
            _ns_pods("subteam1.team2"),
            nodes_of(CHINA, INDIA),
            False,
            None,
            [MAX, 0],
            id="affinity with pods matching the namespace selector",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1", aff=AFFINITY_NS_SELECTOR),
            _ns_pods("subteam2.team2"),
            nodes_of(CHINA, INDIA),
            False,
            None,
            [MAX, 0],
            id="affinity with pods matching the namespace selector and namespaces",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1", aff=ANTI_AFFINITY_NS_SELECTOR),
            _ns_pods("subteam1.team2"),
            nodes_of(CHINA, INDIA),
            False,
            None,
            [0, MAX],
            id="anti-affinity with pods matching the namespace selector",
        ),
        pytest.param(
            pod(S1, ns="subteam1.team1", aff=ANTI_AFFINITY_NS_SELECTOR),
            _ns_pods("subteam2.team2"),
            nodes_of(CHINA, INDIA),
            False,
            None,
            [0, MAX],
            id="anti-affinity with pods matching the namespace selector and namespaces",
        ),
        pytest.param(
            pod(S2),
            [at(1, S1, STAY_WITH_S1_AWAY_FROM_S2), at(2, S2, STAY_WITH_S2_IN_REGION)],
            nodes_of(CHINA, INDIA),
            True,
            SKIP,
            [],
            id="ignore preferred terms of existing pods",
        ),
        pytest.param(
            pod(S2),
            [at(1, S1, STAY_WITH_S1_AWAY_FROM_S2), at(2, S2, STAY_WITH_S2_IN_REGION)],
            nodes_of(CHINA, INDIA),
            False,
            None,
            [0, MAX],
            id="do not ignore preferred terms of existing pods",
        ),
        pytest.param(pod(S2), [], [], False, SKIP, [], id="no nodes to score"),
    ]


@pytest.mark.parametrize(
    ("incoming", "pods", "nodes", "ignore_existing", "want_pre", "want"), _preferred_cases()
)
def test_preferred_affinity(
    incoming: Pod,
    pods: list[Pod],
    nodes: list[Node],
    ignore_existing: bool,
    want_pre: Status | None,
    want: list[int],
) -> None:
    args = InterPodAffinityArgs(
        hard_pod_affinity_weight=1, ignore_preferred_terms_of_existing_pods=ignore_existing
    )
    assert run_scores(incoming, pods, nodes, args) == (want_pre, want)


HARD_POD_AFFINITY = affinity(
    req=[
        term(
            sel(("service", "In", ["S1"])),
            "region",
            namespaces=["default", "subteam2.team2"],
            ns_selector=TEAM1,
        )
    ]
)
SERVICE_S1 = {"service": "S1"}


@pytest.mark.parametrize(
    ("namespace", "weight", "want_pre", "want"),
    [
        pytest.param("default", 1, None, [MAX, MAX, 0], id="with default weight"),
        pytest.param("default", 0, SKIP, [], id="with zero weight"),
        pytest.param("subteam1.team2", 1, SKIP, [], id="with no matching namespace"),
        pytest.param(
            "subteam1.team1", 1, None, [MAX, MAX, 0], id="with matching namespace selector"
        ),
        pytest.param("subteam2.team2", 1, None, [MAX, MAX, 0], id="with matching namespaces"),
    ],
)
def test_hard_pod_affinity_symmetric_weight(
    namespace: str, weight: int, want_pre: Status | None, want: list[int]
) -> None:
    pods = [at(1, None, HARD_POD_AFFINITY), at(2, None, HARD_POD_AFFINITY)]
    args = InterPodAffinityArgs(hard_pod_affinity_weight=weight)
    got = run_scores(pod(SERVICE_S1, ns=namespace), pods, nodes_of(CHINA, INDIA, AZ1), args)
    assert got == (want_pre, want)


def test_raw_scores_before_normalizing() -> None:
    """Weights add up per topology value; anti-affinity subtracts; zero sums still count."""
    incoming = pod(S1, aff=STAY_WITH_S1_AWAY_FROM_S2)
    pods = [at(1, S1), at(1, S1), at(2, S2), at(3, S2, STAY_WITH_S1_IN_REGION)]
    nodes = nodes_of(CHINA_AZ1, {"region": "India", "az": "az1"}, {"region": "India", "az": "az2"})
    pl, handle = plugin(nodes, pods, InterPodAffinityArgs(hard_pod_affinity_weight=7))
    state = CycleState()
    infos = [handle.node(n.name) for n in nodes]
    assert pl.pre_score(state, incoming, infos) is None
    # China: 2 * 8; India: 5 (node3's pod prefers S1); az1 and az2: -5 each (an S2 pod).
    assert [pl.score(state, incoming, i)[0] for i in infos] == [16 - 5, 5 - 5, 5 - 5]


def test_ignore_existing_terms_still_scores_pods_with_preferences() -> None:
    """With ignorePreferredTermsOfExistingPods, only pods without preferences skip."""
    args = InterPodAffinityArgs(ignore_preferred_terms_of_existing_pods=True)
    incoming = pod(S1, aff=STAY_WITH_S1_IN_REGION)
    got = run_scores(incoming, [at(1, S1)], nodes_of(CHINA, INDIA), args)
    assert got == (None, [MAX, 0])


def test_matches_without_topology_key_skip() -> None:
    """A matching pod on a node without the topology key adds nothing: PreScore skips."""
    incoming = pod(S1, aff=STAY_WITH_S1_IN_REGION)
    assert run_scores(incoming, [at(1, S1)], nodes_of(AZ1, AZ2)) == (SKIP, [])
