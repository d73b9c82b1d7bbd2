"""`fairysim simulate --precision H --max-games N` on the toy game (tests/highcard)."""

from __future__ import annotations

import re

import pytest
from highcard.spec import NAME
from typer.testing import CliRunner

from fairysim.cli import app

runner = CliRunner(env={"COLUMNS": "1000"})


def simulate(*args: str):
    return runner.invoke(app, ["simulate", NAME, "--policy", "coin", *args])


def test_precision_stops_when_reached_and_says_so():
    result = simulate("--precision", "0.05", "--max-games", "100000", "--chunk-games", "300")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("precision reached"))
    games = int(re.search(r"after ([\d,]+) games", line).group(1).replace(",", ""))
    assert games in (1000, 2000, 4000, 8000) and games < 100_000
    widest = float(re.search(r"within \+/-([\d.]+)", line).group(1))
    assert widest <= 0.05


def test_cap_reached_first_is_one_line():
    result = simulate("--precision", "0.001", "--max-games", "1500")
    assert result.exit_code == 0, result.output
    assert any(x.startswith("--max-games 1,500 reached") for x in result.output.splitlines())


@pytest.mark.parametrize("value", ["0", "0.7", "-1"])
def test_bad_precision_is_one_line_exit_2(value):
    result = simulate("--precision", value)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"Error: --precision: must be above 0 and at most 0.5, got {float(value)}"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--precision", "0.05", "--games", "2000"], "--precision: give --games or --precision"),
        (["--games", "2000", "--max-games", "5000"], "--max-games: only caps --precision"),
    ],
)
def test_counts_that_contradict_each_other_are_refused(args, message):
    result = simulate(*args)
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"Error: {message}")


def test_bad_max_games_is_one_line_exit_2():
    result = simulate("--precision", "0.05", "--max-games", "0")
    assert result.exit_code == 2, result.output
    assert result.output.strip().startswith("Error: --max-games: ")


# --------------------------------------------------------------------------------------------
# The table's intervals: one Holm-corrected family over its rows, at the look-adjusted level


def table_rows(output: str) -> list[dict]:
    """The rows of simulate's table (label, share, interval), each with the verdict the line
    under the table gives it (above, below, or - where the line names it not)."""
    line = next(x for x in output.splitlines() if x.startswith("vs fair: "))
    named = dict(re.findall(r"(?:seat|turn|entry) (\d+) (above|below)", line))
    rows = []
    for text in output.splitlines():
        # Shares are printed in percent with one decimal: "34.3% [31.8%, 36.8%]".
        match = re.match(r"\s*(\d+) \S+\s+([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", text)
        if match:
            index, share, low, high = match.groups()
            rows.append(
                {"index": int(index), "share": float(share) / 100, "low": float(low) / 100}
                | {"high": float(high) / 100, "verdict": named.get(index, "-")}
            )
    return rows


def plain_wilson_half_width(share: float, games: int) -> float:
    from fairysim.stats.estimates import wilson_interval

    low, high = wilson_interval(share * games, games)
    return float(high - low) / 2


@pytest.mark.parametrize(
    "args",
    [
        ["--policy", "stand,redraw-low,coin", "--deck", "short"],  # seats differ: verdicts
        ["--policy", "coin", "--players", "4"],  # exchangeable seats: no verdict
    ],
)
def test_the_table_is_one_corrected_family_whose_intervals_and_verdicts_agree(args):
    result = runner.invoke(app, ["simulate", NAME, *args, "--games", "3000"])
    assert result.exit_code == 0, result.output
    rows = table_rows(result.output)
    seats = len(rows)
    assert seats in (3, 4)
    assert f"Holm-corrected over the {seats} rows (95% family-wise)" in result.output
    verdicts = [line for line in result.output.splitlines() if line.startswith("vs fair: ")]
    assert len(verdicts) == 1 and f"after correcting for the {seats} rows compared" in verdicts[0]
    fair = 1 / seats
    for row in rows:
        excludes = row["low"] > fair or row["high"] < fair
        assert excludes == (row["verdict"] != "-"), row
        if excludes:
            assert row["verdict"] == ("above" if row["share"] > fair else "below")
    if "redraw-low" in args[1]:
        assert [row["verdict"] for row in rows] == ["below", "above", "below"]


