"""Kubernetes API objects as the scheduler reads them."""
