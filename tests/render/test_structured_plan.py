"""``-o json|yaml`` spooled while the plan runs: the same bytes as one dump of the whole
document, no attempt kept by the plan, and no spool left behind whatever happens."""

from __future__ import annotations

import errno
import io
import json
import os
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from ksched_cli.cli.plan_cmd import plan as plan_command
from ksched_cli.config.load import load_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.engine.records import WAITING, Attempt, Plan
from ksched_cli.errors import KschedError
from ksched_cli.render.document import plan_document
from ksched_cli.render.selection import restrict
from ksched_cli.render.structured_plan import StructuredPlanWriter
from tests.cli.helpers import REPO
from tests.engine.test_equivalence import _cluster, _crowded_cluster
from tests.pipes import closed_after_one_line

CASES = Path(__file__).parents[1] / "conformance" / "cases"
RANDOM_PROFILE = CASES / "rand-0040" / "profile.yaml"


def _dump(doc: dict[str, Any], output: str, pure: bool) -> str:
    if output == "json":
        return json.dumps(doc, indent=2) + "\n"
    if pure:
        return yaml.safe_dump(doc, sort_keys=False)
    # The same bytes as safe_dump (the random plans check it), five times faster.
    dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(doc, Dumper=dumper, sort_keys=False)


FORMS = [("json", True), ("yaml", True), ("json", False), ("yaml", False)]
EXTRA = {"whatif": {"operations": ["drain node-a"]}}


def _spooled(
    make: Callable[[], Engine], shown: set[str] | None = None
) -> dict[tuple[str, bool], str]:
    """The document in every form as ``ksched plan -o OUTPUT [--explain]`` writes it, from
    one run whose attempts are spooled as they come (each writer sees every cycle)."""
    engine = make()
    writers = {form: StructuredPlanWriter(*form, shown) for form in FORMS}
    with ExitStack() as stack:
        for writer in writers.values():
            stack.enter_context(writer)

        def hook(attempts: list[Attempt]) -> None:
            for writer in writers.values():
                writer.on_attempts(attempts)

        engine.options.on_attempts = hook
        plan = engine.run()
        assert plan.attempts == []  # the engine handed every attempt over
        plan.warnings.append("a warning, to place the last key")
        texts = {}
        for form, writer in writers.items():
            out = io.StringIO()
            writer.finish(plan, out, EXTRA)
            texts[form] = out.getvalue()
    return texts


def _expected(
    make: Callable[[], Engine], shown: set[str] | None = None, pure: bool = False
) -> dict[tuple[str, bool], str]:
    """One dump of the whole document per form, from a plan that kept every attempt."""
    plan = restrict(make().run(), shown)
    plan.warnings.append("a warning, to place the last key")
    texts = {}
    for output, explain in FORMS:
        doc = plan_document(plan, explain)
        # The what-if report sits after the plan's own keys, before attempts.
        keys = list(doc)
        at = keys.index("pods") + 1
        ordered = {k: doc[k] for k in keys[:at]} | EXTRA | {k: doc[k] for k in keys[at:]}
        texts[output, explain] = _dump(ordered, output, pure)
    return texts


def _case_engine(case: str) -> Callable[[], Engine]:
    def make() -> Engine:
        from ksched_cli.whatif.inputs import load_cluster

        config = load_config(str(CASES / case / "profile.yaml"))
        cluster = load_cluster([str(CASES / case / "cluster.yaml")]).cluster
        return Engine(config, cluster, EngineOptions(record="weighted"))

    return make


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_conformance_plans_spool_to_the_same_bytes(case: str) -> None:
    make = _case_engine(case)
    assert _spooled(make) == _expected(make)


def _random_engine(build: Callable[[int], Cluster], seed: int) -> Callable[[], Engine]:
    return lambda: Engine(load_config(str(RANDOM_PROFILE)), build(seed), EngineOptions())


@pytest.mark.parametrize("build", [_cluster, _crowded_cluster])
def test_random_plans_spool_to_the_same_bytes(build: Any) -> None:
    make = _random_engine(build, 3)
    assert _spooled(make) == _expected(make, pure=True)


