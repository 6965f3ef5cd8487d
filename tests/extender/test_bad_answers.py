"""A non-ignorable extender that answers badly fails the scheduling attempt, as in
kube-scheduler (the pod goes back to the queue with backoff and is retried); ksched
bounds the run: an identical request that failed is not sent again, and after
MAX_BAD_ANSWERS failed answers the extender is not called again (issue 25 item 6)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from ksched_cli.engine import records as rec
from ksched_cli.engine.cycle import MAX_ATTEMPTS
from ksched_cli.extender.transport import MAX_BAD_ANSWERS

from .helpers import config_text, extender, outcome, plan, three_nodes
from .rawserver import raw_server, read_request, reply
from .server import FakeExtender, serving


def _pods(count: int) -> str:
    return "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
        "spec: {containers: [{name: c, image: x}]}\n"
        for i in range(count)
    )


@pytest.mark.parametrize("extra", [0, 3])
def test_each_failed_request_is_sent_once(tmp_path: Path, extra: int) -> None:
    with serving(FakeExtender({"filter": lambda body: {}}, status=500)) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path, _pods(extra)))
    pods = 1 + extra
    # Every pod was retried (kube-scheduler's backoff), but each request went out once.
    assert len(fake.calls) == pods
    for key in ["default/web", *(f"default/p{i}" for i in range(extra))]:
        state, _, message = outcome(result, key)
        assert state == rec.SCHEDULER_ERROR
        assert message == f"failed filter with extender at URL {fake.url}/filter, code 500"
    attempts = [a for a in result.attempts if a.pod == "default/web"]
    assert len(attempts) == MAX_ATTEMPTS  # retried until ksched's per-pod attempt cap


def test_an_extender_is_called_no_more_after_the_cap(tmp_path: Path) -> None:
    pods = MAX_BAD_ANSWERS + 5
    with serving(FakeExtender({"filter": lambda body: {}}, status=500)) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path, _pods(pods - 1)))
    assert len(fake.calls) == MAX_BAD_ANSWERS
    _, _, last = outcome(result, f"default/p{pods - 2}")
    assert last == (
        f"failed filter with extender at URL {fake.url}/filter, code 500 (ksched calls an "
        f"extender no more after {MAX_BAD_ANSWERS} failed answers in one run)"
    )


def test_malformed_json_is_a_failed_answer_sent_once(tmp_path: Path) -> None:
    requests: list[bytes] = []

    def malformed(conn: socket.socket) -> None:
        read_request(conn, requests)
        conn.sendall(reply("200 OK", b'{"NodeNames": ['))

    with raw_server(malformed) as url:
        cfg = config_text(extender(url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path, _pods(2)))
    assert len(requests) == 3
    state, _, message = outcome(result)
    assert state == rec.SCHEDULER_ERROR and message == "unexpected EOF"
