"""State deltas: the change from one view of a recipient to its next view.

Why path patches, not typed per-game deltas: views are plain data, so one
generic diff serves all four games and any game added later, and a delta is
computed only from the two views its recipient is entitled to, so it cannot
carry anything that recipient may not know.

Theory of operation
-------------------
``ops`` is one flat list of triples laid end to end, ``kind, path, arg``:

* ``0, path, value`` — set: put ``value`` at ``path`` (a new or changed key or element)
* ``1, path, nil`` — delete the map key at ``path``
* ``2, path, items`` — add: extend the list at ``path`` with ``items``
* ``3, path, indexes`` — remove: drop the list elements at ``indexes`` (ascending)
* ``4, path, rows`` — add rows: extend the list at ``path`` with maps. A row that
  is a map is added as it is; a row ``[back, v1, v2, …]`` is a map with the same
  keys as the element ``back`` places before it (0: the list's last element when
  the row is added), those keys in sorted order taking ``v1, v2, …``.
* ``5, path, pairs`` — set several: ``pairs`` is ``[step, value, step, value, …]``,
  each ``value`` put at ``step`` under the map or list at ``path``, in order.

A path is one step or a list of steps. On a list a step is an index. On a map
a string step is a key and an integer step is the key at that position among
the map's keys in sorted (code point) order. Integer steps are used only where a
map keeps the same keys, so both ends agree on the order without sending it.

Nearly every action changes a few small fields and appends an entry to a
history whose entries share their keys with an earlier one, so these choices
(flat triples, key positions, rows, one op for the view's changed top-level
fields) carry the same ops in about half the bytes of ``[kind, "key", value]``
lists with whole-map history entries.
Lists that grow at the end become ``add`` ops, short lists of scalars with
one changed element a single ``set`` at its index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from cardavia.protocol.errors import ProtocolError

SET, DELETE, ADD, REMOVE, ROWS, SETS = 0, 1, 2, 3, 4, 5
MAX_BACK: Final = 8
"""How far back an added row looks for an element with the same keys."""
_CONTAINERS: Final = (dict, list)
"""For ``isinstance``: a tuple, where ``dict | list`` would build a union object at every call."""

_shapes: dict[tuple[str, ...], tuple[tuple[str, ...], dict[str, int]]] = {}


def diff(old: Any, new: Any) -> list[Any]:
    """Ops (flat triples) that turn ``old`` into ``new``."""
    ops: list[Any] = []
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        _diff_top(old, new, ops)
    else:
        _diff(old, new, [], ops)
    return ops


def diff_fields(old: dict[str, Any], fields: dict[str, Any]) -> list[Any]:
    """The ops ``diff(old, old | fields)`` gives, looking only at ``fields``.

    For a sender that knows which of a view's fields a move may have changed
    (``State.view_update``): every other field is taken to be unchanged and is
    neither built nor compared. ``fields`` are keys ``old`` has, in the order
    ``old`` has them, as the whole view's diff would meet them; a key ``old``
    lacks is a ``KeyError``.
    """
    ops: list[Any] = []
    _diff_top(old, fields, ops)
    return ops


def _diff_top(old: dict[str, Any], new: dict[str, Any], ops: list[Any]) -> None:
    """A view that kept its keys: the fields set whole go in one ``set several`` op when shorter.

    ``new`` holds every key of ``old`` or, from ``diff_fields``, some of them in
    the same order. Each names a different field, so the order of the ops does
    not matter.
    """
    positions = _key_positions(old)
    pairs: list[Any] = []
    for key, value in new.items():
        before = old[key]
        if before is value or (before == value and type(before) is type(value)):
            continue  # the common case, decided without a call
        step = positions[key]
        if isinstance(value, _CONTAINERS) and type(before) is type(value):
            start = len(ops)
            _changed(before, value, [step], ops)
            if len(ops) - start == 3 and ops[start] == SET and ops[start + 1] == step:
                pairs += (step, ops[start + 2])
                del ops[start:]
        else:
            pairs += (step, value)
    if len(pairs) >= 8:  # the op's kind, path and list cost about what three fewer triples save
        ops += (SETS, [], pairs)
    else:
        for i in range(0, len(pairs), 2):
            ops += (SET, pairs[i], pairs[i + 1])


def _diff(old: Any, new: Any, path: list[Any], ops: list[Any]) -> None:
    if old == new and type(old) is type(new):
        return
    _changed(old, new, path, ops)


def _changed(old: Any, new: Any, path: list[Any], ops: list[Any]) -> None:
    """``_diff`` of two values already known to differ (compared once, not twice)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() == new.keys():
            positions = _key_positions(new)
            for key, value in new.items():
                before = old[key]
                if before is value or (before == value and type(before) is type(value)):
                    continue  # the common case, decided without a call
                _changed(before, value, [*path, positions[key]], ops)
            return
        for key in old:
            if key not in new:
                ops += (DELETE, _path([*path, key]), None)
        for key, value in new.items():
            if key not in old:
                ops += (SET, _path([*path, key]), value)
            else:
                _diff(old[key], value, [*path, key], ops)
        return
    if isinstance(old, list) and isinstance(new, list):
        size, length = len(old), len(new)
        if length > size:
            if new[:size] == old:
                _extend(old, new[size:], path, ops)
                return
        elif length < size:
            removed = _removed(old, new)
            if removed is not None:
                ops += (REMOVE, _path(path), removed)
                return
        elif size and _same_length_lists(old, new, path, ops):
            return
    ops += (SET, _path(path), new)


