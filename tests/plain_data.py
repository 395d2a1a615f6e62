"""Helpers for tests that look inside plain data (views, events, decoded frames)."""

from __future__ import annotations

from typing import Any


def strings_in(data: Any, *, plain: bool = False) -> set[str]:
    """Every string (keys and values) anywhere in plain data; ``plain``: and fail on anything
    that is not plain data (views and events must survive any serialisation)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif plain:
            assert item is None or isinstance(item, bool | int | float), f"not plain data: {item!r}"
    return found
