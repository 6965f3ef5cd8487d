"""apimachinery's name checks (qualified names, label values, extended resources), same wording."""

from __future__ import annotations

import re

from .problems import Problem, invalid

_QNAME_CHAR = "[A-Za-z0-9]"
_QNAME_EXT_CHAR = "[-A-Za-z0-9_.]"
QUALIFIED_NAME_FMT = f"({_QNAME_CHAR}{_QNAME_EXT_CHAR}*)?{_QNAME_CHAR}"
_QUALIFIED_NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_QUALIFIED_NAME_RE = re.compile(f"^{QUALIFIED_NAME_FMT}$")
_QUALIFIED_NAME_MAX = 63

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = f"{_DNS1123_LABEL_FMT}(\\.{_DNS1123_LABEL_FMT})*"
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_RE = re.compile(f"^{DNS1123_SUBDOMAIN_FMT}$")
_DNS1123_SUBDOMAIN_MAX = 253

LABEL_VALUE_FMT = f"({QUALIFIED_NAME_FMT})?"
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, "
    "'-', '_' or '.', and must start and end with an alphanumeric character"
)
_LABEL_VALUE_RE = re.compile(f"^{LABEL_VALUE_FMT}$")
_LABEL_VALUE_MAX = 63


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def _max_len(length: int) -> str:
    return f"must be no more than {length} characters"


def dns1123_subdomain_errors(value: str) -> list[str]:
    errs = []
    if len(value) > _DNS1123_SUBDOMAIN_MAX:
        errs.append(_max_len(_DNS1123_SUBDOMAIN_MAX))
    if not _DNS1123_SUBDOMAIN_RE.match(value):
        errs.append(regex_error(_DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def qualified_name_errors(value: str) -> list[str]:
    """validation.IsQualifiedName: ``[prefix/]name`` with a DNS-subdomain prefix."""
    examples = ("MyName", "my.name", "123-abc")
    parts = value.split("/")
    errs: list[str] = []
    if len(parts) > 2:
        return [
            "a qualified name "
            + regex_error(_QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, *examples)
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + m for m in dns1123_subdomain_errors(prefix))
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > _QUALIFIED_NAME_MAX:
        errs.append("name part " + _max_len(_QUALIFIED_NAME_MAX))
    if not _QUALIFIED_NAME_RE.match(name):
        errs.append("name part " + regex_error(_QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, *examples))
    return errs


def label_value_errors(value: str) -> list[str]:
    errs = []
    if len(value) > _LABEL_VALUE_MAX:
        errs.append(_max_len(_LABEL_VALUE_MAX))
    if not _LABEL_VALUE_RE.match(value):
        errs.append(regex_error(_LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def validate_label_name(name: str, field: str) -> list[Problem]:
    """metav1validation.ValidateLabelName: one problem per broken rule."""
    return [invalid(field, name, msg) for msg in qualified_name_errors(name)]


def is_native_resource(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def is_extended_resource_name(name: str) -> bool:
    if is_native_resource(name) or name.startswith("requests."):
        return False
    return not qualified_name_errors(f"requests.{name}")
