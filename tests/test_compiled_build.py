"""The optional compiled build (setup.py): pure Python unless ``CARDAVIA_COMPILE`` asks for mypyc,
never compiled into an editable install, and a test run imports the build it means to test:
the pure modules from the checkout, or, in scripts/test-compiled's run
(``CARDAVIA_EXPECT_COMPILED=1``), the compiled ones from the wheel it built."""

from __future__ import annotations

import importlib
import importlib.util
import os
import runpy
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _setup() -> ModuleType:
    """setup.py as a module: it calls ``setup()`` only when run as a script."""
    spec = importlib.util.spec_from_file_location("cardavia_setup", ROOT / "setup.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED: list[str] = _setup().COMPILED


@pytest.mark.parametrize("value", [None, "", "0", "no"])
def test_without_the_variable_the_build_is_pure(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("CARDAVIA_COMPILE", raising=False)
    else:
        monkeypatch.setenv("CARDAVIA_COMPILE", value)
    assert _setup()._compiled() == {}  # no extension modules, no build requirement


def test_an_editable_install_is_never_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDAVIA_COMPILE", "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel", "--dist-dir", "/nowhere"])
    with pytest.raises(SystemExit) as refused:
        _setup()._compiled()
    assert "editable install" in str(refused.value.code)


def test_the_compiled_modules_are_modules_of_the_package(tmp_path: Path) -> None:
    """Each is a module of the package, and mypyc finds it in the link tree under the path that
    spells its import name (the name it gives the compiled module)."""
    assert COMPILED
    tree = runpy.run_path(str(ROOT / "scripts" / "package_tree.py"))
    sources = {name: path for path, name in tree["modules"]()}
    base = tree["link_tree"](tmp_path)
    for name in COMPILED:
        assert name.startswith("cardavia."), name
        assert (ROOT / sources[name]).is_file(), name
        compiled_from = base.joinpath(*name.split(".")).with_suffix(".py")
        assert compiled_from.resolve() == (ROOT / sources[name]).resolve(), name


@pytest.mark.parametrize("name", COMPILED)
def test_the_run_imports_the_build_it_means_to_test(name: str) -> None:
    """A compiled module left beside the sources would be imported in place of the pure one in
    every run from the checkout; a compiled run that imported the checkout would test nothing."""
    module = importlib.import_module(name)
    assert module.__file__ is not None
    source = Path(module.__file__)
    if os.environ.get("CARDAVIA_EXPECT_COMPILED") == "1":
        assert source.name.endswith(tuple(EXTENSION_SUFFIXES)), source
    else:
        assert source.suffix == ".py", source