def test_only_the_shown_pods_are_spooled() -> None:
    make = _random_engine(_crowded_cluster, 5)
    pods = sorted({a.pod for a in make().run().attempts})
    shown = set(pods[::3])
    texts = _spooled(make, shown)
    assert texts == _expected(make, shown)
    text = texts["json", True]
    assert {a["pod"] for a in json.loads(text)["attempts"]} <= shown


def test_waiting_attempts_are_written_in_their_place_with_their_permit_lines() -> None:
    make = _case_engine("gang-fit-01")
    attempts = make().run().attempts
    assert any(a.result == WAITING for a in attempts)  # the case exercises the held path
    texts = _spooled(make)
    assert texts == _expected(make)
    waiting = [a for a in json.loads(texts["json", True])["attempts"] if a["result"] == WAITING]
    assert all(len(a["detail"]["permit"]) >= 2 for a in waiting)  # began, then ended


def test_without_explain_nothing_is_kept_or_spooled() -> None:
    engine = _random_engine(_cluster, 1)()
    with StructuredPlanWriter("json", explain=False) as writer:
        assert writer.spool_dir is None
        engine.options.on_attempts = writer.on_attempts
        assert engine.run().attempts == []
        assert writer.spooled_chars == 0


def test_the_spool_is_private_and_removed_on_error() -> None:
    attempt = Attempt(pod="default/a", time=0.0, result="Scheduled", node="n1")
    with pytest.raises(RuntimeError), StructuredPlanWriter("yaml", explain=True) as writer:
        spool = writer.spool_dir
        assert spool is not None and os.path.isdir(spool)
        assert os.stat(spool).st_mode & 0o077 == 0  # only its owner can read it
        writer.on_attempts([attempt])
        assert os.listdir(spool) == ["attempts"]
        raise RuntimeError("the plan failed")
    assert spool is not None and not os.path.exists(spool)
    assert writer.spool_dir is None


def test_a_failed_plan_leaves_no_spool(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    seen: list[int] = []

    def failing_run(self: Engine) -> Plan:
        self.start()
        self.run_until()
        seen.append(len(os.listdir(tmp_path)))
        raise KschedError("extender unreachable")

    monkeypatch.setattr(Engine, "run", failing_run)
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(plan_command, ["examples/basic", "-o", "json", "--explain"])
    assert result.exit_code == 1 and "extender unreachable" in result.stderr
    assert seen == [1]  # the spool existed while the plan ran
    assert os.listdir(tmp_path) == []


def test_a_closed_pipe_leaves_no_spool(tmp_path: Path) -> None:
    from ksched_cli.cli.main import EXIT_BROKEN_PIPE
    from tests.generated import node, pod, write

    cluster = write(
        tmp_path / "cluster.yaml",
        [node(i) for i in range(40)] + [pod(f"p-{i:04d}", "10m") for i in range(300)],
    )
    spools = tmp_path / "tmp"
    spools.mkdir()
    argv = ["plan", cluster, "-o", "yaml", "--explain"]
    code, stderr = closed_after_one_line(argv, {"TMPDIR": str(spools)})
    assert (code, stderr) == (EXIT_BROKEN_PIPE, b"")
    assert list(spools.iterdir()) == []


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    attempt = Attempt(pod="default/a", time=0.0, result="Scheduled", node="n1")
    with StructuredPlanWriter("json", explain=True) as writer:
        assert writer._spool is not None
        writer._spool.close()
        writer._spool = _FullDisk()
        with pytest.raises(KschedError, match="No space left on device; set TMPDIR"):
            writer.on_attempts([attempt])

    def no_room(prefix: str) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("ksched_cli.render.structured_plan.tempfile.mkdtemp", no_room)
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(plan_command, ["examples/basic", "-o", "yaml", "--explain"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("error: --explain: cannot spool the attempts under ")
    assert result.stderr.count("\n") == 1
    # Without --explain nothing is spooled, so nothing can fail.
    result = CliRunner().invoke(plan_command, ["examples/basic", "-o", "yaml"])
    assert result.exit_code == 0
