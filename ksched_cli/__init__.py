"""ksched: an offline planner that reproduces kube-scheduler decisions, 1.30 to 1.36."""

__version__ = "0.1.0"
KUBE_SCHEDULER_VERSION = "v1.30.6"
# The release a command replays without --kubernetes-version (versions/releases.py
# DEFAULT_VERSION; a test keeps the two equal). Here for `ksched --version`, at start-up.
DEFAULT_KUBE_SCHEDULER = "v1.36.2"
