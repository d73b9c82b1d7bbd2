"""The answer card: what a report answers, on its first screen, under every rung it plays.

A designer opens a report to learn whether the turn order is fair, whether a card or a fan is out
of band, how hard solo is and whether skill matters; the methods come after. The card states each
answer under every skill rung the report plays (its ``--policy``, the best heuristic, the search
player) with its corrected interval and the games behind it, and marks a question whose answer
changes between rungs ("depends on skill"), so a verdict a later section qualifies is qualified
on the first screen.

The questions every report asks are built here; the card's model and markup are
:mod:`~fairysim.analysis.report.answer_card`. Each builder reads the same result tables the
sections print (the balance card's turn-order table, the ladder's positions, a best-heuristic
check, the card effects), never their sentences, and states a rung's findings so that the card
can tell where the rungs disagree. A report adds a question by returning one more ``Question``
from its ``own_questions`` hook (:class:`~fairysim.analysis.report.pipeline.StandardReport`).

One module of about 600 lines: the standard questions share their helpers (the rung lines, the
game counts, the verdict tables), which a split per question would copy or scatter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from fairysim.analysis.report.answer_card import Mark, Question, RungAnswer
from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points, games_in_words
from fairysim.analysis.studies.heuristic_check import BASE, BEST, HeuristicCheck, verdict_sign
from fairysim.stats.turn_order import ordinal

TURN_ORDER_SECTION = "Seat advantage by turn order"
LADDER_SECTION = "The skill ladder"
CARD_EFFECT_SECTION = "Card strength as an effect"

SEPARATED = "{kept} of the {total} {what} separated"
"""How a rung's line counts the comparisons its family separates (``kept``, ``total``,
``what``)."""


NONE_OFF = "no turn position shown off the fair share"
"""A rung with no position separated: not shown to differ, which is not shown to be fair."""

UNSKILLED = ("random",)
"""Ladder rungs the card leaves out: a random seat is a floor, not a skill level a designer
plays for."""


# --------------------------------------------------------------------------------------------
# Turn order


def turn_order_question(card: Any, ladder: Any = None, policy: str = "greedy") -> Question:
    """Does any turn position differ from the fair share? Under the report's ``policy`` from the
    balance card's turn-order table (the section "Seat advantage by turn order"), under each
    ladder rung above it from the ladder's positions (its section's "positions off fair")."""
    t = card.turn_order
    answers = [
        _turn_answer(
            policy,
            t.assign(off=t["significant"], low_adv=t["low"] - t["fair"]),
            t["high"] - t["fair"],
            TURN_ORDER_SECTION,
            games=_balance_games(card),
        )
    ]
    if ladder is not None:
        p = ladder.positions
        for rung in _ladder_rungs(ladder, policy):
            rows = p[p["policy"] == rung]
            rows = rows.assign(
                advantage=rows["win_share"] - rows["fair"],
                off=rows["position_significant"],
                low_adv=rows["position_low"] - rows["fair"],
            )
            rows = rows.assign(games=_rung_games(ladder, rung))
            answers.append(
                _turn_answer(rung, rows, rows["position_high"] - rows["fair"], LADDER_SECTION)
            )
    if ladder is not None:  # weakest first, whatever policy the report's study seats
        order = list(ladder.meta["ladder"])
        answers.sort(key=lambda a: order.index(a.rung) if a.rung in order else -1)
    return Question(
        "Turn order",
        "does any turn position win more or less than the fair share 1/players?",
        tuple(answers),
    )


def _ladder_rungs(ladder: Any, policy: str) -> list[str]:
    """The ladder's rungs the card states besides the report's own policy."""
    return [r for r in ladder.meta["ladder"] if r not in UNSKILLED and r != policy]


def _rung_games(ladder: Any, rung: str) -> int:
    """Games of one rung's mirror table (every player count plays as many)."""
    return int(ladder.rungs.loc[ladder.rungs["policy"] == rung, "games"].iloc[0])


