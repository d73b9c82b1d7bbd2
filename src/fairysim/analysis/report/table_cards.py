"""The table-card part of a report's card-effect section (:mod:`.table_cards`): what each card
measured on the whole table does to each turn position, worded from the corrected intervals."""

from __future__ import annotations

import pandas as pd

from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.table_cards import NOT_SHOWN, RULES, TableCardStudy
from fairysim.analysis.studies.what_if import POSITION


def table_card_subsection(report: Report, study: TableCardStudy) -> None:
    """Write the subsection: the intervention and what stays paired, one sentence per (player
    count, card) naming what the correction separates, and the table (sorted as the study
    sorts it), kept as ``<prefix><name>.csv``."""
    meta, table = study.meta, study.differences
    labels = ", ".join(dict.fromkeys(table["label"]))
    report.heading(meta["heading"], level=3)
    report.paragraph(
        f"No seat can be dealt these cards ({labels}), so each is measured on the whole table: "
        f"games 0 to {meta['games'] - 1:,} of seed {meta['seed']} are played per player count "
        f"with {meta['shipped']} and once per card, where {meta['intervention']}. What stays "
        "paired: "
        + definition(meta["paired"])
        + ". "
        + f"{_pairing_sentence(study)} Each game gives one paired difference per turn position "
        "(0 = the first to act) of its win share, and per game of the turn-order spread (the "
        "largest distance of a turn position's win share from the fair share), the mean score "
        "of the table and the "
        "game's length; a table's win shares sum to 1, so their mean never moves. The "
        f"{len(table)} rows are one family corrected with Holm's method; "
        + definition(
            "a card is said to raise or lower a number only where its corrected interval excludes 0"
        )
        + ". `--card-games` sets its games an arm too."
    )
    report.bullets(_lines(table, f"{report.prefix}{meta['name']}.csv"))
    report.table(
        meta["name"],
        table,
        f"Each card's games minus those of {meta['shipped']}, per player count, card and turn "
        "position (win share in pp of games; score in points; length in turns); cards sorted "
        "by their turn-order spread difference, turn positions by difference; corrected "
        "intervals; pairing = paired standard error over that of two unpaired runs of as many "
        "games.",
        display=_display(table),
    )


def _pairing_sentence(study: TableCardStudy) -> str:
    p = study.pairing
    same = int(p["same_turn_order_games"].sum())
    total = int(p["games"].sum())
    return f"Measured: the turn order was the shipped game's in {same:,} of {total:,} games."


def _lines(table: pd.DataFrame, family: str) -> list[str]:
    """One sentence per (player count, type): the rows the correction separates from 0, each
    verdict marked against its rows of ``family`` (the table's CSV file)."""
    lines = []
    for (_, label), rows in table.groupby(["players", "label"], sort=False):
        moved = rows[rows["verdict"] != NOT_SHOWN]
        head = f"{rows['table'].iloc[0]}, {label}"
        if moved.empty:
            lines.append(
                f"{head}: "
                + tested(
                    "no difference is separated from 0 after correction",
                    family,
                    list(rows.index),
                    "not separated",
                    significant="effect_significant",
                )
                + "."
            )
            continue
        parts = [
            f"{_name(r)} {r['verdict']}, {_value(r, 'difference')} {_interval(r)}"
            if r["verdict"] == RULES  # fixed by the rules in every game: no test to name
            else tested(
                f"{_name(r)} {r['verdict']}, {_value(r, 'difference')} {_interval(r)}",
                family,
                int(i),
                "higher" if r["difference"] > 0 else "lower",
                significant="effect_significant",
            )
            for i, r in moved.iterrows()
        ]
        rest = rows[rows["verdict"] == NOT_SHOWN]
        tail = (
            "; "
            + tested(
                f"the other {len(rest)} not separated from 0",
                family,
                list(rest.index),
                "not separated",
                significant="effect_significant",
            )
            if len(rest)
            else ""
        )
        lines.append(f"{head}: " + "; ".join(parts) + tail + ".")
    return lines


def _name(row: pd.Series) -> str:
    if row["group"] == POSITION:
        return f"turn position {int(row['index'])}'s win share"
    if row["metric"] == "score":
        return "the table's mean score"
    return str(row["metric_label"])


def _value(row: pd.Series, column: str) -> str:
    if row["unit"] == "share":
        return fmt_points(row[column])
    return f"{row[column]:+.2f}"


def _interval(row: pd.Series) -> str:
    if row["verdict"] == RULES:
        return "(every game)"
    low, high = row["effect_low"], row["effect_high"]
    if pd.isna(low):
        return "(no game differs)"
    if row["unit"] == "share":
        return fmt_interval(low, high, points=True)
    return f"[{low:+.2f}, {high:+.2f}]"


def _display(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": table["table"],
            "card": table["label"],
            "what": [_name(r) for _, r in table.iterrows()],
            "shipped": [
                fmt_percent(v) if unit == "share" else f"{v:.2f}"
                for v, unit in zip(table["baseline_mean"], table["unit"], strict=True)
            ],
            "difference": [_value(r, "difference") for _, r in table.iterrows()],
            "corrected interval": [_interval(r) for _, r in table.iterrows()],
            "verdict": table["verdict"],
            "games": table["games"].map("{:,}".format),
            "pairing": table["se_ratio"].map("{:.2f}".format),
        }
    )


__all__ = ["table_card_subsection"]
