"""ksched: an offline planner that reproduces kube-scheduler v1.30 decisions."""

__version__ = "0.1.0"
KUBE_SCHEDULER_VERSION = "v1.30.6"