def _turn_answer(
    rung: str, rows: pd.DataFrame, high_adv: pd.Series, section: str, games: str | None = None
) -> RungAnswer:
    """One rung's turn-order answer; ``games`` words the games behind it (default: the rows'
    ``games`` per player count)."""
    rows = rows.assign(high_adv=high_adv.to_numpy())
    off = rows[rows["off"].astype(bool)]
    findings = frozenset(
        (int(r.players), int(r.position), 1 if r.advantage > 0 else -1) for r in off.itertuples()
    )
    counts = sorted(int(n) for n in rows["players"].unique())
    games = _games_per_count(rows) if games is None else games
    if off.empty:
        r = rows.iloc[int(rows["advantage"].abs().to_numpy().argmax())]
        return RungAnswer(
            rung,
            NONE_OFF,
            f"{NONE_OFF} at {_counts(counts)} players "
            f"(largest difference: {int(r.players)} players, {ordinal(int(r.position))} to act "
            f"{fmt_points(r.advantage)} {fmt_interval(r.low_adv, r.high_adv, points=True)})",
            games,
            section,
            findings,
            frozenset(counts),
        )
    short = "; ".join(_turn_group(off, counts))
    detail = _first(
        [
            f"{int(r.players)} players, {ordinal(int(r.position))} to act "
            f"{fmt_points(r.advantage)} {fmt_interval(r.low_adv, r.high_adv, points=True)}"
            for r in off.sort_values(["players", "position"]).itertuples()
        ]
    )
    return RungAnswer(
        rung, short, f"{short} ({detail})", games, section, findings, frozenset(counts)
    )


def _turn_group(off: pd.DataFrame, counts: Sequence[int]) -> list[str]:
    """``"the 1st to act loses 1.8-3.5 pp at every player count"``: the positions off fair,
    grouped by position and sign."""
    parts = []
    for (position, sign), g in off.groupby([off["position"], off["advantage"] > 0], sort=True):
        sizes = (100 * g["advantage"].abs()).sort_values()
        size = (
            f"{sizes.iloc[0]:.1f} pp"
            if len(sizes) == 1
            else f"{sizes.iloc[0]:.1f}-{sizes.iloc[-1]:.1f} pp"
        )
        where = sorted(int(n) for n in g["players"])
        at = "every player count" if where == list(counts) else f"{_counts(where)} players"
        verb = "wins" if sign else "loses"
        parts.append(f"the {ordinal(int(position))} to act {verb} {size} at {at}")
    return parts


def _balance_games(card: Any) -> str:
    """The balance card's games per player count as its turn-order section names them (the
    distinct deals, and the runs that replayed them), so one interval has one game count."""
    s = card.summary
    kinds = sorted({(int(g), int(r)) for g, r in zip(s["games"], s["runs"], strict=True)})
    if len(kinds) == 1:
        return games_in_words(*kinds[0]).replace(" games", " games per player count", 1)
    return "; ".join(
        f"{int(p)} players: {games_in_words(g, r)}"
        for p, g, r in zip(s["players"], s["games"], s["runs"], strict=True)
    )


def _games_per_count(rows: pd.DataFrame) -> str:
    games = sorted({int(g) for g in rows["games"]}) if "games" in rows else []
    if not games:
        return ""
    if len(games) == 1:
        return f"{games[0]:,} games per player count"
    return f"{games[0]:,} to {games[-1]:,} games per player count"


def _counts(counts: Sequence[int]) -> str:
    items = [str(n) for n in counts]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------------------------
# A best-heuristic check (fans, score cards, courts)


