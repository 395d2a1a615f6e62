"""Dou Dizhu combinations at rank level: classifier, complete move generator, typed moves.

Theory of operation
-------------------
Suits never matter in Dou Dizhu (games.md §4), so everything here works on
ranks. A hand is a *count vector*: a tuple of 15 counts indexed by rank,
``RANKS = "3456789TJQKA2BR"`` (index 11 is the ace, 12 the two, 13 the black
joker ``B``, 14 the red joker ``R``).

A *move* is a plain tuple ``(combo, key, slots)``:

* ``combo`` is the record name of the combination (``COMBOS``);
* ``key`` is the rank index that decides comparison: the rank of the triple or
  four, the top rank of a sequence or airplane core (attachments never count);
* ``slots`` lists the cards as ``rank * 4 + n`` in ascending order, where ``n``
  counts the cards of the same rank before it (``333`` + ``5`` is
  ``(0, 1, 2, 8)``). It is a canonical form of the rank multiset, and the
  engine turns it into cards by taking, for slot ``r * 4 + n``, the ``n``-th
  card of rank ``r`` in a hand sorted lowest suit first.

Moves are plain tuples so that they are cheap to make, hash and compare; the
fixed shapes (single, pair, triple, bomb, rocket, triple + attachment,
straights, pair sequences, bare airplanes) are built once at import and
shared, so generating them is a table look-up.

``generate(counts, table)`` lists every legal move once, in a stable order
(by ``COMBOS`` order, then key, then attachments). It works per combination
type, directly: it never enumerates subsets of the hand. Sequences use the
length of the run of ranks with enough cards ending at each rank; wings are
multiset combinations of the ranks outside the core (a rank gives at most two
single wings, both jokers never go together). A move with the same ranks read
as another combination is another move. Following a combination, only the
same type and size with a higher key is generated, then bombs and the rocket.

``classify(counts)`` reads a rank multiset as every combination it forms
(remembered: a game plays only a few thousand distinct multisets); the engine
uses it to check a move whose cards a player chose, and ``parse_typed`` uses
it to read a move a person typed by ranks (``33344456``). Under these rules a
multiset is never two combinations at once (the wing restrictions rule that
out), but nothing here relies on it.

The cards section links ranks to cards: ``RANK_OF``, the Dou Dizhu card order
``sort_cards`` and ``slot_cards``, which gives a move's canonical cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final

from cardavia.games.cards import DECK_54, Card
from cardavia.games.errors import ActionFormatError, IllegalAction

RANKS: Final = "3456789TJQKA2BR"
"""Rank characters by index: 3 .. K, A (11), 2 (12), black joker B (13), red joker R (14)."""
RANK_INDEX: Final = {ch: i for i, ch in enumerate(RANKS)}
ACE: Final = 11
TWO: Final = 12
BLACK: Final = 13
RED: Final = 14
NRANKS: Final = 15
MAX_CARDS: Final = 20
"""The landlord's hand: no combination is longer."""

COMBOS: Final = (
    *("single", "pair", "triple", "triple1", "triple2", "straight", "pairs", "airplane"),
    *("airplane1", "airplane2", "four2", "four22", "bomb", "rocket"),
)
"""The combination types by their record names, in the order moves are listed."""
COMBO_ORDER: Final = {name: i for i, name in enumerate(COMBOS)}

Counts = tuple[int, ...]
Slots = tuple[int, ...]
Move = tuple[str, int, Slots]
"""``(combo, key, slots)``; see the module docstring."""

# ------------------------------------------------------------------ tables
SL: Final = tuple(tuple(tuple(r * 4 + i for i in range(n)) for n in range(5)) for r in range(NRANKS))
"""``SL[r][n]``: the slots of ``n`` cards of rank ``r``."""


def _run(top: int, length: int, per: int) -> Slots:
    return tuple(s for r in range(top - length + 1, top + 1) for s in SL[r][per])


