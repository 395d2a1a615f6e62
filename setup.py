"""The optional compiled build: with ``CARDAVIA_COMPILE=1`` mypyc compiles the modules on the path
of every action (``COMPILED``: the engine contract, the games, the cards and the view diff) into
C extension modules; without it this file adds nothing and the package builds as pure Python,
exactly as pyproject.toml describes it.

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
    "cardavia.games.cards",  # the cards every engine and view reads
    "cardavia.games.chance",  # the shuffles every deal draws
    "cardavia.games.tricks",  # who takes a trick, and its points (Briscola, Schnapsen)
    "cardavia.games.engine",  # the contract: legal_actions, apply, the deal log
    "cardavia.games.briscola",
    "cardavia.games.scopa",
    "cardavia.games.schnapsen",
    "cardavia.games.schnapsen_rules",  # Schnapsen's actions and following rule
    "cardavia.games.doudizhu",
    "cardavia.games.doudizhu_actions",
    "cardavia.games.doudizhu_moves",  # Dou Dizhu's rank-level move generation
    "cardavia.protocol.delta",  # the diff of two views, computed for every action
]
"""The modules compiled, by import name. mypyc names a module by its path, so it compiles each
from the package's link tree under build/ (``build/package/cardavia/games/chance.py``, made by
scripts/package_tree.py from pyproject.toml's mapping), where the path spells the import name.

The engine and every module that derives from its classes are compiled together: a pure class
may not derive from a compiled one (``interpreted classes cannot inherit from compiled``), so
a new game module joins this list (tests/games/test_compiled_games.py checks). What mypyc
needs of them, kept in the pure source too:

- the contract is plain base classes, not ``ABC``: a frozen dataclass deriving from an ``ABC``
  fails on import (``attribute '__dict__' of 'type' objects is not writable``, mypyc/mypyc#1061);
- ``object.__new__`` only inside a class's own ``__new__`` (cards), and a compiled class's
  ``__new__`` runs its ``__init__``, so states are copied through their constructors, never
  made blank and filled (Dou Dizhu's ``__init__`` makes a blank one when given no fields).
  mypyc's ``serializable`` mark would allow blank objects, but a class so marked, called
  from pure code, skips its ``__init__`` (mypyc 2.4.1);
- no ``__dict__`` (Dou Dizhu copies its fields one by one), actions pickled as their
  constructor call (a compiled frozen dataclass refuses pickle's attribute restore), and
  functions that take hostile input declare ``object`` (a compiled function checks a ``str``
  argument on the call, before the function can answer with its own error);
- the methods ``@dataclass`` generates stay pure Python in a compiled class, so the actions
  and the deal log write out ``__init__``, ``__eq__`` and ``__hash__``; and a compiled class
  that defines ``__lt__`` gets no hash, so compiled cards put back the identity hash.

Left pure: the error hierarchy, the position readers, what only loads data (traditions,
rules, records, ratings) and the registry: none is on the path of an action.
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