def test_corrected_intervals_are_wider_than_plain_ones_and_widen_with_more_rows():
    import pandas as pd

    from fairysim.stats.precision import corrected_shares

    def widths(seats: int, alpha: float = 0.05) -> pd.Series:
        rows = pd.DataFrame({"games": [4000] * seats, "wins": [4000 / seats] * seats})
        table = corrected_shares(rows, alpha)
        assert not table["significant"].any()
        return table["half_width"]

    plain = plain_wilson_half_width(0.25, 4000)
    two, four, five = widths(2).iloc[0], widths(4).iloc[0], widths(5).iloc[0]
    assert four > plain * 1.2  # Holm over 4 rows at 95% is z 2.50 against 1.96
    # More rows, a wider interval (the shares differ, so the half-widths are compared to the
    # plain ones at the same share): the correction grows with the family.
    assert (
        two / plain_wilson_half_width(0.5, 4000)
        < four / plain
        < five / plain_wilson_half_width(0.2, 4000)
    )
    assert widths(4, 0.05 / 4).iloc[0] > four  # a run to a precision: the look's share


def test_the_cli_table_is_wider_than_plain_wilson():
    for players in ("2", "4"):
        result = simulate("--players", players, "--games", "4000")
        assert result.exit_code == 0, result.output
        rows = table_rows(result.output)
        assert len(rows) == int(players)
        ratios = [
            (row["high"] - row["low"]) / 2 / plain_wilson_half_width(row["share"], 4000)
            for row in rows
        ]
        # 2 rows: Holm's first step at 0.025 (z 2.24 against 1.96); 4 rows: 0.0125 (z 2.50)
        expected = 2.24 / 1.96 if players == "2" else 2.50 / 1.96
        assert all(abs(ratio - expected) < 0.04 for ratio in ratios), ratios


def test_a_run_to_precision_prints_the_intervals_the_rule_watched():
    result = simulate("--precision", "0.03", "--max-games", "100000")
    assert result.exit_code == 0, result.output
    assert "99.38% family-wise, the 5% error rate split over 8 looks" in result.output
    line = next(x for x in result.output.splitlines() if x.startswith("precision reached"))
    assert "Holm-corrected over the 3 rows" in line and "8 looks planned" in line
    widest = float(re.search(r"within \+/-([\d.]+)", line).group(1))
    rows = table_rows(result.output)
    printed = max((row["high"] - row["low"]) / 2 for row in rows)
    assert abs(printed - widest) < 0.0011 and widest <= 0.03


def test_a_mixed_lineup_plays_to_precision_over_deals():
    # Each deal is played once per rotation of the seats; the looks count deals and watch the
    # entries' intervals, clustered by deal (redraw-low's true share against stand is 11/18,
    # tests/cli/test_simulate_tables.py).
    result = runner.invoke(
        app,
        ["simulate", NAME, "--players", "2", "--deck", "short", "--policy", "stand,redraw-low",
         "--precision", "0.02", "--max-games", "100000", "--chunk-games", "700"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("precision reached"))
    match = re.search(r"after ([\d,]+) deals \(([\d,]+) games\)", line)
    deals, games = (int(x.replace(",", "")) for x in match.groups())
    assert deals in (1000, 2000, 4000, 8000) and games == 2 * deals
    assert "clustered by deal" in line and "Holm-corrected over the 2 rows" in line
    assert f"{deals:,} deals x 2 seat rotations = {games:,} games" in result.output
    widest = float(re.search(r"within \+/-([\d.]+)", line).group(1))
    rows = table_rows(result.output)
    assert len(rows) == 2 and widest <= 0.02
    assert abs(max((row["high"] - row["low"]) / 2 for row in rows) - widest) < 0.0011
    assert rows[1]["low"] <= 11 / 18 <= rows[1]["high"] and rows[1]["verdict"] == "above"
    capped = runner.invoke(
        app,
        ["simulate", NAME, "--players", "2", "--policy", "stand,redraw-low", "--precision",
         "0.001", "--max-games", "1500"],
    )  # fmt: skip
    assert capped.exit_code == 0, capped.output
    assert any(x.startswith("--max-games 1,500 reached") for x in capped.output.splitlines())
