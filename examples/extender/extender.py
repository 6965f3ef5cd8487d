"""A tiny scheduler extender (standard library only) for examples/extender.

filter:     nodes labelled rack-state=retiring fail ("rack is being retired").
prioritize: nodes labelled disk=ssd score 10, others 0 (kube-scheduler multiplies by
            the configured weight and by 100/10).

Run:  python3 examples/extender/extender.py [--port 8888]
"""

from __future__ import annotations

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _nodes(args: dict[str, Any]) -> list[dict[str, Any]]:
    # nodeCacheCapable is false in config.yaml, so full Node objects arrive.
    return list((args.get("Nodes") or {}).get("items") or [])


def _labels(node: dict[str, Any]) -> dict[str, str]:
    return dict(node.get("metadata", {}).get("labels") or {})


def filter_nodes(args: dict[str, Any]) -> dict[str, Any]:
    keep, failed = [], {}
    for node in _nodes(args):
        if _labels(node).get("rack-state") == "retiring":
            failed[node["metadata"]["name"]] = "rack is being retired"
        else:
            keep.append(node)
    return {"Nodes": {"items": keep}, "FailedNodes": failed, "Error": ""}


def prioritize(args: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"Host": n["metadata"]["name"], "Score": 10 if _labels(n).get("disk") == "ssd" else 0}
        for n in _nodes(args)
    ]


VERBS = {"filter": filter_nodes, "prioritize": prioritize}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        verb = VERBS.get(self.path.strip("/"))
        if verb is None:
            self.send_error(404)
            return
        args = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        body = json.dumps(verb(args)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8888)
    port = parser.parse_args().port
    print(f"extender listening on http://127.0.0.1:{port}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
