"""NumPy, imported with the first use of one of its names.

Importing NumPy is about a third of a short command's start-up, and a plan that never
evaluates anything over node arrays (a one- or two-node cluster runs the per-node
reference, ``engine.engine.ARRAYS_FROM_NODES``; nothing to score on one node) need
not pay for it. Modules write ``from ..lazy_numpy import np`` and use ``np`` as usual:
the first attribute read imports NumPy and copies its names onto ``np``, so later reads
are plain attribute reads. mypy sees NumPy itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["np"]

if TYPE_CHECKING:
    import numpy as np
else:
    import types

    def _load(name: str) -> Any:
        """The first read: NumPy's names (its own ``__getattr__``, which loads submodules,
        among them) become the stand-in's, so later reads cost what a module's do."""
        import numpy

        vars(np).update(vars(numpy))
        return getattr(numpy, name)

    np = types.ModuleType("numpy", "NumPy, imported with the first read of one of its names")
    np.__getattr__ = _load
