"""The bundled examples: inside an installed wheel, or the checkout's examples/."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def examples_root() -> Path | None:
    """Where the examples are: the wheel's ``ksched_cli/examples`` (copied there by the
    build, see setup.py) or, in a checkout or editable install, ``examples/`` beside it."""
    for candidate in (_PACKAGE / "examples", _PACKAGE.parent / "examples"):
        if candidate.is_dir():
            return candidate
    return None


def example_names() -> list[str]:
    root = examples_root()
    if root is None:
        return []
    return sorted(p.name for p in root.iterdir() if (p / "README.md").is_file())


def summary(name: str) -> str:
    """The first line of the example's README, without its ``# name:`` prefix."""
    root = examples_root()
    assert root is not None
    first = (root / name / "README.md").read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").removeprefix(f"{name}:").strip()
