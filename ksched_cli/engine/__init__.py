"""The one-shot scheduling engine: cluster state, queue, scheduling cycle, preemption."""
