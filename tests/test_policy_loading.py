"""User policies (``module:function``) are checked when loaded, and built-in weights keep to their
declared ranges: every bad policy or weight is refused with one line naming what to fix.

No engine runs here: a policy is compiled alone, so these tests take seconds.
"""

from __future__ import annotations

import itertools
import sys
import textwrap

import numpy as np
import pytest

from fairysim.runtime.errors import POLICY_RAISED, FairysimError
from fairysim.sim.concerto.policies import MAX_ROLLOUTS
from fairysim.sim.concerto.policies import POLICIES as CONCERTO_POLICIES
from fairysim.sim.fantastique.policies import POLICIES as FANTASTIQUE_POLICIES
from fairysim.sim.policy import (
    MAX_WEIGHTS,
    POLICY_SIGNATURE,
    Policy,
    WeightRange,
    load_user_policy,
    policies_resolved_once,
    resolve_policies,
)

SIGNATURE = "decision, view, choices, n_choices, weights, rng"
_names = itertools.count()


@pytest.fixture
def module(tmp_path, monkeypatch):
    """Write a module with a fresh name on sys.path; return its name. Forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written: list[str] = []

    def write(source: str) -> str:
        name = f"user_policy_module_{next(_names)}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        written.append(name)
        return name

    yield write
    for name in written:
        sys.modules.pop(name, None)


def refused(spec: str) -> str:
    """The one-line message that refuses ``spec``, naming the parameter ``policies`` (the
    command line words it ``--policy``)."""
    with pytest.raises(FairysimError) as info:
        load_user_policy(spec)
    message = str(info.value)
    assert info.value.where == "policies", message
    assert "\n" not in message, message
    return message


def sample_call(function, n_choices: int = 3) -> int:
    """Ask a compiled policy one decision with arrays of the policy signature's types."""
    view = np.zeros(8, np.int64)
    choices = np.arange(2 * n_choices, dtype=np.int64).reshape(n_choices, 2)
    weights = np.zeros(MAX_WEIGHTS)
    for array in (view, choices, weights):
        array.flags.writeable = False
    return function(0, view, choices, n_choices, weights, np.array([7, 0], np.uint64))


# --- Importing the module -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("raise RuntimeError('no config\\nfound')", "(RuntimeError: no config found)"),
        ("import sys\nsys.exit(3)", "(SystemExit: 3)"),
        ("raise SystemExit('bye')", "(SystemExit: bye)"),
        ("def pick(:\n    pass", "(SyntaxError: "),
        ("import not_a_real_module_xyz", "No module named 'not_a_real_module_xyz'"),
    ],
)
def test_a_module_that_fails_or_exits_on_import_is_refused(module, source, message):
    name = module(source + f"\ndef pick({SIGNATURE}):\n    return 0\n")
    text = refused(f"{name}:pick")
    assert f"cannot import module {name!r}" in text and message in text, text


def test_a_module_raising_keyboard_interrupt_itself_is_a_policy_error(module):
    # Not a Ctrl-C: the module raised it (a real Ctrl-C during the import still stops, see
    # tests/cli/test_faults.py).
    assert "KeyboardInterrupt" in refused(f"{module('raise KeyboardInterrupt')}:pick")


def test_a_missing_function_is_refused(module):
    assert "has no function 'pick'" in refused(f"{module('X = 1')}:pick")


# --- The function itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def pick(view, choices):\n    return 0", "takes (view, choices); a policy takes the 6"),
        (f"def pick({SIGNATURE}, extra):\n    return 0", "a policy takes the 6 parameters"),
        ("def pick(*args):\n    return 0", "takes (*args)"),
        ("pick = 3", "is not a Python function"),
        ("class pick:\n    pass", "is not a Python function"),
        ("from math import floor as pick", "is not a Python function"),
    ],
)
def test_the_parameters_are_checked(module, source, message):
    assert message in refused(f"{module(source)}:pick")


@pytest.mark.parametrize(
    ("body", "returns"),
    [
        ("return 0.7", "float64"),  # numba would truncate it to index 0 without a word
        ("return n_choices / 2", "float64"),
        ("return n_choices > 1", "bool"),
        ("if n_choices > 1:\n        return 1", "OptionalType(int64)"),
        ("return (n_choices, n_choices)", "UniTuple(int64 x 2)"),
    ],
)
def test_a_policy_that_returns_no_integer_is_refused(module, body, returns):
    name = module(f"def pick({SIGNATURE}):\n    {body}\n")
    text = refused(f"{name}:pick")
    assert f"returns {returns}" in text and "integer index" in text, text


def test_the_decorator_does_not_hide_a_float_return(module):
    name = module(
        f"""
        from fairysim.sim.policy import policy

        @policy
        def pick({SIGNATURE}):
            return 0.7
        """
    )
    assert "returns float64" in refused(f"{name}:pick")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return n_choices - 1", 2),
        ("return 1", 1),  # an integer literal
        ("return rng[0] % n_choices", 1),  # uint64: cast to the signature's int64
        ("return 10 // (n_choices - n_choices)", 0),  # numpy's error model: // 0 gives 0
    ],
)
def test_an_integer_policy_loads_with_the_policy_signature(module, body, expected):
    name = module(f"def pick({SIGNATURE}):\n    {body}\n")
    loaded = load_user_policy(f"{name}:pick")
    assert loaded.function.nopython_signatures == [POLICY_SIGNATURE]
    assert sample_call(loaded.function) == expected


