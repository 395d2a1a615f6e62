"""Schnapsen bots: determinization, the opponent model, and the `strong` search.

Theory of operation
-------------------
The `basic` policy is in ``schnapsen_heuristics.py``.

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
with ``basic`` playouts, two iterations on each sampled world (building a
world through ``GAME.position`` costs about as much as a playout), the
playouts on plain lists (``play_deal``, checked against the engine by the
tests); with the talon closed it solves sampled worlds exactly and sums the
values (determinized search); once nothing is hidden (talon exhausted) it
solves the position exactly (``exact.py``). Exact values assume perfect
play, so when several moves tie (the deal is lost, or won, whatever it
does) ISMCTS with the opponent model chooses among them: against a player
who errs, the move that gives it most chances to err.

The opponent may be a casual player or may play at random. Its plays in
open play this deal say which (``schnapsen_random_share``: `basic` seldom
leads an ace, a ten or a trump, trumps a cheap lead, or throws a high card
away; random play often does), and in that share of the iterations the
opponent moves at random in the tree and the playout.

A deal is worth its effect on the match: rewards are the chance of winning
the 7-point match from the counts after the deal (``equity``), so a bot at 1
does not risk the match for a third game point.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final

from cardavia.bots.base import Budget
from cardavia.bots.basic_bot import BasicBot
from cardavia.bots.briscola_heuristics import PRIOR_RANDOM, posterior
from cardavia.bots.determinize import (
    Determinizer,
    HiddenPlaces,
    sample_places,
    view_seat,
)
from cardavia.bots.exact import ExactSolver, best_exact_action
from cardavia.bots.models import SearchModel
from cardavia.bots.schnapsen_heuristics import (
    DESCRIPTION,
    POINTS,
    POLICY,
    STRENGTH,
    SUIT_CARDS,
    SchnapsenSeen,
    choose_schnapsen,
)
from cardavia.bots.search import ismcts
from cardavia.bots.strong_bot import GameBots, StrongBot
from cardavia.games.cards import DECK_SCHNAPSEN, Card, format_cards, parse_cards
from cardavia.games.engine import Action, State, View
from cardavia.games.schnapsen import GAME, SchnapsenState
from cardavia.games.schnapsen_rules import (
    ANNOUNCE,
    CLOSE,
    EXCHANGE,
    HAND,
    JACK,
    PARTNER,
    PLAY,
    TRICK_ORDER,
    WIN,
    Close,
    Exchange,
    Play,
    deal_outcome,
    marriage_value,
    may_follow,
)
from cardavia.games.tricks import trick_winner

GAME_ID: Final = "schnapsen"


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


# ---------------------------------------------------------- opponent model
def implausible(lead: Card | None, card: Card, trump: str) -> bool:
    """A move in open play that ``basic`` seldom makes (it plays its cheapest card unless a trick is
    worth taking): leading an ace, a ten or a trump; trumping a lead worth less than ten; losing a
    trick with an ace, a ten or a trump."""
    if lead is None:
        return POINTS[card] >= 10 or card.suit == trump
    if trick_winner(lead, card, trump, TRICK_ORDER):
        return card.suit == trump and lead.suit != trump and POINTS[lead] < 10
    return POINTS[card] >= 10 or card.suit == trump


def open_plays(history: Sequence[Mapping[str, Any]]) -> list[tuple[int, Card | None, Card]]:
    """(seat, the lead or None, card) of each play of the deal before the talon was closed or used up,
    marriage announcements left out (what they lead is forced by the announcement)."""
    plays: list[tuple[int, Card | None, Card]] = []
    lead: Card | None = None
    finished = 0
    closed = False
    for entry in history:
        closed = closed or bool(entry.get("close"))
        if "play" not in entry:
            continue
        card = Card.parse(entry["play"])
        if not closed and finished < TALON_TRICKS and not entry.get("marriage"):
            plays.append((entry["seat"], lead, card))
        if lead is None:
            lead = card
        else:
            finished += 1
            lead = None
    return plays


def schnapsen_random_share(view: View, rng: random.Random) -> float:
    """The probability that the opponent plays at random rather than like `basic`, from its plays in
    open play this deal (how often each kind makes an ``implausible`` move was measured)."""
    opponent = 1 - view["seat"]
    likelihoods: list[tuple[float, float]] = []
    for seat, lead, card in open_plays(view.get("history") or []):
        if seat == opponent:
            randomly, basic = IMPLAUSIBLE_FOLLOW if lead is not None else IMPLAUSIBLE_LEAD
            if not implausible(lead, card, view["trump"]):
                randomly, basic = 1.0 - randomly, 1.0 - basic
            likelihoods.append((randomly, basic))
    return posterior(PRIOR_RANDOM, likelihoods)


TALON_TRICKS: Final = 5
"""Tricks after which the talon is used up: it holds ten cards and each trick draws two."""
IMPLAUSIBLE_LEAD: Final = (0.53, 0.07)
IMPLAUSIBLE_FOLLOW: Final = (0.41, 0.03)
"""How often random play and ``basic`` make an implausible lead or follow (over 350-700 of each)."""


# ------------------------------------------------------------ determinization
def schnapsen_hidden(view: View) -> HiddenPlaces:
    """Unseen: all but own hand, piles, trick and indicator; to the opponent's hand and the talon."""
    seat = view_seat(view)
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
    seat = view_seat(view)
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

    def finish_deal(
        self, state: State[Any], root_deals: int, rng: random.Random, randomly: frozenset[int]
    ) -> list[float] | None:
        assert isinstance(state, SchnapsenState)
        if self.deal_over(state, root_deals) or self.horizon is not None:
            return None
        return play_deal(state, rng, randomly, self.playout_epsilon)


