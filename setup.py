"""Build step: ship the top-level examples/ inside the package (ksched_cli/examples/).

examples/ stays the one source; `ksched examples` reads the copy in an installed wheel
and the checkout's directory in an editable install.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithExamples(build_py):
    def run(self) -> None:
        super().run()
        source = Path(__file__).parent / "examples"
        target = Path(self.build_lib) / "ksched_cli" / "examples"
        if source.is_dir():
            shutil.copytree(
                source, target, dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )


setup(cmdclass={"build_py": BuildWithExamples})