def _same_length_lists(old: list[Any], new: list[Any], path: list[Any], ops: list[Any]) -> bool:
    """Element-wise ops for a list that kept its length, when cheaper than setting it whole."""
    size = len(new)
    if size < 3 and not isinstance(new[0], _CONTAINERS) and not isinstance(new[-1], _CONTAINERS):
        return False  # two scalars: setting one costs as much as setting both
    nested = False
    for value in new:  # a loop, not ``any`` over a generator: this runs for every short list
        if isinstance(value, _CONTAINERS):
            nested = True
            break
    if nested:
        inner: list[Any] = []
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(a, b, [*path, index], inner)
        if len(inner) < 3 * size:  # fewer ops than elements
            ops += inner
            return True
        return False
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b or type(a) is not type(b)]
    # An element op costs its value and about four bytes; setting the whole list
    # costs every value and about two: a third of the elements is the break-even.
    if 3 * len(changed) > size:
        return False
    for i in changed:
        ops += (SET, [*path, i], new[i])
    return True


def _extend(old: list[Any], items: list[Any], path: list[Any], ops: list[Any]) -> None:
    """An ``add`` op, or ``add rows`` when the new maps share their keys with earlier elements."""
    if not all(type(item) is dict for item in items):
        ops += (ADD, _path(path), items)
        return
    rows: list[Any] = []
    whole = old + items if len(items) > 1 else old
    found = False
    for number, item in enumerate(items):
        keys = item.keys()
        end = len(old) + number  # the item's own index in ``whole``
        for back in range(min(MAX_BACK, end)):
            before = whole[end - 1 - back]
            if type(before) is dict and before.keys() == keys:
                rows.append([back, *[item[k] for k in _key_order(item)]])
                found = True
                break
        else:
            rows.append(item)
    ops += (ROWS, _path(path), rows) if found else (ADD, _path(path), items)


def _key_positions(mapping: dict[str, Any]) -> dict[str, int]:
    """Each key's position among the map's keys in sorted order."""
    return _shape(mapping)[1]


def _key_order(mapping: dict[str, Any]) -> tuple[str, ...]:
    """The map's keys in sorted order."""
    return _shape(mapping)[0]


