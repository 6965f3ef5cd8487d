"""Load a KubeSchedulerConfiguration: read, schema-check, default, validate, expand.

Public entry points: ``load_config`` (first error raises), ``check_config``
(every problem, for ``ksched validate``) and ``default_config``.

The built-in profiles are ours and fixed: tests prove they are schema-clean and read
the same with PyYAML as with ruamel.yaml, so a run reads them with PyYAML's C loader
and skips the JSON Schema pass; jsonschema and ruamel.yaml are imported only for
files a user wrote (start-up time).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import blockyaml
from ..errors import KschedError, Location
from ..gotyping import go_key
from ..record import record
from ..versions.features import V130, Features
from ..yamlcore import Unsupported
from ..yamlio import read_text
from . import placement
from .args_codec import decode_args
from .builtin import builtin_names, builtin_path
from .catalog import plugins_with_args
from .defaults import set_defaults
from .effective import effective_object
from .expand import BuiltProfile, build_profile, queue_sort_consistency
from .extenders import typed_extender
from .model import API_VERSION, KIND, ConfigV1, ProfileV1, decode
from .problems import ERROR, WARNING, Problem, child, plain
from .types import Profile, SchedulerConfig
from .validation import validate
from .validation_args import (
    INIT_VALIDATORS,
    validate_coscheduling_v032,
    validate_node_resources_fit,
)

if TYPE_CHECKING:
    from .schema import SchemaIssue

DEFAULT_SOURCE = "<default>"
DEFAULT_PROFILE = "default"


@record(frozen=True)
class Finding:
    """A located problem; warnings do not make a configuration invalid."""

    error: KschedError
    severity: str = ERROR

    def render(self) -> str:
        text = self.error.render()
        if self.severity != WARNING:
            return text
        if text.startswith("error: "):  # no location
            return "warning: " + text.removeprefix("error: ")
        return text.replace(": error: ", ": warning: ", 1)


@record
class CheckedConfig:
    """A configuration's findings and, when it has no error, its result."""

    source: str
    findings: list[Finding] = field(default_factory=list)
    config: SchedulerConfig | None = None  # None when there is any error
    effective: dict[str, Any] | None = None  # the defaulted v1 object, expanded per point

    @property
    def errors(self) -> list[KschedError]:
        return [f.error for f in self.findings if f.severity == ERROR]

    @property
    def ok(self) -> bool:
        return not self.errors


def resolve(path_or_name: str) -> Path:
    """A file path, or the file of the built-in profile of that name."""
    path = Path(path_or_name)
    if path.exists():
        return path
    builtin = builtin_path(path_or_name)
    if builtin is not None:
        return builtin
    if "/" not in path_or_name and "." not in path_or_name:
        names = ", ".join(builtin_names())
        raise KschedError(
            f"no such file or built-in profile (built-in: {names})", Location(path_or_name)
        )
    raise KschedError("no such file", Location(path_or_name))


