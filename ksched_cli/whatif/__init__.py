"""What-if operations on a loaded cluster: drain, remove or add nodes, scale workloads,
count how many more copies fit, and replay timed scenarios (docs/whatif.md)."""
