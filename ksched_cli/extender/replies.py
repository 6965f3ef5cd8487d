"""The reply types of k8s.io/kube-scheduler/extender/v1, as Go decodes them.

The extender API's own types have no json tags, so their keys are Go's field names
(matched case-insensitively). Inside a filter reply's ``Nodes``, ksched reads only each
item's ``metadata.name``; the rest of a v1.Node is taken as it comes.
"""

from __future__ import annotations

import re

from .gotypes import ANY, INT64, STRING, GoType, map_of, slice_of, struct

_OBJECT_META = struct("v1.ObjectMeta", ("name", STRING), ("namespace", STRING), ("uid", STRING))
_NODE = struct(
    "v1.Node",
    ("kind", STRING),
    ("apiVersion", STRING),
    ("metadata", _OBJECT_META),
    ("spec", ANY),
    ("status", ANY),
)
_NODE_LIST = struct(
    "v1.NodeList",
    ("kind", STRING),
    ("apiVersion", STRING),
    ("metadata", ANY),
    ("items", slice_of(_NODE)),
    pointer=True,
)
_FAILED_NODES = map_of(STRING, "v1.FailedNodesMap")

FILTER_RESULT = struct(
    "v1.ExtenderFilterResult",
    ("Nodes", _NODE_LIST),
    ("NodeNames", slice_of(STRING, pointer=True)),
    ("FailedNodes", _FAILED_NODES),
    ("FailedAndUnresolvableNodes", _FAILED_NODES),
    ("Error", STRING),
)
_HOST_PRIORITY = struct("v1.HostPriority", ("Host", STRING), ("Score", INT64))
HOST_PRIORITY_LIST = GoType("v1.HostPriorityList", "slice", _HOST_PRIORITY)
_META_POD = struct("v1.MetaPod", ("UID", STRING), pointer=True)
_META_VICTIMS = struct(
    "v1.MetaVictims", ("Pods", slice_of(_META_POD)), ("NumPDBViolations", INT64), pointer=True
)
PREEMPTION_RESULT = struct(
    "v1.ExtenderPreemptionResult", ("NodeNameToMetaVictims", map_of(_META_VICTIMS))
)
BINDING_RESULT = struct("v1.ExtenderBindingResult", ("Error", STRING))

_VERB = re.compile(r"%[-+# 0]*(\d+|\*)?(\.(\d+|\*)?)?(.?)", re.DOTALL)


def errorf(text: str) -> str:
    """``fmt.Errorf(text)`` with no arguments, as extender.go builds a reply's Error."""

    def verb(match: re.Match[str]) -> str:
        width, precision, letter = match.group(1), match.group(3), match.group(4)
        bad = ("%!(BADWIDTH)" if width == "*" else "") + ("%!(BADPREC)" if precision == "*" else "")
        if not letter:
            return bad + "%!(NOVERB)"
        return bad + ("%" if letter == "%" else f"%!{letter}(MISSING)")

    return _VERB.sub(verb, text)