def to_plain(node: Any) -> Any:
    """ruamel round-trip nodes -> plain dicts, lists and scalars, as Go's decoder sees them."""
    if isinstance(node, Mapping):
        return {_key(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    return str(node)


def _key(key: Any) -> str:
    """A mapping key as sigs.k8s.io/yaml writes it (a null or uint64 key, which it refuses,
    keeps Python's spelling and is then an unknown field)."""
    try:
        return go_key(key)
    except ValueError:
        return str(key)


def _document(source: str, path: Path) -> Any:
    from ..yamlio import load_positioned
    from .yaml_bounds import check_config_yaml

    text = read_text(path)
    check_config_yaml(source, text)  # before anything expands an alias
    docs = [d for d in load_positioned(path, text) if d is not None]
    if not docs:
        raise KschedError("empty file: expected a KubeSchedulerConfiguration", Location(source))
    if len(docs) > 1:
        line = getattr(getattr(docs[1], "lc", None), "line", None)
        where = Location(
            source, line + 1 if line is not None else None, 1 if line is not None else None
        )
        raise KschedError(
            f"expected one KubeSchedulerConfiguration document, found {len(docs)}", where
        )
    doc = docs[0]
    if not isinstance(doc, Mapping):
        kind = "a list" if isinstance(doc, list) else f"a {type(doc).__name__}"
        raise KschedError(
            f"expected a KubeSchedulerConfiguration mapping, got {kind}", Location(source, 1, 1)
        )
    return doc


def _header_problems(doc: Mapping[str, Any]) -> list[Problem]:
    """apiVersion and kind: anything else than v1 stops here, as Go's decoder would."""
    problems = []
    version, kind = doc.get("apiVersion"), doc.get("kind")
    if version != API_VERSION:
        detail = (
            f'kube-scheduler v1.30 reads "{API_VERSION}" only; '
            "convert older versions (v1beta2, v1beta3) to v1"
        )
        if version is None:
            problems.append(plain("apiVersion", f"Required value: {detail}"))
        else:
            problems.append(plain("apiVersion", f'Unsupported value: "{version}": {detail}'))
    if kind != KIND:
        shown = "Required value" if kind is None else f'Unsupported value: "{kind}"'
        problems.append(plain("kind", f'{shown}: supported values: "{KIND}"'))
    return problems


def _under(path: str, roots: set[str]) -> bool:
    return any(path == r or path.startswith((f"{r}.", f"{r}[")) for r in roots)


def _merge(issues: list[SchemaIssue], semantic: list[Problem]) -> list[Problem]:
    """Structural schema errors hide what follows from them; semantic wording wins otherwise."""
    structural = {i.problem.field for i in issues if i.structural}
    kept = [
        p for p in semantic if not _under(p.locate, structural) and not _under(p.field, structural)
    ]
    covered = {p.field for p in kept} | {p.locate for p in kept}
    values = [i.problem for i in issues if not i.structural and i.problem.field not in covered]
    return [i.problem for i in issues if i.structural] + values + kept


def _locate(source: str, doc: Any, problem: Problem) -> Finding:
    from ..yamlio import position_of

    pos = position_of(doc, problem.locate) if doc is not None else None
    line, column = pos if pos else (None, None)
    return Finding(
        KschedError(problem.message, Location(source, line, column), problem.field),
        problem.severity,
    )


def _sort_key(finding: Finding) -> tuple[int, int]:
    loc = finding.error.location
    big = 1 << 30
    return (loc.line or big, loc.column or big) if loc else (big, big)


def _init_checks(profile: ProfileV1, built: BuiltProfile) -> list[Problem]:
    """Checks plugins make when they start (only enabled plugins with explicit args)."""
    problems: list[Problem] = []
    for config in profile.plugin_config:
        check = INIT_VALIDATORS.get(config.name)
        if config.name == "Coscheduling" and profile.features.coscheduling_args_validation:
            check = validate_coscheduling_v032  # scheduler-plugins v0.32.7's New
        if config.name == "NodeResourcesFit":
            check = partial(
                validate_node_resources_fit,
                short_shape_message=profile.features.validation_messages_v134,
                ratio_v136=profile.features.fit_ratio_validation_v136,
            )
        if check and config.origin and config.args is not None and config.name in built.needed:
            problems += check(child(config.origin, "args"), config.args)
    return problems


def _typed_profile(profile: ProfileV1, built: BuiltProfile) -> tuple[Profile, list[Problem]]:
    kinds = plugins_with_args(profile.features)
    plugin_args: dict[str, Any] = {}
    problems = []
    for config in profile.plugin_config:
        kind = kinds.get(config.name)
        if kind is None or config.name not in built.needed or config.args is None:
            continue
        args_path = child(config.origin or profile.path, "args")
        typed, problem = decode_args(kind, config.args, args_path)
        if problem is not None:
            problems.append(problem)
        plugin_args[config.name] = typed
    name = profile.scheduler_name or ""
    return Profile(name, built.plugins, plugin_args, profile.percentage_of_nodes_to_score), problems


def _semantic(config: ConfigV1) -> tuple[list[Problem], list[BuiltProfile]]:
    problems, flagged = validate(config)
    built = [build_profile(p) for p in config.profiles]
    for i, (profile, b) in enumerate(zip(config.profiles, built, strict=True)):
        found = b.problems + _init_checks(profile, b) + placement.problems(profile)
        if i in flagged:  # validation already explained this profile's queue sort
            queue_sort = child(profile.path, "plugins", "queueSort")
            found = [p for p in found if p.field != queue_sort]
        problems += found
    return problems + queue_sort_consistency(config.profiles, built, flagged), built


def _scheduler_config(
    source: str, config: ConfigV1, built: list[BuiltProfile]
) -> tuple[SchedulerConfig, list[Problem]]:
    profiles, problems = [], []
    for profile, b in zip(config.profiles, built, strict=True):
        typed, found = _typed_profile(profile, b)
        profiles.append(typed)
        problems += found
    result = SchedulerConfig(
        profiles=profiles,
        percentage_of_nodes_to_score=config.percentage_of_nodes_to_score or 0,
        pod_initial_backoff_seconds=config.pod_initial_backoff_seconds or 1,
        pod_max_backoff_seconds=config.pod_max_backoff_seconds or 10,
        extenders=config.extenders,
        extender_configs=[typed_extender(e) for e in config.extenders],
        source=source,
        features=config.features,
    )
    return result, problems


def check_document(
    source: str, doc: Any, features: Features = V130, schema_clean: bool = False
) -> CheckedConfig:
    """Every problem in one positioned document (ruamel nodes) that claims to be a config.

    ``features`` is the release being configured: its plugins and default profile.
    ``schema_clean`` skips the JSON Schema pass for a document known to pass it.
    """
    result = CheckedConfig(source)
    header = _header_problems(doc)
    if header:
        result.findings = [_locate(source, doc, p) for p in header]
        return result
    plain_doc = to_plain(doc)
    issues: list[SchemaIssue] = []
    if not schema_clean:
        from . import schema

        issues = schema.check(plain_doc)
        if features.placement_plugin_sets:
            issues = placement.accept(plain_doc, issues)
        schema.sanitize(plain_doc, issues)
    config = decode(plain_doc)
    config.features = features
    set_defaults(config)
    semantic, built = _semantic(config)
    problems = _merge(issues, semantic)
    if not any(p.severity == ERROR for p in problems):
        result.config, typed_problems = _scheduler_config(source, config, built)
        problems += typed_problems
        result.effective = effective_object(config, built)
    result.findings = sorted((_locate(source, doc, p) for p in problems), key=_sort_key)
    if not result.ok:
        result.config = result.effective = None
    return result


def check_config(path_or_name: str, features: Features = V130) -> CheckedConfig:
    """Load ``path_or_name`` (a file or a built-in profile name) and report every problem.

    The built-in ``default`` profile writes out the default release's defaults (v1.36);
    for any release it means what it says, that release's configuration when given none,
    so it is not read (tests hold the file equal to the defaults it writes out).
    """
    if path_or_name == DEFAULT_PROFILE and not Path(path_or_name).exists():
        # Nothing but apiVersion and kind: schema-clean by construction (start-up).
        minimal = {"apiVersion": API_VERSION, "kind": KIND}
        return check_document(path_or_name, minimal, features, schema_clean=True)
    builtin = _builtin_document(path_or_name)
    if builtin is not None:
        checked = check_document(path_or_name, builtin, features, schema_clean=True)
        if not checked.findings:
            return checked
        # Not for v1.30 (tests): findings need the positioned reading for their lines.
    try:
        path = resolve(path_or_name)
        doc = _document(path_or_name, path)
    except KschedError as exc:
        if exc.location is not None and exc.location.file != path_or_name:
            exc = KschedError(
                exc.message,
                Location(path_or_name, exc.location.line, exc.location.column),
                exc.field,
            )
        return CheckedConfig(path_or_name, [Finding(exc)])
    return check_document(path_or_name, doc, features)


def _builtin_document(path_or_name: str) -> Any:
    """A built-in profile (not shadowed by a file of that name) as plain data, else None."""
    if Path(path_or_name).exists():
        return None
    path = builtin_path(path_or_name)
    if path is None:
        return None
    text = read_text(path)
    try:
        documents = blockyaml.load_all(text, [])
    except Unsupported:
        documents = []
    if len(documents) == 1:
        return documents[0]
    # Not plain block YAML, or not one document: as the standard loader reads it.
    import yaml

    from ..goloader import FAST_LOADER

    return yaml.load(text, Loader=FAST_LOADER)


def load_config(path_or_name: str, features: Features = V130) -> SchedulerConfig:
    """The effective configuration; raises the first error as a KschedError."""
    checked = check_config(path_or_name, features)
    if checked.errors or checked.config is None:
        raise checked.errors[0]
    return checked.config


def default_config(features: Features = V130) -> SchedulerConfig:
    """kube-scheduler's configuration when given none (one default-scheduler profile)."""
    checked = check_document(DEFAULT_SOURCE, {"apiVersion": API_VERSION, "kind": KIND}, features)
    assert checked.config is not None  # the defaults are valid by construction
    return checked.config
