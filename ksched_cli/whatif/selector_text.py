"""kubectl's ``-l`` label selector syntax (apimachinery labels.Parse), as a LabelSelector."""

from __future__ import annotations

import re

from ..api.selectors import LabelSelector, Requirement

_SET = re.compile(r"^\s*(?P<key>[^\s!=(),]+)\s+(?P<op>in|notin)\s*\((?P<values>[^()]*)\)\s*$")
_EQ = re.compile(r"^\s*(?P<key>[^\s!=(),]+)\s*(?P<op>==|=|!=)\s*(?P<value>[^\s!=(),]*)\s*$")
_EXISTS = re.compile(r"^\s*(?P<neg>!?)\s*(?P<key>[^\s!=(),]+)\s*$")


def _split(text: str) -> list[str]:
    """Requirements are separated by commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _requirement(part: str) -> Requirement:
    if match := _SET.match(part):
        values = tuple(sorted(v.strip() for v in match["values"].split(",") if v.strip()))
        op = "In" if match["op"] == "in" else "NotIn"
        return Requirement(match["key"], op, values)
    if match := _EQ.match(part):
        op = "NotIn" if match["op"] == "!=" else "In"
        return Requirement(match["key"], op, (match["value"],))
    if match := _EXISTS.match(part):
        return Requirement(match["key"], "DoesNotExist" if match["neg"] else "Exists")
    raise ValueError(f'unable to parse requirement "{part.strip()}"')


def parse_selector(text: str) -> LabelSelector:
    """``app=web,tier in (a,b),!canary``; raises ValueError with kubectl's kind of message."""
    if not text.strip():
        raise ValueError("empty selector")
    return LabelSelector(tuple(_requirement(p) for p in _split(text)))