@pytest.mark.parametrize(
    ("source", "where"),
    [
        (
            f"def pick({SIGNATURE}):\n    if n_choices > 9:\n        raise ValueError('no')\n"
            "    return 0\n",
            ":3)",
        ),
        (
            f"def pick({SIGNATURE}):\n    if n_choices > 9:\n        raise ValueError(n_choices)\n"
            "    return 0\n",
            ":3)",
        ),
        (f"def pick({SIGNATURE}):\n    assert n_choices > 0\n    return 0\n", ":2)"),
        (
            "import numba\n\n@numba.njit\ndef helper(n):\n    if n > 9:\n"
            "        raise ValueError()\n    return 0\n\n"
            f"def pick({SIGNATURE}):\n    return helper(n_choices)\n",
            ":6, in helper)",
        ),
    ],
)
def test_a_policy_that_can_raise_is_refused(module, source, where):
    name = module(source)
    text = refused(f"{name}:pick")
    assert "can raise an exception" in text and f"{name}.py{where}" in text, text


def test_an_exception_raised_by_a_library_call_comes_back_as_the_raised_answer(module):
    """No ``raise`` of its own, so the policy loads; its guard turns numpy's exception into
    POLICY_RAISED, which the engines report with game, seat and decision."""
    name = module(
        f"import numpy as np\n\ndef pick({SIGNATURE}):\n"
        "    return np.empty(n_choices - 5, np.int64).shape[0]\n"
    )
    loaded = load_user_policy(f"{name}:pick")
    assert sample_call(loaded.function, n_choices=6) == 1
    assert sample_call(loaded.function, n_choices=3) == POLICY_RAISED


def test_a_raise_in_a_helper_of_another_module_is_found(module):
    helpers = module(
        "import numba\n\n@numba.njit(inline='always')\ndef score(n):\n    assert n >= 0\n"
        "    return n\n"
    )
    name = module(f"import {helpers}\n\ndef pick({SIGNATURE}):\n    return {helpers}.score(0)\n")
    assert f"{helpers}.py:5, in score)" in refused(f"{name}:pick")


def test_a_function_that_does_not_compile_names_numbas_reason(module):
    name = module(f"def pick({SIGNATURE}):\n    return undefined_name\n")
    text = refused(f"{name}:pick")
    assert "does not compile as a policy" in text and "undefined_name" in text, text
    assert "Failed in nopython" not in text


# --- Weights --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ("'0.5'", "pick_weights must be a tuple or list of numbers, got str"),
        ("0.5", "pick_weights must be a tuple or list of numbers, got float"),
        ("(0.5, 'x')", "pick_weights[1] must be a number, got 'x'"),
        ("(True,)", "pick_weights[0] must be a number, got True"),
        ("(float('nan'),)", "pick_weights[0] must be a finite float, got nan"),
        ("[1.0, float('inf')]", "pick_weights[1] must be a finite float, got inf"),
        (f"(1.0,) * {MAX_WEIGHTS + 1}", f"has {MAX_WEIGHTS + 1} weights; at most {MAX_WEIGHTS}"),
    ],
)
def test_bad_user_weights_are_refused(module, weights, message):
    name = module(f"def pick({SIGNATURE}):\n    return 0\n\npick_weights = {weights}\n")
    assert message in refused(f"{name}:pick")


def test_good_user_weights_load_as_floats(module):
    name = module(
        f"import numpy as np\n\ndef pick({SIGNATURE}):\n    return 0\n\n"
        "pick_weights = [1, 2.5, np.float64(-3)]\n"
    )
    loaded = load_user_policy(f"{name}:pick")
    assert loaded.weights == (1.0, 2.5, -3.0)
    assert loaded.weight_names == ("w0", "w1", "w2")
    assert loaded.with_weights(w1=-1e6).weights[1] == -1e6  # no range: any finite number
    with pytest.raises(FairysimError, match="weight w1 must be finite"):
        loaded.with_weights(w1=float("inf"))


# --- Built-in weight ranges -----------------------------------------------------------------------

BUILTINS = [*FANTASTIQUE_POLICIES.values(), *CONCERTO_POLICIES.values()]


@pytest.mark.parametrize("policy", BUILTINS, ids=lambda p: p.name)
def test_every_builtin_weight_has_a_range_holding_its_default(policy):
    assert len(policy.ranges) == len(policy.weights)
    for i, (name, allowed) in enumerate(zip(policy.weight_names, policy.ranges, strict=True)):
        assert isinstance(allowed, WeightRange)
        assert policy.weights[i] in allowed, (name, policy.weights[i], str(allowed))
        for end in (allowed.low, allowed.high):  # both ends are allowed
            assert policy.with_weights(**{name: end}).weights[i] == end


