"""The registry of sub-commands, one module each."""

from __future__ import annotations

import click

from .diff_cmd import diff
from .examples_cmd import examples
from .plan_cmd import plan
from .plugins_cmd import plugins
from .profiles_cmd import profiles
from .validate_cmd import validate

ALL: list[click.Command] = []

ALL += [plan, validate, diff, profiles, plugins, examples]