def play_deal(
    state: SchnapsenState, rng: random.Random, randomly: frozenset[int], epsilon: float
) -> list[float]:
    """The rest of the deal with the basic policy (``randomly``: seats that play at random), on plain
    lists instead of engine states: the engine's rules, moves in its order, and the model's rewards."""
    trump, turn, closed, marriages = state.trump, state.turn, state.closed, state.marriages
    hands = [list(state.hands[0]), list(state.hands[1])]
    talon, trick = list(state.talon), list(state.trick)
    won = [bool(state.won[0]), bool(state.won[1])]
    piles = list(state.pile_points)
    married = [state.marriage_points(0), state.marriage_points(1)]
    gone = {*state.won[0], *state.won[1], *trick}

    def points(seat: int) -> int:
        return piles[seat] + married[seat] if won[seat] else 0

    while True:
        seat, hand = turn, hands[turn]
        open_talon = bool(talon) and closed is None
        legal: list[Action]
        if trick:
            legal = [PLAY[c] for c in (hand if open_talon else may_follow(hand, trick[0], trump))]
        else:
            legal = []
            for card in hand:
                legal.append(PLAY[card])
                partner = PARTNER.get(card)
                if partner is not None and partner in hand and (seat, card.suit) not in marriages:
                    legal.append(ANNOUNCE[card])
            if open_talon:
                if JACK[trump] in hand:
                    legal.append(EXCHANGE[trump])
                if len(hand) == HAND:
                    legal.append(CLOSE)
        if len(legal) == 1:
            action = legal[0]
        elif seat in randomly or (epsilon and rng.random() < epsilon):
            action = legal[rng.randrange(len(legal))]
        else:
            seen = SchnapsenSeen(
                tuple(hand), trump, trick[0] if trick else None, not open_talon, points(seat),
                0 if won[seat] else married[seat], won[seat], frozenset(gone), marriages, seat,
            )  # fmt: skip
            action = choose_schnapsen(seen, legal)
        if type(action) is Exchange:
            hand[hand.index(action.card)] = talon[-1]
            talon[-1] = action.card
            continue
        if type(action) is Close:
            closed = (seat, points(1 - seat), won[1 - seat])
            continue
        assert type(action) is Play
        card = action.card
        if action.marriage:
            marriages = (*marriages, (seat, card.suit))
            married[seat] += marriage_value(card.suit, trump)
            if won[seat] and points(seat) >= WIN:
                winner = seat
                break
        hand.remove(card)
        gone.add(card)
        trick.append(card)
        if len(trick) == 1:
            turn = 1 - seat
            continue
        lead = trick[0]
        winner = seat if trick_winner(lead, card, trump, TRICK_ORDER) else 1 - seat
        won[winner] = True
        piles[winner] += POINTS[lead] + POINTS[card]
        trick = []
        turn = winner
        if points(winner) >= WIN:
            break
        if talon and closed is None:
            for drawer in (winner, 1 - winner):
                hands[drawer].append(talon.pop(0))
        elif not hands[0] and not hands[1]:
            winner = 1 - closed[0] if closed is not None else winner
            break
    loser = 1 - winner
    _, gained = deal_outcome(winner, points(winner) >= WIN, closed, points(loser), won[loser])
    scores = list(state.scores)
    scores[winner] += gained
    if scores[winner] >= state.target:
        return [1.0 if winner == s else -1.0 for s in (0, 1)]
    counts, dealer = [state.target - scores[0], state.target - scores[1]], 1 - state.dealer
    return [2.0 * equity(counts[s], counts[1 - s], dealer == s) - 1.0 for s in (0, 1)]


