"""ksched_cli keeps its layers: no import cycle, no import against the layers, no patched
standard library (tests/structure.py reads the imports; docs/ARCHITECTURE.md, Layers).

Each rule is also run on a small synthetic package with one planted violation, so a
checker that stopped seeing violations would fail here too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from . import structure
from .structure import LAZY, RUNTIME, TYPING, Import

ROOT = Path(__file__).resolve().parents[1] / "ksched_cli"

# A three-layer package: low < mid < high.
LAYERS = (("", "low"), ("mid",), ("high",))


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for directory in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        (directory / "__init__.py").touch()
    return root


def _runtime_and_lazy(found: list[Import]) -> list[Import]:
    """Everything executed: function-level imports count as if at module level."""
    return [Import(i.source, i.target, i.line, RUNTIME) for i in found if i.kind != TYPING]


# --- ksched_cli itself -------------------------------------------------------------------


def test_every_module_is_in_a_layer() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    for module in structure.modules(ROOT):
        structure.layer_of(module, packages)  # raises for a package in no layer


def test_no_runtime_import_cycle() -> None:
    assert structure.cycles(structure.imports(ROOT)) == []


def test_no_cycle_even_through_function_level_imports() -> None:
    # Stricter than the rule: a lazy import that closes a cycle still ties two modules
    # together (extender/tls <-> transport and whatif/reconcile <->
    # controllers_reconciler were such pairs).
    assert structure.cycles(_runtime_and_lazy(structure.imports(ROOT))) == []


def test_no_import_against_the_layers() -> None:
    assert structure.against_layers(ROOT, structure.imports(ROOT)) == []


def test_no_standard_module_is_patched() -> None:
    assert structure.stdlib_patches(ROOT) == []


# --- the checker, on planted violations ---------------------------------------------------


def test_kinds_of_import(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "low/a.py": """
            from typing import TYPE_CHECKING
            from . import b
            from .c import thing
            import pkg.low.d
            if TYPE_CHECKING:
                from ..mid import m
            else:
                from . import e
            try:
                from .f import x
            except ImportError:
                pass
            class K:
                from . import g
            def call():
                from ..high.h import y
                import importlib
                importlib.import_module(f"{__package__}.i")
                importlib.import_module("..mid.j", __package__)
            """,
        **{f"low/{n}.py": "" for n in "bcdefgi"},
        "mid/m.py": "", "mid/j.py": "", "high/h.py": "",
    })
    found = {(i.target.removeprefix("pkg."), i.kind) for i in structure.imports(root)}
    assert found == {
        ("low.b", RUNTIME), ("low.c", RUNTIME), ("low.d", RUNTIME), ("mid.m", TYPING),
        ("low.e", RUNTIME), ("low.f", RUNTIME), ("low.g", RUNTIME), ("high.h", LAZY),
        ("low", LAZY),  # an f-string's name: only its constant part is known
        ("mid.j", LAZY),
    }


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"low/a.py": "from . import b\n", "low/b.py": "from . import a\n"},
         [["pkg.low.a", "pkg.low.b"]]),
        ({"low/a.py": "from .b import x\n", "low/b.py": "from .c import y\n",
          "low/c.py": "from .a import z\n"}, [["pkg.low.a", "pkg.low.b", "pkg.low.c"]]),
        # Function-level and TYPE_CHECKING imports make no runtime cycle.
        ({"low/a.py": "from . import b\n", "low/b.py": "def f():\n    from . import a\n"}, []),
        ({"low/a.py": "from . import b\n",
          "low/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"},
         []),
    ],
)
def test_runtime_cycles_found(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    assert structure.cycles(structure.imports(_package(tmp_path, files))) == expected


def test_a_lazy_import_closing_a_cycle_is_found_by_the_stricter_check(tmp_path: Path) -> None:
    root = _package(tmp_path, {"low/a.py": "from . import b\n",
                               "low/b.py": "def f():\n    from . import a\n"})
    found = _runtime_and_lazy(structure.imports(root))
    assert structure.cycles(found) == [["pkg.low.a", "pkg.low.b"]]


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("from ..high import h\n", RUNTIME),
        ("def f():\n    from ..high.h import x\n", LAZY),
        ("import typing\nif typing.TYPE_CHECKING:\n    from ..high.h import X\n", TYPING),
        ("import importlib\nimportlib.import_module('pkg.high.h')\n", LAZY),
    ],
)
def test_imports_against_the_layers_found(tmp_path: Path, source: str, kind: str) -> None:
    root = _package(tmp_path, {"mid/m.py": source, "high/h.py": "from ..mid import m\n"})
    against = structure.against_layers(root, structure.imports(root), LAYERS)
    assert [(i.source, i.target, i.kind) for i in against] == [("pkg.mid.m", "pkg.high.h", kind)]


def test_root_modules_are_the_lowest_layer(tmp_path: Path) -> None:
    root = _package(
        tmp_path, {"errors.py": "from .mid import m\n", "mid/m.py": "from .. import errors\n"}
    )
    against = structure.against_layers(root, structure.imports(root), LAYERS)
    assert [(i.source, i.target) for i in against] == [("pkg.errors", "pkg.mid.m")]


@pytest.mark.parametrize(
    "source",
    [
        "import dataclasses\ndataclasses.exec = print\n",
        "import dataclasses\nsetattr(dataclasses, 'exec', print)\n",
        "import dataclasses as dc\ndef install():\n    dc.exec = print\n",
        "import json.decoder\njson.decoder.scanstring = None\n",
        "from os import path\npath.sep = '/'\n",
        "import ssl\nssl.SSLContext.verify_mode = None\n",
        "import re\ndel re.compile\n",
        "import builtins\nbuiltins.__dict__['exec'] = print\n",
        "import sys\nsys.stdout, x = None, 1\n",
    ],
)
def test_patches_of_the_standard_library_found(tmp_path: Path, source: str) -> None:
    root = _package(tmp_path, {"low/a.py": source})
    assert [p.module for p in structure.stdlib_patches(root)] == ["pkg.low.a"]


@pytest.mark.parametrize(
    "source",
    [
        "import os\nos.environ['X'] = '1'\nos.environ.setdefault('Y', '2')\n",
        "import yaml\nyaml.SafeLoader.x = 1\n",  # not the standard library
        "from dataclasses import dataclass\nclass C:\n    pass\nC.x = 1\n",
        "import gc\ngc.freeze()\n",
    ],
)
def test_other_assignments_are_not_patches(tmp_path: Path, source: str) -> None:
    assert structure.stdlib_patches(_package(tmp_path, {"low/a.py": source})) == []
