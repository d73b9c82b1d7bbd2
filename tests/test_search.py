"""The rollout search written once for every game (fairysim.sim.search), on a toy table.

The toy's play-out of choice ``c`` wins with chance ``p[c]``, drawn from the stream its
determinization was keyed with; it logs every key it meets, so the tests can see that every
choice is tried on the same determinizations (common random numbers).
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple

import numba as nb
import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.policy import builtin, weight
from fairysim.sim.rng import RNG_COUNTER, new_stream, uniform
from fairysim.sim.search import (
    DEFAULT,
    ROLLOUTS,
    make_rollout_search,
    playout_policy,
    playout_tables,
    refuse_unsearched,
    rollout_builtin,
    searches,
)

Toy = namedtuple("Toy", ["rng", "key"])


@nb.njit
def toy_copy(src, dst):
    for i in range(len(src.rng)):
        dst.rng[i] = src.rng[i]
    dst.key[0] = src.key[0]


@nb.njit
def toy_redraw(t, seat, key, context):
    t.key[0] = key
    t.rng[0] = key
    t.rng[1] = 0


@nb.njit
def toy_play_out(t, seat, choice, context):
    p, log, n_logged = context
    log[n_logged[0]] = t.key[0]
    n_logged[0] += 1
    return 1.0 if uniform(t.rng) < p[choice] else 0.0


toy_search = make_rollout_search(toy_copy, toy_redraw, toy_play_out)


def new_toy() -> Toy:
    return Toy(np.zeros(2, np.uint64), np.zeros(1, np.uint64))


def run_search(p, default_choice, rollouts, seed=3):
    p = np.asarray(p, np.float64)
    log = np.zeros(max(1, rollouts * len(p)), np.uint64)
    n_logged = np.zeros(1, np.int64)
    rng = new_stream(seed, 0, 1)
    chosen = toy_search(
        new_toy(),
        new_toy(),
        new_toy(),
        0,
        len(p),
        default_choice,
        rollouts,
        rng,
        np.zeros(len(p)),
        (p, log, n_logged),
    )
    return chosen, rng, log[: n_logged[0]]


def test_it_takes_the_choice_with_the_best_mean_win_share():
    chosen, _, _ = run_search([0.2, 0.9, 0.4], default_choice=0, rollouts=64)
    assert chosen == 1


def test_no_rollouts_or_one_choice_is_the_default_choice_and_draws_nothing():
    for p, rollouts in (([0.1, 0.9], 0), ([0.5], 16)):
        chosen, rng, log = run_search(p, default_choice=0, rollouts=rollouts)
        assert chosen == 0
        assert rng[RNG_COUNTER] == 0  # the seat's stream is untouched
        assert len(log) == 0


def test_ties_go_to_the_default_choice():
    # Every play-out of every choice wins: all totals tie, the default's choice stands.
    chosen, _, _ = run_search([1.0, 1.0, 1.0], default_choice=2, rollouts=8)
    assert chosen == 2


def test_every_choice_meets_the_same_determinizations():
    _, rng, log = run_search([0.3, 0.6, 0.5], default_choice=0, rollouts=5)
    keys = log.reshape(5, 3)  # rollout k, choice c
    assert (keys == keys[:, :1]).all()  # one key per rollout, shared by the choices
    assert len(set(keys[:, 0].tolist())) == 5  # a new determinization each rollout
    assert rng[RNG_COUNTER] == 5  # one draw of the seat's stream per rollout


def test_the_rollout_builtin_names_its_playout_policy():
    registry = {
        "random": builtin("random", print, "uniform", 0),
        "best": builtin("best", print, "the best heuristic", 1),
    }
    rollout = rollout_builtin(registry, "best")
    assert rollout.weight_names[ROLLOUTS] == "rollouts"
    assert playout_policy(registry, rollout).name == "best"
    assert playout_policy(registry, rollout.with_weights(default="random")).name == "random"
    assert rollout.with_weights(default="random").weights[DEFAULT] == 0
    with pytest.raises(FairysimError, match="weight default must be one of random, best"):
        rollout.with_weights(default=2)
    with pytest.raises(FairysimError, match="whole number"):
        rollout.with_weights(rollouts=2.5)


def test_playout_tables_and_the_reference_refusal():
    registry = {
        "random": builtin("random", print, "uniform", 0),
        "best": builtin("best", print, "the best heuristic", 1, w=weight(0.5, 0, 1)),
    }
    rollout = rollout_builtin(registry, "best")
    table = {**registry, "rollout": dataclasses.replace(rollout, builtin_id=2)}
    lineup = [table["rollout"], table["random"], table["rollout"].with_weights(default="random")]
    assert searches(lineup) and not searches(lineup[1:2])
    ids, weights = playout_tables(lineup, registry, 4)
    assert ids.tolist() == [1, 0, 0, 0]
    assert weights[0, 0] == 0.5 and not weights[1:].any()
    refuse_unsearched(lineup[1:2])
    with pytest.raises(FairysimError, match="policies: rollout searches the fast engine"):
        refuse_unsearched(lineup)