def _fixed(combo: str, key: int, slots: Slots) -> Move:
    return (combo, key, slots)


SINGLE: Final = tuple(_fixed("single", r, SL[r][1]) for r in range(NRANKS))
PAIR: Final = tuple(_fixed("pair", r, SL[r][2]) for r in range(BLACK))
TRIPLE: Final = tuple(_fixed("triple", r, SL[r][3]) for r in range(BLACK))
BOMB: Final = tuple(_fixed("bomb", r, SL[r][4]) for r in range(BLACK))
ROCKET: Final = _fixed("rocket", RED, (BLACK * 4, RED * 4))
TRIPLE1: Final = tuple(
    tuple(_fixed("triple1", t, tuple(sorted(SL[t][3] + SL[s][1]))) for s in range(NRANKS))
    for t in range(BLACK)
)
TRIPLE2: Final = tuple(
    tuple(_fixed("triple2", t, tuple(sorted(SL[t][3] + SL[p][2]))) for p in range(BLACK))
    for t in range(BLACK)
)
CHAIN_MIN: Final = {"straight": 5, "pairs": 3, "airplane": 2}
CHAIN_PER: Final = {"straight": 1, "pairs": 2, "airplane": 3}
CHAINS: Final = {
    name: {
        (top, length): _fixed(name, top, _run(top, length, per))
        for top in range(ACE + 1)
        for length in range(CHAIN_MIN[name], min(top + 1, MAX_CARDS // per) + 1)
    }
    for name, per in CHAIN_PER.items()
}
"""``CHAINS[name][top, length]``: the sequence of ``length`` ranks ending at ``top``."""
BIT: Final = tuple(1 << r for r in range(NRANKS))
ACE_DOWN: Final = (1 << (ACE + 1)) - 1
"""Bit mask of the ranks a sequence may use (3 to A)."""


# ----------------------------------------------------------- small helpers
def counts_of_ranks(ranks: Sequence[int]) -> Counts:
    """The count vector of a sequence of rank indices."""
    counts = [0] * NRANKS
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


def move_counts(move: Move) -> Counts:
    """The count vector of the cards a move uses."""
    return counts_of_ranks([s >> 2 for s in move[2]])


def slots_of(counts: Sequence[int]) -> Slots:
    """The slots of a count vector (ascending)."""
    return tuple(s for r in range(NRANKS) for s in SL[r][counts[r]])


def rank_text(counts: Sequence[int]) -> str:
    """Ranks as a person types them: ``33344456``, ``T`` for 10, ``B``/``R`` for jokers."""
    return "".join(RANKS[r] * counts[r] for r in range(NRANKS))


def move_text(move: Move) -> str:
    """A short rank-level text of a move, e.g. ``airplane1 33344456``."""
    return f"{move[0]} {''.join(RANKS[s >> 2] for s in move[2])}"


def beats(move: Move, table: Move | None) -> bool:
    """Whether ``move`` may be played on ``table`` (``None``: leading, anything goes)."""
    if table is None:
        return True
    combo, tcombo = move[0], table[0]
    if combo == "rocket":
        return tcombo != "rocket"
    if tcombo == "rocket":
        return False
    if combo == "bomb":
        return tcombo != "bomb" or move[1] > table[1]
    return combo == tcombo and len(move[2]) == len(table[2]) and move[1] > table[1]


# -------------------------------------------------------------- generator
def generate(counts: Counts, table: Move | None = None) -> list[Move]:
    """Every legal move of a hand with ``counts``, each once, in a stable order.

    ``table`` is the combination to beat, or ``None`` when leading. Passing is
    not a move here; the engine adds it.
    """
    c = counts
    if table is not None:
        out: list[Move] = []
        combo, key, slots = table
        if combo == "rocket":
            return out
        if combo != "bomb":
            _FOLLOW[combo](c, key, len(slots), out)
            key = -1
        if 4 in c:
            out.extend([BOMB[r] for r in range(key + 1, BLACK) if c[r] == 4])
        if c[BLACK] and c[RED]:
            out.append(ROCKET)
        return out
    present = [r for r in range(NRANKS) if c[r]]
    pairs = [r for r in present if c[r] >= 2]
    triples = [r for r in pairs if c[r] >= 3]
    out = [SINGLE[r] for r in present]
    out.extend([PAIR[r] for r in pairs])
    out.extend([TRIPLE[r] for r in triples])
    for t in triples:
        row = TRIPLE1[t]
        out.extend([row[s] for s in present if s != t])
    for t in triples:
        row2 = TRIPLE2[t]
        out.extend([row2[p] for p in pairs if p != t])
    if len(present) >= 5:
        out.extend(_chain_moves("straight", sum([BIT[r] for r in present]) & ACE_DOWN, -1, 0))
    if len(pairs) >= 3:
        out.extend(_chain_moves("pairs", sum([BIT[r] for r in pairs]) & ACE_DOWN, -1, 0))
    if len(triples) >= 2:
        out.extend(_chain_moves("airplane", sum([BIT[r] for r in triples]) & ACE_DOWN, -1, 0))
        runs = _runs3(c)
        if max(runs) >= 2:
            for k in range(2, 6):
                _airplane1(c, runs, -1, k, out)
            for k in range(2, 5):
                _airplane2(c, runs, -1, k, out)
    if 4 in c:
        _four2(c, -1, out)
        _four22(c, -1, out)
        out.extend([BOMB[r] for r in triples if c[r] == 4])
    if c[BLACK] and c[RED]:
        out.append(ROCKET)
    return out


def _triple1(c: Counts, above: int, size: int, out: list[Move]) -> None:
    present = [r for r in range(NRANKS) if c[r]]
    for t in range(above + 1, BLACK):
        if c[t] >= 3:
            row = TRIPLE1[t]
            out.extend([row[s] for s in present if s != t])


def _triple2(c: Counts, above: int, size: int, out: list[Move]) -> None:
    pairs = [r for r in range(BLACK) if c[r] >= 2]
    for t in range(above + 1, BLACK):
        if c[t] >= 3:
            row = TRIPLE2[t]
            out.extend([row[p] for p in pairs if p != t])


def _chains(c: Counts, name: str, above: int, length: int, out: list[Move]) -> None:
    """Sequences of ``name`` ending above ``above``; every length when ``length`` is 0."""
    per = CHAIN_PER[name]
    mask = 0
    for r in range(ACE + 1):
        if c[r] >= per:
            mask |= 1 << r
    out.extend(_chain_moves(name, mask, above, length))


_CHAIN_MEMO: dict[tuple[str, int], tuple[Move, ...]] = {}


def _chain_moves(name: str, mask: int, above: int, length: int) -> tuple[Move, ...]:
    """The sequences of ``name`` over the ranks in ``mask`` (bit ``r``: rank ``r`` has
    enough cards) ending above ``above``, of ``length`` ranks or (0) of every length.
    The lead lists (every length) are remembered: there are 4096 masks."""
    memo_key = (name, mask)
    if above < 0 and not length and memo_key in _CHAIN_MEMO:
        return _CHAIN_MEMO[memo_key]
    per, low, table = CHAIN_PER[name], CHAIN_MIN[name], CHAINS[name]
    moves: list[Move] = []
    run = 0
    for top in range(ACE + 1):
        run = run + 1 if mask >> top & 1 else 0
        if top <= above or run < low:
            continue
        if length:
            if run >= length:
                moves.append(table[top, length])
        else:
            moves.extend([table[top, n] for n in range(low, min(run, MAX_CARDS // per) + 1)])
    found = tuple(moves)
    if above < 0 and not length:
        _CHAIN_MEMO[memo_key] = found
    return found


def _runs3(c: Counts) -> list[int]:
    """For each rank 3..A, how many consecutive ranks ending there have 3+ cards."""
    runs: list[int] = []
    run = 0
    for top in range(ACE + 1):
        run = run + 1 if c[top] >= 3 else 0
        runs.append(run)
    return runs


def _cores(c: Counts, above: int, k: int) -> list[int]:
    """Top ranks of the runs of ``k`` consecutive triples (ranks 3..A) above ``above``."""
    runs = _runs3(c)
    return [top for top in range(above + 1, ACE + 1) if runs[top] >= k]


def single_wings(c: Counts, exclude: range, k: int) -> list[Slots]:
    """Every multiset of ``k`` single wings outside ``exclude``, as slots, in order.

    A rank gives at most two wings (never three or four of a rank) and the two
    jokers never go together.
    """
    avail = [r for r in range(NRANKS) if c[r] and r not in exclude]
    found: list[Slots] = []
    if k == 2:
        for i, a in enumerate(avail):
            a4 = a * 4
            if c[a] >= 2:
                found.append((a4, a4 + 1))
            found.extend([(a4, b * 4) for b in avail[i + 1 :]])
    else:
        _pick_wings(c, avail, 0, k, (), found=found)
    if c[BLACK] and c[RED] and BLACK not in exclude and RED not in exclude:
        both = (BLACK * 4, RED * 4)
        found = [w for w in found if w[-2:] != both]
    return found


def _pick_wings(
    c: Counts, avail: list[int], start: int, left: int, prefix: Slots, *, found: list[Slots]
) -> None:
    # Module-level rather than a closure that calls itself, which would leave a reference cycle
    # (garbage for the cycle collector) at every call.
    if not left:
        found.append(prefix)
        return
    for j in range(start, len(avail)):
        r4 = avail[j] * 4
        if left >= 2 and c[avail[j]] >= 2:
            _pick_wings(c, avail, j + 1, left - 2, (*prefix, r4, r4 + 1), found=found)
        _pick_wings(c, avail, j + 1, left - 1, (*prefix, r4), found=found)


def _airplane1(c: Counts, runs: list[int], above: int, k: int, out: list[Move]) -> None:
    if 4 * k > MAX_CARDS:
        return
    for top in range(above + 1, ACE + 1):
        if runs[top] >= k:
            cs = CHAINS["airplane"][top, k][2]
            for wings in single_wings(c, range(top - k + 1, top + 1), k):
                out.append(("airplane1", top, tuple(sorted(cs + wings))))


def _airplane2(c: Counts, runs: list[int], above: int, k: int, out: list[Move]) -> None:
    if 5 * k > MAX_CARDS:
        return
    for top in range(above + 1, ACE + 1):
        if runs[top] >= k:
            cs = CHAINS["airplane"][top, k][2]
            low = top - k + 1
            pairs = [r for r in range(BLACK) if c[r] >= 2 and not low <= r <= top]
            for chosen in combinations(pairs, k):
                wings = tuple(s for r in chosen for s in SL[r][2])
                out.append(("airplane2", top, tuple(sorted(cs + wings))))


def _four2(c: Counts, above: int, out: list[Move]) -> None:
    for f in range(above + 1, BLACK):
        if c[f] == 4:
            four = SL[f][4]
            for wings in single_wings(c, range(f, f + 1), 2):
                out.append(("four2", f, tuple(sorted(four + wings))))


def _four22(c: Counts, above: int, out: list[Move]) -> None:
    for f in range(above + 1, BLACK):
        if c[f] == 4:
            four = SL[f][4]
            pairs = [r for r in range(BLACK) if c[r] >= 2 and r != f]
            for a, b in combinations(pairs, 2):
                out.append(("four22", f, tuple(sorted(four + SL[a][2] + SL[b][2]))))


_FOLLOW: Final[dict[str, Callable[[Counts, int, int, list[Move]], None]]] = {
    "single": lambda c, above, n, out: out.extend([SINGLE[r] for r in range(above + 1, NRANKS) if c[r]]),
    "pair": lambda c, above, n, out: out.extend([PAIR[r] for r in range(above + 1, BLACK) if c[r] >= 2]),
    "triple": lambda c, above, n, out: out.extend([TRIPLE[r] for r in range(above + 1, BLACK) if c[r] >= 3]),
    "triple1": _triple1,
    "triple2": _triple2,
    "straight": lambda c, above, n, out: _chains(c, "straight", above, n, out),
    "pairs": lambda c, above, n, out: _chains(c, "pairs", above, n // 2, out),
    "airplane": lambda c, above, n, out: _chains(c, "airplane", above, n // 3, out),
    "airplane1": lambda c, above, n, out: _airplane1(c, _runs3(c), above, n // 4, out),
    "airplane2": lambda c, above, n, out: _airplane2(c, _runs3(c), above, n // 5, out),
    "four2": lambda c, above, n, out: _four2(c, above, out),
    "four22": lambda c, above, n, out: _four22(c, above, out),
}
"""Following: the moves of one combination type and size (``n`` cards) above a key."""


# ------------------------------------------------------------- classifier
def classify(counts: Sequence[int]) -> list[Move]:
    """Every combination a rank multiset forms (empty when none), in ``COMBOS`` order."""
    c = tuple(counts)
    if len(c) != NRANKS or any(n < 0 for n in c):
        raise ValueError("a count vector has 15 non-negative counts")
    return list(_classify(c))


@lru_cache(maxsize=1 << 12)
def _classify(c: Counts) -> tuple[Move, ...]:
    """``classify``, remembered: a game only ever plays a few thousand rank multisets."""
    n = sum(c)
    present = [r for r in range(NRANKS) if c[r]]
    if not present:
        return ()
    slots = slots_of(c)
    shape = sorted((c[r] for r in present), reverse=True)
    top, low = present[-1], present[0]
    found: list[Move] = []

    def add(combo: str, key: int) -> None:
        found.append((combo, key, slots))

    consecutive = top - low + 1 == len(present) and top <= ACE
    if n == 1:
        add("single", top)
    elif shape == [2]:
        add("pair", top)
    elif shape == [3]:
        add("triple", top)
    elif shape == [3, 1]:
        add("triple1", next(r for r in present if c[r] == 3))
    elif shape == [3, 2]:
        add("triple2", next(r for r in present if c[r] == 3))
    if consecutive and all(c[r] == 1 for r in present) and n >= 5:
        add("straight", top)
    if consecutive and all(c[r] == 2 for r in present) and len(present) >= 3:
        add("pairs", top)
    if consecutive and all(c[r] == 3 for r in present) and len(present) >= 2:
        add("airplane", top)
    if n % 4 == 0 and n // 4 >= 2:
        for key in _cores(c, -1, n // 4):
            rest = _minus_core(c, key, n // 4)
            if rest is not None and max(rest) <= 2 and not (rest[BLACK] and rest[RED]):
                add("airplane1", key)
    if n % 5 == 0 and n // 5 >= 2:
        for key in _cores(c, -1, n // 5):
            rest = _minus_core(c, key, n // 5)
            if rest is not None and all(x in (0, 2) for x in rest):
                add("airplane2", key)
    fours = [r for r in present if c[r] == 4]
    if shape == [4] and n == 4:
        add("bomb", top)
    if n == 6 and len(fours) == 1 and not (c[BLACK] and c[RED]):
        add("four2", fours[0])
    if n == 8 and len(fours) == 1 and shape == [4, 2, 2]:
        add("four22", fours[0])
    if n == 2 and c[BLACK] and c[RED]:
        add("rocket", RED)
    found.sort(key=lambda m: COMBO_ORDER[m[0]])
    return tuple(found)


def _minus_core(c: Counts, top: int, k: int) -> list[int] | None:
    """Counts left after an airplane core of ``k`` triples ending at ``top``; None
    when a core rank has a fourth card (wings never use a core rank)."""
    rest = list(c)
    for r in range(top - k + 1, top + 1):
        if rest[r] != 3:
            return None
        rest[r] = 0
    return rest


# ------------------------------------------------------------------ cards
RANK_OF: Final = {card: RANK_INDEX[card.rank] for card in DECK_54}
"""The rank index of every card."""
SORT_KEY: Final = {card: RANK_OF[card] * 4 + "CDHSJ".index(card.suit) % 4 for card in DECK_54}
"""Dou Dizhu card order: by rank (3 .. 2, jokers), then suit C D H S."""


def sort_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in Dou Dizhu order: by rank, then suit C D H S."""
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def card_counts(cards: Sequence[Card]) -> Counts:
    """The count vector of some cards."""
    return counts_of_ranks([RANK_OF[c] for c in cards])


def slot_cards(hand: Sequence[Card]) -> list[Card]:
    """The cards of a sorted hand by slot: ``r * 4 + n`` is its ``n``-th card of rank ``r``,
    lowest suit first; ``tuple(map(table.__getitem__, move[2]))`` are a move's canonical cards.
    Slots the hand lacks hold a black joker that no move of the hand ever reads."""
    table = [_FILLER] * 60
    n, prev = 0, -1
    for card in hand:
        r = RANK_OF[card]
        n = n + 1 if r == prev else 0
        prev = r
        table[r * 4 + n] = card
    return table


_FILLER: Final = Card.parse("BJ")


# ------------------------------------------------------------ typed moves
def parse_ranks(text: str) -> Counts:
    """A rank multiset typed by a person: ``33344456``, ``10 10 10 J``, ``BR``.

    Ranks are 3-9, T or 10, J, Q, K, A, 2, B (black joker) and R (red joker),
    in any case and order; spaces and commas are ignored.
    """
    cleaned = text.upper().replace("10", "T")
    counts = [0] * NRANKS
    for ch in cleaned:
        if ch in " ,\t":
            continue
        r = RANK_INDEX.get(ch)
        if r is None:
            raise ActionFormatError(
                f"{ch!r} in {text!r} is not a rank: type ranks 3-9, T (or 10), J, Q, K, A, 2, "
                "B (black joker) or R (red joker)"
            )
        counts[r] += 1
    if not any(counts):
        raise ActionFormatError("type the ranks of the cards to play, e.g. 33344456")
    for r, n in enumerate(counts):
        if n > (1 if r >= BLACK else 4):
            raise ActionFormatError(f"there are not {n} cards of rank {RANKS[r]} in the deck")
    return tuple(counts)


def parse_typed(text: str, hand: Sequence[int], table: Move | None) -> list[Move]:
    """Every legal reading of ranks typed by a person, for a hand (count vector)
    and the combination on the table (``None`` when leading).

    Raises ``ActionFormatError`` for text that is not ranks, and
    ``IllegalAction`` with ``card_not_in_hand``, ``not_a_combination`` or
    ``does_not_beat`` when no reading is legal.
    """
    counts = parse_ranks(text)
    missing = [RANKS[r] for r in range(NRANKS) if counts[r] > hand[r]]
    if missing:
        raise IllegalAction("card_not_in_hand", f"the hand does not hold the {', '.join(missing)} typed")
    readings = classify(counts)
    if not readings:
        raise IllegalAction("not_a_combination", f"{rank_text(counts)} is not a Dou Dizhu combination")
    legal = [m for m in readings if beats(m, table)]
    if not legal:
        kinds = " or ".join(m[0] for m in readings)
        assert table is not None
        raise IllegalAction(
            "does_not_beat",
            f"{rank_text(counts)} ({kinds}) does not beat the {move_text(table)} on the table",
        )
    return legal
