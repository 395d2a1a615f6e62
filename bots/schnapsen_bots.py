"""Schnapsen bots: the `basic` policy, determinization and the `strong` search.

Theory of operation
-------------------
``basic`` plays the rules of thumb of a casual player: exchange the trump
jack, announce marriages (the forty first), close when the top trumps bring
66 home, win a trick cheaply with the suit led, trump only aces and tens, and
throw the cheapest card otherwise, keeping possible marriages together.

``strong`` searches over what it cannot see. A determinization deals the
unseen cards to the opponent's hand and the talon consistently with
everything the seat saw: cards in its hand, piles, trick and the indicator
are out; an announced marriage partner or a taken indicator (``shown``) is
pinned in the opponent's hand; and every trick of strict play says what the
opponent lacked (not following: void in the suit; not trumping too: no
trumps; following low: no higher card of the suit). Strict play has no
draws, so what it lacked then it still lacks. The trick list comes from the
view's ``history`` when the engine provides it, else from the won piles (see
``pile_exclusions``). With the talon open the bot runs ISMCTS (``search.py``)
with ``basic`` playouts; with it closed it solves each sampled world exactly
and sums the values (determinized search); once nothing is hidden (talon
exhausted) it solves the position exactly (``exact.py``).

A deal is worth its effect on the match: rewards are the chance of winning
the 7-point match from the counts after the deal (``equity``), so a bot at 1
does not risk the match for a third game point.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final

from cardavia.bots.base import Bot, Budget, decision_rng
from cardavia.bots.basic_bot import POLICIES, BasicBot, BasicPolicy
from cardavia.bots.determinize import (
    DETERMINIZERS,
    DeterminizeError,
    Determinizer,
    HiddenPlaces,
    sample_places,
)
from cardavia.bots.exact import ExactSolver, best_exact_action
from cardavia.bots.models import MODELS, SearchModel
from cardavia.bots.search import ismcts
from cardavia.bots.strong_bot import StrongBot
from cardavia.games.cards import DECK_SCHNAPSEN, Card, format_cards, parse_cards
from cardavia.games.engine import Action, State, View
from cardavia.games.schnapsen import GAME, SchnapsenState
from cardavia.games.schnapsen_rules import (
    CARD_POINTS,
    HAND,
    PARTNER,
    TRICK_ORDER,
    WIN,
    Close,
    Exchange,
    Play,
    marriage_value,
)
from cardavia.games.tricks import trick_winner

GAME_ID: Final = "schnapsen"
POINTS: Final = {c: CARD_POINTS[c.rank] for c in DECK_SCHNAPSEN}
STRENGTH: Final = {c: TRICK_ORDER[c.rank] for c in DECK_SCHNAPSEN}
SUIT_CARDS: Final = {s: frozenset(c for c in DECK_SCHNAPSEN if c.suit == s) for s in "CDHS"}


# ------------------------------------------------------------ what a seat sees
@dataclass(frozen=True, slots=True)
class SchnapsenSeen:
    """What one seat sees of a deal: all the basic policy reads."""

    hand: tuple[Card, ...]
    trump: str
    lead: Card | None
    strict: bool
    points: int
    """Own credited points."""
    pending: int
    """Own announced marriage points waiting for a first trick."""
    has_trick: bool
    gone: frozenset[Card]
    """Cards out of play: both won piles and the trick."""
    marriages: tuple[tuple[int, str], ...]
    seat: int

    @classmethod
    def from_view(cls, view: View) -> SchnapsenSeen:
        seat = view["seat"]
        gone = frozenset(parse_cards([*view["won"][0], *view["won"][1], *view["trick"]]))
        trick = view["trick"]
        return cls(
            parse_cards(view["hand"]),
            view["trump"],
            Card.parse(trick[0]) if trick else None,
            view["strict"],
            view["points"][seat],
            view["pending"],
            view["tricks"][seat] > 0,
            gone,
            tuple((m["seat"], m["suit"]) for m in view["marriages"]),
            seat,
        )

    @classmethod
    def from_state(cls, state: State[Any], seat: int) -> SchnapsenSeen:
        """The same as ``from_view(state.view(seat))``, read without building the view."""
        assert isinstance(state, SchnapsenState)
        return cls(
            tuple(state.hands[seat]),
            state.trump,
            state.trick[0] if state.trick else None,
            state.strict,
            state.points(seat),
            state.pending(seat),
            bool(state.won[seat]),
            frozenset((*state.won[0], *state.won[1], *state.trick)),
            state.marriages,
            seat,
        )


# --------------------------------------------------------------- basic policy
def _may_marry(seen: SchnapsenSeen, card: Card) -> bool:
    """A king or queen whose marriage can still be announced by this seat."""
    partner = PARTNER.get(card)
    return partner is not None and partner not in seen.gone and (seen.seat, card.suit) not in seen.marriages


def _keep_value(seen: SchnapsenSeen, card: Card) -> float:
    """What giving ``card`` away costs: its points, more for trumps and marriage halves."""
    cost = float(POINTS[card])
    if card.suit == seen.trump:
        cost += 8 + STRENGTH[card]
    if _may_marry(seen, card):
        cost += 6 if card.suit != seen.trump else 10
    return cost


def _masters(seen: SchnapsenSeen, suit: str) -> list[Card]:
    """Own cards of ``suit`` that win any trick of that suit: every stronger one is out or ours."""
    own = sorted((c for c in seen.hand if c.suit == suit), key=STRENGTH.__getitem__, reverse=True)
    masters: list[Card] = []
    for card in sorted(SUIT_CARDS[suit], key=STRENGTH.__getitem__, reverse=True):
        if card in seen.gone:
            continue
        if card not in own:
            break
        masters.append(card)
    return masters


def _should_close(seen: SchnapsenSeen) -> bool:
    """Close when cashing the top trumps surely brings 66 (each wins its points and at least a jack)."""
    if not seen.has_trick:
        return False
    sure = sum(POINTS[c] + 2 for c in _masters(seen, seen.trump))
    return seen.points + sure >= WIN


def _lead(seen: SchnapsenSeen, legal: Sequence[Action]) -> Action:
    announce: list[Play] = []
    for action in legal:
        if isinstance(action, Exchange):
            return action
        if isinstance(action, Play) and action.marriage:
            announce.append(action)
    if announce:
        # The forty first; lead the queen (the king is worth more in a pile).
        return max(announce, key=lambda a: (marriage_value(a.card.suit, seen.trump), a.card.rank == "Q"))
    if any(isinstance(a, Close) for a in legal) and _should_close(seen):
        return next(a for a in legal if isinstance(a, Close))
    plays = [a for a in legal if isinstance(a, Play)]
    if seen.strict:
        trump_masters = _masters(seen, seen.trump)
        trumps_out = any(
            c.suit == seen.trump and c not in seen.gone and c not in seen.hand for c in DECK_SCHNAPSEN
        )
        if trump_masters and trumps_out:
            return next(a for a in plays if a.card is trump_masters[0])
        masters = [m for s in "CDHS" if s != seen.trump for m in _masters(seen, s)[:1]]
        if masters:
            best_master = max(masters, key=POINTS.__getitem__)
            return next(a for a in plays if a.card is best_master)
    return min(plays, key=lambda a: (_keep_value(seen, a.card), STRENGTH[a.card]))


def _follow(seen: SchnapsenSeen, plays: Sequence[Play]) -> Action:
    lead = seen.lead
    assert lead is not None
    trump = seen.trump
    winners = [p for p in plays if trick_winner(lead, p.card, trump, TRICK_ORDER)]
    credited = seen.points + (0 if seen.has_trick else seen.pending)
    finishing = [p for p in winners if credited + POINTS[lead] + POINTS[p.card] >= WIN]
    if finishing:
        return min(finishing, key=lambda p: _keep_value(seen, p.card))
    if seen.strict:
        if winners:
            return min(winners, key=lambda p: (p.card.suit == trump, STRENGTH[p.card]))
        return min(plays, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))
    same_suit = [p for p in winners if p.card.suit == lead.suit]
    if same_suit and lead.suit != trump:
        # Taking with the suit led costs nothing: the card lands in our own pile.
        return max(same_suit, key=lambda p: POINTS[p.card] - (8 if _may_marry(seen, p.card) else 0))
    if winners and POINTS[lead] >= 10:
        return min(winners, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))
    return min(plays, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))


def choose_schnapsen(seen: SchnapsenSeen, legal: Sequence[Action]) -> Action:
    """The basic move; ties go to the first in ``legal`` order."""
    if not all(isinstance(a, Play | Exchange | Close) for a in legal):
        raise TypeError("a Schnapsen bot was given a move that is not a Schnapsen move")
    if seen.lead is None:
        return _lead(seen, legal)
    return _follow(seen, [a for a in legal if isinstance(a, Play)])


DESCRIPTION: Final = (
    "Exchanges the trump jack, announces marriages, takes tricks cheaply and trumps only aces and tens."
)
POLICY: Final = BasicPolicy(SchnapsenSeen.from_view, SchnapsenSeen.from_state, choose_schnapsen, DESCRIPTION)


# ------------------------------------------------- what strict play revealed
Trick = tuple[int, Card, Card]
"""(follower, lead, follow) of one finished trick."""


def lacked(tricks: Iterable[Trick], seat: int, trump: str) -> frozenset[Card]:
    """Cards ``seat`` cannot hold after following these strict-play tricks."""
    out: set[Card] = set()
    for follower, lead, follow in tricks:
        if follower != seat:
            continue
        if follow.suit != lead.suit:
            out |= SUIT_CARDS[lead.suit]
            if follow.suit != trump:
                out |= SUIT_CARDS[trump]
        elif STRENGTH[follow] < STRENGTH[lead]:
            out.update(c for c in SUIT_CARDS[lead.suit] if STRENGTH[c] > STRENGTH[lead])
    return frozenset(out)


def strict_tricks_done(view: View) -> int:
    """Finished tricks of strict play: hands start it with 5 cards and no card is drawn after."""
    return HAND - max(view["hand_counts"]) if view["strict"] else 0


def history_tricks(history: Sequence[Mapping[str, Any]], trick_open: bool) -> list[Trick]:
    """The finished tricks in the deal's public history, oldest first."""
    plays = [(a["seat"], Card.parse(a["play"])) for a in history if "play" in a]
    if trick_open:
        plays = plays[:-1]
    if len(plays) % 2:
        plays = plays[1:]  # a history that starts inside a trick (a position read from text)
    return [(plays[i + 1][0], plays[i][1], plays[i + 1][1]) for i in range(0, len(plays), 2)]


