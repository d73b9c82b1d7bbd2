"""The jitted engine and the plain-Python reference engine agree game by game.

Both engines play the same games (same seed, same game indices, same policies) and must give
identical outcomes on every output column, including each seat's medal points after every round.
The default suite plays a few thousand games over every player count, Grande Finale fan and
built-in policy, pure and mixed lineups; the ``slow`` test plays 20,000 more.

Built-in policies read only part of the view, so a policy that hashes the *whole* view and
answers with the hash checks every slot the engines show; and the views themselves are compared
slot by slot at every decision of a few games.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import engine, make_setup, play_chunks
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.cards import FantastiqueCards
from fairysim.sim.fantastique.rules import (
    FANS,
    MAX_PLAYERS,
    MEDAL_ROWS,
    ROUNDS,
    TAKE_STACK,
    V_NEXT_MEDAL,
    V_ROUND,
    V_SEAT,
    VIEW_FIELDS,
    VIEW_SIZE,
)
from fairysim.sim.policy import Policy, policy

from . import CARDS, call_engine, engine_view, table_from_state

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

BUILTINS = ("random", "greedy", "hoarder", "balancer")


def lineups(players: int) -> list[list[str]]:
    """Every built-in at every seat, and two mixed lineups."""
    pure = [[name] * players for name in BUILTINS]
    mixed = [
        [BUILTINS[(seat + shift) % len(BUILTINS)] for seat in range(players)] for shift in (0, 3)
    ]
    return pure + mixed


def jitted_arrays(setup, games: int, trace: bool = True) -> dict[str, np.ndarray]:
    return join_chunks(play_chunks(setup, games, trace=trace))


def assert_same_games(setup, games: int, first_game: int = 0) -> None:
    """Reference games ``first_game ..`` equal the jitted ones on every column."""
    expected = ref.play_games(setup, games, first_game=first_game, trace=True)
    got = {k: v[first_game:] for k, v in jitted_arrays(setup, first_game + games).items()}
    assert set(got) == set(expected)
    for name in expected:
        assert got[name].shape == expected[name].shape, name
        same = (got[name] == expected[name]).reshape(games, -1).all(axis=1)
        if not same.all():
            game = int(np.flatnonzero(~same)[0])
            pytest.fail(
                f"{name} differs first in game {first_game + game} of seed {setup.seed}, "
                f"{setup.players} players, fan {setup.fan}, {setup.policy_names}: "
                f"jitted {got[name][game]} vs reference {expected[name][game]}"
            )


def play_lineups(players: int, fan: str, games_per_lineup: int, base_seed: int) -> None:
    for i, lineup in enumerate(lineups(players)):
        seed = base_seed + 1000 * players + 10 * FANS.index(fan) + i
        assert_same_games(
            make_setup(players=players, fan=fan, policies=lineup, seed=seed), games_per_lineup
        )


@pytest.mark.parametrize("fan", FANS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engines_agree(players, fan):
    # 24 cases x 6 lineups x 21 games: about 3,000 games.
    play_lineups(players, fan, 21, base_seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("fan", FANS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engines_agree_20000_games(players, fan):
    # 24 cases x 6 lineups x 140 games: about 20,000 games.
    play_lineups(players, fan, 140, base_seed=7_000_000)


def test_engines_agree_from_any_first_game():
    setup = make_setup(
        players=4, fan="V", policies=["balancer", "random", "hoarder", "greedy"], seed=31
    )
    assert_same_games(setup, 20, first_game=57)


# --- Decks that run dry: reshuffles, empty piles, short displays, players with no legal fan ------

VARIANT_DECKS = {
    # 50 cards: with 5 players nothing is left to reveal in round 1 (F3, both piles empty).
    "exact": [0, 12, 12, 12, 12, 2, 0, 0, 0],
    # One value only: fans of one value collide, so players run out of legal fans (F4).
    "ones": [0, 60, 0, 0, 0, 0, 0, 0, 0],
    "two_values": [0, 30, 30, 0, 0, 0, 0, 0, 0],
    "small": [0, 10, 10, 10, 10, 10, 10, 0, 0],
}


@pytest.mark.parametrize("deck", list(VARIANT_DECKS))
@pytest.mark.parametrize("players", [2, 5])
def test_engines_agree_on_decks_that_run_dry(deck, players):
    cards = FantastiqueCards(
        np.array(VARIANT_DECKS[deck], dtype=np.int64), CARDS.medal_values, CARDS.finale_medals, deck
    )
    for i, lineup in enumerate(lineups(players)):
        setup = make_setup(
            players=players, fan=FANS[i % len(FANS)], policies=lineup, seed=500 + i, cards=cards
        )
        assert_same_games(setup, 12)


def test_variant_decks_do_reach_the_edge_cases(monkeypatch):
    """The decks above really exercise F3 and F4 in the reference (else the test above is weak)."""
    seen = {"both_empty": 0, "passer": 0}
    reshuffle = ref.reshuffle_discard_pile
    take = ref.take_new_fan_cards

    def counting_reshuffle(state):
        done = reshuffle(state)
        seen["both_empty"] += not done
        return done

    def counting_take(state):
        seen["passer"] += sum(p.fan is None for p in state.players)
        take(state)

    monkeypatch.setattr(ref, "reshuffle_discard_pile", counting_reshuffle)
    monkeypatch.setattr(ref, "take_new_fan_cards", counting_take)
    for deck in ("exact", "ones"):
        cards = FantastiqueCards(
            np.array(VARIANT_DECKS[deck], dtype=np.int64),
            CARDS.medal_values,
            CARDS.finale_medals,
            deck,
        )
        ref.play_games(make_setup(players=5, fan="I", policies="random", seed=500, cards=cards), 12)
    assert seen["both_empty"] > 0
    assert seen["passer"] > 0


# --- Every slot of the view ----------------------------------------------------------------------


@policy
def view_hash_policy(decision, view, choices, n_choices, weights, rng):
    """Answers with a hash of the decision, the whole view and the choices: two engines that
    show different views (or offer different choices) soon answer differently."""
    h = np.int64(decision) + 17
    for i in range(view.shape[0]):
        h = h * np.int64(1000003) + view[i]
        h ^= h >> np.int64(29)
    for i in range(n_choices):
        h = h * np.int64(1000003) + choices[i, 0] * 131 + choices[i, 1]
        h ^= h >> np.int64(29)
    return (h & np.int64(0x7FFFFFFFFFFFFFFF)) % n_choices


VIEW_HASH = Policy("view_hash", view_hash_policy, description="hash of the whole view")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engines_agree_with_a_policy_that_reads_the_whole_view(players):
    setup = make_setup(
        players=players, fan=FANS[players], policies=[VIEW_HASH] * players, seed=77 + players
    )
    assert_same_games(setup, 40)


def slot_names() -> list[str]:
    """The name of every view slot, as ``hand[3]`` for the slots of an array field."""
    names = []
    for name, size in VIEW_FIELDS:
        names += [name] if size == 1 else [f"{name}[{i}]" for i in range(size)]
    return names


SLOT_NAMES = slot_names()


def test_view_slot_names_cover_the_view():
    assert len(SLOT_NAMES) == VIEW_SIZE
    assert SLOT_NAMES[V_NEXT_MEDAL] == "next_medal[0]"


class ViewCheckingPolicy:
    """Wraps a seat's policy: before each decision, compares the reference's view with what the
    jitted engine's ``fill_view`` + ``fill_next_medals`` show for the same table."""

    def __init__(self, state: ref.GameState, inner, mismatches: list, skip_exhausted_rows: bool):
        self.state = state
        self.inner = inner
        self.mismatches = mismatches
        self.skip_exhausted_rows = skip_exhausted_rows
        self.decisions = 0

    def __call__(self, decision, view, choices, n_choices, weights, rng):
        seat = int(view[V_SEAT])
        jitted = engine_view(table_from_state(self.state), self.state, seat)
        differ = np.flatnonzero(jitted != view)
        if self.skip_exhausted_rows:
            exhausted = [
                V_NEXT_MEDAL + r
                for r, row in enumerate(self.state.medal_rows)
                if row.next_medal == 0
            ]
            differ = [i for i in differ if i not in exhausted]
        for i in differ:
            self.mismatches.append(
                (self.state.round, decision, seat, SLOT_NAMES[i], int(jitted[i]), int(view[i]))
            )
        self.decisions += 1
        return self.inner(decision, view, choices, n_choices, weights, rng)


