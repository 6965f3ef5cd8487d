"""``ksched validate``: check KubeSchedulerConfiguration files as kube-scheduler v1.30 would."""

from __future__ import annotations

import json
from typing import Any

import click

from ..config.effective import to_yaml
from ..config.load import CheckedConfig, Finding, check_config
from ..errors import printable
from ..versions.releases import Release
from .validate_scan import scan_file
from .version_opts import kubernetes_version_option


def _finding_json(finding: Finding) -> dict[str, Any]:
    loc = finding.error.location
    return {
        "file": loc.file if loc else None,
        "line": loc.line if loc else None,
        "column": loc.column if loc else None,
        "field": finding.error.field,
        "severity": finding.severity,
        "message": finding.error.message,
    }


def _file_json(checked: CheckedConfig, effective: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "file": checked.source,
        "valid": checked.ok,
        "problems": [_finding_json(f) for f in checked.findings],
    }
    if effective:
        out["effective"] = checked.effective
    return out


def _print_text(results: list[CheckedConfig], effective: bool, version: str) -> None:
    # With --print-effective stdout is pure YAML, so everything else goes to stderr.
    first = True
    for checked in results:
        for finding in checked.findings:
            click.echo(finding.render(), err=effective)
        if not checked.ok:
            continue
        if not effective:
            click.echo(f"{checked.source}: valid")
            continue
        if not first:
            click.echo("---")
        click.echo(to_yaml(checked.effective or {}, version), nl=False)
        first = False


@click.command("validate", short_help="Check scheduler configuration files like kube-scheduler.")
@click.argument("files", nargs=-1, required=True, metavar="FILE|PROFILE...")
@click.option(
    "-o",
    "--output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: one line per problem; json: a list of {file, valid, problems[]} for CI tools.",
)
@click.option(
    "--print-effective",
    is_flag=True,
    help="Print the fully defaulted configuration, plugins expanded per extension point.",
)
@click.option(
    "--only-scheduler-configs",
    "only_configs",
    is_flag=True,
    help="Check only documents that are KubeSchedulerConfigurations (also inside a "
    "ConfigMap's data); skip any other document with a note on stderr (the pre-commit hook).",
)
@kubernetes_version_option()
def validate(
    files: tuple[str, ...],
    output: str,
    print_effective: bool,
    only_configs: bool,
    kubernetes_version: Release,
) -> None:
    """Check KubeSchedulerConfiguration files like kube-scheduler (v1.30.6 by default).

    With --kubernetes-version the release's own registry and defaults apply: from
    1.32 the in-tree volume-limit plugins (EBSLimits, ...) do not exist; from 1.36
    the default profile adds DynamicResources and NodeDeclaredFeatures.

    Each FILE is YAML or JSON (kubescheduler.config.k8s.io/v1), or the name of a
    built-in profile (see `ksched profiles`). Every problem is reported, each as

    \b
        FILE:LINE:COL: error: FIELD.PATH: message

    with kube-scheduler's own wording (e.g. `Invalid value: 150: not in valid
    range [0, 100]`). Warnings flag what kube-scheduler accepts but ignores, such
    as args for a plugin that does not exist; they do not fail validation.

    Exit status: 0 when every file is valid, 1 otherwise.

    \b
    JSON output (-o json) is a list with one object per file:
      [{"file": "a.yaml", "valid": false,
        "problems": [{"file": "a.yaml", "line": 7, "column": 11,
                      "field": "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage",
                      "severity": "error", "message": "Invalid value: 150: ..."}]}]
    With --print-effective each object also has "effective" (null when invalid).

    \b
    Examples:
      ksched validate my-scheduler.yaml
      ksched validate configs/*.yaml -o json
      ksched validate --print-effective gang        # built-in profile, defaults filled in
      ksched validate --print-effective my.yaml > effective.yaml
      ksched validate --kubernetes-version 1.36 my-scheduler.yaml
      ksched validate --only-scheduler-configs deploy/*.yaml   # others skipped, with a note
    """
    features = kubernetes_version.features
    if only_configs:
        results = []
        for name in files:
            scan = scan_file(name, features)
            for note in scan.notes:
                click.echo(printable(f"note: {note}"), err=True)
            results += scan.checked
    else:
        results = [check_config(name, features) for name in files]
    if output == "json":
        click.echo(json.dumps([_file_json(r, print_effective) for r in results], indent=2))
    else:
        _print_text(results, print_effective, kubernetes_version.version)
    if not all(r.ok for r in results):
        raise SystemExit(1)
