"""Misbehaving extenders on loopback: every bad reply is the error kube-scheduler would
report (Go's wording), every call ends by httpTimeout, nothing reads without bound."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ksched_cli.engine import records as rec
from ksched_cli.extender import httpcall

from ..manifests.helpers import pod
from .helpers import config_text, extender, outcome, plan, three_nodes
from .rawserver import raw_server, read_request, reply

FILTER = {"filterVerb": "filter", "nodeCacheCapable": True, "httpTimeout": "500ms"}


def _answer(body: bytes, status: str = "200 OK", headers: str = "") -> Any:
    def script(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(reply(status, body, headers))

    return script


def _filter_plan(tmp_path: Path, url: str, pods: str = "", **fields: Any) -> rec.Plan:
    cfg = config_text(extender(url, **{**FILTER, **fields}))
    return plan(tmp_path, cfg, three_nodes(tmp_path, pods))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[]", "json: cannot unmarshal array into Go value of type v1.ExtenderFilterResult"),
        (
            b'{"NodeNames": "a"}',
            "json: cannot unmarshal string into Go struct field "
            "ExtenderFilterResult.NodeNames of type []string",
        ),
        (
            b'{"Error": {"why": "busy"}}',
            "json: cannot unmarshal object into Go struct field "
            "ExtenderFilterResult.Error of type string",
        ),
        (
            b'{"FailedNodes": {"a": 1}}',
            "json: cannot unmarshal number into Go struct field "
            "ExtenderFilterResult.FailedNodes of type string",
        ),
        (
            b'{"Nodes": {"items": [7]}}',
            "json: cannot unmarshal number into Go struct field "
            "NodeList.Nodes.items of type v1.Node",
        ),
        (b'{"Error": "disk 100% full"}', "disk 100%!f(MISSING)ull"),  # fmt.Errorf(result.Error)
        (b'{"NodeNames": ["a"', "unexpected EOF"),
        (b"", "EOF"),
        (b"nope", "invalid character 'o' in literal null (expecting 'u')"),
        (b'{"NodeNames": ["a"]} trailing', ""),  # Go's Decoder stops after the value
    ],
)
def test_malformed_filter_replies(tmp_path: Path, body: bytes, message: str) -> None:
    with raw_server(_answer(body)) as url:
        result = _filter_plan(tmp_path, url)
    if message:
        assert outcome(result) == (rec.SCHEDULER_ERROR, "", message)
    else:
        assert outcome(result)[:2] == (rec.SCHEDULED, "a")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b'[{"Host": "a", "Score": "10"}]',
            "json: cannot unmarshal string into Go struct field HostPriority.Score of type int64",
        ),
        (
            b'[{"Host": "a", "Score": 2.5}]',
            "json: cannot unmarshal number 2.5 into Go struct field HostPriority.Score of type "
            "int64",
        ),
        (b'["a"]', "json: cannot unmarshal string into Go value of type v1.HostPriority"),
        (b'{"a": 1}', "json: cannot unmarshal object into Go value of type v1.HostPriorityList"),
    ],
)
def test_malformed_prioritize_replies_give_no_score(
    tmp_path: Path, body: bytes, message: str
) -> None:
    with raw_server(_answer(body)) as url:
        cfg = config_text(extender(url, prioritizeVerb="prioritize", weight=1))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    assert outcome(result)[:2] == (rec.SCHEDULED, "a")
    assert result.warnings == [f"extender {url}: prioritize failed, no score given: {message}"]


def test_connection_closed_mid_body(tmp_path: Path) -> None:
    def cut(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(reply("200 OK", b'{"NodeNames": ["a"', length=100))

    with raw_server(cut) as url:
        failed = _filter_plan(tmp_path / "strict", url)
        skipped = _filter_plan(tmp_path / "ignorable", url, ignorable=True)
    assert outcome(failed) == (rec.SCHEDULER_ERROR, "", "unexpected EOF")
    assert outcome(skipped)[:2] == (rec.SCHEDULED, "a")
    assert skipped.warnings == [
        f"extender {url}: filter failed, skipped as ignorable: unexpected EOF"
    ]


def test_a_complete_value_before_the_cut_is_read_as_go_reads_it(tmp_path: Path) -> None:
    def cut(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(reply("200 OK", b'{"NodeNames": ["b"]}', length=100))

    with raw_server(cut) as url:
        assert outcome(_filter_plan(tmp_path, url))[:2] == (rec.SCHEDULED, "b")


def _drip(head: bytes, stop: threading.Event) -> Any:
    def script(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(head)
        while not stop.wait(0.05):
            conn.sendall(b" ")

    return script


@pytest.mark.parametrize(
    ("head", "message"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", httpcall.READING_BODY),
        (b"HTTP/1.1 200 OK\r\nX-Slow:", 'Post "{url}/filter": ' + httpcall.AWAITING_HEADERS),
    ],
)
def test_a_dripping_server_is_cut_at_http_timeout(
    tmp_path: Path, head: bytes, message: str
) -> None:
    stop = threading.Event()
    with raw_server(_drip(head, stop)) as url:
        started = time.monotonic()
        result = _filter_plan(tmp_path, url)
        elapsed = time.monotonic() - started
        stop.set()
    assert outcome(result) == (rec.SCHEDULER_ERROR, "", message.format(url=url))
    assert elapsed < 2.0  # one 500 ms deadline, then the extender counts as unreachable


def test_an_extender_that_never_answers_costs_one_timeout(tmp_path: Path) -> None:
    connections = []
    stop = threading.Event()

    def silent(conn: socket.socket) -> None:
        connections.append(1)
        read_request(conn)
        stop.wait(5)

    more = "---\n".join(pod(f"web-{i}", "default") for i in range(5))
    with raw_server(silent) as url:
        started = time.monotonic()
        result = _filter_plan(tmp_path, url, pods=more)
        elapsed = time.monotonic() - started
        stop.set()
    expected = f'Post "{url}/filter": {httpcall.AWAITING_HEADERS}'
    assert {d.message for d in result.decisions} == {expected}
    assert len(connections) == 1
    assert elapsed < 2.0


def test_replies_larger_than_the_cap_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(httpcall, "MAX_REPLY_BYTES", 1000)

    def announced(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")

    def streamed(conn: socket.socket) -> None:
        read_request(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + b" " * 5000)

    message = "reply body larger than 1000 bytes (ksched's limit)"
    for name, script in (("announced", announced), ("streamed", streamed)):
        with raw_server(script) as url:
            assert outcome(_filter_plan(tmp_path / name, url)) == (rec.SCHEDULER_ERROR, "", message)


def test_the_cap_is_64_mib() -> None:
    assert httpcall.MAX_REPLY_BYTES == 64 * 1024 * 1024


def test_redirects_are_not_followed(tmp_path: Path) -> None:
    requests: list[bytes] = []

    def redirect(conn: socket.socket) -> None:
        read_request(conn, requests)
        conn.sendall(reply("302 Found", b"", "Location: http://127.0.0.1:9/elsewhere\r\n"))

    with raw_server(redirect) as url:
        result = _filter_plan(tmp_path, url)
    assert outcome(result) == (
        rec.SCHEDULER_ERROR,
        "",
        f"failed filter with extender at URL {url}/filter, code 302 "
        "(redirect to http://127.0.0.1:9/elsewhere not followed)",
    )
    assert set(requests) == {b"POST /filter HTTP/1.1"}  # every attempt, none redirected


def test_connection_refused_in_go_wording(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    assert outcome(_filter_plan(tmp_path, url)) == (
        rec.SCHEDULER_ERROR,
        "",
        f'Post "{url}/filter": dial tcp 127.0.0.1:{port}: connect: connection refused',
    )


@pytest.mark.parametrize(
    ("prefix", "message"),
    [
        ("ftp://e", 'Post "ftp://e/filter": unsupported protocol scheme "ftp"'),
        ("http://", 'Post "http:/filter": http: no Host in request URL'),
        ("http://[::1", 'parse "http://[::1/filter": invalid ipv6 url'),
        (
            "http://127.0.0.1:99999",
            'parse "http://127.0.0.1:99999/filter": port out of range 0-65535',
        ),
        ('"http://a b"', 'parse "http://a b/filter": invalid host name "a b"'),
        ('"http://127.0.0.1:9/\\x01"', ""),  # YAML escape: a control character
    ],
)
def test_urls_go_would_not_call(tmp_path: Path, prefix: str, message: str) -> None:
    result = _filter_plan(tmp_path, prefix)
    state, node, text = outcome(result)
    assert (state, node) == (rec.SCHEDULER_ERROR, "")
    if message:
        assert text == message
    else:
        assert text.endswith(": net/url: invalid control character in URL")


def test_a_path_goes_out_escaped(tmp_path: Path) -> None:
    requests: list[bytes] = []

    def record(conn: socket.socket) -> None:
        read_request(conn, requests)
        conn.sendall(reply("200 OK", b'{"NodeNames": ["a"]}'))

    with raw_server(record) as url:
        outcome(_filter_plan(tmp_path, f'"{url}/my ext"'))
    assert requests[0] == b"POST /my%20ext/filter HTTP/1.1"


def test_a_response_that_is_not_http(tmp_path: Path) -> None:
    with raw_server(lambda conn: (read_request(conn), conn.sendall(b"HELLO\r\n\r\n"))) as url:
        assert outcome(_filter_plan(tmp_path, url)) == (
            rec.SCHEDULER_ERROR,
            "",
            f'Post "{url}/filter": net/http: HTTP/1.x transport connection broken: '
            'malformed HTTP response "HELLO"',
        )
