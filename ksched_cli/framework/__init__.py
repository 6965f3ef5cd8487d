"""The scheduling framework: statuses, cycle state, node info, extension-point protocols."""
