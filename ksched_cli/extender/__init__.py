"""Scheduler extenders: the HTTP webhooks of kube-scheduler's ``extenders:`` (extender.go)."""
