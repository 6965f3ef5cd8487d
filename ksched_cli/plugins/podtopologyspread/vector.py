"""PodTopologySpread's PreFilter state and Filter over all live nodes at once.

Equal to filtering.py's per-node code: domains are counted from per-node matching-pod
columns that the node columns keep current, and pairs keep the order in which the
per-node walk would first meet them.
"""

from __future__ import annotations

from ...api.pod import Pod
from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...lazy_numpy import np
from ..helpers.taints import do_not_schedule_taints, find_matching_untolerated_taint
from .common import (
    HONOR,
    NAME,
    Constraint,
    NodeInclusion,
    RequiredNodeAffinity,
    counts_toward,
)
from .filtering import PreFilterState, pre_filter_state_from_counts

OBJECT_NAME_FIELD = "metadata.name"  # the one field matchFields may name


def included(pod: Pod, c: Constraint, columns: NodeColumns) -> BoolArray:
    """matchNodeInclusionPolicies per node: static node data and the pod's spec only."""
    mask: BoolArray = np.ones(columns.size, dtype=np.bool_)
    affinity = RequiredNodeAffinity.of(pod)
    if c.node_affinity_policy == HONOR and not affinity.is_empty:
        pinned = _pinned_names(affinity)
        if pinned is not None and len(pinned) * 4 < columns.size:
            mask = mask & _pinned_mask(affinity, pinned, columns)
        else:
            key = (NAME, "affinity", tuple(sorted(affinity.node_selector.items())), affinity.terms)
            mask = mask & columns.static_mask(key, lambda ni: affinity.matches(ni.node))
    if c.node_taints_policy == HONOR:
        tolerations = pod.tolerations
        mask = mask & columns.static_mask(
            (NAME, "taints", tolerations),
            lambda ni: (
                find_matching_untolerated_taint(ni.node.taints, tolerations, do_not_schedule_taints)
                is None
            ),
        )
    return mask


def _pinned_names(affinity: RequiredNodeAffinity) -> set[str] | None:
    """The only node names the required terms can match, when every term has a
    ``metadata.name In`` field (a DaemonSet pod's); None when a term may match any node."""
    if affinity.terms is None:
        return None
    names: set[str] = set()
    for term in affinity.terms.terms:
        pinned = [
            set(r.values)
            for r in term.match_fields
            if r.key == OBJECT_NAME_FIELD and r.operator == "In"
        ]
        if not pinned:
            return None
        names |= set.intersection(*pinned)
    return names


def _pinned_mask(
    affinity: RequiredNodeAffinity, names: set[str], columns: NodeColumns
) -> BoolArray:
    """The affinity's verdicts computed on the pinned nodes only, not cached: one per
    DaemonSet pod would otherwise cost a pass over every node and a mask kept for good."""
    mask: BoolArray = np.zeros(columns.size, dtype=np.bool_)
    for name in names:
        ni = columns.by_name.get(name)
        if ni is not None and affinity.matches(ni.node):
            mask[ni.column_index] = True
    return mask


def _domains(c: Constraint, columns: NodeColumns) -> tuple[IntArray, list[str]]:
    key = c.topology_key
    return columns.static_ids((NAME, "domain", key), lambda ni: ni.node.labels.get(key))


def matching_counts(pod: Pod, c: Constraint, columns: NodeColumns) -> IntArray:
    selector = c.selector
    if selector is None or selector.is_empty:
        return np.zeros(columns.size, dtype=np.int64)
    namespace = pod.namespace
    return columns.match_counts(
        (NAME, selector, namespace), lambda pod: int(counts_toward(pod, selector, namespace))
    )


def build_state(
    pod: Pod, constraints: list[Constraint], columns: NodeColumns
) -> PreFilterState | None:
    """calPreFilterState over the live nodes; None when the per-node path must be used."""
    keys = [c.topology_key for c in constraints]
    if len(set(keys)) != len(keys):
        return None  # a later constraint on the same key overwrites: leave it to filtering.py
    has_keys = columns.static_mask(
        (NAME, "keys", tuple(keys)), lambda ni: all(k in ni.node.labels for k in keys)
    )
    match_num: dict[tuple[str, str], int] = {}
    firsts: list[tuple[int, tuple[str, str], int]] = []
    for c in constraints:
        ids, values = _domains(c, columns)
        m = has_keys & included(pod, c, columns)
        nodes = np.flatnonzero(m)
        if nodes.size == 0:
            continue
        domain_of = ids[nodes]
        sums = np.bincount(
            domain_of, weights=matching_counts(pod, c, columns)[nodes], minlength=len(values)
        )
        present, first = np.unique(domain_of, return_index=True)
        for d, f in zip(present.tolist(), first.tolist(), strict=True):
            firsts.append((int(nodes[f]), (c.topology_key, values[d]), int(sums[d])))
    # Pairs in the order a walk over the nodes would first count them.
    for _, pair, num in sorted(firsts, key=lambda t: t[0]):
        match_num[pair] = num
    return pre_filter_state_from_counts(
        pod, constraints, match_num, NodeInclusion(pod, constraints)
    )


def filter_mask(state: PreFilterState, columns: NodeColumns) -> BoolArray:
    """filter_node for every live node: the key is present and the skew within maxSkew."""
    ok: BoolArray = np.ones(columns.size, dtype=np.bool_)
    for c, self_match in zip(state.constraints, state.self_match, strict=True):
        ids, values = _domains(c, columns)
        ok &= ids >= 0
        min_num = state.min_match_num(c.topology_key, c.min_domains)
        if min_num is None:
            continue
        nums = np.array(
            [state.match_num.get((c.topology_key, v), 0) for v in values] + [0], dtype=np.int64
        )
        ok &= nums[ids] + self_match - min_num <= c.max_skew
    return ok
