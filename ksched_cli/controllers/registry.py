"""The controllers ksched runs, in the order reconcile syncs them: owners before the
objects they create (a Deployment before ReplicaSets, a CronJob before Jobs)."""

from __future__ import annotations

from collections.abc import Mapping

from .cronjob import CronJobController
from .daemonset import DaemonSetController
from .deployment import DeploymentController
from .interface import Controller
from .job import JobController
from .replicaset import ReplicaSetController
from .replicationcontroller import ReplicationControllerController
from .statefulset import StatefulSetController

CONTROLLERS: Mapping[str, Controller] = {
    c.kind: c
    for c in (
        DeploymentController(),
        ReplicaSetController(),
        ReplicationControllerController(),
        StatefulSetController(),
        DaemonSetController(),
        CronJobController(),
        JobController(),
    )
}
