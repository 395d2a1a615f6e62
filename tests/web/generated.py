"""The page's generated fixtures are committed; a test holds each to what its generator writes now."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def assert_generated(path: Path, text: str, module: str) -> None:
    """``path`` holds exactly ``text``, what ``module`` writes; else say how to write it again."""
    again = f"run .venv/bin/python -m {module}"
    assert path.is_file(), again
    assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(ROOT)} is out of date: {again}"