MODEL: Final = SchnapsenModel(
    GAME_ID,
    scale=3.0,
    win_weight=0.0,
    iterations=480,
    exploration=0.5,
    playout_epsilon=0.0,
    opponent_model=schnapsen_random_share,
    iterations_per_world=2,
)
"""ISMCTS iterations with the talon open; closed, ``iterations * NODES_PER_ITERATION`` solver nodes."""
NODES_PER_ITERATION: Final = 10
"""Exact-solver nodes that cost about as much time as one ISMCTS iteration."""
MAX_WORLDS: Final = 40
"""Worlds solved at most for one decision with a closed talon."""
TIE_SHARE: Final = 4
"""A tie among exact values is broken by ISMCTS on this share (1/4) of the decision's budget."""


# ----------------------------------------------------------------------- bots
Sampler = Callable[[HiddenPlaces, random.Random], Mapping[str, list[Card]]]
"""Places the unseen cards of one world (``sample_places``, or a weighted reading's)."""


class SchnapsenBasicBot(BasicBot):
    """The `basic` Schnapsen player: the generic basic bot with this game's policy."""

    description = DESCRIPTION
    policy = POLICY


class SchnapsenStrongBot(StrongBot):
    """ISMCTS with the talon open, exact solving of sampled worlds once it is closed, exact when known."""

    description = "Searches the cards it cannot see and plays the closed and exhausted talon exactly."

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        return self.search(model, view, legal, rng, budget, sample=sample_places)

    def search(
        self,
        model: SearchModel,
        view: View,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget,
        *,
        sample: Sampler,
    ) -> Action:
        """The decision, with ``model``'s determinizer for ISMCTS and ``sample`` placing the worlds
        solved exactly (the expert level passes both weighted by its reading of the opponent)."""
        hidden, iterations, seconds = schnapsen_hidden(view), budget.iterations, budget.seconds
        if hidden.fully_known:
            _, values = best_exact_action(model, schnapsen_build(view, sample_places(hidden, rng)))
            best = max(values.values())
            tied = [a for a in legal if values.get(a) == best] or [legal[0]]
        elif view["strict"]:
            nodes = None if budget.iterations is None else budget.iterations * NODES_PER_ITERATION
            tied = solve_worlds(view, legal, hidden, rng, nodes=nodes, seconds=budget.seconds, sample=sample)
        else:
            return ismcts(model, view, legal, rng, iterations=iterations, seconds=seconds).action
        if len(tied) == 1:
            return tied[0]
        # Exactly equal against perfect play (a deal won, or lost, whatever it does): the opponent
        # model's search picks among them the move that best uses the opponent's likely mistakes.
        iterations = None if iterations is None else max(1, iterations // TIE_SHARE)
        seconds = None if seconds is None else seconds / TIE_SHARE
        return ismcts(model, view, tied, rng, iterations=iterations, seconds=seconds).action

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
    sample: Sampler = sample_places,
) -> list[Action]:
    """Determinized search: solve sampled worlds exactly; the actions of the best summed value.

    The budget counts solver nodes (a world right after closing costs a
    hundred times one near the end), so a seeded bot stays deterministic
    and its time stays bounded; at least one world is always solved.
    """
    deadline = None if seconds is None else time.perf_counter() + seconds
    totals = dict.fromkeys(legal, 0.0)
    worlds = spent = 0
    while worlds < MAX_WORLDS and (worlds < 1 or _within(spent, nodes, deadline)):
        world = schnapsen_build(view, sample(hidden, rng))
        solver = ExactSolver(MODEL, world)
        for action, value in solver.action_values(world).items():
            if action in totals:
                totals[action] += value
        worlds += 1
        spent += solver.nodes
    best = max(totals.values())
    return [a for a in legal if totals[a] == best]


def _within(spent: int, nodes: int | None, deadline: float | None) -> bool:
    if nodes is not None and spent >= nodes:
        return False
    return deadline is None or time.perf_counter() < deadline


BOTS: Final = GameBots(SchnapsenBasicBot, SchnapsenStrongBot, DETERMINIZER, MODEL)
"""This game's own bot classes, for the bot registry."""
