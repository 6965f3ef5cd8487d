"""Label selectors and node selector terms, with kube-scheduler's matching rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from ..errors import ObjectError
from ..record import record
from .fields import Raw, mapping, objects, string, string_map, strings

LABEL_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
NODE_OPERATORS = (*LABEL_OPERATORS, "Gt", "Lt")


@record(frozen=True, slots=True)
class Requirement:
    """One label (or field) selector requirement: key, operator, values."""

    key: str
    operator: str
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op == "In":
            return self.key in labels and labels[self.key] in self.values
        if op == "NotIn":
            return self.key not in labels or labels[self.key] not in self.values
        if op == "Exists":
            return self.key in labels
        if op == "DoesNotExist":
            return self.key not in labels
        if self.key not in labels:
            return False
        return _compare_int(labels[self.key], self.values[0], op)


def _compare_int(label: str, bound: str, op: str) -> bool:
    try:
        have, want = int(label), int(bound)
    except ValueError:
        return False
    return have > want if op == "Gt" else have < want


@record(frozen=True, slots=True)
class LabelSelector:
    """metav1.LabelSelector; ``None`` where a selector is absent (matches nothing)."""

    requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        return all(r.matches(labels) for r in self.requirements)

    @property
    def is_empty(self) -> bool:
        return not self.requirements

    def with_requirements(self, extra: tuple[Requirement, ...]) -> LabelSelector:
        return LabelSelector(self.requirements + extra)


def parse_label_selector(raw: Raw | None, path: str) -> LabelSelector | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ObjectError(path, "expected an object")
    reqs = [
        Requirement(k, "In", (v,)) for k, v in sorted(string_map(raw, "matchLabels", path).items())
    ]
    for item_path, item in objects(raw, "matchExpressions", path):
        reqs.append(_requirement(item, item_path, LABEL_OPERATORS))
    return LabelSelector(tuple(reqs))


def _requirement(raw: Raw, path: str, operators: tuple[str, ...]) -> Requirement:
    key = string(raw, "key", path)
    op = string(raw, "operator", path)
    values = tuple(strings(raw, "values", path))
    if op not in operators:
        raise ObjectError(f"{path}.operator", f'"{op}" is not a valid selector operator')
    if op in ("In", "NotIn") and not values:
        raise ObjectError(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'")
    if op in ("Exists", "DoesNotExist") and values:
        raise ObjectError(
            f"{path}.values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
        )
    if op in ("Gt", "Lt") and len(values) != 1:
        raise ObjectError(
            f"{path}.values", "must be specified single value when `operator` is 'Lt' or 'Gt'"
        )
    return Requirement(key, op, values)


@record(frozen=True, slots=True)
class NodeSelectorTerm:
    """A node selector term: its expressions and fields must all match."""

    match_expressions: tuple[Requirement, ...] = ()
    match_fields: tuple[Requirement, ...] = ()

    def matches(self, node_labels: Mapping[str, str], node_name: str) -> bool:
        # An empty term matches no node, as in component-helpers' nodeaffinity.
        if not self.match_expressions and not self.match_fields:
            return False
        if not all(r.matches(node_labels) for r in self.match_expressions):
            return False
        fields = {"metadata.name": node_name}
        return all(r.matches(fields) for r in self.match_fields)


@record(frozen=True, slots=True)
class NodeSelector:
    """v1.NodeSelector: the terms are ORed."""

    terms: tuple[NodeSelectorTerm, ...] = ()

    def matches(self, node_labels: Mapping[str, str], node_name: str) -> bool:
        return any(t.matches(node_labels, node_name) for t in self.terms)


def parse_node_selector_term(raw: Raw, path: str) -> NodeSelectorTerm:
    exprs = tuple(
        _requirement(i, p, NODE_OPERATORS) for p, i in objects(raw, "matchExpressions", path)
    )
    fields = []
    for p, i in objects(raw, "matchFields", path):
        req = _requirement(i, p, NODE_OPERATORS)
        if req.key != "metadata.name":
            raise ObjectError(
                f"{p}.key", f'Unsupported value: "{req.key}": supported values: "metadata.name"'
            )
        fields.append(req)
    return NodeSelectorTerm(exprs, tuple(fields))


def parse_node_selector(raw: Raw | None, path: str) -> NodeSelector | None:
    if raw is None:
        return None
    terms = tuple(
        parse_node_selector_term(i, p) for p, i in objects(raw, "nodeSelectorTerms", path)
    )
    return NodeSelector(terms)


@record(frozen=True, slots=True)
class PreferredSchedulingTerm:
    """A preferred node affinity term and its weight."""

    weight: int
    preference: NodeSelectorTerm


@record(frozen=True, slots=True)
class NodeAffinity:
    """spec.affinity.nodeAffinity: the required selector and preferred terms."""

    required: NodeSelector | None = None
    preferred: tuple[PreferredSchedulingTerm, ...] = field(default=())


def parse_node_affinity(raw: Raw | None, path: str) -> NodeAffinity | None:
    if raw is None:
        return None
    req_raw = raw.get("requiredDuringSchedulingIgnoredDuringExecution")
    required = parse_node_selector(
        mapping(raw, "requiredDuringSchedulingIgnoredDuringExecution", path)
        if req_raw is not None
        else None,
        f"{path}.requiredDuringSchedulingIgnoredDuringExecution",
    )
    preferred = []
    for p, item in objects(raw, "preferredDuringSchedulingIgnoredDuringExecution", path):
        weight = item.get("weight", 0)
        if isinstance(weight, bool) or not isinstance(weight, int):
            raise ObjectError(f"{p}.weight", "expected an integer")
        term = parse_node_selector_term(mapping(item, "preference", p), f"{p}.preference")
        preferred.append(PreferredSchedulingTerm(weight, term))
    return NodeAffinity(required, tuple(preferred))
