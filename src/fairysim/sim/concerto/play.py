"""Public entry points: play Fairy Concerto games and get tidy results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    Progress,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    tidy_frame,
)
from fairysim.sim.concerto.cards import ConcertoCards, load_cards
from fairysim.sim.concerto.engine import OUTCOME_COLUMNS, new_outcome, play_games
from fairysim.sim.concerto.lanes import PLAYER_COUNTS as LANE_PLAYER_COUNTS
from fairysim.sim.concerto.lanes import play_greedy_games
from fairysim.sim.concerto.policies import GREEDY, POLICIES, ROLLOUT
from fairysim.sim.concerto.rules import (
    DECISIONS,
    KINDS,
    MAX_SEATS,
    PART_NAMES,
    SOLOISTS,
    form_rounds,
    soloist_index,
)
from fairysim.sim.concerto.spec import NAME, PAHHA_NOTE, PAHHA_POLICY
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy, seat_policies
from fairysim.sim.search import playout_policy

SETUP_COLUMNS = ("players", "soloist_card", "pianist_card", "harpist_card", "popularity_kind")

TRACE = "score_round"
"""The array of a traced run (``trace=True``): each seat's standing after each round (ruling
PC6), the tidy rows' ``score_round_1`` .. ``score_round_N`` (the spec's ``trace_prefix``)."""


@dataclass(frozen=True)
class ConcertoSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its soloist,
    pianist and harpist cards, each None when drawn at random for every game.

    ``forced_card`` (a score card's index in file order plus one, 0 for none) and
    ``forced_seat`` are a card-effect intervention (ruling PC5;
    :mod:`fairysim.analysis.studies.card_effects`): every game's setup deal puts that card among the
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


def search_context(setup: ConcertoSetup) -> tuple | None:
    """What a run with a ``rollout`` seat passes the engine as ``search`` (None without one):
    the play-out lineup's built-in ids, view flags and weights, every seat the play-out policy
    at its default weights (:func:`fairysim.sim.search.playout_policy`)."""
    rollouts = [p for p in setup.policies if is_rollout(p)]
    if not rollouts:
        return None
    lineup = seat_policies([playout_policy(POLICIES, rollouts[0])] * MAX_SEATS, MAX_SEATS)
    return (lineup.ids, lineup.reads_view, lineup.weights)


def play_chunks(
    setup: ConcertoSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
    trace: bool = False,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk, for games ``first_game`` onwards (a sweep
    hands game ranges of one run to different workers).

    A solo or 3-4 player table where every seat plays greedy is played in lanes
    (:mod:`.lanes`), the same games faster; ``lanes=False`` plays it one game at a time
    (:mod:`.engine`), for comparison.

    Per-row arrays (shape ``(n, seats)``) are the :data:`SEAT_COLUMNS`; per-game arrays (shape
    ``(n,)``) are the setup codes ``soloist_card``, ``pianist_card``, ``harpist_card``,
    ``popularity_kind`` and the bookkeeping ``bag_left``, ``tokens_removed``, ``pile_left``,
    ``discarded``. With ``trace``, ``score_round`` of shape ``(n, seats, rounds)`` (rounds of the
    form: 2, 4 for two players, 7 solo, Pahha the second seat): each seat's standing after each
    round, the score it would have if the game ended then (ruling PC6).
    """
    seats = seat_policies(setup.policies, MAX_SEATS)
    search = search_context(setup)
    fixed = setup.fixed_setup()
    cards = setup.cards
    card_arrays = (cards.score_need, cards.tokens, cards.pianist_sets, cards.harpist_sets)
    in_lanes = (
        lanes
        and not setup.forced_card
        and setup.players in LANE_PLAYER_COUNTS
        and all(seats.ids[: setup.players] == GREEDY)
    )

    rounds = form_rounds(setup.players)

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = new_outcome(n, setup.seats)
        trace_out = np.zeros((n if trace else 1, setup.seats, rounds), np.int64)
        threads = nb.get_num_threads()
        if in_lanes:
            play_greedy_games(
                setup.seed, first, setup.players, *card_arrays, fixed, out, trace_out, trace,
                threads,
            )  # fmt: skip
            arrays = outcome_arrays(out, forced=False)
        else:
            errors = new_error_records(n)
            play_games(
                setup.seed,
                first,
                setup.players,
                *seats,
                *card_arrays,
                fixed,
                out,
                trace_out,
                trace,
                errors,
                threads,
                search,
            )
            raise_first_illegal_choice(errors, first, DECISIONS)
            arrays = outcome_arrays(out, forced=bool(setup.forced_card))
        if trace:
            arrays[TRACE] = trace_out.astype(OUTCOME_COLUMNS["score"][0])
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def outcome_arrays(out, forced: bool = False) -> dict[str, np.ndarray]:
    """Flatten an engine Outcome into named per-row and per-game arrays; ``forced`` adds the
    card-effect columns (:data:`FORCED_COLUMNS`)."""
    arrays: dict[str, np.ndarray] = {
        "score": out.score,
        "rank": out.rank,
        "win_share": out.win_share,
        "margin": out.margin,
    }
    for i, name in enumerate(PART_NAMES):
        arrays[name] = out.parts[:, :, i]
    for name in ("cards_held", "cards_completed", "held_mask", "completed_mask"):
        arrays[name] = getattr(out, name)
    for k, kind in enumerate(KINDS):
        arrays[f"n_{kind}"] = out.orchestra[:, :, k]
    for name in (
        "soloist_card",
        "pianist_card",
        "harpist_card",
        "popularity_kind",
        "bag_left",
        "tokens_removed",
        "pile_left",
        "discarded",
        *(FORCED_COLUMNS if forced else ()),
    ):
        arrays[name] = getattr(out, name)
    return arrays


FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PC5): 1 where the forced
seat was dealt the card anyway, and 1 where the exchange was made."""


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


BOOKKEEPING = ("bag_left", "tokens_removed", "pile_left", "discarded")


def chunk_frame(setup: ConcertoSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy rows of one chunk, setup codes turned into labels."""
    public = {k: v for k, v in arrays.items() if k not in BOOKKEEPING}
    frame = tidy_frame(first, public, setup.seats, setup.policy_names, {"players": setup.players})
    labels = {
        "soloist_card": list(SOLOISTS),
        "pianist_card": list(setup.cards.pianist_ids),
        "harpist_card": list(setup.cards.harpist_ids),
        "popularity_kind": list(KINDS),
    }
    for name, categories in labels.items():
        frame[name] = pd.Categorical.from_codes(frame[name].to_numpy().astype(np.int64), categories)
    return frame


def score_orchestra(
    counts,
    setup: dict[str, Any],
    score_cards: Sequence[str] = (),
    cards: str | Path | ConcertoCards | None = None,
) -> dict[str, int]:
    """Score one orchestra by hand (rulings C5; honors need the other orchestras, so they are 0).

    Parameters
    ----------
    counts : mapping, sequence of 5 ints, or iterable of kind names
        The orchestra (composers on score cards included).
    setup : dict
        ``popularity`` (kind name), ``soloist`` (``"A"`` .. ``"D"``), ``pianist`` and ``harpist``
        (card ids of the card file).
    score_cards : sequence of str
        Ids of the score cards held face up.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set when None).

    Returns
    -------
    dict
        Points per part of :data:`.rules.PART_NAMES` and ``total``.

    Raises
    ------
    FairysimError
        Naming ``counts``, ``setup`` (a key outside popularity, soloist, pianist, harpist is
        refused) or ``score_cards``; see :func:`.cards.check_orchestra`,
        :func:`.cards.check_setup` and :func:`.cards.check_score_cards`.

    Examples
    --------
    >>> score_orchestra([2, 2, 2, 5, 1], {"popularity": "horn", "soloist": "C",
    ...                 "pianist": "P1", "harpist": "H1"})["soloist"]
    9
    """
    from fairysim.sim.concerto.cards import check_orchestra, check_score_cards, check_setup
    from fairysim.sim.concerto.rules import (
        P_SCORE_CARDS,
        POINTS_PER_SCORE_CARD,
        card_complete,
        contest_parts,
    )

    card_set = cards if isinstance(cards, ConcertoCards) else load_cards(cards)
    c = check_orchestra(counts, card_set)
    pop, soloist, pianist, harpist = check_setup(setup, card_set)
    held = check_score_cards(score_cards, card_set)
    parts = np.zeros(len(PART_NAMES), dtype=np.int64)
    contest_parts(
        c, pop, soloist, card_set.pianist_sets[pianist], card_set.harpist_sets[harpist], parts
    )
    done = sum(bool(card_complete(card_set.score_need[i], c)) for i in held)
    parts[P_SCORE_CARDS] = POINTS_PER_SCORE_CARD * done
    result = {name: int(parts[i]) for i, name in enumerate(PART_NAMES)}
    result["total"] = int(parts.sum())
    return result
