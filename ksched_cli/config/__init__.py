"""KubeSchedulerConfiguration: load, default, validate (kept apart from the engine)."""
