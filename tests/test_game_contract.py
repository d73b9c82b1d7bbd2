"""The contract every game keeps, whatever its rules: one test module that every game form passes.

Every registered game (:mod:`fairysim.sim.game`; the toy game of tests/highcard too) offers
``make_setup`` and ``play_chunks`` with the same shape; this module checks what users rely on
across all of them: the numbers depend only on (seed, game index), never on threads, chunks or
where a game range starts, and ``simulate`` returns a tidy frame (one row per game and seat, win
shares that split each game) carrying the run's metadata. The forms come from the registry.
"""

from __future__ import annotations

import dataclasses
import itertools

import numba as nb
import numpy as np
import pytest

import fairysim
from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import SCHEMA_VERSION, join_chunks
from fairysim.sim.game import GameSetup, games
from fairysim.sim.run import simulate


def forms() -> dict[str, tuple]:
    """Every player count of every registered game, each with a mixed lineup of the game's
    built-in policies (rotated by the player count, so that policies change seats) and every
    flag on: every policy's stream and both ways of dispatching a seat are exercised."""
    cases = {}
    for spec in games().values():
        # The search player plays thousands of games per decision; its own tests cover it.
        names = [name for name in spec.policies if name != spec.search]
        for players in range(spec.min_players, spec.max_players + 1):
            lineup = _lineup(spec, names, players)
            cases[f"{spec.name} {players}p"] = (spec, {"players": players, "policies": lineup})
    return cases


def _lineup(spec, names: list[str], players: int) -> list[str]:
    """The first lineup of rotated built-ins that the game accepts for ``players``: a policy
    meant for other forms only is refused by ``make_setup`` and skipped."""
    for offset in range(len(names)):
        lineup = [names[(players + offset + seat) % len(names)] for seat in range(players)]
        try:
            spec.make_setup(players=players, policies=lineup, seed=0)
        except FairysimError:
            continue
        if "lookahead" not in lineup:  # Monte Carlo rollouts: thousands of games per decision
            return lineup
    raise AssertionError(f"{spec.name}: no lineup of built-ins for {players} players")


FORMS = forms()


def play(form: str, games: int, seed: int = 5, **options):
    """The run's arrays, chunks joined in game order; ``options`` go to ``play_chunks``."""
    spec, setup_options = FORMS[form]
    setup = spec.make_setup(**setup_options, seed=seed)
    flags = {flag.name: True for flag in spec.flags}
    return join_chunks(spec.play_chunks(setup, games, **flags, **options))