@pytest.mark.parametrize("policy", [p for p in BUILTINS if p.ranges], ids=lambda p: p.name)
def test_a_builtin_weight_outside_its_range_is_refused_naming_policy_and_weight(policy):
    for name, allowed in zip(policy.weight_names, policy.ranges, strict=True):
        for value in (allowed.low - 1, allowed.high + 1, float("nan"), "1"):
            with pytest.raises(FairysimError) as info:
                policy.with_weights(**{name: value})
            assert info.value.where == "weights"
            assert f"policy {policy.name}: weight {name} must be" in str(info.value)


@pytest.mark.parametrize(
    ("rollouts", "message"),
    [
        (-5, f"must be a whole number from 1 to {MAX_ROLLOUTS}, got -5"),
        (0, "got 0"),
        (0.5, "got 0.5"),  # the kernel would play it as 1 rollout
        (24.5, "got 24.5"),
        (1e12, "got 1e+12"),  # hours of rollouts
        (MAX_ROLLOUTS + 1, f"got {MAX_ROLLOUTS + 1}"),
    ],
)
def test_lookahead_rollouts_must_be_a_whole_number_up_to_the_maximum(rollouts, message):
    with pytest.raises(FairysimError) as info:
        CONCERTO_POLICIES["lookahead"].with_weights(rollouts=rollouts)
    assert "policy lookahead: weight rollouts" in str(info.value) and message in str(info.value)


def test_lookahead_takes_every_whole_number_of_rollouts_up_to_the_maximum():
    for rollouts in (1, 24, MAX_ROLLOUTS, float(MAX_ROLLOUTS)):
        lookahead = CONCERTO_POLICIES["lookahead"].with_weights(rollouts=rollouts)
        assert lookahead.weights[0] == rollouts


def test_a_policy_built_by_hand_is_checked_too():
    greedy = FANTASTIQUE_POLICIES["balancer"]
    with pytest.raises(FairysimError, match="policies: policy balancer: weight risk must be"):
        Policy(
            "balancer",
            greedy.function,
            (0.5, 2.0, 0.5, 5.0),
            greedy.weight_names,
            ranges=greedy.ranges,
        )
    with pytest.raises(FairysimError, match="2 weights but 1 weight names"):
        Policy("mine", greedy.function, (1.0, 2.0), ("w0",))


# --- The Python API's policies argument -----------------------------------------------------------


@pytest.mark.parametrize(
    ("policies", "message"),
    [
        (None, "got None"),
        (3, "got an object of type int"),
        ({"seat": "greedy"}, "got an object of type dict"),
        (b"greedy", "got an object of type bytes"),
        (["greedy", None], "each policy must be a name or a Policy, got None"),
        (["greedy", 2.5], "each policy must be a name or a Policy, got an object of type float"),
    ],
)
def test_a_policies_argument_of_the_wrong_type_is_refused_naming_policies(policies, message):
    with pytest.raises(FairysimError) as info:
        resolve_policies(policies, 2, FANTASTIQUE_POLICIES)
    assert info.value.where == "policies"
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_path_to_a_builtins_function_is_that_builtin():
    # What a game or one of its forms refuses by name (solo lookahead at 2-4 players) it then
    # refuses by path too; a copy of the function under another name stays a user policy.
    path = "fairysim.sim.fantastique.policies:balancer_policy"
    (seat,) = resolve_policies(path, 1, FANTASTIQUE_POLICIES)
    assert seat is FANTASTIQUE_POLICIES["balancer"]
    (seat,) = resolve_policies(
        "fairysim.sim.concerto.policies:lookahead_policy", 1, CONCERTO_POLICIES
    )
    assert seat is CONCERTO_POLICIES["lookahead"]


# --- Resolved once within an analysis ---------------------------------------------------------


def test_a_user_policy_resolves_once_per_analysis_and_a_redefinition_in_the_next(module):
    """An analysis call (a tournament, a comparison, a card study) resolves each ``module:function``
    once however many setups name it; the next call compiles it afresh, so a function redefined
    between calls (a notebook cell run again) is what it plays."""
    name = module(f"def pick({SIGNATURE}):\n    return 1\n")
    spec = f"{name}:pick"
    with policies_resolved_once():
        first = resolve_policies(spec, 2, FANTASTIQUE_POLICIES)
        again = resolve_policies([spec, "greedy"], 2, FANTASTIQUE_POLICIES)
        with policies_resolved_once():  # nested: the outermost scope's
            inner = resolve_policies(spec, 1, FANTASTIQUE_POLICIES)
    assert first[0] is first[1] is again[0] is inner[0]
    assert sample_call(first[0].function) == 1
    assert resolve_policies(spec, 1, FANTASTIQUE_POLICIES)[0] is not first[0]  # outside: per call
    exec(f"def pick({SIGNATURE}):\n    return 2\n", vars(sys.modules[name]))
    with policies_resolved_once():
        redefined = resolve_policies(spec, 1, FANTASTIQUE_POLICIES)
    assert sample_call(redefined[0].function) == 2
