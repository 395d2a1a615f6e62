"""The optional compiled build: with ``CARDAVIA_COMPILE=1`` mypyc compiles the hot pure modules of
the engines and the view diff (``COMPILED``) into C extension modules; without it this file adds
nothing and the package builds as pure Python, exactly as pyproject.toml describes it.

    CARDAVIA_COMPILE=1 python -m pip wheel --no-deps -w dist .

The wheel holds each compiled module beside its source (an extension module is imported first)
and mypyc's shared runtime as ``cardavia._compiled__mypyc``; scripts/test-compiled builds it and
runs the engines' tests against it.

Everything else about the package (metadata, packages, data files) stays in pyproject.toml.
mypyc ships with mypy; a build without one asks the build frontend for it (``setup_requires``
is how setuptools passes a build requirement that depends on the environment), so the default
isolated build works. The compiled build needs a C compiler and the Python headers.

A compiled build is always a wheel (or a non-editable install): an editable install would put
the extension modules beside the sources, where every later run from the checkout would import
them in place of the pure modules.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup

COMPILED = [
    "cardavia.games.chance",  # the shuffles every deal draws
    "cardavia.games.tricks",  # who takes a trick, and its points (Briscola, Schnapsen)
    "cardavia.games.doudizhu_moves",  # Dou Dizhu's rank-level move generation
    "cardavia.protocol.delta",  # the diff of two views, computed for every action
]
"""The modules compiled, by import name. mypyc names a module by its path, so it compiles each
from the package's link tree under build/ (``build/package/cardavia/games/chance.py``, made by
scripts/package_tree.py from pyproject.toml's mapping), where the path spells the import name.

Left pure: the modules that define actions and states. Their classes are frozen dataclasses
deriving from the engine's abstract ``Action``, ``State`` and ``Game``; mypyc compiles them,
but the compiled module fails on import (``attribute '__dict__' of 'type' objects is not
writable`` where ``@dataclass`` meets an ``ABC`` subclass), and a pure subclass of a compiled
``engine`` class is refused (``interpreted classes cannot inherit from compiled``), so
``engine`` and every game module stay pure together (mypyc/mypyc#1061). ``cards`` makes a card
with ``object.__new__``, which a compiled class refuses, and a compiled class would not keep the
``__setattr__`` that makes cards immutable. Also pure: the error hierarchy, what only
loads data (traditions, rules, records), the registry and the position builders.
"""

MYPY = "mypy>=1.10"
"""mypyc's distribution, as the dev extra asks for it."""

PACKAGE_TREE = os.path.join("scripts", "package_tree.py")
"""What builds the link tree mypyc compiles from (a checkout's, beside this file)."""


def _compiled() -> dict[str, Any]:
    if os.environ.get("CARDAVIA_COMPILE", "") not in ("1", "true", "yes"):
        return {}
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        sys.exit(
            "CARDAVIA_COMPILE=1 builds a wheel: an editable install would put the compiled modules "
            "beside the sources (build one with `CARDAVIA_COMPILE=1 pip wheel --no-deps .`)"
        )
    try:
        from mypyc.build import mypycify
    except ImportError:
        # asked for, the frontend installs it and runs this file again
        return {"setup_requires": [MYPY]}
    tree = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), PACKAGE_TREE))
    base = os.path.relpath(tree["link_tree"]())
    return {
        "ext_modules": mypycify(
            [os.path.join(base, *name.split(".")) + ".py" for name in COMPILED],
            opt_level="3",
            # the shared runtime module goes inside the package, not at the top of site-packages
            group_name="cardavia._compiled",
            target_dir=os.path.join("build", "mypyc"),
        )
    }


if __name__ == "__main__":  # as setuptools runs it; tests/test_compiled_build.py imports it
    setup(**_compiled())
