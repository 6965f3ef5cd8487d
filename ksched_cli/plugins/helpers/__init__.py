"""Helpers shared by several plugins (framework/plugins/helper)."""
