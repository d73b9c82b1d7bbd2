"""``fairysim tune``'s known answer in Fairy Concerto and Fairy Land (issue 42; Fantastique's is
``test_tune.py``): a card file with one number deliberately broken, a target it breaks and a
decoy number beside it; tune changes the broken number, and the tuned file meets the target on
games the search never played."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fairysim.analysis.tune import tune
from fairysim.sim.concerto.cards import DEFAULT_CARDS as CONCERTO_CARDS
from fairysim.sim.fairyland.cards import DEFAULT_CARDS as FAIRYLAND_CARDS
from fairysim.sim.game import get_game
from fairysim.sim.run import simulate
from fairysim.stats.estimates import winning_margins

SMALL = {"search_games": 2_000, "final_games": 4_000, "budget_games": 20 * 2_000}

# Three times the shipped composers (8): more score cards drawn widen the winning margin.
CONCERTO_TARGETS = """
players = [4]
policies = ["greedy"]

[vary]
"tokens.composer" = { min = 4, max = 24, step = 4 }
"tokens.trumpeter" = { values = [10, 12, 14] }

[targets]
margin = { between = [4.5, 5.5] }
"""

# Six times the shipped Squirrel majority (10 points): one more Squirrel is worth far more.
FAIRYLAND_TARGETS = """
players = [4]
policies = ["greedy"]

[vary]
"majority.squirrel" = { values = [5, 10, 20, 40, 60] }
"forest.goblin" = { values = [12, 14, 16] }

[targets]
forced_effect.Squirrel = { max = 0.10 }
"""


def planted(tmp_path: Path, shipped: Path, old: str, new: str) -> Path:
    text = shipped.read_text()
    assert text.count(old) == 1
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new))
    return path


def run(tmp_path: Path, game: str, cards: Path, targets: str):
    path = tmp_path / "targets.toml"
    path.write_text(targets)
    result = tune(game, targets=path, cards=cards, out_dir=tmp_path / "out", seed=3, **SMALL)
    changes = pd.read_csv(tmp_path / "out" / "changes.csv").to_dict("records")
    return result, changes


def fresh_margin(cards: Path) -> float:
    """The mean winning margin at 4 players greedy on a seed the tune never played."""
    frame = simulate("concerto", players=4, policies="greedy", games=6_000, seed=12_345,
                     cards=cards)  # fmt: skip
    return float(winning_margins(frame)["margin"].mean())


def test_concerto_composers_planted_and_restored(tmp_path):
    broken = planted(tmp_path, CONCERTO_CARDS, "composer = 8\n", "composer = 24\n")
    assert fresh_margin(broken) > 5.5  # the defect breaks the band
    result, changes = run(tmp_path, "concerto", broken, CONCERTO_TARGETS)
    assert result.met
    assert [c["path"] for c in changes] == ["tokens.composer"]
    assert changes[0]["from"] == 24 and changes[0]["to"] < 24
    tuned = tmp_path / "out" / "tuned_cards.toml"
    get_game("concerto").load_cards(tuned)  # a valid card file
    assert 4.5 <= fresh_margin(tuned) <= 5.5


def test_fairyland_squirrel_majority_planted_and_restored(tmp_path):
    majority = "(printed on each animal card)\nsquirrel = "
    broken = planted(tmp_path, FAIRYLAND_CARDS, majority + "10\n", majority + "60\n")
    result, changes = run(tmp_path, "fairyland", broken, FAIRYLAND_TARGETS)
    final = result.final
    base = final[final["candidate"] == "base"].iloc[0]
    assert not base["met"] and base["low"] > 0.10  # the defect breaks the target
    assert result.met
    assert [c["path"] for c in changes] == ["majority.squirrel"]
    assert changes[0]["from"] == 60 and changes[0]["to"] <= 20
    # The recommendation's interval is from games the search never played.
    candidates = pd.read_parquet(tmp_path / "out" / "candidates.parquet")
    search = candidates[candidates["stage"] == "search"]
    fresh = candidates[candidates["stage"] == "final"]
    assert fresh["first_game"].min() >= (search["first_game"] + search["games"]).max()
    get_game("fairyland").load_cards(tmp_path / "out" / "tuned_cards.toml")
