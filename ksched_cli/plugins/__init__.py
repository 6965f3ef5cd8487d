"""In-tree (and Coscheduling) plugins, one module each; see registry.py."""
