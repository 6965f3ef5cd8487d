"""Workload controllers: Deployments, StatefulSets, DaemonSets, Jobs... become the pods
their controllers would create (one module per controller, as pkg/controller/<name>)."""

from .reconcile import ReconcileResult, reconcile
from .statefulset import member_keys

__all__ = ["ReconcileResult", "member_keys", "reconcile"]
