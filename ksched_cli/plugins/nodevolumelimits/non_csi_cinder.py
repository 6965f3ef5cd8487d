"""CinderLimits: the in-tree OpenStack Cinder attach limit (nodevolumelimits/non_csi.go, v1.30)."""

from __future__ import annotations

from ...framework.interface import Handle
from .non_csi import CINDER, NonCSILimits

NAME = "CinderLimits"


class Plugin(NonCSILimits):
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        super().__init__(CINDER, handle)