@lru_cache(maxsize=1024)
def pile_exclusions(
    piles: tuple[tuple[Card, ...], tuple[Card, ...]],
    trump: str,
    *,
    first_leader: int,
    leader: int,
    strict_done: int,
    seat: int,
) -> frozenset[Card]:
    """What ``seat`` lacks, read from the won piles when the view has no history.

    Each pile holds its tricks in order as (lead, follow), and the winner says
    who led, but not how the two piles interleave. Every interleaving in which
    each trick's leader won the trick before (the first led by the dealer's
    opponent, the last won by today's leader) is tried, and only what holds
    in all of them is kept: sound, if sometimes less than the history shows.
    """
    rows: list[list[tuple[int, Trick]]] = []
    for winner, pile in enumerate(piles):
        row = []
        for i in range(0, len(pile) - 1, 2):
            lead, follow = pile[i], pile[i + 1]
            follower = winner if trick_winner(lead, follow, trump, TRICK_ORDER) else 1 - winner
            row.append((1 - follower, (follower, lead, follow)))
        rows.append(row)
    found: frozenset[Card] | None = None

    def walk(i: int, j: int, turn: int, order: list[Trick]) -> None:
        nonlocal found
        if i == len(rows[0]) and j == len(rows[1]):
            if turn == leader:
                ex = lacked(order[len(order) - strict_done :] if strict_done else [], seat, trump)
                found = ex if found is None else found & ex
            return
        for pile, k in ((0, i), (1, j)):
            if k < len(rows[pile]) and rows[pile][k][0] == turn:
                order.append(rows[pile][k][1])
                walk(i + (pile == 0), j + (pile == 1), pile, order)
                order.pop()

    walk(0, 0, first_leader, [])
    return found or frozenset()


