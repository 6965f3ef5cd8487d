"""kube-scheduler releases ksched replays, and the behaviour switches that tell them apart."""
