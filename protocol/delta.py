"""State deltas: the change from one view of a recipient to its next view.

Why path patches, not typed per-game deltas: views are plain data, so one
generic diff serves all four games and any game added later, and a delta is
computed only from the two views its recipient is entitled to, so it cannot
carry anything that recipient may not know. Lists that grow at the end (piles,
histories) become ``add`` ops, which keeps deltas small.

Ops are short arrays; ``path`` is a map key at the top of the view (the common
case, one string) or a list of map keys and list indexes:
* ``[0, path, value]`` — set: put ``value`` at ``path`` (a new or changed key)
* ``[1, path]`` — delete the map key at ``path``
* ``[2, path, items]`` — add: extend the list at ``path`` with ``items``
* ``[3, path, indexes]`` — remove: drop the list elements at ``indexes`` (ascending)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardavia.protocol.errors import ProtocolError

Op = list[Any]
SET, DELETE, ADD, REMOVE = 0, 1, 2, 3


def diff(old: Any, new: Any) -> list[Op]:
    """Ops that turn ``old`` into ``new``."""
    ops: list[Op] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([DELETE, _path([*path, key])])
        for key, value in new.items():
            if key not in old:
                ops.append([SET, _path([*path, key]), value])
                continue
            before = old[key]
            if before is value or (before == value and type(before) is type(value)):
                continue  # the common case, decided without a call
            _diff(before, value, [*path, key], ops)
        return
    if isinstance(old, list) and isinstance(new, list):
        size = len(old)
        if len(new) > size and new[:size] == old:
            ops.append([ADD, _path(path), new[size:]])
            return
        removed = _removed(old, new)
        if removed is not None:
            ops.append([REMOVE, _path(path), removed])
            return
        if len(new) == size and any(isinstance(v, dict | list) for v in new):
            inner: list[Op] = []
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                _diff(a, b, [*path, index], inner)
            if len(inner) < size:
                ops.extend(inner)
                return
    ops.append([SET, _path(path), new])


def _path(path: list[Any]) -> Any:
    return path[0] if len(path) == 1 and isinstance(path[0], str) else path


def _removed(old: list[Any], new: list[Any]) -> list[int] | None:
    """Indexes to drop from ``old`` to get ``new``, when ``new`` is ``old`` less a few elements."""
    if not new or len(new) >= len(old) or len(old) - len(new) > 3:
        return None
    indexes: list[int] = []
    j = 0
    for i, item in enumerate(old):
        if j < len(new) and new[j] == item and type(new[j]) is type(item):
            j += 1
        else:
            indexes.append(i)
    return indexes if j == len(new) else None


def apply(view: Any, ops: list[Op]) -> Any:
    """``view`` changed by ``ops`` (a new object; ``view`` is left as it was).

    Copies only the maps and lists along the ops' paths (a deep copy of the
    whole view was most of a client's time per delta); the rest is shared.
    """
    copied: set[int] = set()
    result = _own(view, copied)
    for op in ops:
        result = _apply_op(result, op, copied)
    return result


def _own(value: Any, copied: set[int]) -> Any:
    """A shallow copy of a map or list this ``apply`` may change (other values as they are)."""
    if isinstance(value, dict):
        value = dict(value)
    elif isinstance(value, list):
        value = list(value)
    else:
        return value
    copied.add(id(value))
    return value


def _child(parent: Any, key: Any, copied: set[int]) -> Any:
    """``parent[key]``, copied first unless this ``apply`` made it."""
    child = parent[key]
    if id(child) not in copied and isinstance(child, dict | list):
        child = _own(child, copied)
        parent[key] = child
    return child


def _apply_op(root: Any, op: Any, copied: set[int]) -> Any:
    if not isinstance(op, list) or len(op) < 2 or op[0] not in (SET, DELETE, ADD, REMOVE):
        raise ProtocolError("bad_frame", f"malformed delta op {op!r:.60}")
    kind, path = op[0], op[1]
    if (kind == DELETE) != (len(op) == 2) or len(op) > 3:
        raise ProtocolError("bad_frame", f"malformed delta op {op!r:.60}")
    if isinstance(path, str):
        path = [path]
    if not isinstance(path, list):
        raise ProtocolError("bad_frame", f"a delta path is a key or a list, not {path!r:.40}")
    if not path and kind in (SET, DELETE):
        if kind == SET:
            return op[2]
        raise ProtocolError("bad_frame", "a delete op needs a path")
    try:
        if not isinstance(root, dict | list):
            raise TypeError("the view holds no maps or lists")
        if id(root) not in copied:  # a whole new view set by an earlier op
            root = _own(root, copied)
        parent = root
        for key in path[:-1]:
            parent = _child(parent, key, copied)
        if kind == SET:
            parent[path[-1]] = op[2]
        elif kind == DELETE:
            del parent[path[-1]]
        else:
            target, value = (_child(parent, path[-1], copied) if path else root), op[2]
            if not isinstance(target, list) or not isinstance(value, list):
                raise TypeError("add and remove work on lists")
            if kind == ADD:
                target.extend(value)
            else:
                for index in sorted(set(value), reverse=True):
                    del target[index]
    except (KeyError, IndexError, TypeError) as exc:
        raise ProtocolError("bad_frame", f"delta op {op!r:.60} does not fit the view: {exc}") from None
    return root


@dataclass(slots=True)
class Recipient:
    """The server side of one recipient's view stream: its last view and sequence number.

    ``snapshot`` restarts the stream (first join, resync); ``update`` returns
    the ops from the last view to the new one and advances ``seq``.
    """

    seq: int = 0
    view: Any = field(default=None)

    def snapshot(self, view: Any) -> int:
        self.seq += 1
        self.view = view
        return self.seq

    def update(self, view: Any) -> tuple[int, list[Op]] | None:
        """(seq, ops), or None when the view did not change."""
        ops = diff(self.view, view)
        if not ops:
            return None
        self.seq += 1
        self.view = view
        return self.seq, ops
