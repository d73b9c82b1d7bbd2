"""A Fairy Concerto run's setup: the validated configuration (:class:`ConcertoSetup`),
:func:`make_setup`, and what a setup declares for the studies (the cards a card-effect study
forces, the contest cards a table-card study fixes). Playing a setup is :mod:`.runs`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.concerto.cards import ConcertoCards, load_cards
from fairysim.sim.concerto.policies import POLICIES, ROLLOUT
from fairysim.sim.concerto.rules import SOLOISTS, soloist_index
from fairysim.sim.concerto.spec import NAME, PAHHA_NOTE, PAHHA_POLICY
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy
from fairysim.sim.search import playout_policy

FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PC5): 1 where the forced
seat was dealt the card anyway, and 1 where the exchange was made."""


@dataclass(frozen=True)
class ConcertoSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its soloist,
    pianist and harpist cards, each None when drawn at random for every game.

    ``forced_card`` (a score card's index in file order plus one, 0 for none) and
    ``forced_seat`` are a card-effect intervention (ruling PC5; the
    card-effect study of the analysis layer): every game's setup deal puts that card among the
    seat's two setup cards where no other seat is dealt it.
    """

    soloist: str | None = None
    pianist: str | None = None
    harpist: str | None = None
    forced_card: int = 0
    forced_seat: int = 0
    game = NAME

    def check(self) -> None:
        """``lookahead`` plays solo only: its rollouts replay the solo rounds against Pahha (C8),
        so in another form it would not play the game at hand. A forced card must be a score
        card of the file, for a player's seat."""
        if not 0 <= self.forced_card <= len(self.cards.score_ids):
            raise FairysimError(
                "forced_card",
                f"{self.forced_card} is no score card (1 to {len(self.cards.score_ids)})",
            )
        if not 0 <= self.forced_seat < self.players:
            raise FairysimError(
                "forced_seat", f"{self.forced_seat} is no seat of {self.players} players"
            )
        lookahead = POLICIES["lookahead"].builtin_id
        playouts = {playout_policy(POLICIES, p).name for p in self.policies if is_rollout(p)}
        if self.players != 1 and (
            any(p.builtin_id == lookahead for p in self.policies) or "lookahead" in playouts
        ):
            raise ParameterError(
                "policies",
                f"lookahead is for solo ({{players}} 1), not for {self.players} players",
                mentions=("players",),
            )
        if len(playouts) > 1:
            raise ParameterError(
                "weights",
                f"every rollout seat of a run plays out with one policy, not {sorted(playouts)}",
            )

    @property
    def extra_rows(self) -> tuple[tuple[str, str], ...]:
        """Pahha's row in solo."""
        return ((PAHHA_POLICY, "Pahha"),) if self.players == 1 else ()

    @property
    def form(self) -> str:
        """``solo``, ``two-player`` or ``draft``."""
        return {1: "solo", 2: "two-player"}.get(self.players, "draft")

    def table(self) -> str:
        return "solo against Pahha" if self.players == 1 else f"{self.players} players"

    def choices(self) -> list[str]:
        fixed = (("soloist", self.soloist), ("pianist", self.pianist), ("harpist", self.harpist))
        forced = (
            [f"{self.cards.score_ids[self.forced_card - 1]} forced to seat {self.forced_seat}"]
            if self.forced_card
            else []
        )
        return [f"{name} {value}" for name, value in fixed if value is not None] + forced

    def preamble(self) -> list[str]:
        return [f"Cards: {self.cards.label}"]

    def footnotes(self) -> list[str]:
        return [PAHHA_NOTE] if self.players == 1 else []

    def fixed_setup(self) -> np.ndarray:
        """int64[FIXED_SETUP_SIZE]: fixed soloist, pianist and harpist indices, -1 where drawn
        at random; then the forced score card's index (-1 for none) and its seat (PC5)."""
        return np.array(
            [
                -1 if self.soloist is None else soloist_index(self.soloist),
                -1 if self.pianist is None else self.cards.pianist_index(self.pianist),
                -1 if self.harpist is None else self.cards.harpist_index(self.harpist),
                self.forced_card - 1,
                self.forced_seat,
            ],
            dtype=np.int64,
        )

    def own_config(self) -> dict[str, Any]:
        forced = (
            {"forced_card": self.forced_card, "forced_seat": self.forced_seat}
            if self.forced_card
            else {}
        )
        return {
            "soloist": self.soloist,
            "pianist": self.pianist,
            "harpist": self.harpist,
            "cards_provisional": self.cards.provisional,
            **forced,
        }


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | ConcertoCards | None = None,
    soloist: str | None = None,
    pianist: str | None = None,
    harpist: str | None = None,
    forced_card: int = 0,
    forced_seat: int = 0,
) -> ConcertoSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--soloist`` ...).

    Parameters
    ----------
    players : int
        1 (solo against Pahha), 2 (two-player rules) or 3-4.
    policies : str, Policy or sequence
        One per player, or one for all.
    seed : int
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set when None).
    soloist : {"A", "B", "C", "D"}, optional
    pianist, harpist : str, optional
        Card ids from the card file.
    forced_card, forced_seat : int, optional
        A card-effect intervention (ruling PC5): score card ``forced_card - 1`` (in file order)
        put among seat ``forced_seat``'s setup cards; 0 for none.

    Returns
    -------
    ConcertoSetup
    """
    if soloist is not None:
        try:
            soloist = SOLOISTS[soloist_index(soloist)]
        except ValueError as exc:
            raise ParameterError("soloist", str(exc)) from None
    card_set = cards if isinstance(cards, ConcertoCards) else load_cards(cards)
    if pianist is not None:
        pianist = card_set.pianist_ids[card_set.pianist_index(pianist, "pianist")]
    if harpist is not None:
        harpist = card_set.harpist_ids[card_set.harpist_index(harpist, "harpist")]
    return ConcertoSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        soloist=soloist,
        pianist=pianist,
        harpist=harpist,
        forced_card=int(forced_card),
        forced_seat=int(forced_seat),
    )


def is_rollout(p: Policy) -> bool:
    """Whether ``p`` is the ``rollout`` built-in (the engine searches for its seats)."""
    return p.builtin_id == ROLLOUT


def effect_cards(setup: ConcertoSetup) -> list[tuple[int, str]]:
    """The cards a card-effect study forces (ruling PC5): every score card, by its id."""
    return [(i + 1, card_id) for i, card_id in enumerate(setup.cards.score_ids)]


def contest_variants(setup: ConcertoSetup) -> list[tuple[str, dict[str, str]]]:
    """The contest cards a table-card study fixes (ruling PC3), as what-if variants: every
    soloist, pianist and harpist card of the card file."""
    return [
        *((f"Soloist {s}", {"soloist": s}) for s in SOLOISTS),
        *((f"Pianist {p}", {"pianist": p}) for p in setup.cards.pianist_ids),
        *((f"Harpist {h}", {"harpist": h}) for h in setup.cards.harpist_ids),
    ]
