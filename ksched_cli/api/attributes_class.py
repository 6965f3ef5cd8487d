"""spec.volumeAttributesClassName of PVs and claims as a release's API server stores it.

Without the VolumeAttributesClass gate (v1.30-v1.33: alpha, then beta off) the API server
drops the field on create (DropDisabledSpecFields / DropDisabledFields) and validates
nothing; with it (GA from v1.34) the name is checked (ValidatePersistentVolumeSpec,
ValidatePersistentVolumeClaimSpec).
"""

from __future__ import annotations

from ..errors import ObjectError, ObjectErrors
from .storage import ATTRIBUTES_CLASS_FIELD, PersistentVolume, PersistentVolumeClaim
from .validation import go_quote, is_dns1123_subdomain

_PATH = f"spec.{ATTRIBUTES_CLASS_FIELD}"


def admit_attributes_class(
    obj: PersistentVolume | PersistentVolumeClaim, enabled: bool
) -> None:
    """Drop the field (gate off) or raise the validation errors of a gated-on release."""
    if not enabled:
        obj.attributes_class = None
        return
    problems = _problems(obj)
    if problems:
        raise ObjectErrors(problems) if len(problems) > 1 else problems[0]


def _problems(obj: PersistentVolume | PersistentVolumeClaim) -> list[ObjectError]:
    name = obj.attributes_class
    if name is None:
        return []
    problems: list[ObjectError] = []
    if name:
        problems.extend(
            ObjectError(_PATH, f"Invalid value: {go_quote(name)}: {msg}")
            for msg in is_dns1123_subdomain(name)
        )
    elif isinstance(obj, PersistentVolume):  # a claim may say "" (no class)
        problems.append(ObjectError(_PATH, "Required value: an empty string is disallowed"))
    if isinstance(obj, PersistentVolume) and obj.source.kind != "csi":
        problems.append(ObjectError(
            "spec.csi", "Required value: has to be specified when using volumeAttributesClassName"
        ))
    return problems