def opponent_lacks(view: View) -> frozenset[Card]:
    """Cards the opponent of the view's seat cannot hold (strict-play inferences)."""
    seat, trump = view["seat"], view["trump"]
    done = strict_tricks_done(view)
    if not done:
        return frozenset()
    history = view.get("history")
    if history is not None:
        tricks = history_tricks(history, bool(view["trick"]))
        return lacked(tricks[len(tricks) - done :], 1 - seat, trump)
    piles = (parse_cards(view["won"][0]), parse_cards(view["won"][1]))
    return pile_exclusions(
        piles, trump, first_leader=1 - view["dealer"], leader=view["leader"], strict_done=done, seat=1 - seat
    )


# ------------------------------------------------------------ determinization
def _seat(view: View) -> int:
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise DeterminizeError("a spectator's view cannot be determinized: it has no hand")
    return seat


def schnapsen_hidden(view: View) -> HiddenPlaces:
    """Unseen: all but own hand, piles, trick and indicator; to the opponent's hand and the talon."""
    seat = _seat(view)
    seen = set(parse_cards([*view["hand"], *view["trick"], *view["won"][0], *view["won"][1]]))
    if view["indicator"] is not None:
        seen.add(Card.parse(view["indicator"]))
    unseen = tuple(c for c in DECK_SCHNAPSEN if c not in seen)
    sizes = {"hand": view["hand_counts"][1 - seat], "talon": max(view["talon"] - 1, 0)}
    shown = frozenset(parse_cards(view["shown"][1 - seat]))
    return HiddenPlaces(
        unseen,
        sizes,
        ordered=frozenset({"talon"}),
        known={"hand": shown},
        excluded={"hand": opponent_lacks(view) - shown},
    )


