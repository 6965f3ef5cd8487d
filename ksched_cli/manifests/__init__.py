"""Manifest files in, admitted cluster objects out (the API server's part)."""

from .loader import LoadResult, read_cluster

__all__ = ["LoadResult", "read_cluster"]