def check_question(
    check: HeuristicCheck | None,
    topic: str,
    asks: str,
    describe: Callable[[Any], str],
    fmt_value: Callable[[Any, str], str],
    section: str,
    *,
    what: str = "comparisons",
    pairs: tuple[str, str] | None = None,
    words: dict[str, str] | None = None,
    before: Sequence[RungAnswer] = (),
    counted: str = SEPARATED,
    family: str = "",
) -> Question:
    """A question answered by a game's best-heuristic check: its comparisons' verdicts under the
    report's policy and under the best heuristic, as the check's table in ``section`` shows
    them (:func:`~fairysim.analysis.studies.heuristic_check.compare_verdicts`).

    ``describe(row)`` names a comparison (``"fan II against fan I"``) and ``fmt_value(row,
    prefix)`` gives one policy's value with its corrected interval, as the section's table
    does; ``pairs`` names the two key columns where each comparison is a pair of items
    (``("stronger", "weaker")``), so the card can say which item, if any, is separated from
    every other; ``words`` the verdicts' words (``{"above": "higher", "below": "lower"}``);
    ``before`` answers stated first (the section's own study under the report's policy);
    ``counted`` how a rung's line counts the separated comparisons (:data:`SEPARATED`);
    ``family`` the stem of the CSV file the page writes the check's table as, which the
    verdicts are marked against. Without a check (a report run without ``--heuristic-games``)
    the question holds ``before`` alone.
    """
    if check is None:
        return Question(topic, asks, tuple(before))
    meta = check.meta
    table = check.table
    players = int(meta["players"])
    games = f"{int(meta['games']):,} games {meta['arm']}, {players} players"
    answers = list(before)
    for prefix, rung in ((BASE, meta["policy"]), (BEST, meta["best"])):
        answers.append(
            comparisons_answer(
                table,
                prefix,
                rung,
                describe,
                fmt_value,
                section,
                games,
                players,
                what=what,
                pairs=pairs,
                words=words,
                counted=counted,
                family=family,
            )
        )
    changes = check.changes
    note = (
        f"{len(changes)} of the {len(table)} {what} change verdict between {meta['policy']} and "
        f"{meta['best']} at {players} players."
        if not changes.empty
        else ""
    )
    return Question(topic, asks, tuple(answers), note=note)


def comparisons_answer(
    table: pd.DataFrame,
    prefix: str,
    rung: str,
    describe: Callable[[Any], str],
    fmt_value: Callable[[Any, str], str],
    section: str,
    games: str,
    scope: Any,
    *,
    what: str = "comparisons",
    pairs: tuple[str, str] | None = None,
    words: dict[str, str] | None = None,
    counted: str = SEPARATED,
    family: str = "",
    columns: tuple[str, str] | None = None,
) -> RungAnswer:
    """One rung's answer from a family of comparisons whose ``<prefix>verdict`` column says
    ``"above"``, ``"below"`` or ``"not separated"`` (:func:`verdict_table` makes one).

    ``family`` is the stem of the CSV file the page writes the comparisons as, one row per
    label of ``table``'s index, and ``columns`` its verdict and estimate columns (by default
    ``<prefix>significant`` and ``<prefix>value``): each verdict phrase is marked against its
    rows (none where ``family`` is empty)."""
    words = {"above": "higher", "below": "lower"} | dict(words or {})
    verdicts = table[f"{prefix}verdict"]
    kept = table[verdicts != "not separated"]
    findings = frozenset(
        (scope, describe(r), getattr(r, f"{prefix}verdict")) for r in kept.itertuples()
    )
    significant, value = columns or (f"{prefix}significant", f"{prefix}value")

    def mark(phrase: str, rows: Any, claim: str) -> tuple[Mark, ...]:
        rows = tuple(int(r) for r in rows)
        if not family or not rows:
            return ()
        return (Mark(phrase, family, rows, claim, significant, value),)

    if kept.empty:
        short = f"none of the {len(table)} {what} is separated"
        marks = mark(short, table.index, "not separated")
        return RungAnswer(
            rung, short, short, games, section, findings, frozenset({scope}), marks=marks
        )
    outliers = _separated_from_all(table, prefix, pairs) if pairs else []
    separated = counted.format(kept=len(kept), total=len(table), what=what)
    marks = mark(separated, kept.index, "separated")
    for item, phrase in outliers:
        mine = table[(table[pairs[0]] == item) | (table[pairs[1]] == item)]
        marks += mark(phrase, mine.index, "separated")
    items = []
    for index, r in zip(kept.index, kept.itertuples(), strict=True):
        verdict = getattr(r, prefix + "verdict")
        item = f"{describe(r)} {words[verdict]} {fmt_value(r, prefix)}"
        items.append(item)
        marks += mark(item, (index,), "higher" if verdict == "above" else "lower")
    gist = ""
    if outliers:
        gist = "out of band: " + ", ".join(phrase for _, phrase in outliers)
        short = f"{gist} ({separated})"
    elif pairs:
        gist = "none out of band"
        short = f"{gist} ({separated}, none from every other)"
    else:
        short = separated
    detail = short + ": " + _first(items)
    return RungAnswer(
        rung, short, detail, games, section, findings, frozenset({scope}), gist, marks
    )


