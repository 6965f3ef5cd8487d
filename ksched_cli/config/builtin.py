"""Built-in profiles: the YAML files in ``profiles/``, selectable by name (``--config gang``)."""

from __future__ import annotations

from pathlib import Path

from ..record import record

# ksched_cli/profiles is a symlink to the top-level profiles/ in a checkout and a
# real directory in an installed wheel; both resolve from here.
PROFILE_DIR = Path(__file__).resolve().parent.parent / "profiles"
_SCHEMA_MARK = "yaml-language-server:"


@record(frozen=True)
class BuiltinProfile:
    """A built-in profile: its name, file and one-line description."""

    name: str
    path: Path
    description: str


def _description(path: Path) -> str:
    """The first comment line that is not the editor's schema hint."""
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not text.startswith("#"):
            break
        text = text.lstrip("#").strip()
        if text and not text.startswith(_SCHEMA_MARK):
            return text
    return ""


def builtin_profiles() -> list[BuiltinProfile]:
    paths = sorted(PROFILE_DIR.glob("*.yaml"))
    return [BuiltinProfile(p.stem, p, _description(p)) for p in paths]


def builtin_path(name: str) -> Path | None:
    path = PROFILE_DIR / f"{name}.yaml"
    if "/" in name or name.startswith(".") or not path.is_file():
        return None
    return path


def builtin_names() -> list[str]:
    return [p.name for p in builtin_profiles()]