def schnapsen_build(view: View, placed: Mapping[str, list[Card]]) -> SchnapsenState:
    """The position text of the view with the placed cards, read back by ``GAME.position``."""
    seat = _seat(view)
    hands = ["", ""]
    hands[seat] = format_cards(parse_cards(view["hand"]))
    shown = parse_cards(view["shown"][1 - seat])  # in hand order, as the view lists them
    hands[1 - seat] = format_cards([*shown, *(c for c in placed["hand"] if c not in shown)])
    talon = [*placed["talon"], Card.parse(view["indicator"])] if view["talon"] else []
    closed = "-"
    if view["closed"]:
        trick = "yes" if view["closed_opponent_trick"] else "no"
        closed = f"{view['closed_by']} {view['closed_opponent_points']} {trick}"
    marriages = " ".join(f"{m['seat']}:{m['suit']}" for m in view["marriages"]) or "-"
    counts = view["counts"]
    text = "\n".join(
        [
            "game: schnapsen",
            f"target: {view['target']}",
            f"counts: {counts[0]} {counts[1]}",
            f"deal: {view['deal']}",
            f"dealer: {view['dealer']}",
            f"turn: {view['to_move']}",
            f"trump: {view['trump']}",
            f"talon: {format_cards(talon)}",
            f"hands: {hands[0]} / {hands[1]}",
            f"trick: {format_cards(parse_cards(view['trick']))}",
            f"won: {format_cards(parse_cards(view['won'][0]))} / {format_cards(parse_cards(view['won'][1]))}",
            f"marriages: {marriages}",
            f"closed: {closed}",
            f"shown: {format_cards(parse_cards([*view['shown'][0], *view['shown'][1]]))}",
        ]
    )
    return GAME.position(text)


DETERMINIZER: Final = Determinizer(schnapsen_hidden, schnapsen_build)


def determinize(view: View, rng: random.Random) -> SchnapsenState:
    """A random full state consistent with ``view`` (see the module notes)."""
    return schnapsen_build(view, sample_places(schnapsen_hidden(view), rng))


# ---------------------------------------------------------------- match value
DEAL_POINTS: Final = {1: 0.55, 2: 0.4, 3: 0.05}
"""How often a deal is won by 1, 2 or 3 game points (basic against basic, rounded)."""
LEADER_WINS: Final = 0.5
"""Chance that the non-dealer (who leads) wins a deal."""


@cache
def equity(mine: int, theirs: int, dealing: bool) -> float:
    """The chance of winning the match with counts ``mine`` and ``theirs`` (to go), before a deal."""
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    win = 1.0 - LEADER_WINS if dealing else LEADER_WINS
    return sum(
        share
        * (win * equity(mine - k, theirs, not dealing) + (1 - win) * equity(mine, theirs - k, not dealing))
        for k, share in DEAL_POINTS.items()
    )


