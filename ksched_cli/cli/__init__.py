"""The command-line layer: parses options, calls the library, renders, sets the exit code."""

from .dataclass_cache import install

install()  # before any ksched module defines a dataclass (see dataclass_cache.py)