def verdict_table(table: pd.DataFrame, value: str, prefix: str = BASE) -> pd.DataFrame:
    """A corrected family (``value``, ``low``, ``high``, ``significant``) with its columns
    prefixed and a verdict column, as a best-heuristic check's table has them, for
    :func:`comparisons_answer`."""
    out = table.copy()
    renamed = {c: f"{prefix}{c}" for c in ("low", "high", "significant")}
    out = out.rename(columns={value: f"{prefix}value", **renamed})
    out[f"{prefix}verdict"] = [
        {1: "above", -1: "below", 0: "not separated"}[verdict_sign(v, sig)]
        for v, sig in zip(out[f"{prefix}value"], out[f"{prefix}significant"], strict=True)
    ]
    return out


SHOWN = 3
"""Findings a rung's line lists before it counts the rest (its section lists them all)."""


def _first(items: Sequence[str]) -> str:
    """The first :data:`SHOWN` items, then how many more the section has."""
    shown = "; ".join(items[:SHOWN])
    more = len(items) - SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def _separated_from_all(
    table: pd.DataFrame, prefix: str, pairs: tuple[str, str]
) -> list[tuple[Any, str]]:
    """Items whose every pair is separated the same way (all above, or all below), each with
    the phrase that says so."""
    a, b = pairs
    items = sorted(set(table[a]) | set(table[b]), key=str)
    out = []
    for item in items:
        signs = set()
        for r in table.itertuples():
            verdict = getattr(r, f"{prefix}verdict")
            sign = {"above": 1, "below": -1}.get(verdict, 0)
            if getattr(r, a) == item:
                signs.add(sign)
            elif getattr(r, b) == item:
                signs.add(-sign)
        if len(items) > 2 and signs in ({1}, {-1}):
            out.append((item, f"{item} ({'above' if signs == {1} else 'below'} every other)"))
    return out


# --------------------------------------------------------------------------------------------
# Card effects


CARD_EFFECTS = "card_effects"
"""The CSV stem of the card-effect table the card-effect section writes."""

BEST_CARD_EFFECTS = "answer_card_effects_best_heuristic"
"""The CSV stem the answer card writes the card effects under the best heuristic as."""


def card_effect_question(effects: Any, label: str | None = None) -> Question:
    """Is a card out of band when forced into a hand? The card-effect study's corrected verdicts
    (its section's table), under its policy and, where the report played it, under the best
    heuristic (:attr:`CardEffectStudy.under_best`)."""
    label = label or effects.meta["card_label"]
    studies = [effects]
    if getattr(effects, "under_best", None) is not None:
        studies.append(effects.under_best)
    answers = tuple(
        _effect_answer(study, CARD_EFFECTS if n == 0 else BEST_CARD_EFFECTS)
        for n, study in enumerate(studies)
    )
    return Question(
        "Cards",
        f"is a {label} out of band (one more of it in a hand, on identical deals)?",
        answers,
        note=_changed_cards(answers, label),
    )


