"""NodeAffinityArgs.addedAffinity checks, as component-helpers' nodeaffinity parser reports them.

v1.30 quirks kept: preferred terms are reported without ``.preference`` in the path,
empty terms and zero-weight preferred terms are skipped, and a label value error
is reported at ``values[i][key]``.
"""

from __future__ import annotations

import re
from typing import Any

from .names import label_value_errors, qualified_name_errors
from .problems import GoRepr, Problem, child, go_string_slice, invalid, not_supported

NODE_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
FIELD_SELECTOR_OPERATORS = ("In", "NotIn")
# Compiled on first use (re caches it): only Gt and Lt requirements need it.
_GO_INT = r"^[+-]?\d+$"
_INT64 = 2**63


def _values_repr(values: list[str] | None) -> GoRepr:
    return GoRepr("[]string(nil)" if values is None else go_string_slice(values))


def _is_go_int(text: str) -> bool:
    return bool(re.match(_GO_INT, text)) and -_INT64 <= int(text) < _INT64


def _requirement(expr: dict[str, Any], path: str, at: str) -> list[Problem]:
    """labels.NewRequirement checks for one matchExpressions entry."""
    key, op = expr.get("key") or "", expr.get("operator") or ""
    raw_values = expr.get("values")
    values: list[str] = list(raw_values) if raw_values is not None else []
    problems = []
    key_errors = qualified_name_errors(key)
    if key_errors:
        problems.append(invalid(child(path, "key"), key, "; ".join(key_errors), child(at, "key")))
    vpath, vat = child(path, "values"), child(at, "values")
    shown = _values_repr(raw_values)
    if op in ("In", "NotIn") and not values:
        problems.append(
            invalid(vpath, shown, "for 'in', 'notin' operators, values set can't be empty", vat)
        )
    elif op in ("Exists", "DoesNotExist") and values:
        problems.append(
            invalid(vpath, shown, "values set must be empty for exists and does not exist", vat)
        )
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            problems.append(
                invalid(
                    vpath, shown, "for 'Gt', 'Lt' operators, exactly one value is required", vat
                )
            )
        for i, value in enumerate(values):
            if not _is_go_int(value):
                detail = "for 'Gt', 'Lt' operators, the value must be an integer"
                problems.append(invalid(child(vpath, i), value, detail, child(vat, i)))
    for i, value in enumerate(values):
        errors = label_value_errors(value)
        if errors:
            problems.append(
                invalid(f"{child(vpath, i)}[{key}]", value, "; ".join(errors), child(vat, i))
            )
    return problems


def _match_expressions(exprs: list[dict[str, Any]], path: str, at: str) -> list[Problem]:
    problems = []
    for i, expr in enumerate(exprs):
        p, a = child(path, i), child(at, i)
        op = expr.get("operator") or ""
        if op not in NODE_SELECTOR_OPERATORS:
            problems.append(
                not_supported(
                    child(p, "operator"), op, NODE_SELECTOR_OPERATORS, child(a, "operator")
                )
            )
            continue
        problems.extend(_requirement(expr, p, a))
    return problems


def _match_fields(exprs: list[dict[str, Any]], path: str, at: str) -> list[Problem]:
    problems = []
    for i, expr in enumerate(exprs):
        p, a = child(path, i), child(at, i)
        op = expr.get("operator") or ""
        if op in FIELD_SELECTOR_OPERATORS:
            values = expr.get("values")
            if len(values or []) != 1:
                shown = _values_repr(values)
                problems.append(
                    invalid(child(p, "values"), shown, "must have one element", child(a, "values"))
                )
        else:
            problems.append(
                not_supported(
                    child(p, "operator"), op, FIELD_SELECTOR_OPERATORS, child(a, "operator")
                )
            )
    return problems


def _is_empty_term(term: dict[str, Any]) -> bool:
    return not term.get("matchExpressions") and not term.get("matchFields")


def _term(term: dict[str, Any], path: str, at: str) -> list[Problem]:
    problems = []
    if term.get("matchExpressions"):
        p, a = child(path, "matchExpressions"), child(at, "matchExpressions")
        problems += _match_expressions(term["matchExpressions"], p, a)
    if term.get("matchFields"):
        problems += _match_fields(
            term["matchFields"], child(path, "matchFields"), child(at, "matchFields")
        )
    return problems


def validate_added_affinity(base: str, args: dict[str, Any]) -> list[Problem]:
    affinity = args.get("addedAffinity")
    if not affinity:
        return []
    root = child(base, "addedAffinity")
    problems: list[Problem] = []
    required = affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is not None:
        path = child(root, "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
        for i, term in enumerate(required.get("nodeSelectorTerms") or []):
            if not _is_empty_term(term or {}):
                problems += _term(term, child(path, i), child(path, i))
    path = child(root, "preferredDuringSchedulingIgnoredDuringExecution")
    for i, item in enumerate(affinity.get("preferredDuringSchedulingIgnoredDuringExecution") or []):
        preference = (item or {}).get("preference") or {}
        if not (item or {}).get("weight") or _is_empty_term(preference):
            continue
        problems += _term(preference, child(path, i), child(path, i, "preference"))
    return problems
