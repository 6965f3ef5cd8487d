"""Renderers: turn a Plan into tables, JSON/YAML documents and explanations."""