def _changed_cards(answers: Sequence[RungAnswer], label: str) -> str:
    """How many cards change verdict between the first two rungs, where both played."""
    if len(answers) < 2:
        return ""
    a, b = answers[0], answers[1]
    common = a.scopes & b.scopes

    def verdicts(answer: RungAnswer) -> dict:
        return {f[:2]: f[2] for f in answer.findings if f[0] in common}

    mine, theirs = verdicts(a), verdicts(b)
    changed = sorted(
        {card for card in set(mine) | set(theirs) if mine.get(card) != theirs.get(card)}
    )
    if not changed:
        return ""
    where = " and ".join(str(n) for n in sorted(common))
    return (
        f"{len(changed)} {label}s change verdict between {a.rung} and {b.rung} at {where} players"
    )


def _table(row: Any) -> str:
    """Where a card-effect row was played: ``"at 3 players"``, or the table's name for one
    player (``"solo against Pahha"``)."""
    return f"at {int(row.players)} players" if int(row.players) > 1 else str(row.table)


def _effect_answer(study: Any, family: str) -> RungAnswer:
    """One study's card effects; its verdicts marked against ``family`` (the section's CSV, or
    one the page writes for the card where no section does)."""
    meta = study.meta
    e = study.effects.reset_index(drop=True)
    written = ((family, e),) if family != CARD_EFFECTS else ()
    # the policy of the seat the card is forced on (solo: the player, not Pahha)
    seat = int(meta.get("seat", 0))
    rung = ", ".join(sorted({lineup[seat] for lineup in meta["policies"].values()}))
    counts = sorted(int(n) for n in e["players"].unique())
    kept = e[e["effect_significant"].astype(bool)]
    findings = frozenset(
        (int(r.players), str(r.label), 1 if r.effect > 0 else -1) for r in kept.itertuples()
    )
    tables = list(dict.fromkeys(e["table"]))
    where = tables[0] if len(tables) == 1 else f"{_counts(counts)} players"
    games = f"{int(e['games'].max()):,} games an arm, {where}"
    if kept.empty:
        short = f"no {meta['card_label']} shown to change the seat's win share"
        return RungAnswer(
            rung,
            short,
            short,
            games,
            CARD_EFFECT_SECTION,
            findings,
            frozenset(counts),
            tables=written,
        )
    parts = []
    marks: tuple[Mark, ...] = ()
    total = e["label"].nunique()
    for word, sign in ((meta["stronger"], 1), (meta["weaker"], -1)):
        side = kept[(kept["effect"] > 0) == (sign > 0)]
        if not side.empty:
            names = [str(n) for n in dict.fromkeys(side["label"])]
            listed = (
                ", ".join(names)
                if len(names) <= SHOWN
                else f"{len(names)} of the {total} {meta['card_label']}s"
            )
            parts.append(f"{word}: {listed}")
            claim = "higher" if sign > 0 else "lower"
            marks += (
                Mark(parts[-1], family, tuple(side.index), claim, "effect_significant", "effect"),
            )
    short = "; ".join(parts)
    detail = _first(
        [
            f"{r.label} {_table(r)} {fmt_points(r.effect)} "
            f"{fmt_interval(r.effect_low, r.effect_high, points=True)}"
            for r in kept.itertuples()
        ]
    )
    return RungAnswer(
        rung,
        short,
        f"{short} ({detail})",
        games,
        CARD_EFFECT_SECTION,
        findings,
        frozenset(counts),
        marks=marks,
        tables=written,
    )


# --------------------------------------------------------------------------------------------
# Skill


SKILL_GAPS = "answer_skill_gaps"
"""The CSV stem the answer card writes the ladder's head-to-head shares as, with whether each
interval leaves one half (``separated``) and the share's distance from it (``advantage``)."""


