"""AzureDiskLimits: the in-tree Azure Disk attach limit (nodevolumelimits/non_csi.go, v1.30)."""

from __future__ import annotations

from ...framework.interface import Handle
from .non_csi import AZURE_DISK, NonCSILimits

NAME = "AzureDiskLimits"


class Plugin(NonCSILimits):
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        super().__init__(AZURE_DISK, handle)
