"""Node selector terms compiled once per pod (component-helpers' nodeaffinity package).

kube-scheduler parses each term into label and field selectors; a term that fails to
parse (an invalid label value, a non-integer Gt/Lt bound, a matchFields requirement
that is not In/NotIn with one value) never matches, and its errors are kept so the
callers that report them (preferred terms, scheduler-enforced affinity) can.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from ...api.node import Node
from ...api.pod import Pod
from ...api.selectors import NodeSelector, NodeSelectorTerm, PreferredSchedulingTerm, Requirement

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_GO_INT = re.compile(r"[+-]?[0-9]+")
_LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_LABEL_VALUE = re.compile(_LABEL_VALUE_FMT)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
    f"or '12345', regex used for validation is '{_LABEL_VALUE_FMT}')"
)

# Compiled label requirement: (key, operator, values, integer bound for Gt/Lt).
LabelReq = tuple[str, str, frozenset[str], int]
# Compiled metadata.name requirement: (True for In / False for NotIn, value).
FieldReq = tuple[bool, str]


def go_parse_int(text: str) -> int | None:
    """strconv.ParseInt(text, 10, 64): no spaces or underscores, int64 range."""
    if not _GO_INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _label_value_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _LABEL_VALUE.fullmatch(value):
        errs.append(_LABEL_VALUE_MSG)
    return errs


def _compile_label_req(req: Requirement, path: str, errors: list[str]) -> LabelReq:
    bound = 0
    if req.operator in ("Gt", "Lt"):
        parsed = go_parse_int(req.values[0]) if len(req.values) == 1 else None
        if parsed is None:
            errors.append(
                f"{path}.values[0]: Invalid value: {_quote(req.values[0] if req.values else '')}: "
                "for 'Gt', 'Lt' operators, the value must be an integer"
            )
        bound = parsed or 0
    for i, value in enumerate(req.values):
        errs = _label_value_errors(value)
        if errs:
            detail = "; ".join(errs)
            errors.append(
                f"{path}.values[{i}][{req.key}]: Invalid value: {_quote(value)}: {detail}"
            )
    return (req.key, req.operator, frozenset(req.values), bound)


def _compile_field_req(req: Requirement, path: str, errors: list[str]) -> FieldReq:
    if req.operator not in ("In", "NotIn"):
        errors.append(
            f"{path}.operator: Unsupported value: {_quote(req.operator)}: "
            'supported values: "In", "NotIn"'
        )
        return (False, "")
    if len(req.values) != 1:
        shown = ", ".join(_quote(v) for v in req.values)
        errors.append(f"{path}.values: Invalid value: []string{{{shown}}}: must have one element")
        return (False, "")
    return (req.operator == "In", req.values[0])


def _label_req_matches(req: LabelReq, labels: Mapping[str, str]) -> bool:
    key, op, values, bound = req
    value = labels.get(key)
    if op == "In":
        return value is not None and value in values
    if op == "NotIn":
        return value is None or value not in values
    if op == "Exists":
        return value is not None
    if op == "DoesNotExist":
        return value is None
    if value is None:
        return False
    have = go_parse_int(value)
    if have is None:
        return False
    return have > bound if op == "Gt" else have < bound


class CompiledTerm:
    """One non-empty NodeSelectorTerm: its requirements are ANDed."""

    __slots__ = ("errors", "fields", "labels")

    def __init__(self, term: NodeSelectorTerm, path: str) -> None:
        errors: list[str] = []
        self.labels = tuple(
            _compile_label_req(r, f"{path}.matchExpressions[{i}]", errors)
            for i, r in enumerate(term.match_expressions)
        )
        self.fields = tuple(
            _compile_field_req(r, f"{path}.matchFields[{i}]", errors)
            for i, r in enumerate(term.match_fields)
        )
        self.errors = tuple(errors)

    def matches(self, labels: Mapping[str, str], name: str) -> bool:
        if self.errors:
            return False
        for req in self.labels:
            if not _label_req_matches(req, labels):
                return False
        # Plain loops: any()/all() over generators cost more on this per-node path.
        for is_in, value in self.fields:  # noqa: SIM110
            if (name == value) is not is_in:
                return False
        return True


def aggregate_errors(errors: Sequence[str]) -> str:
    """utilerrors.NewAggregate(errs).Error(): duplicates dropped, brackets around several."""
    unique = list(dict.fromkeys(errors))
    if len(unique) == 1:
        return unique[0]
    return "[" + ", ".join(unique) + "]"


class CompiledNodeSelector:
    """v1.NodeSelector: terms ORed; empty terms dropped; no terms matches nothing."""

    __slots__ = ("errors", "terms")

    def __init__(self, selector: NodeSelector, path: str = "nodeSelectorTerms") -> None:
        self.terms = tuple(
            CompiledTerm(t, f"{path}[{i}]")
            for i, t in enumerate(selector.terms)
            if t.match_expressions or t.match_fields
        )
        self.errors = tuple(e for t in self.terms for e in t.errors)

    def matches(self, node: Node) -> bool:
        labels, name = node.labels, node.meta.name
        for term in self.terms:  # noqa: SIM110
            if term.matches(labels, name):
                return True
        return False


class CompiledPreferredTerms:
    """Weighted preferred terms; zero-weight and empty terms are dropped."""

    __slots__ = ("errors", "terms")

    def __init__(self, terms: Sequence[PreferredSchedulingTerm]) -> None:
        self.terms = tuple(
            (CompiledTerm(t.preference, f"[{i}]"), t.weight)
            for i, t in enumerate(terms)
            if t.weight != 0 and (t.preference.match_expressions or t.preference.match_fields)
        )
        self.errors = tuple(e for t, _ in self.terms for e in t.errors)

    def score(self, node: Node) -> int:
        labels, name = node.labels, node.meta.name
        total = 0
        for term, weight in self.terms:
            if term.matches(labels, name):
                total += weight
        return total


class RequiredNodeAffinity:
    """A pod's nodeSelector and required node affinity, both of which must match."""

    __slots__ = ("node_selector", "selector")

    def __init__(self, pod: Pod) -> None:
        self.node_selector = tuple(pod.node_selector.items())
        aff = pod.node_affinity
        self.selector = (
            CompiledNodeSelector(aff.required)
            if aff is not None and aff.required is not None
            else None
        )

    def matches(self, node: Node) -> bool:
        labels = node.labels
        for key, value in self.node_selector:
            if labels.get(key) != value:
                return False
        return self.selector is None or self.selector.matches(node)
