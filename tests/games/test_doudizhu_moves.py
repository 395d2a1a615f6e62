"""The rank-level Dou Dizhu move generator, classifier and typed-move parser.

Completeness is checked against brute force: every sub-multiset of a hand's
ranks, read by an independent classifier written here from games.md §4, must
be exactly the generator's moves.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.games import doudizhu_moves as dm
from cardavia.games.errors import ActionFormatError, IllegalAction

Key = tuple[str, int, tuple[int, ...]]
RANKS = dm.RANKS
DECK_RANKS = [r for r in range(13) for _ in range(4)] + [13, 14]


def counts(text: str) -> tuple[int, ...]:
    return dm.parse_ranks(text)


def key(move: dm.Move) -> Key:
    return (move[0], move[1], dm.move_counts(move))


def keys(moves: list[dm.Move]) -> set[Key]:
    return {key(m) for m in moves}


def find(text: str, combo: str, table: dm.Move | None = None) -> bool:
    """Whether ranks ``text`` are a legal ``combo`` from a hand holding exactly them."""
    c = counts(text)
    return any(m[0] == combo and dm.move_counts(m) == c for m in dm.generate(c, table))


def the(text: str, combo: str) -> dm.Move:
    (move,) = [m for m in dm.classify(counts(text)) if m[0] == combo]
    return move


# ------------------------------------------------------ independent oracle
def oracle_readings(c: tuple[int, ...]) -> set[tuple[str, int]]:
    """Every (combo, key) a rank multiset forms, straight from the rules text."""
    total = sum(c)
    ranks = [r for r in range(15) if c[r]]
    found: set[tuple[str, int]] = set()
    if total == 0:
        return found
    if len(ranks) == 1:
        r, n = ranks[0], c[ranks[0]]
        found |= {1: {("single", r)}, 2: {("pair", r)}, 3: {("triple", r)}, 4: {("bomb", r)}}.get(n, set())
    if c[13] == 1 and c[14] == 1 and total == 2:
        found.add(("rocket", 14))
    for t in range(13):
        if c[t] == 3 and total == 4:
            found.add(("triple1", t))
        if c[t] == 3 and total == 5 and any(c[p] == 2 for p in range(13) if p != t):
            found.add(("triple2", t))
    for per, name, least in ((1, "straight", 5), (2, "pairs", 3), (3, "airplane", 2)):
        same = all(c[r] == per for r in ranks)
        if same and len(ranks) >= least and ranks[-1] <= 11 and ranks == list(range(ranks[0], ranks[-1] + 1)):
            found.add((name, ranks[-1]))
    for k in range(2, 7):
        for low in range(0, 12 - k + 1):
            core = range(low, low + k)
            if any(c[r] < 3 for r in core):
                continue
            rest = list(c)
            for r in core:
                rest[r] -= 3
            wing_ranks = [r for r in range(15) if rest[r]]
            if any(r in core for r in wing_ranks):
                continue
            if sum(rest) == k and all(rest[r] <= 2 for r in wing_ranks) and not (rest[13] and rest[14]):
                found.add(("airplane1", low + k - 1))
            if sum(rest) == 2 * k and len(wing_ranks) == k and all(rest[r] == 2 for r in wing_ranks):
                found.add(("airplane2", low + k - 1))
    for f in range(13):
        if c[f] != 4:
            continue
        rest = [n for r, n in enumerate(c) if r != f and n]
        if total == 6 and not (c[13] and c[14]):
            found.add(("four2", f))
        if total == 8 and sorted(rest) == [2, 2]:
            found.add(("four22", f))
    return found


def oracle_beats(combo: str, k: int, size: int, table: dm.Move | None) -> bool:
    if table is None:
        return True
    tcombo, tkey, tsize = table[0], table[1], len(table[2])
    if tcombo == "rocket":  # one rocket per deck: nothing follows it
        return False
    if combo == "rocket":
        return True
    if combo == "bomb":
        return tcombo != "bomb" or k > tkey
    return combo == tcombo and size == tsize and k > tkey


@functools.lru_cache(maxsize=64)
def every_combination(hand: tuple[int, ...]) -> frozenset[Key]:
    """Every sub-multiset of ``hand`` read as every combination it forms."""
    return frozenset(
        (combo, k, sub)
        for sub in itertools.product(*(range(n + 1) for n in hand))
        for combo, k in oracle_readings(sub)
    )


def brute_force(hand: tuple[int, ...], table: dm.Move | None) -> set[Key]:
    return {m for m in every_combination(hand) if oracle_beats(m[0], m[1], sum(m[2]), table)}


def check_complete(hand: tuple[int, ...], table: dm.Move | None) -> None:
    moves = dm.generate(hand, table)
    assert len(keys(moves)) == len(moves), "a move is generated twice"
    assert keys(moves) == brute_force(hand, table)
    assert dm.generate(hand, table) == moves, "the order is not stable"
    for move in moves:  # slots are the canonical form of the ranks
        assert move[2] == dm.slots_of(dm.move_counts(move))
        assert (move[0], move[1]) in {(m[0], m[1]) for m in dm.classify(dm.move_counts(move))}


hands = st.lists(st.sampled_from(range(54)), min_size=1, max_size=11, unique=True).map(
    lambda picks: dm.counts_of_ranks([DECK_RANKS[i] for i in picks])
)


@st.composite
def dense_hands(draw: st.DrawFn) -> tuple[int, ...]:
    """Hands packed into few ranks: many triples and fours, so airplanes with wings."""
    low = draw(st.integers(0, 12))
    c = [0] * 15
    for r in range(low, min(low + 5, 13)):
        c[r] = draw(st.integers(0, 4))
    c[13], c[14] = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    if not any(c):
        c[low] = 1
    return tuple(c)


@st.composite
def table_moves(draw: st.DrawFn) -> dm.Move | None:
    other = draw(hands)
    moves = dm.generate(other)
    if not moves or draw(st.integers(0, 3)) == 0:
        return None
    return draw(st.sampled_from(moves))


@pytest.mark.slow
@settings(max_examples=300)
@given(hand=hands, table=table_moves())
def test_generator_equals_brute_force(hand: tuple[int, ...], table: dm.Move | None) -> None:
    check_complete(hand, table)


@settings(max_examples=150)
@given(hand=hands)
def test_generator_equals_brute_force_when_leading(hand: tuple[int, ...]) -> None:
    check_complete(hand, None)


@pytest.mark.slow
@settings(max_examples=120)
@given(hand=dense_hands(), data=st.data())
def test_generator_equals_brute_force_on_dense_hands(hand: tuple[int, ...], data: st.DataObject) -> None:
    check_complete(hand, None)
    lead = dm.generate(hand)
    if lead:
        check_complete(hand, data.draw(st.sampled_from(lead)))


@pytest.mark.parametrize(
    "hand",
    [
        "3334445556667778",  # airplanes of every length, wings everywhere
        "333444555666BR",
        "3333444455556666",
        "33344455566677AA22",
        "3334448888QQKKBR",
        "444455556666777",
        "333344445555",
        "3456789TJQKA2BR",
    ],
)
def test_generator_equals_brute_force_on_hard_hands(hand: str) -> None:
    c = counts(hand)
    check_complete(c, None)
    for table in random.Random(hand).sample(dm.generate(c), 12):
        check_complete(c, table)


def test_random_full_hands_agree_with_the_classifier() -> None:
    """On 20-card hands (too big for brute force) every move classifies as itself
    and the follow-up lists are exactly the lead list filtered by ``beats``."""
    rng = random.Random(4)
    for _ in range(150):
        hand = dm.counts_of_ranks(rng.sample(DECK_RANKS, 20))
        lead = dm.generate(hand)
        assert len(keys(lead)) == len(lead)
        for move in lead:
            assert any(m[0] == move[0] and m[1] == move[1] for m in dm.classify(dm.move_counts(move)))
        for table in rng.sample(lead, 5):
            follow = dm.generate(hand, table)
            assert keys(follow) == {key(m) for m in lead if dm.beats(m, table)}


# ----------------------------------------------------------- combinations
def test_basic_combinations() -> None:
    assert find("7", "single")
    assert find("B", "single")
    assert find("R", "single")
    assert find("77", "pair")
    assert not find("BR", "pair")
    assert find("777", "triple")
    assert find("7774", "triple1")
    assert find("777R", "triple1")
    assert find("77744", "triple2")
    assert not find("7774R", "triple2")
    assert find("7777", "bomb")
    assert find("BR", "rocket")
    assert dm.classify(counts("7777")) == [("bomb", 4, dm.slots_of(counts("7777")))]


def test_triple_with_single_of_the_same_rank_is_a_bomb_not_a_triple1() -> None:
    assert [m[0] for m in dm.classify(counts("7777"))] == ["bomb"]


def test_straights() -> None:
    assert find("34567", "straight")
    assert find("3456789TJQKA", "straight")  # 12 cards, 3 to A
    assert the("3456789TJQKA", "straight")[1] == dm.ACE
    assert not find("3456", "straight")  # too short
    assert not find("TJQKA2", "straight")  # a 2 never joins a sequence
    assert not find("JQKA2", "straight")
    assert not find("QKA2B", "straight")
    assert not find("34568", "straight")  # a gap
    assert not dm.classify(counts("JQKA2"))


def test_pair_sequences() -> None:
    assert find("334455", "pairs")
    assert find("QQKKAA", "pairs")
    assert not find("3344", "pairs")  # two pairs are no sequence
    assert not find("KKAA22", "pairs")
    assert find("33445566778899TTJJQQ", "pairs")  # 10 pairs, 20 cards


def test_airplanes() -> None:
    assert find("333444", "airplane")
    assert not find("333555", "airplane")
    assert not find("AAA222", "airplane")
    assert find("333444555666777888", "airplane")  # 6 triples, 18 cards
    assert the("333444555", "airplane")[1] == 2


def test_airplane_with_single_wings() -> None:
    assert find("33344456", "airplane1")
    assert find("33344455", "airplane1")  # two wings may form a pair
    assert find("333444BR", "airplane") is False
    assert not find("333444BR", "airplane1")  # never both jokers
    assert find("333444B5", "airplane1")
    assert find("33344455566678", "airplane1") is False  # 14 cards: no shape
    assert find("333444555678", "airplane1")
    assert not find("333444555777", "airplane1")  # three wings of one rank
    assert not find("33344455556667", "airplane1")  # 16 cards: 5555 as wings is a four
    assert find("3334445556667789", "airplane1")
    assert not find("3334445556667777", "airplane1")  # four wings of one rank
    assert not find("33334445", "airplane1")  # a wing of a core rank
    assert find("3334448888", "airplane1") is False  # 10 cards: not airplane1
    assert find("33344488", "airplane1")  # two of a four as wings is fine
    assert find("33344455566677788899TJQ", "airplane1") is False  # 23 cards
    assert find("33344455566677789TJQ", "airplane1")  # 5 triples, 20 cards


def test_airplane1_from_a_held_four_keeps_the_fourth_card_out() -> None:
    moves = dm.generate(counts("333344456"))
    assert ("airplane1", 1, counts("33344456")) in keys(moves)
    assert not any(m[0] == "airplane1" and dm.move_counts(m)[0] == 4 for m in moves)


def test_airplane_with_pair_wings() -> None:
    assert find("3334445566", "airplane2")
    assert not find("3334445555", "airplane2")  # pair wings of distinct ranks
    assert not find("3333444455", "airplane2")  # a pair of a core rank
    assert find("333444555667788", "airplane2")
    assert find("33344455566677788QQ", "airplane2") is False  # 19 cards
    assert find("33344455566688QQKKAA", "airplane2")  # 4 triples, 20 cards


def test_four_with_two() -> None:
    assert find("777734", "four2")
    assert find("777733", "four2")  # the two may be a pair
    assert find("77773B", "four2")
    assert not find("7777BR", "four2")  # never both jokers
    assert find("77773344", "four22")
    assert not find("77773333", "four22")  # two pairs of distinct ranks
    assert not find("777733", "four22")
    assert [m[0] for m in dm.classify(counts("777734"))] == ["four2"]  # not a bomb


def test_one_reading_per_combination_and_two_readings_are_two_moves() -> None:
    # 33334444: four22 needs distinct pairs, airplane1 may not use core ranks
    assert dm.classify(counts("33334444")) == []
    moves = dm.generate(counts("3333444455"))
    combos = Counter(m[0] for m in moves if dm.move_counts(m) == counts("33334455"))
    assert combos == Counter({"four22": 1})
    assert ("four2", 0) in {(m[0], m[1]) for m in dm.classify(counts("333344"))}


# ------------------------------------------------------------------ beating
def test_beating() -> None:
    assert dm.beats(the("8", "single"), the("7", "single"))
    assert not dm.beats(the("7", "single"), the("7", "single"))
    assert not dm.beats(the("88", "pair"), the("7", "single"))
    assert dm.beats(the("44455566", "airplane1"), the("33344478", "airplane1"))
    assert not dm.beats(the("444555666", "airplane"), the("333444", "airplane"))  # size
    assert dm.beats(the("8883", "triple1"), the("777A", "triple1"))  # attachments never count
    assert dm.beats(the("3333", "bomb"), the("22", "pair"))
    assert dm.beats(the("4444", "bomb"), the("3333", "bomb"))
    assert not dm.beats(the("3333", "bomb"), the("4444", "bomb"))
    assert dm.beats(the("BR", "rocket"), the("2222", "bomb"))
    assert not dm.beats(the("2222", "bomb"), the("BR", "rocket"))
    assert dm.beats(the("777734", "four2"), the("666633", "four2"))


def test_bomb_beats_a_twenty_card_airplane() -> None:
    plane = the("33344455566677789TJQ", "airplane1")
    assert len(plane[2]) == 20
    assert dm.beats(the("3333", "bomb"), plane)
    assert ("bomb", 0, dm.slots_of(counts("3333"))) in dm.generate(counts("3333KK"), plane)


def test_rocket_beats_bombs_and_nothing_beats_the_rocket() -> None:
    assert dm.generate(counts("2222BR"), the("BR", "rocket")) == []
    assert [m[0] for m in dm.generate(counts("2222BR"), the("AAAA", "bomb"))] == ["bomb", "rocket"]
    assert [m[0] for m in dm.generate(counts("KKKKBR"), the("AAAA", "bomb"))] == ["rocket"]


def test_following_lists_same_type_and_size_then_bombs() -> None:
    moves = dm.generate(counts("3456789TJKKKKBR"), the("34567", "straight"))
    assert [dm.move_text(m) for m in moves] == [
        "straight 45678",
        "straight 56789",
        "straight 6789T",
        "straight 789TJ",
        "bomb KKKK",
        "rocket BR",
    ]


# -------------------------------------------------------------- typed moves
def test_parse_ranks() -> None:
    assert dm.rank_text(dm.parse_ranks("10 10 10 j q k a 2 b r")) == "TTTJQKA2BR"
    with pytest.raises(ActionFormatError):
        dm.parse_ranks("33X")
    with pytest.raises(ActionFormatError):
        dm.parse_ranks("33333")
    with pytest.raises(ActionFormatError):
        dm.parse_ranks("BB")
    with pytest.raises(ActionFormatError):
        dm.parse_ranks("  ")


def test_parse_typed_gives_every_legal_reading() -> None:
    hand = counts("3334445567QKA2")
    assert [dm.move_text(m) for m in dm.parse_typed("33344456", hand, None)] == ["airplane1 33344456"]
    assert [m[0] for m in dm.parse_typed("3333 44 55", counts("3333445566"), None)] == ["four22"]
    assert [m[0] for m in dm.parse_typed("333344", counts("333344"), None)] == ["four2"]
    with pytest.raises(IllegalAction) as info:
        dm.parse_typed("3345", hand, None)
    assert info.value.reason == "not_a_combination"
    with pytest.raises(IllegalAction) as info:
        dm.parse_typed("888", hand, None)
    assert info.value.reason == "card_not_in_hand"
    with pytest.raises(IllegalAction) as info:
        dm.parse_typed("5", hand, the("A", "single"))
    assert info.value.reason == "does_not_beat"
    assert [m[0] for m in dm.parse_typed("2", hand, the("A", "single"))] == ["single"]
