"""Each game's one table of built-ins, the dispatch made from it, and an id it does not hold.

A seat must play the policy it was given: a built-in id that is none of the game's built-ins is
refused before any game (``resolve_policies``) and, should one reach an engine all the same, is
an illegal answer the run reports (``call_builtin`` answers ``UNKNOWN_BUILTIN``), never a
silent game of another policy.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import textwrap

import numpy as np
import pytest

from fairysim.runtime.errors import UNKNOWN_BUILTIN, FairysimError, IllegalChoiceError
from fairysim.sim.dispatch import builtin_table
from fairysim.sim.policy import builtin, resolve_policies, seat_functions, seat_policies
from fairysim.sim.run import simulate

GAMES = ("fantastique", "concerto", "fairyland")


def policies_module(game: str):
    return importlib.import_module(f"fairysim.sim.{game}.policies")


def chain_of(module) -> tuple[dict[int, str], ast.stmt]:
    """What ``module.call_builtin`` runs for each id (id -> function name), and its last line."""
    source = textwrap.dedent(inspect.getsource(module.call_builtin.py_func))
    body = ast.parse(source).body[0].body
    branches = {}
    for statement in body:
        if not isinstance(statement, ast.If):
            continue
        test = statement.test
        assert isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.Eq)
        assert test.left.id == "policy_id"
        policy_id = getattr(module, test.comparators[0].id)
        (returned,) = statement.body
        assert policy_id not in branches, f"two branches for id {policy_id}"
        branches[policy_id] = returned.value.func.id
    return branches, body[-1]


@pytest.mark.parametrize("game", GAMES)
def test_call_builtin_runs_each_built_in_of_the_table_by_its_id(game):
    module = policies_module(game)
    branches, last = chain_of(module)
    # a game may ask its later built-ins through their function (Fairy Land's judging ones):
    # the chain then holds exactly the first ids, the ones it names as called directly
    direct = getattr(module, "CALLED_DIRECTLY", tuple(module.POLICIES))
    assert [module.POLICIES[name].builtin_id for name in direct] == list(range(len(direct)))
    table = {
        p.builtin_id: p.function.py_func.__name__
        for name, p in module.POLICIES.items()
        if name in direct
    }
    assert branches == table
    ids = sorted(p.builtin_id for p in module.POLICIES.values())
    assert ids == list(range(len(module.POLICIES)))
    # the last line answers an unknown id as illegal, rather than playing some built-in
    assert isinstance(last, ast.Return) and last.value.id == "UNKNOWN_BUILTIN"


def test_the_table_gives_ids_by_place_and_refuses_a_name_twice():
    module = policies_module("fantastique")
    a = builtin("a", module.random_policy, "first")
    b = builtin("b", module.greedy_policy, "second")
    assert a.builtin_id == -1  # outside a table: called through its function, as a user policy
    table = builtin_table(a, b)
    assert [(p.name, p.builtin_id) for p in table.values()] == [("a", 0), ("b", 1)]
    with pytest.raises(ValueError, match="two built-in policies are called 'a'"):
        builtin_table(a, b, a)


@pytest.mark.parametrize("game", GAMES)
def test_a_policy_with_a_foreign_built_in_id_is_refused_before_any_game(game):
    table = policies_module(game).POLICIES
    greedy = table["greedy"]
    # another game's built-in whose id is one of this game's ids
    other = policies_module("fairyland" if game != "fairyland" else "fantastique").POLICIES
    foreign = next(p for p in other.values() if p.builtin_id == greedy.builtin_id)
    out_of_range = dataclasses.replace(greedy, name="greedy-99", builtin_id=99)
    for bad in (foreign, out_of_range):
        with pytest.raises(FairysimError, match=r"^policies: policy .* carries built-in id"):
            resolve_policies([bad], 2, table)
    # the game's own built-ins, reweighted or called as user policies, are its own
    as_user = dataclasses.replace(greedy, name="greedy-as-user", builtin_id=-1)
    assert resolve_policies([greedy, as_user], 2, table) == (greedy, as_user)


def test_an_unknown_id_reaching_the_engine_is_an_illegal_answer():
    module = policies_module("fantastique")
    policies = [module.POLICIES["greedy"]] * 4
    functions = seat_functions(policies, 5)
    view = np.zeros(64, np.int64)
    choices = np.zeros((4, 2), np.int64)
    weights = np.zeros(8)
    rng = np.zeros(2, np.uint64)
    ids = np.array([99, module.GREEDY], np.int64)
    args = (0, view, choices, 1, weights, rng)
    assert module.ask_policy(ids, functions, 0, *args) == UNKNOWN_BUILTIN
    assert module.ask_policy(ids, functions, 1, *args) == 0
    assert seat_policies(policies, 5).ids.tolist() == [module.GREEDY] * 4 + [-1]


def test_a_run_whose_seat_carries_an_unknown_id_stops_with_one_line():
    from fairysim.sim.fantastique.runs import play_chunks
    from fairysim.sim.fantastique.setup import make_setup

    setup = make_setup(players=3, policies="random", seed=3)
    bad = dataclasses.replace(setup.policies[0], name="random-7", builtin_id=7)
    setup = dataclasses.replace(setup, policies=(bad, *setup.policies[1:]))
    with pytest.raises(IllegalChoiceError) as caught:
        list(play_chunks(setup, 4, lanes=False))
    assert str(caught.value).startswith("policy: game 0, seat 0, decision ")
    message = str(caught.value)
    assert message.endswith("the seat's built-in policy id is none of this game's built-ins")
    # simulate, which resolves the lineup, refuses the same policy before any game
    with pytest.raises(FairysimError, match="carries built-in id 7"):
        simulate("fantastique", games=4, players=3, policies=[bad, "random", "random"])
