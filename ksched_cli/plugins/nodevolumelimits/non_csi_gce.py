"""GCEPDLimits: the in-tree GCE PD attach limit (nodevolumelimits/non_csi.go, v1.30)."""

from __future__ import annotations

from ...framework.interface import Handle
from .non_csi import GCE_PD, NonCSILimits

NAME = "GCEPDLimits"


class Plugin(NonCSILimits):
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        super().__init__(GCE_PD, handle)
