"""EBSLimits: the in-tree AWS EBS attach limit (nodevolumelimits/non_csi.go, v1.30)."""

from __future__ import annotations

from ...framework.interface import Handle
from .non_csi import EBS, NonCSILimits

NAME = "EBSLimits"


class Plugin(NonCSILimits):
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        super().__init__(EBS, handle)
