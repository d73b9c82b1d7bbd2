"""Small pages of every report with every part the answer card reads: the study, the card
effects (with their best-heuristic arm), the ladder and the game's best-heuristic check. Built
once per test module that asks (a few seconds each once the engines are compiled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SEED = 2


def _standard(game: str, players: tuple[int, ...], games: int, **axes: Any) -> tuple[Any, Any]:
    from fairysim.analysis.studies.base import card_and_ladder_studies
    from fairysim.sim.game import get_game

    return card_and_ladder_studies(
        get_game(game), players=players, seed=SEED, card_games=games, ladder_games=games, **axes
    )


def build_reports() -> dict[str, Any]:
    """Every report's page in memory, by report name."""
    from fairysim.analysis.concerto import report as concerto
    from fairysim.analysis.concerto import solo_report
    from fairysim.analysis.concerto.check import score_card_check
    from fairysim.analysis.concerto.solo_study import solo_study
    from fairysim.analysis.concerto.study import card_balance
    from fairysim.analysis.fairyland import report as fairyland
    from fairysim.analysis.fairyland.check import court_check
    from fairysim.analysis.fairyland.study import fairyland_study
    from fairysim.analysis.fantastique import report as fantastique
    from fairysim.analysis.fantastique.check import fan_check
    from fairysim.analysis.fantastique.study import fan_strength
    from fairysim.analysis.studies.card_effects import card_effects

    pages = {}
    effects, ladder = _standard("fantastique", (2, 3), 300, fan="I")
    pages["fantastique"] = fantastique.build_report(
        fan_strength(200, SEED, players=(2, 3)),
        effects,
        ladder,
        fan_check(300, SEED, 3, "greedy", "balancer"),
    )
    effects, ladder = _standard("concerto", (2, 3), 200)
    pages["concerto"] = concerto.build_report(
        card_balance(games=300, seed=SEED, players=(2, 3)),
        effects,
        ladder,
        score_card_check(300, SEED, 3, "greedy", "chaser"),
    )
    pages["concerto-solo"] = solo_report.build_report(
        solo_study(games=300, seed=SEED, lookahead_games=20, search_games=0),
        card_effects("concerto", players=1, games=300, seed=SEED),
    )
    effects, ladder = _standard("fairyland", (2, 3), 100, court="random")
    pages["fairyland"] = fairyland.build_report(
        fairyland_study(games=120, seed=SEED, players=(2, 3), auction_games=5),
        effects,
        ladder,
        court_check(120, SEED, 3, "greedy", "value-bidder"),
    )
    return pages


def write_reports(folder: Path) -> dict[str, tuple[Any, Path]]:
    """Every report's page written into its own folder: ``{name: (report, html path)}``."""
    return {name: (report, report.write(folder / name)) for name, report in build_reports().items()}
