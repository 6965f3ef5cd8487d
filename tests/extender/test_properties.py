"""Property-based: any extender reply and any stub file ends cleanly.

Replies (generated in the extender API's shape, mutated, cut or garbled) decode into a
result or into an ExtenderError worded as Go's decoder; nothing else escapes. Stub files
of any shape give exit 0, 1 or 2, and on 1 one error line naming the stub file.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.api.pod import Pod
from ksched_cli.config.types import Extender
from ksched_cli.extender.client import HTTPExtender, Victims
from ksched_cli.extender.gojson import GoJSONError, decode
from ksched_cli.extender.transport import ExtenderError, HTTPTransport
from ksched_cli.framework.nodeinfo import NodeInfo

from ..properties import JSON_VALUES, assert_clean_exit, bounded, mutate, run_cli, within
from .rawserver import raw_server, read_request, reply

_KEYS = [
    "NodeNames",
    "nodenames",
    "Nodes",
    "FailedNodes",
    "FailedAndUnresolvableNodes",
    "Error",
    "Host",
    "Score",
    "NodeNameToMetaVictims",
    "Pods",
    "UID",
    "NumPDBViolations",
    "items",
    "metadata",
    "name",
]
_NAMES = st.sampled_from(["a", "b", "zz", ""])
_SHAPED = st.recursive(
    st.one_of(_NAMES, st.integers(-3, 12), st.none(), st.booleans(), st.floats(allow_nan=False)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4)
    ),
    max_leaves=10,
)
REPLIES = st.one_of(_SHAPED, JSON_VALUES)
_GO_SYNTAX = re.compile(
    r"^(EOF|unexpected EOF|invalid character '.+' [a-z\\ :'()-]+|exceeded max depth .+)$"
)


def _body(value: Any, data: st.DataObject) -> bytes:
    text = json.dumps(value)
    how = data.draw(st.sampled_from(["as is", "cut", "mutated"]))
    if how == "cut":
        text = text[: data.draw(st.integers(min_value=0, max_value=len(text)))]
    elif how == "mutated":
        text = mutate(text, data)
    return text.encode()


class _Replies:
    """A transport answering every call with the next body (as decoded JSON)."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    def prepare(self, ext: Extender) -> None:
        pass

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        try:
            return decode(self.body)
        except GoJSONError as err:
            raise ExtenderError(str(err)) from None


def _exercise(ext: HTTPExtender, pod: Pod, nodes: list[NodeInfo]) -> None:
    calls = [
        lambda: ext.filter(pod, nodes),
        lambda: ext.prioritize(pod, nodes),
        lambda: ext.process_preemption(pod, {"a": Victims([], 0)}, {n.name: n for n in nodes}),
        lambda: ext.bind(pod, "a"),
    ]
    for call in calls:
        try:
            call()
        except ExtenderError as err:
            assert str(err) or err.args == ("",), "an empty error"


@pytest.fixture(scope="module")
def cluster_bits() -> tuple[Pod, list[NodeInfo]]:
    from ksched_cli.whatif.inputs import load_cluster

    loaded = load_cluster(["examples/extender/cluster.yaml"])
    nodes = [NodeInfo(node) for node in loaded.cluster.nodes[:2]]
    pending = [p for p in loaded.cluster.pods if not p.node_name]
    return pending[0], nodes


@bounded(200)
@given(value=REPLIES, data=st.data())
def test_any_reply_is_a_result_or_an_extender_error(
    cluster_bits: tuple[Pod, list[NodeInfo]], value: Any, data: st.DataObject
) -> None:
    config = Extender(
        "http://e",
        filter_verb="f",
        prioritize_verb="p",
        preempt_verb="x",
        bind_verb="b",
        weight=1,
        node_cache_capable=data.draw(st.booleans()),
    )
    _exercise(HTTPExtender(config, _Replies(_body(value, data))), *cluster_bits)


@bounded(300)
@given(data=st.binary(max_size=64) | st.text(max_size=40).map(str.encode))
def test_any_bytes_decode_or_fail_in_go_words(data: bytes) -> None:
    try:
        decode(data)
    except GoJSONError as err:
        assert _GO_SYNTAX.match(str(err)), str(err)


@bounded(100)
@given(value=JSON_VALUES)
def test_valid_json_decodes_to_the_same_value(value: Any) -> None:
    assert decode(json.dumps(value).encode()) == value


@bounded(25)
@given(value=REPLIES, data=st.data())
def test_replies_over_loopback(
    cluster_bits: tuple[Pod, list[NodeInfo]], value: Any, data: st.DataObject
) -> None:
    body = _body(value, data)
    announced = len(body) + data.draw(st.sampled_from([0, 0, 7]))  # sometimes cut short
    stop = threading.Event()

    def script(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(reply("200 OK", body, length=announced))
        stop.wait(0.01)

    with raw_server(script) as url, within(5):
        config = Extender(url, filter_verb="f", prioritize_verb="p", http_timeout_seconds=0.5)
        ext = HTTPExtender(config, HTTPTransport())
        pod, nodes = cluster_bits
        for call in (lambda: ext.filter(pod, nodes), lambda: ext.prioritize(pod, nodes)):
            with contextlib.suppress(ExtenderError):
                call()
        stop.set()


_RECORDED = json.loads(Path("examples/extender/stub.json").read_text())
_RECORDED_CALLS = st.sampled_from(
    [(key, entry["request"]) for key, entries in _RECORDED.items() for entry in entries]
)
_ENTRY = st.fixed_dictionaries(
    {},
    optional={"response": REPLIES, "error": st.one_of(st.text(max_size=10), JSON_VALUES)},
)
_STUBS = st.one_of(
    JSON_VALUES,
    st.lists(st.tuples(_RECORDED_CALLS, _ENTRY), max_size=4).map(lambda pairs: _stub_of(pairs)),
)


def _stub_of(pairs: list[tuple[tuple[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    stub: dict[str, Any] = {}
    for (key, request), entry in pairs:
        stub.setdefault(key, []).append({"request": request, **entry})
    return stub


@bounded(30)
@given(stub=_STUBS, data=st.data())
def test_any_stub_file(tmp_path_factory: Any, stub: Any, data: st.DataObject) -> None:
    path = tmp_path_factory.mktemp("stub") / "stub.json"
    text = json.dumps(stub, indent=1)
    if data.draw(st.booleans()):
        text = mutate(text, data)
    path.write_text(text, encoding="utf-8")
    ex = "examples/extender/"
    with within(5):
        result = run_cli(
            "plan",
            ex + "cluster.yaml",
            "--config",
            ex + "config.yaml",
            "--extender-mode",
            f"stub={path}",
        )
    assert_clean_exit(result, (0, 1, 2), str(path))


_VALID_RESPONSE = (
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n"
    'Connection: close\r\n\r\n{"NodeNames": ["a"]}'
)


@bounded(40)
@given(data=st.data())
def test_any_http_response_is_one_line(data: st.DataObject) -> None:
    raw = mutate(_VALID_RESPONSE, data).encode()

    def script(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(raw)

    with raw_server(script) as url, within(5):
        config = Extender(url, filter_verb="f", http_timeout_seconds=0.5)
        try:
            HTTPTransport().post(config, "f", f"{url}/f", {})
        except ExtenderError as err:
            assert "\n" not in str(err) and str(err), repr(str(err))