def _shape(mapping: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The map's keys sorted, and each key's position among them (cached by the keys as they come)."""
    keys = tuple(mapping)
    shape = _shapes.get(keys)
    if shape is None:
        if len(_shapes) > 4096:
            _shapes.clear()
        order = tuple(sorted(keys))
        shape = _shapes[keys] = (order, {k: i for i, k in enumerate(order)})
    return shape


def _path(path: list[Any]) -> Any:
    return path[0] if len(path) == 1 else path


def _removed(old: list[Any], new: list[Any]) -> list[int] | None:
    """Indexes to drop from ``old`` to get ``new``, when ``new`` is ``old`` less a few elements."""
    if not new or len(old) - len(new) > 3:
        return None
    indexes: list[int] = []
    j = 0
    for i, item in enumerate(old):
        if j < len(new) and new[j] == item and type(new[j]) is type(item):
            j += 1
        else:
            indexes.append(i)
    return indexes if j == len(new) else None


def apply(view: Any, ops: object) -> Any:
    """``view`` changed by ``ops`` (a new object; ``view`` is left as it was).

    ``ops`` is what a frame carried: anything but a flat list of triples is a ``bad_frame``.

    Copies only the maps and lists along the ops' paths (a deep copy of the
    whole view was most of a client's time per delta); the rest is shared.
    """
    if not isinstance(ops, list) or len(ops) % 3:
        raise ProtocolError("bad_frame", f"delta ops are a flat list of triples, not {ops!r:.60}")
    copied: set[int] = set()
    result = _own(view, copied)
    for start in range(0, len(ops), 3):
        result = _apply_op(result, ops[start], ops[start + 1], ops[start + 2], copied)
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


def _key(container: Any, step: Any) -> Any:
    """The key or index ``step`` names in ``container``."""
    if type(step) is int and isinstance(container, dict):
        if step < 0:
            raise IndexError(f"key position {step}")
        return _key_order(container)[step]
    if isinstance(container, list) and (type(step) is not int or step < 0):
        raise TypeError(f"a list index is a natural number, not {step!r:.20}")
    return step


def _child(parent: Any, step: Any, copied: set[int]) -> Any:
    """The child ``step`` names, copied first unless this ``apply`` made it."""
    key = _key(parent, step)
    child = parent[key]
    if id(child) not in copied and isinstance(child, _CONTAINERS):
        child = _own(child, copied)
        parent[key] = child
    return child


def _apply_op(root: Any, kind: Any, path: Any, arg: Any, copied: set[int]) -> Any:
    if type(kind) is not int or not SET <= kind <= SETS:
        raise ProtocolError("bad_frame", f"unknown delta op {kind!r:.20}")
    if isinstance(path, str | int) and type(path) is not bool:
        path = [path]
    if not isinstance(path, list) or not all(isinstance(s, str) or type(s) is int for s in path):
        raise ProtocolError("bad_frame", f"a delta path is a step or a list of steps, not {path!r:.40}")
    if not path and kind in (SET, DELETE):
        if kind == SET:
            return arg
        raise ProtocolError("bad_frame", "a delete op needs a path")
    try:
        if not isinstance(root, _CONTAINERS):
            raise TypeError("the view holds no maps or lists")
        if id(root) not in copied:  # a whole new view set by an earlier op
            root = _own(root, copied)
        parent = root
        for step in path[:-1]:
            parent = _child(parent, step, copied)
        if kind == SET:
            parent[_key(parent, path[-1])] = arg  # a list index past the end raises IndexError
        elif kind == DELETE:
            if not isinstance(parent, dict):
                raise TypeError("delete works on map keys")
            del parent[_key(parent, path[-1])]
        else:
            target = _child(parent, path[-1], copied) if path else root
            if not isinstance(arg, list):
                raise TypeError(f"op {kind} takes a list")
            if kind == SETS:
                _set_several(target, arg)
            elif not isinstance(target, list):
                raise TypeError("add, remove and add rows work on lists")
            elif kind == ADD:
                target.extend(arg)
            elif kind == REMOVE:
                if not all(type(i) is int for i in arg):
                    raise TypeError("remove takes indexes")
                for index in sorted(set(arg), reverse=True):
                    del target[index]
            else:
                for row in arg:
                    target.append(_row(target, row))
    except (KeyError, IndexError, TypeError) as exc:
        raise ProtocolError(
            "bad_frame", f"delta op {[kind, path, arg]!r:.60} does not fit the view: {exc}"
        ) from None
    return root


def _set_several(target: Any, pairs: list[Any]) -> None:
    if not isinstance(target, _CONTAINERS) or len(pairs) % 2:
        raise TypeError("set several takes step, value pairs under a map or list")
    steps, values = pairs[::2], pairs[1::2]
    if isinstance(target, dict) and all(type(step) is int for step in steps):
        order = _key_order(target)  # setting keys the map has keeps the order
        for step, value in zip(steps, values, strict=True):
            if step < 0:
                raise IndexError(f"key position {step}")
            target[order[step]] = value
        return
    for step, value in zip(steps, values, strict=True):
        target[_key(target, step)] = value


def _row(target: list[Any], row: Any) -> dict[str, Any]:
    """The map an ``add rows`` row stands for."""
    if isinstance(row, dict):
        return row
    if not isinstance(row, list) or not row or type(row[0]) is not int or not 0 <= row[0] < len(target):
        raise TypeError(f"a row is a map or [back, values…], not {row!r:.30}")
    template = target[-1 - row[0]]
    if not isinstance(template, dict) or len(template) != len(row) - 1:
        raise TypeError("a row's values do not fit the keys of the element it names")
    return dict(zip(_key_order(template), row[1:], strict=True))


@dataclass(slots=True)
class Recipient:
    """The server side of one recipient's view stream: its last view and sequence number.

    ``snapshot`` restarts the stream (first join, resync); ``update`` returns
    the ops from the last view to the new one and advances ``seq``; ``patch``
    does the same from only the fields a move changed. ``mark`` is the sender's
    name for the position the last view shows (the room's version), so it can
    tell whether a move's changed fields apply to it.
    """

    seq: int = 0
    view: Any = field(default=None)
    mark: int | None = None

    def snapshot(self, view: Any, mark: int | None = None) -> int:
        self.seq += 1
        self.view, self.mark = view, mark
        return self.seq

    def update(self, view: Any, mark: int | None = None) -> tuple[int, list[Any]] | None:
        """(seq, ops), or None when the view did not change."""
        self.mark = mark
        ops = diff(self.view, view)
        if not ops:
            return None
        self.seq += 1
        self.view = view
        return self.seq, ops

    def patch(self, fields: dict[str, Any], mark: int | None = None) -> tuple[int, list[Any]] | None:
        """``update`` to the last view with ``fields`` set (see ``diff_fields``)."""
        old = self.view
        ops = diff_fields(old, fields)
        self.mark = mark
        if not ops:
            return None
        self.seq += 1
        self.view = old | fields
        return self.seq, ops
