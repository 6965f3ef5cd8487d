"""Coscheduling (gang scheduling), ported from scheduler-plugins v0.30."""