@dataclass(frozen=True, slots=True)
class SchnapsenModel(SearchModel):
    """Search knobs for Schnapsen: rewards are match equity after the deal, playouts are ``basic``."""

    @property
    def determinizer(self) -> Determinizer:
        return DETERMINIZER

    def rewards(self, state: State[Any], root_deals: int) -> list[float]:
        assert isinstance(state, SchnapsenState)
        result = state.result
        if result is not None:
            return [1.0 if result.winner == s else -1.0 for s in (0, 1)]
        counts = state.counts
        return [2.0 * equity(counts[s], counts[1 - s], state.dealer == s) - 1.0 for s in (0, 1)]

    def playout(self, state: State[Any], seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.playout_epsilon and rng.random() < self.playout_epsilon:
            return legal[rng.randrange(len(legal))]
        return choose_schnapsen(SchnapsenSeen.from_state(state, seat), legal)


MODEL: Final = SchnapsenModel(
    GAME_ID, scale=3.0, win_weight=0.0, iterations=700, exploration=0.5, playout_epsilon=0.0
)
"""ISMCTS iterations with the talon open; closed, ``iterations * NODES_PER_ITERATION`` solver nodes."""
NODES_PER_ITERATION: Final = 10
"""Exact-solver nodes that cost about as much time as one ISMCTS iteration."""
MAX_WORLDS: Final = 40
"""Worlds solved at most for one decision with a closed talon."""


# ----------------------------------------------------------------------- bots
class SchnapsenBasicBot(BasicBot):
    """The `basic` Schnapsen player: the generic basic bot with this game's policy."""

    description = DESCRIPTION
    policy = POLICY


class SchnapsenStrongBot(StrongBot):
    """ISMCTS with the talon open, exact solving of sampled worlds once it is closed, exact when known."""

    description = "Searches the cards it cannot see and plays the closed and exhausted talon exactly."

    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        hidden = schnapsen_hidden(view)
        if hidden.fully_known:
            action, _ = best_exact_action(MODEL, schnapsen_build(view, sample_places(hidden, rng)))
            return action if action in legal else legal[0]
        if budget is not None and (budget.iterations is not None or budget.seconds is not None):
            iterations, seconds = budget.iterations, budget.seconds
        else:
            iterations, seconds = self.iterations or MODEL.iterations, None
        if view["strict"]:
            nodes = None if iterations is None else iterations * NODES_PER_ITERATION
            return solve_worlds(view, legal, hidden, rng, nodes=nodes, seconds=seconds)
        return ismcts(MODEL, view, legal, rng, iterations=iterations, seconds=seconds).action

    @staticmethod
    def _model(game_id: str) -> SearchModel:
        return MODEL


def solve_worlds(
    view: View,
    legal: Sequence[Action],
    hidden: HiddenPlaces,
    rng: random.Random,
    *,
    nodes: int | None,
    seconds: float | None,
) -> Action:
    """Determinized search: solve sampled worlds exactly and take the best summed value.

    The budget counts solver nodes (a world right after closing costs a
    hundred times one near the end), so a seeded bot stays deterministic
    and its time stays bounded; at least two worlds are always solved.
    """
    deadline = None if seconds is None else time.perf_counter() + seconds
    totals = dict.fromkeys(legal, 0.0)
    worlds = spent = 0
    while worlds < MAX_WORLDS and (worlds < 2 or _within(spent, nodes, deadline)):
        world = schnapsen_build(view, sample_places(hidden, rng))
        solver = ExactSolver(MODEL, world)
        for action, value in solver.action_values(world).items():
            if action in totals:
                totals[action] += value
        worlds += 1
        spent += solver.nodes
    best = max(totals.values())
    return next(a for a in legal if totals[a] == best)


def _within(spent: int, nodes: int | None, deadline: float | None) -> bool:
    if nodes is not None and spent >= nodes:
        return False
    return deadline is None or time.perf_counter() < deadline


def make_bot(level: str, seed: str | int | None = None, iterations: int | None = None) -> Bot:
    """The `basic` or `strong` Schnapsen bot (the bot registry's hook for this game)."""
    if level == "basic":
        return SchnapsenBasicBot(seed)
    if level == "strong":
        return SchnapsenStrongBot(seed, iterations=iterations)
    raise ValueError(f"no {level} bot in this module")


def register() -> None:
    """Put Schnapsen in the framework's tables (policy, determinizer, search model)."""
    POLICIES[GAME_ID] = POLICY
    DETERMINIZERS[GAME_ID] = DETERMINIZER
    MODELS[GAME_ID] = MODEL
