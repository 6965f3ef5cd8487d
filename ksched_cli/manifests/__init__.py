"""Manifest files in, admitted cluster objects out (the API server's part)."""

from .loader import LoadResult, load_cluster

__all__ = ["LoadResult", "load_cluster"]
