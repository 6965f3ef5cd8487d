"""Workload controllers: Deployments, StatefulSets, DaemonSets, Jobs... become the pods
their controllers would create (one module per controller, as pkg/controller/<name>)."""

from .reconcile import ReconcileResult, reconcile

__all__ = ["ReconcileResult", "reconcile"]