def check_views(setup, games: int, skip_exhausted_rows: bool) -> tuple[list, int]:
    mismatches: list = []
    decisions = 0
    for game in range(games):
        state = ref.new_game(setup, game)
        wrappers = [
            ViewCheckingPolicy(state, p.policy, mismatches, skip_exhausted_rows)
            for p in state.players
        ]
        for player, wrapper in zip(state.players, wrappers, strict=True):
            player.policy = wrapper
        for round_ in range(ROUNDS):
            state.round = round_
            ref.play_round(state)
        decisions += sum(w.decisions for w in wrappers)
    return mismatches, decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_reference_view_equals_engine_fill_view(players):
    """Slot by slot, at every decision: hand, stacks, fans played, medal points, hand sizes,
    draw pile, discard pile, next medals (but see the test below for exhausted medal rows)."""
    setup = make_setup(
        players=players,
        fan="III",
        policies=["balancer", "hoarder", "random", "greedy", "balancer"][:players],
        seed=3,
    )
    mismatches, decisions = check_views(setup, 4, skip_exhausted_rows=True)
    assert decisions >= 4 * ROUNDS * players
    assert mismatches == [], mismatches[:10]


def test_next_medal_of_an_exhausted_row_is_zero():
    """During the stack choice of round 7 every medal of the gold row (and of the silver and
    bronze rows, when they were awarded every round) is handed out: the view must say 0 there,
    as for a row not in play, and the engine must not read past the end of the row."""
    t = engine.new_table(CARDS.total_cards)
    # The medal rows, followed in memory by a row of 99s: reading past a row shows up as 99 or
    # as the first medal of the next row.
    padded = np.full((len(MEDAL_ROWS) + 1, ROUNDS), 99, dtype=np.int64)
    padded[: len(MEDAL_ROWS)] = CARDS.medal_values
    medal_values = padded[: len(MEDAL_ROWS)]
    t.medal_next[:] = ROUNDS
    for players in (2, 3, 4, 5):
        call_engine(engine.fill_next_medals, t=t, n_players=players, medal_values=medal_values)
        shown = list(t.seat_view[V_NEXT_MEDAL : V_NEXT_MEDAL + len(MEDAL_ROWS)])
        assert shown == [0, 0, 0], (
            f"{players} players, all medals handed out: next medals shown {shown}"
        )


def test_reference_shows_zero_for_an_exhausted_row():
    setup = make_setup(players=MAX_PLAYERS, fan="I", policies="greedy", seed=1)
    seen = []

    def recording(decision, view, choices, n_choices, weights, rng):
        if decision == TAKE_STACK and view[V_ROUND] == ROUNDS - 1:
            seen.append(list(view[V_NEXT_MEDAL : V_NEXT_MEDAL + len(MEDAL_ROWS)]))
        return 0

    state = ref.new_game(setup, 0)
    for player in state.players:
        player.policy = recording
    for round_ in range(ROUNDS):
        state.round = round_
        ref.play_round(state)
    assert seen, "no stack was chosen in round 7"
    assert all(next_medals[0] == 0 for next_medals in seen)  # gold is awarded every round
