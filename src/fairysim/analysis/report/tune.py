"""The page of ``fairysim tune``: ``tune.html``, one self-contained file.

What a designer reads at a glance: the verdict (which changes meet every target, or that none
does and how close the best came), the targets before and after under each player count and
policy with their corrected intervals on fresh games, the diff of the card file, the search's
front (changes against distance) and its progress, and the ``fairysim compare`` command that
plays the base file against the tuned one. Figures are inline SVG with labelled axes; every
number shown carries its interval and game count.

The page reads a :class:`fairysim.analysis.tune.run.TuneResult` by its attributes, so this module
imports nothing of the tune package. Shares are shown in percent, bands included (the files keep
them as fractions, as the measures are computed).
"""

from __future__ import annotations

import html
import io
import math
from typing import Any

import pandas as pd

from fairysim.sim.game import get_game

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.met { color: #1a7f37; font-weight: 600; } .missed { color: #b42318; font-weight: 600; }
pre { background: #f5f5f5; padding: 0.6em; white-space: pre-wrap; }
"""


def _svg(fig: Any) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buffer.getvalue()
    return text[text.find("<svg") :]


def _number(value: float, unit: str) -> str:
    if not math.isfinite(value):
        return "n/a"
    if "share" in unit:
        return f"{100 * value:.1f}%"
    return f"{value:.2f}"


def _scale(unit: str) -> float:
    """Shares are shown in percent (the vocabulary); other units as they are."""
    return 100.0 if "share" in unit else 1.0


def _unit_text(unit: str) -> str:
    """The unit as an axis shows it: a share of games in percent."""
    return unit.replace("share of", "% of") if "share" in unit else unit


def _band(target: Any, unit: str) -> str:
    """The target's band in words, in the unit the page shows the measure in."""
    return target.words(lambda value: _number(value, unit)) if "share" in unit else target.text


def targets_figure(result: Any) -> str:
    """One panel per target: the base and the recommended (or closest) candidate per cell,
    each with its corrected interval, over the target's band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    targets = result.targets
    final = result.final
    chosen = result.recommended if result.recommended is not None else result.closest
    label = result.label(chosen)
    fig, axes = plt.subplots(
        1, len(targets.targets), figsize=(4.6 * len(targets.targets), 3.8), squeeze=False
    )
    for ax, target in zip(axes[0], targets.targets, strict=True):
        measure = targets.measures[target.measure]
        scale = _scale(measure.unit)
        rows = final[final["measure"] == target.measure]
        cells = list(dict.fromkeys(zip(rows["players"], rows["policy"], strict=True)))
        for offset, (name, colour) in ((-0.12, ("base", "#888")), (0.12, (label, "#1f6feb"))):
            mine = rows[rows["candidate"] == name]
            for k, (players, policy) in enumerate(cells):
                row = mine[(mine["players"] == players) & (mine["policy"] == policy)]
                if row.empty:
                    continue
                r = row.iloc[0]
                ax.errorbar(
                    k + offset,
                    scale * r["value"],
                    yerr=[[scale * (r["value"] - r["low"])], [scale * (r["high"] - r["value"])]],
                    fmt="o",
                    color=colour,
                    capsize=3,
                    label=("base file" if name == "base" else "tuned") if k == 0 else None,
                )
        low = scale * target.low if target.low is not None else ax.get_ylim()[0]
        high = scale * target.high if target.high is not None else ax.get_ylim()[1]
        ax.axhspan(low, high, color="#2da44e", alpha=0.15, label="target band")
        ax.set_xticks(range(len(cells)))
        ax.set_xticklabels([f"{p} players\n{pol}" for p, pol in cells])
        ax.set_ylabel(f"{measure.label}\n({_unit_text(measure.unit)})")
        ax.set_title(f"{target.measure}: {_band(target, measure.unit)}", fontsize=10)
        ax.legend(fontsize=8)
    fig.suptitle("Targets before and after, corrected intervals on fresh games", fontsize=11)
    fig.tight_layout()
    return _svg(fig)


def front_figure(result: Any) -> str:
    """Every search candidate's changes against its distance, the front joined."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    search = result.candidates[result.candidates["stage"] == "search"]
    trials = search.drop_duplicates("trial")
    trials = trials[trials["refused"] == ""]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    left.scatter(trials["changes"], trials["total_distance"], s=12, color="#999", label="candidate")
    front = result.front
    left.plot(front["changes"], front["distance"], "o-", color="#1f6feb", label="front")
    from matplotlib.ticker import MaxNLocator

    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    right.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_xlabel("numbers changed")
    left.set_ylabel("distance to the targets (band units)")
    left.set_title("Search front (point estimates, search games)", fontsize=10)
    left.legend(fontsize=8)
    ordered = trials.sort_values("trial")
    right.plot(range(1, len(ordered) + 1), ordered["total_distance"].cummin(), color="#1f6feb")
    right.set_xlabel("candidates evaluated")
    right.set_ylabel("nearest distance so far (band units)")
    right.set_title("Search progress", fontsize=10)
    fig.tight_layout()
    return _svg(fig)


def _table(frame: pd.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for value in row:
            text = html.escape(str(value))
            if text == "meets":
                cells.append(f'<td class="met">{text}</td>')
            elif text == "misses":
                cells.append(f'<td class="missed">{text}</td>')
            else:
                cells.append(f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _before_after(result: Any, chosen_label: str) -> pd.DataFrame:
    final = result.final
    bands = {target.measure: target for target in result.targets.targets}
    rows = []
    for row in final[final["candidate"].isin(["base", chosen_label])].itertuples():
        unit = result.targets.measures[row.measure].unit
        rows.append(
            {
                "file": "base" if row.candidate == "base" else "tuned",
                "players": row.players,
                "policy": row.policy,
                "measure": row.measure,
                "target": _band(bands[row.measure], unit),
                "value": _number(row.value, unit),
                "corrected interval": f"[{_number(row.low, unit)}, {_number(row.high, unit)}]",
                "games": f"{row.games:,}",
                "verdict": "meets" if row.met else "misses",
            }
        )
    return pd.DataFrame(rows)


def _finalists(result: Any) -> pd.DataFrame:
    summary = result.final.groupby("candidate", sort=False).agg(
        changes=("changes", "first"), met=("met", "all"), distance=("distance", "sum")
    )
    return pd.DataFrame(
        {
            "candidate": summary.index,
            "numbers changed": summary["changes"].to_numpy(),
            "every target met": ["meets" if m else "misses" for m in summary["met"]],
            "distance on fresh games": [f"{d:.3f}" for d in summary["distance"]],
        }
    )


def tune_page(result: Any) -> str:
    """The whole page as HTML text."""
    targets = result.targets
    chosen = result.recommended if result.recommended is not None else result.closest
    label = result.label(chosen)
    games = int(result.final["games"].max())
    if result.recommended is not None and not any(result.recommended):
        verdict = (
            "The base card file already meets every target under every listed policy and "
            "player count (corrected intervals on fresh games): no change is needed."
        )
    elif result.recommended is not None:
        verdict = (
            f"Recommended: <b>{html.escape(label)}</b>, the fewest changes whose corrected "
            f"intervals meet every target under every listed policy and player count, on "
            f"{games:,} fresh games per table never played in the search."
        )
    else:
        verdict = (
            "<b>No candidate met every target</b> on the fresh games. The closest was "
            f"<b>{html.escape(label)}</b>; tuned_cards.toml holds it, marked as such."
        )
    level = result.final["level"].min()
    title = html.escape(get_game(targets.game).title)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>fairysim tune: {title}</title><style>{STYLE}</style>",
        "</head><body>",
        f"<h1>Tuning {title}</h1>",
        f"<p>{verdict}</p>",
        "<p>Targets file: <code>"
        + html.escape(targets.source)
        + "</code>; base card file: <code>"
        + html.escape(targets.cards)
        + "</code>.</p>",
        "<h2>Targets before and after</h2>",
        "<p>Intervals are Holm-corrected as one family over every target, table and finalist "
        f"of the final replay (the narrowest at error rate {level:.2g} per part), each on "
        f"{games:,} games the search never played.</p>",
        targets_figure(result),
        _table(_before_after(result, label)),
        "<h2>The changes</h2>",
        _table(result.changes) if not result.changes.empty else "<p>None.</p>",
        "<h2>Finalists on fresh games</h2>",
        _table(_finalists(result)),
        "<h2>The search</h2>",
        front_figure(result),
        _table(result.front),
        "<h2>Compare base and tuned</h2>",
        f"<pre>{html.escape(result.compare_command)}</pre>",
        "</body></html>",
    ]
    return "\n".join(parts)


__all__ = ["front_figure", "targets_figure", "tune_page"]
