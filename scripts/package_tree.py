"""The package's import names and the folders that hold them, for the tools that cannot read
pyproject.toml's mapping.

Theory of operation. The code lives in top-level folders (``server/``, ``games/``, …) and is
imported as ``cardavia.server``, ``cardavia.games``, …: ``[tool.setuptools] package-dir`` maps
each name to its folder, and everything that imports reads that mapping (the wheel, and the
editable install's finder, which pytest and the ``cardavia`` command go through), so a file has
one path: tracebacks name ``server/app.py``. Three tools find modules by walking a directory
tree instead, and no setting of theirs maps a name to another folder:

- mypy finds ``cardavia.server.app`` only as a file ``<base>/cardavia/server/app.py`` and names
  each error by the path it found the module at; it follows no import hook. So ``mypy`` here
  gives mypy every module of the package as a source with its import name, read from the
  mapping, and its errors name ``server/app.py``.
- import-linter's graph (grimp) walks the folder that ``cardavia`` is found in, and
  lint-imports puts the working directory first on the path.
- mypyc (the compiled build, setup.py) names a compiled module by its path, as mypy does.

For the last two, :func:`link_tree` builds ``build/package/cardavia/``: links to the files of
``cardavia/`` and to each folder the mapping puts elsewhere (``server -> ../../../server``). It
is made anew on each run and never committed, so no checkout holds a second path to a file.

    python scripts/package_tree.py mypy [MYPY ARGS]          # what scripts/mypy runs
    python scripts/package_tree.py lint-imports [ARGS]       # what scripts/lint-imports runs
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = Path("build", "package")
"""Where :func:`link_tree` builds the package's tree, relative to the checkout."""


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Every package setuptools ships (pyproject.toml's ``packages``) and the folder that holds it,
    resolved from ``package-dir`` as setuptools resolves it: the longest mapped prefix of the name,
    then one folder per remaining part. (Not setuptools' own function: a virtual environment of
    Python 3.12 or later comes without setuptools.)"""
    setuptools = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapping: dict[str, str] = setuptools["package-dir"]
    folders = {}
    for name in setuptools["packages"]:
        parts = name.split(".")
        mapped = next((i for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in mapping), 0)
        folder = mapping[".".join(parts[:mapped])] if mapped else mapping.get("", "")
        folders[name] = root.joinpath(folder, *parts[mapped:])
    return folders


def modules(root: Path = ROOT) -> list[tuple[Path, str]]:
    """Each Python file of the package, relative to ``root``, with its import name."""
    found = []
    for package, folder in sorted(package_dirs(root).items()):
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            found.append((path.relative_to(root), name))
    return found


def link_tree(base: Path = ROOT / TREE, root: Path = ROOT) -> Path:
    """Build ``cardavia/`` in ``base`` (``build/package`` unless told; see the module's docstring)
    and return ``base``.

    The top package's folder is made of links to its files, because the folders mapped elsewhere
    are linked into it; every other package is already in place through a linked folder or gets
    a link of its own."""
    shutil.rmtree(base, ignore_errors=True)  # links only: removing one never touches its target
    folders = package_dirs(root)
    (top,) = [name for name in folders if "." not in name]
    top_dir = base / top
    top_dir.mkdir(parents=True)
    for entry in folders[top].iterdir():
        if entry.name != "__pycache__":
            (top_dir / entry.name).symlink_to(os.path.relpath(entry, top_dir))
    for name, folder in sorted(folders.items(), key=lambda item: item[0].count(".")):
        if name == top:
            continue
        place = base.joinpath(*name.split("."))
        if place.exists() and place.resolve() == folder.resolve():
            continue
        if place.parent != top_dir:
            raise ValueError(f"{name}: mapped to {folder}, inside a folder mapped elsewhere")
        place.symlink_to(os.path.relpath(folder, place.parent), target_is_directory=True)
    return base


def mypy(args: list[str]) -> int:
    """mypy as its command runs it, with settings from pyproject.toml, over the package's modules
    (with their import names) and whatever ``args`` name besides."""
    from mypy import util
    from mypy.fscache import FileSystemCache
    from mypy.main import process_options, run_build
    from mypy.modulefinder import BuildSource

    started = time.time()
    fscache = FileSystemCache()
    targets, options = process_options(args, require_targets=False, fscache=fscache)
    # absolute paths: mypy names each file relative to the working directory
    sources = [BuildSource(str(ROOT / path), name) for path, name in modules()] + targets
    _, messages, blockers = run_build(sources, options, fscache, started, sys.stdout, sys.stderr)
    # the summary line and the exit status, as mypy's own command writes them
    formatter = util.FancyFormatter(
        sys.stdout, sys.stderr, options.hide_error_codes, hide_success=bool(options.output)
    )
    errors, notes, files = util.count_stats(messages)
    if options.error_summary:
        color = options.color_output
        if errors:
            print(formatter.format_error(errors, files, len(sources), blockers=blockers, use_color=color))
        elif not messages or notes == len(messages):
            print(formatter.format_success(len(sources), color))
    if messages and notes < len(messages):
        return 2 if blockers else 1
    return 0


def lint_imports(args: list[str]) -> int:
    """lint-imports run from the link tree, where ``cardavia`` is found with all its folders; its
    cache stays in the checkout, where it was, as the tree is made anew on each run."""
    base = link_tree()
    command = [str(Path(sys.executable).parent / "lint-imports"), str(ROOT / "pyproject.toml")]
    if "--no-cache" not in args:
        command += ["--cache-dir", str(ROOT / ".import_linter_cache")]
    return subprocess.run([*command, *args], cwd=base, check=False).returncode


if __name__ == "__main__":
    tools = {"mypy": mypy, "lint-imports": lint_imports}
    if len(sys.argv) < 2 or sys.argv[1] not in tools:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(tools)}}} [ARGS]")
    sys.exit(tools[sys.argv[1]](sys.argv[2:]))
