"""What every report's ``write_report`` promises, whatever the game: the options every report
shares are keywords that default to the report's own sizes, reach its study unchanged, and a
study that fails writes nothing."""

from __future__ import annotations

import inspect

import pytest

from fairysim.analysis.concerto import report as concerto_report
from fairysim.analysis.concerto import solo_report
from fairysim.analysis.fairyland import report as fairyland_report
from fairysim.analysis.fantastique import report as fantastique_report
from fairysim.analysis.report.registry import PRECISION_CAP, get_report
from fairysim.sim.concerto.policies import SOLO_POLICIES

WRITERS = {
    # report: (module, its study function, the report's own defaults besides games and seed)
    "fantastique": (fantastique_report, "fan_strength", {"players": (2, 3, 4, 5)}),
    "concerto": (concerto_report, "card_balance", {"players": (2, 3, 4), "policy": "greedy"}),
    "fairyland": (
        fairyland_report,
        "fairyland_study",
        {
            "players": (2, 3, 4),
            "policy": "greedy",
            "auction_games": get_report("fairyland").default("auction_games"),
        },
    ),
    "concerto-solo": (
        solo_report,
        "solo_study",
        {
            "lookahead_games": get_report("concerto-solo").default("lookahead_games"),
            "policies": SOLO_POLICIES,
        },
    ),
}


@pytest.fixture
def study_calls(request, monkeypatch):
    """Replace the report's study by one that records its arguments by name, then fails."""
    module, name, _ = WRITERS[request.param]
    real = getattr(module, name)
    calls = []

    def failing_study(*args, **kwargs):
        calls.append(inspect.signature(real).bind(*args, **kwargs).arguments)
        raise RuntimeError("study failed")

    monkeypatch.setattr(module, name, failing_study)
    return module, calls


@pytest.mark.parametrize("study_calls", WRITERS, indirect=True)
def test_the_report_sizes_itself_and_writes_nothing_on_failure(study_calls, tmp_path, request):
    module, calls = study_calls
    with pytest.raises(RuntimeError, match="study failed"):
        module.write_report(tmp_path / "out")
    name = request.node.callspec.params["study_calls"]
    _, _, own = WRITERS[name]
    # A report with a default precision plays its first look (1,000 games per run) first.
    declared = get_report(name)
    first = declared.games_default
    if declared.precision_default is not None:
        first = min(1000, PRECISION_CAP * declared.games_default)
    assert calls[0]["games"] == first
    assert calls[0]["seed"] == 0  # every command's default seed
    for name, value in own.items():
        assert calls[0].get(name, value) == value, name
    assert calls[0].get("cards") is None and calls[0].get("threads") is None
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("study_calls", WRITERS, indirect=True)
def test_the_shared_options_reach_the_study(study_calls, tmp_path):
    module, calls = study_calls

    def progress(done, total):
        return None

    with pytest.raises(RuntimeError):
        module.write_report(
            tmp_path, games=7, seed=3, threads=2, progress=progress, cards="my-cards.toml"
        )
    given = {name: calls[0][name] for name in ("games", "seed", "threads", "progress", "cards")}
    assert given == {
        "games": 7, "seed": 3, "threads": 2, "progress": progress, "cards": "my-cards.toml"
    }  # fmt: skip
    with pytest.raises(TypeError):
        module.write_report(tmp_path, 7)  # the options are keywords


def test_each_game_package_offers_its_writers():
    import fairysim.analysis.concerto as concerto
    import fairysim.analysis.fairyland as fairyland
    import fairysim.analysis.fantastique as fantastique

    assert fairyland.write_report == fairyland_report.write_report
    assert fantastique.write_report == fantastique_report.write_report
    assert concerto.write_report == concerto_report.write_report
    assert concerto.write_solo_report == solo_report.write_report
    with pytest.raises(AttributeError):
        concerto.no_such_writer  # noqa: B018


@pytest.mark.parametrize("name", WRITERS)
def test_every_report_is_declared_with_the_writer_its_package_offers(name):
    module, _, _ = WRITERS[name]
    declared = get_report(name)
    assert declared.load_writer() == module.write_report
    assert f"{name}-report.html" == module.REPORT_FILENAME


def test_a_report_refuses_an_option_it_does_not_take(tmp_path):
    with pytest.raises(TypeError, match="heuristic_games"):
        solo_report.write_report(tmp_path, heuristic_games=10)
    with pytest.raises(TypeError, match="lookahead_games"):
        fantastique_report.write_report(tmp_path, lookahead_games=10)
    assert not any(tmp_path.iterdir())
