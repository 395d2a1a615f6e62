"""The `expert` Schnapsen bot: the strong search over worlds weighted by the opponent's play.

Theory of operation
-------------------
`strong` (``schnapsen_bots.py``) searches worlds sampled uniformly among
the placements the rules and strict play allow. `expert` is the same
search, information-set MCTS (Cowling, Powley and Whitehouse 2012) while
the talon is open and determinized exact solving once it is closed, with
two changes:

* Its worlds are drawn in proportion to how likely the opponent's moves
  this deal are in them (``schnapsen_reading.Reading``: an opponent model
  of `basic`'s choices with deviations, the inference of Buro et al. 2009
  and Whitehouse et al. 2013). A decision builds one ``Reading`` and hands
  the search a determinizer and a world sampler that draw from it.
* A larger iteration budget (``ITERATIONS``, twice strong's), still within
  the room's bot budget: about 2.4 times strong's decision time, the
  reading included (``bench.hidden_cards`` prints the mean per decision).

Everything stays deterministic for a seed: the reading draws from the
decision's generator, and the budget counts iterations.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from cardavia.bots.base import Budget
from cardavia.bots.determinize import Determinizer, HiddenPlaces
from cardavia.bots.models import SearchModel
from cardavia.bots.schnapsen_bots import (
    MODEL,
    SchnapsenModel,
    SchnapsenStrongBot,
    schnapsen_build,
    schnapsen_hidden,
    schnapsen_random_share,
)
from cardavia.bots.schnapsen_reading import Reading
from cardavia.games.cards import Card
from cardavia.games.engine import Action, State, View

ITERATIONS: Final = 960
"""The expert's ISMCTS iterations with the talon open (strong: 480)."""


@dataclass(frozen=True, slots=True)
class ReadingDeterminizer(Determinizer):
    """Schnapsen's determinizer drawing the opponent's hand from one decision's ``Reading``."""

    reading: Reading | None = None

    def determinize(self, view: View, rng: random.Random) -> State[Any]:
        assert self.reading is not None
        return self.build(view, self.reading.sample(self.hidden(view), rng))


@dataclass(frozen=True, slots=True)
class ReadingModel(SchnapsenModel):
    """The strong model whose determinizations come from a ``Reading``."""

    worlds: Determinizer | None = None

    @property
    def determinizer(self) -> Determinizer:
        assert self.worlds is not None
        return self.worlds


class SchnapsenExpertBot(SchnapsenStrongBot):
    """The strong search over worlds weighted by how likely they make the opponent's moves."""

    id = "expert"
    level = "expert"
    description = "Reads the opponent's play to weigh where the hidden cards lie, and searches longer."

    default_iterations = ITERATIONS

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        reading = Reading(view, schnapsen_random_share(view, rng))
        worlds = ReadingDeterminizer(schnapsen_hidden, schnapsen_build, reading)
        weighted = ReadingModel(**_fields(MODEL), worlds=worlds)
        return self.search(weighted, view, legal, rng, budget, sample=partial(_sample, reading))


def _sample(reading: Reading, hidden: HiddenPlaces, rng: random.Random) -> Mapping[str, list[Card]]:
    return reading.sample(hidden, rng)


def _fields(model: SchnapsenModel) -> dict[str, Any]:
    return {name: getattr(model, name) for name in model.__dataclass_fields__}