def assert_same_games(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert set(a) == set(b)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.skipif(nb.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
@pytest.mark.parametrize("form", FORMS)
def test_the_thread_count_changes_no_number(form):
    assert_same_games(play(form, 2000, threads=1), play(form, 2000, threads=2))


@pytest.mark.parametrize("form", FORMS)
def test_the_chunk_size_changes_no_number(form):
    assert_same_games(play(form, 1500, chunk_games=1500), play(form, 1500, chunk_games=137))


@pytest.mark.parametrize("form", FORMS)
def test_a_game_range_plays_the_games_of_the_whole_run(form):
    # What lets a sweep hand one run's game ranges to different workers.
    whole = play(form, 900)
    part = play(form, 300, first_game=400)
    assert_same_games({name: values[400:700] for name, values in whole.items()}, part)


CHUNK_CASES = [(form, False) for form in FORMS] + [
    (form, True) for form, (spec, _) in FORMS.items() if "greedy" in spec.policies
]
"""Every form as listed, and all greedy (the lanes' fast path) where the game has greedy."""


@pytest.mark.parametrize(("form", "greedy"), CHUNK_CASES)
def test_each_chunk_s_arrays_are_its_own(form, greedy):
    """A chunk once yielded is never written again: the summary path folds chunk k on another
    thread while the engine plays chunk k + 1 (:func:`fairysim.sim.batch.chunk_folder`)."""
    spec, setup_options = FORMS[form]
    if greedy:
        setup_options = {**setup_options, "policies": "greedy"}
    setup = spec.make_setup(**setup_options, seed=3)
    kept, seen = [], []
    for _, arrays in spec.play_chunks(setup, 300, chunk_games=100):
        kept.append({name: values.copy() for name, values in arrays.items()})
        seen.append(arrays)
    for before, after in zip(kept, seen, strict=True):
        assert_same_games(before, after)
    for earlier, later in itertools.pairwise(seen):
        for name in earlier:
            assert not np.shares_memory(earlier[name], later[name]), name


@pytest.mark.parametrize("form", FORMS)
def test_the_seed_decides_the_games(form):
    first = play(form, 500, seed=9)
    assert_same_games(first, play(form, 500, seed=9))
    assert not np.array_equal(first["score"], play(form, 500, seed=10)["score"])


@pytest.mark.parametrize("form", FORMS)
def test_simulate_returns_a_tidy_frame_with_its_metadata(form):
    spec, options = FORMS[form]
    df = simulate(spec.name, **options, games=400, seed=3)
    seats = df.seat.nunique()
    assert len(df) == 400 * seats
    assert df.groupby("game").size().eq(seats).all()  # one row per game and seat
    assert sorted(df.game.unique()) == list(range(400))
    for column in ("game", "seat", "policy", "score", "rank", "win_share"):
        assert column in df.columns, column
    # Every game's rows say the turn order one way (docs/vocabulary.md): the seat that acts
    # first, and each seat's turn position counted from 1, the start seat's being 1.
    players = df.players.iloc[0] if "players" in df.columns else seats
    assert df["turn_position"].between(1, seats).all() and "first_seat" not in df.columns
    starts = df[df["turn_position"] == 1]
    assert (starts["seat"].astype(int) == starts["start_seat"].astype(int)).all()
    assert starts.groupby("game").size().eq(1).all() or players < seats
    # Each game's win is split among the seats ranked first, equally (ties share it).
    assert np.allclose(df.groupby("game").win_share.sum(), 1.0)
    winners = df[df["rank"] == 1]
    per_game = winners.groupby("game").seat.transform("size")
    assert np.allclose(winners.win_share, 1.0 / per_game)
    assert (df.loc[df["rank"] > 1, "win_share"] == 0).all()
    meta = df.attrs["fairysim"]
    assert meta["game"] == spec.name
    assert meta["package_version"] == fairysim.__version__
    assert meta["schema_version"] == SCHEMA_VERSION
    assert meta["config"]["seed"] == 3
    assert meta["config"]["games"] == 400
    assert meta["config"]["engine_version"] >= 1


@pytest.mark.parametrize("spec", list(games().values()), ids=lambda spec: spec.name)
def test_the_card_set_names_its_file_and_gives_the_arrays_a_sweep_pins(spec):
    cards = spec.load_cards()
    assert isinstance(cards.source, str) and cards.source
    arrays = cards.arrays()
    assert arrays and any(isinstance(a, np.ndarray) for a in arrays)
    again = spec.load_cards().arrays()
    assert len(again) == len(arrays)
    for a, b in zip(arrays, again, strict=True):  # arrays, and the ids that name their rows
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


@pytest.mark.parametrize("spec", list(games().values()), ids=lambda spec: spec.name)
def test_every_setup_is_the_contract_s_setup_and_refuses_a_player_count_one_way(spec):
    setup = spec.make_setup(players=spec.default_players, seed=3)
    assert isinstance(setup, GameSetup) and setup.game == spec.name
    config = setup.config()
    assert config["players"] == spec.default_players and config["seed"] == 3
    assert config["policies"] == [p.name for p in setup.policies]
    assert config["engine_version"] == spec.engine_version
    assert config["cards"] == setup.cards.source
    headline = setup.headline(1000)
    assert headline.startswith(f"{spec.title}, ") and headline.endswith(", 1,000 games, seed 3")
    labels = setup.row_labels([p.name for p in setup.policies])
    assert len(labels) == len(setup.policy_names) == setup.seats >= setup.players
    # --weights makes a new setup with dataclasses.replace: still the game's setup
    assert dataclasses.replace(setup, seed=4).config() == {**config, "seed": 4}
    limits = f"{spec.title} is for {spec.min_players} to {spec.max_players} players"
    # make_setup takes a number: a count written as text is refused as well
    for bad in (spec.min_players - 1, spec.max_players + 1, True, "many", str(spec.min_players)):
        with pytest.raises(FairysimError) as caught:
            spec.make_setup(players=bad)
        assert str(caught.value) == f"players: {limits}, got {bad!r}"


def _with_rules() -> list:
    """The registered games whose package has a rules module (the toy game has none)."""
    import importlib.util

    return [s for s in games().values() if importlib.util.find_spec(f"{s.package}.rules")]


@pytest.mark.parametrize("spec", _with_rules(), ids=lambda spec: spec.name)
def test_the_facts_a_spec_shares_with_its_rules_are_stated_once(spec):
    """A spec imports no numba and is no kernel source (editing it compiles nothing), so the few
    facts it shares with the kernels (the player range, the fans, the kinds) live in the game's
    facts.py and both modules import them: the same objects, never a second statement."""
    import importlib

    spec_module = importlib.import_module(f"{spec.package}.spec")
    rules = importlib.import_module(f"{spec.package}.rules")
    shared = [
        name
        for name in vars(spec_module)
        if name.isupper() and not name.startswith("_") and hasattr(rules, name)
    ]
    assert {"MIN_PLAYERS", "MAX_PLAYERS"} <= set(shared)
    for name in shared:
        assert getattr(spec_module, name) is getattr(rules, name), name
    assert (spec.min_players, spec.max_players) == (rules.MIN_PLAYERS, rules.MAX_PLAYERS)