def skill_question(ladder: Any) -> Question:
    """Does skill matter? The ladder's head-to-head share of its top heuristic rung against its
    bottom one, and where played, one searching seat among the best heuristic."""
    answers = []
    gaps = ladder.gaps
    if not gaps.empty:
        top, bottom = gaps["top"].iloc[0], gaps["bottom"].iloc[0]
        above = gaps[gaps["low"] > 0.5]
        below = gaps[gaps["high"] < 0.5]
        findings = frozenset(
            [(int(r.players), "above") for r in above.itertuples()]
            + [(int(r.players), "below") for r in below.itertuples()]
        )
        counts = sorted(int(n) for n in gaps["players"])
        tested_gaps = gaps.reset_index(drop=True).assign(
            separated=lambda g: (g["low"] > 0.5) | (g["high"] < 0.5),
            advantage=lambda g: g["share"] - 0.5,
        )
        claim = f"{top} ranks above {bottom}"
        short = (
            f"yes: {claim} at {_where(above, counts)}"
            if not above.empty
            else f"{top} is not shown to win more than half of its meetings with {bottom}"
        )
        rows = tuple(int(n) for n in tested_gaps.index[tested_gaps["low"] > 0.5])
        marks = (Mark(claim, SKILL_GAPS, rows, "higher", "separated", "advantage"),) if rows else ()
        detail = "; ".join(
            f"{int(r.players)} players {fmt_percent(r.share)} {fmt_interval(r.low, r.high)} "
            f"of {int(r.meetings):,} meetings"
            for r in gaps.itertuples()
        )
        answers.append(
            RungAnswer(
                f"{top} against {bottom}",
                short,
                f"{short} ({detail}; 50% = no skill)",
                f"a tournament, {int(gaps['games_per_pairing'].iloc[0]):,} games per mix",
                LADDER_SECTION,
                findings,
                frozenset(counts),
                marks=marks,
                tables=((SKILL_GAPS, tested_gaps),),
            )
        )
    search = ladder.search
    if not search.empty:
        beats = search[search["significant"].astype(bool) & (search["share"] > search["fair"])]
        counts = sorted(int(n) for n in search["players"])
        name, against = search["search"].iloc[0], search["against"].iloc[0]
        short = (
            f"one {name} seat beats {against} at {_where(beats, counts)}"
            if not beats.empty
            else f"{name} is not shown to beat {against}"
        )
        detail = "; ".join(
            f"{int(r.players)} players {fmt_percent(r.share)} {fmt_interval(r.low, r.high)} "
            f"against a fair {fmt_percent(r.fair)}"
            for r in search.itertuples()
        )
        answers.append(
            RungAnswer(
                f"{name} against {against}",
                short,
                f"{short} ({detail})",
                f"{int(search['deals'].iloc[0]):,} deals per player count, every seat once",
                LADDER_SECTION,
                frozenset((int(r.players), "beats") for r in beats.itertuples()),
                frozenset(counts),
            )
        )
    order = [w for w in ladder.warnings if "the ratings order" in w]
    return Question(
        "Skill",
        "does the more skilled policy win more often?",
        tuple(answers),
        comparable=False,
        note=" ".join(order),
    )


def _where(rows: pd.DataFrame, counts: Sequence[int]) -> str:
    where = sorted(int(n) for n in rows["players"])
    return "every player count" if where == list(counts) else f"{_counts(where)} players"


def standard_questions(studies: Any, policy: str, own: Sequence[Question] = ()) -> list[Question]:
    """The questions every report answers, in order: turn order (a study with a balance card),
    the report's own questions, the cards (a card-effect study), skill (a ladder)."""
    out = []
    card = getattr(studies.study, "balance", None)
    if card is not None:
        out.append(turn_order_question(card, studies.ladder, policy))
    out.extend(own)
    if studies.effects is not None:
        out.append(card_effect_question(studies.effects))
    if studies.ladder is not None:
        out.append(skill_question(studies.ladder))
    return out


__all__ = [
    "card_effect_question",
    "check_question",
    "comparisons_answer",
    "skill_question",
    "standard_questions",
    "turn_order_question",
    "verdict_table",
]
