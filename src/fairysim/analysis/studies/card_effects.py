"""Card strength as an effect: one more card in a seat's hand, on otherwise identical deals.

A card statistic read off ordinary games (the win share of seats that hold a card) is an
association: a seat dealt a strong hand holds more of everything. The effect here is an
intervention. For each card a game declares
(:class:`~fairysim.analysis.studies.card_studies.CardEffects`), every
game ``0 .. G-1`` of the seed is played twice: as dealt, and with the card put in the reach of
one seat (``forced_seat``) as the game's ruling says (Fantastique: PF5, one more card of that
value in exchange for the first other card the seat is dealt). Every rule draw and every
policy's stream are the same in both, so each game gives one paired difference of that seat's
win share, and the card's effect is their mean over the games where the intervention was made,
with the standard error of those per-game differences (the game is the cluster).

Beside it stands the association the same baseline games show: the least-squares slope of the
seat's win share on how many of the card it was dealt, or, where the game declares
``CardEffects.held`` (Fairy Land: no card is dealt), on how many it owned at the end
(heteroscedasticity-robust standard error,
statsmodels ``HC1``), in the same unit, share of games per card. Each column is one family
corrected with Holm's method (:func:`fairysim.stats.corrections.with_correction`), so a
card is called stronger or weaker than the card it replaces only where its corrected interval
excludes zero. The cards are ranked in tied groups from corrected paired differences of their
effects (``win share forced c - win share forced c'``, game by game), and where the effect
and the association disagree in sign or in order the study says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from fairysim.analysis.studies.card_studies import CardEffects, card_effects_of
from fairysim.runtime.errors import FairysimError
from fairysim.runtime.stages import tell
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, Progress, check_games, join_chunks
from fairysim.sim.game import GameSpec, get_game, load_entry
from fairysim.sim.policy import policies_resolved_once
from fairysim.stats.corrections import correct_family, with_correction
from fairysim.stats.ranking import ranked_groups

EFFECT = "effect_"
"""Prefix of the effect's corrected columns."""
ASSOCIATION = "association_"
"""Prefix of the association's corrected columns."""

STRONGER = CardEffects.stronger
"""The default verdict above 0 (a game's ``CardEffects`` may word its own)."""
WEAKER = CardEffects.weaker
NOT_SHOWN = "no effect shown"


@dataclass
class CardEffectStudy:
    """The tables of one card-effect study.

    ``effects`` has a row per (player count, card), sorted by player count, then effect
    (largest first): ``players``, ``table`` (as the headline names it: "solo against Pahha"),
    ``card``, ``label``,
    ``games`` (games where the intervention was made), ``effect`` and ``effect_se`` (share of
    games), the corrected ``effect_*`` columns, ``se_ratio`` (the paired standard error over
    that of two unpaired runs of as many games: how much the pairing narrowed it),
    ``association`` and ``association_se`` (share of games per card dealt) with their
    ``association_*`` columns, ``held`` (mean cards of it
    the seat was dealt), ``effect_rank``, ``association_rank`` (within the player count) and
    ``verdict``. ``pairs`` are the corrected paired differences between the cards' effects (one
    family); ``groups`` the cards of each player count in tied groups by effect, best first;
    ``notes`` the sentences where effect and association disagree; ``meta`` the study's
    description.
    """

    effects: pd.DataFrame
    pairs: pd.DataFrame
    groups: dict[int, list[list[str]]]
    notes: list[str]
    meta: dict[str, Any]
    checks: list[str] = field(default_factory=list)
    """Sentences from :func:`verdict_changes`: where the verdicts hold or change under the
    best heuristic (a report fills them in)."""
    table_cards: list[Any] = field(default_factory=list)
    """The game's table-card studies
    (:class:`~fairysim.analysis.studies.table_cards.TableCardStudy`) of the cards no seat can be
    dealt, where it declares some (a report fills them in)."""
    under_best: CardEffectStudy | None = None
    """The same cards played under the best heuristic at one player count, where a report
    checks its verdicts there (:func:`verdict_changes` words the comparison; the answer card
    states both)."""

    def pooled(self, method: str = "holm") -> pd.DataFrame:
        """Each card's effect and association averaged with equal weight over the player counts
        (their runs are independent, so the standard error is ``sqrt(sum se^2) / k``), each
        column one corrected family; sorted by effect. A report's own statistic averaged the
        same way is compared with it."""
        k = self.effects.groupby("label", sort=False)
        out = pd.DataFrame(
            {
                "card": k["card"].first(),
                "effect": k["effect"].mean(),
                "effect_se": np.sqrt(k["effect_se"].apply(lambda v: (v**2).sum())) / k.size(),
                "association": k["association"].mean(),
                "association_se": np.sqrt(k["association_se"].apply(lambda v: (v**2).sum()))
                / k.size(),
            }
        ).reset_index()
        out = with_correction(out, "effect", "effect_se", method=method, prefix=EFFECT)
        out = with_correction(
            out, "association", "association_se", method=method, prefix=ASSOCIATION
        )
        return out.sort_values("effect", ascending=False, kind="stable").reset_index(drop=True)


def _spec_with_effects(game: str | GameSpec) -> GameSpec:
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    if card_effects_of(spec) is None:
        raise FairysimError("GAME", f"{spec.name} declares no card-effect intervention yet")
    return spec


def _play(spec: GameSpec, setup: Any, games: int, threads, progress) -> dict[str, np.ndarray]:
    """Every per-game and per-seat array of ``games`` games of ``setup``."""
    return join_chunks(
        spec.play_chunks(
            setup, games, chunk_games=DEFAULT_CHUNK_GAMES, threads=threads, progress=progress
        )
    )


def effect_cards(spec: GameSpec, base: Any) -> list[tuple[int, str]]:
    """The ``(card id, label)`` pairs the game declares for ``base``'s table."""
    return list(load_entry(card_effects_of(spec).cards)(base))


def forced_setup(base: Any, card: int, seat: int) -> Any:
    """``base`` with ``card`` put in ``seat``'s reach in every game (the game's intervention)."""
    return replace(base, forced_card=card, forced_seat=seat)


def forced_share(arm: Mapping[str, np.ndarray], seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The seat's win share in each game of a forced arm, and where the intervention was made."""
    return (
        np.asarray(arm["win_share"][:, seat], np.float64),
        np.asarray(arm["forced_exchanged"], bool),
    )


def forced_differences(
    baseline: Mapping[str, np.ndarray], arm: Mapping[str, np.ndarray], seat: int
) -> np.ndarray:
    """Per game where the intervention was made: the seat's win share forced minus as dealt,
    the paired differences whose mean is the card's effect."""
    share, done = forced_share(arm, seat)
    return share[done] - np.asarray(baseline["win_share"][:, seat], np.float64)[done]


def _association(share: np.ndarray, held: np.ndarray) -> tuple[float, float]:
    """Slope of win share on cards held, and its HC1 standard error (nan if held is constant)."""
    import statsmodels.api as sm

    if np.ptp(held) == 0:
        return float("nan"), float("nan")
    fit = sm.OLS(share, sm.add_constant(held.astype(np.float64))).fit(cov_type="HC1")
    return float(fit.params[1]), float(fit.bse[1])


def _verdict(row: Any, stronger: str, weaker: str) -> str:
    if not row.effect_significant:
        return NOT_SHOWN
    return stronger if row.effect > 0 else weaker


@policies_resolved_once()
def card_effects(
    game: str | GameSpec,
    *,
    players: int | Sequence[int],
    games: int,
    seed: int = 1,
    policies: Any = "greedy",
    cards: Any = None,
    seat: int = 0,
    threads: int | None = None,
    progress: Progress | None = None,
    method: str = "holm",
    **axes: Any,
) -> CardEffectStudy:
    """Each declared card's effect on ``seat``'s win share, beside its association.

    Parameters
    ----------
    game : str or GameSpec
        A game that declares :class:`~fairysim.analysis.studies.card_studies.CardEffects`.
    players : int or sequence of int
        Player counts; each is a baseline of its own, and the table has a row per (player
        count, card), all of them one corrected family per column.
    games, seed, policies, cards, axes
        The baseline, as ``make_setup`` takes it; ``games`` games per arm (the baseline and
        one arm per card), all on ``seed``.
    seat : int, default 0
        The lineup seat the card is put before. Where the turn order is drawn (Fantastique,
        F1) the seat meets every turn position; the table's effect is over all of them.
    method : {"holm", "fdr_bh"}
        The correction of each family (effects, associations, pairs of effects).

    Returns
    -------
    CardEffectStudy

    Raises
    ------
    FairysimError
        Naming the option at fault (``GAME`` for a game without an intervention, ``--games``,
        ``seat`` and whatever ``make_setup`` names).
    """
    spec = _spec_with_effects(game)
    games = check_games(games, "games")
    counts = [players] if isinstance(players, int | str) else list(players)
    setups = [
        spec.make_setup(players=n, policies=policies, seed=seed, cards=cards, **axes)
        for n in counts
    ]
    seat = int(seat)
    for base in setups:
        if not 0 <= seat < base.players:
            raise FairysimError("seat", f"{seat} is no seat of {base.players} players")
    rows: list[dict[str, Any]] = []
    pair_tables = []
    for base in setups:
        arm_rows, shares, made = _player_count(spec, base, games, seat, threads, progress)
        rows += arm_rows
        pair_tables.append(_effect_pairs(shares, made).assign(players=base.players))
    table = pd.DataFrame(rows)
    table = with_correction(table, "effect", "effect_se", method=method, prefix=EFFECT)
    table = with_correction(
        table, "association", "association_se", method=method, prefix=ASSOCIATION
    )
    by_players = table.groupby("players", sort=False)
    table["effect_rank"] = by_players["effect"].rank(ascending=False, method="min").astype(int)
    table["association_rank"] = by_players["association"].rank(ascending=False, method="min")
    declared = card_effects_of(spec)
    table["verdict"] = [
        _verdict(r, declared.stronger, declared.weaker) for r in table.itertuples(index=False)
    ]
    table = table.sort_values(
        ["players", "effect"], ascending=[True, False], kind="stable"
    ).reset_index(drop=True)
    raw_pairs = pd.concat(pair_tables, ignore_index=True)
    family = correct_family(raw_pairs["estimate"], raw_pairs["se"], method=method)
    pairs = pd.concat([raw_pairs[["players", "a", "b"]], family], axis=1)
    groups = {}
    for n, rows_n in table.groupby("players", sort=True):
        estimates = dict(zip(rows_n["label"], rows_n["effect"], strict=True))
        groups[int(n)] = ranked_groups(estimates, pairs[pairs["players"] == n])
    notes = disagreement_notes(table, groups, declared.held_text)
    first = setups[0]
    meta = {
        "game": spec.name,
        "players": [b.players for b in setups],
        "games": games,
        "seed": first.seed,
        "seat": seat,
        "policies": {b.players: list(b.policy_names) for b in setups},
        "setup": first.own_config(),
        "cards": str(first.cards.source),
        "intervention": declared.intervention,
        "card_label": declared.card_label,
        "held_text": declared.held_text,
        "stronger": declared.stronger,
        "weaker": declared.weaker,
        "zero_note": declared.zero_note,
        "method": method,
    }
    return CardEffectStudy(table, pairs, groups, notes, meta)


def _player_count(
    spec: GameSpec, base: Any, games: int, seat: int, threads, progress
) -> tuple[list[dict[str, Any]], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The rows of one player count: its baseline, then one arm per declared card."""
    arms = effect_cards(spec, base)
    study = f"card effects, {base.players} players, {'/'.join(dict.fromkeys(base.policy_names))}"
    tell(study, 0, len(arms) + 1, "arms")
    baseline = _play(spec, base, games, threads, progress)
    base_share = np.asarray(baseline["win_share"][:, seat], np.float64)
    rows = []
    shares: dict[str, np.ndarray] = {}
    made: dict[str, np.ndarray] = {}
    held_entry = card_effects_of(spec).held
    held_in = load_entry(held_entry) if held_entry else None
    for arm_index, (card, label) in enumerate(arms, start=1):
        tell(study, arm_index, len(arms) + 1, "arms")
        arm = _play(spec, forced_setup(base, card, seat), games, threads, progress)
        share, done = forced_share(arm, seat)
        held = (
            np.asarray(held_in(base, baseline, card, seat), np.int64)
            if held_in is not None
            else np.asarray(arm["forced_held"], np.int64)
        )
        diff = forced_differences(baseline, arm, seat)
        n = int(done.sum())
        se = unpaired = float("nan")
        if n > 1:
            se = float(diff.std(ddof=1) / np.sqrt(n))
            unpaired = float(np.sqrt((share[done].var(ddof=1) + base_share[done].var(ddof=1)) / n))
        slope, slope_se = _association(base_share, held)
        rows.append(
            {
                "players": base.players,
                "table": base.table(),
                "card": card,
                "label": label,
                "games": n,
                "effect": float(diff.mean()) if n else float("nan"),
                "effect_se": se,
                "se_ratio": se / unpaired if unpaired > 0 else float("nan"),
                "association": slope,
                "association_se": slope_se,
                "held": float(held.mean()),
            }
        )
        shares[label], made[label] = share, done
    return rows, shares, made


def _effect_pairs(shares: Mapping[str, np.ndarray], made: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Paired differences of every pair of cards' effects (``a``, ``b``, ``estimate``, ``se``),
    game by game over the games where both interventions were made (the baseline cancels)."""
    labels = list(shares)
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]
    estimates, ses = [], []
    for a, b in pairs:
        both = made[a] & made[b]
        d = shares[a][both] - shares[b][both]
        estimates.append(float(d.mean()) if d.size else float("nan"))
        ses.append(float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan"))
    return pd.DataFrame(
        {"a": [a for a, _ in pairs], "b": [b for _, b in pairs], "estimate": estimates, "se": ses}
    )


def disagreement_notes(
    table: pd.DataFrame,
    groups: Mapping[int, list[list[str]]],
    held_text: str,
    mark: Callable[[str, str, Any], str] | None = None,
) -> list[str]:
    """:func:`disagreements` at each player count of an effects table, each sentence led by
    its table's name; ``mark`` as there."""
    notes = []
    for n, rows_n in table.groupby("players", sort=True):
        found = disagreements(
            rows_n, groups[int(n)][0], unit=f"of games per copy {held_text}", mark=mark
        )
        notes += [f"{rows_n['table'].iloc[0]}, {note}" for note in found]
    return notes


def disagreements(
    table: pd.DataFrame,
    top_group: Sequence[str] | None = None,
    *,
    association: str = "association",
    significant: str = "association_significant",
    name: str = "the association",
    unit: str = "of games per copy dealt",
    mark: Callable[[str, str, Any], str] | None = None,
) -> list[str]:
    """Sentences where a card's effect and an association disagree in sign or in order.

    Sign: the two point opposite ways and the association is significant after correction (a
    reader would take the card's strength the wrong way round from it); an association that the
    correction does not separate from 0 says nothing to disagree with.
    Order: the card the association puts first is not in the effect's top group (``top_group``,
    the tied group of :func:`~fairysim.stats.ranking.ranked_groups`; without one only the
    next test is made), or Spearman's rank correlation over the cards is below one half.

    Parameters
    ----------
    table : pandas.DataFrame
        One player count's rows: ``label``, ``effect``, ``effect_significant`` and the
        ``association`` and ``significant`` columns named.
    top_group : sequence of str, optional
        The cards the correction does not separate from the best effect.
    association, significant, name, unit : str
        The association's columns, and how a sentence names it and its unit (a report's own
        lift is ``"of games"``, holders against the rest).
    mark : callable, optional
        ``mark(words, column, index)`` words each verdict a page prints: ``column`` the flag
        it rests on (``"effect_significant"`` or ``significant``), ``index`` the row's label in
        ``table``.
    """
    mark = mark or (lambda words, column, index: words)
    notes = []
    for index, row in table.iterrows():
        effect, other = row["effect"], row[association]
        if np.sign(effect) * np.sign(other) < 0 and row[significant]:
            which = " and ".join(
                mark(f"{who} significant", column, index)
                for who, column in (("the effect", "effect_significant"), (name, significant))
                if row[column]
            )
            notes.append(
                f"{row['label']}: {name} is {_pp(other)} {unit} but the effect {_pp(effect)}; "
                f"opposite signs, {which} after correction"
            )
    valid = table.dropna(subset=["effect", association])
    if len(valid) >= 3:
        rho = sps.spearmanr(valid["effect"], valid[association]).statistic
        first = valid.sort_values(association, ascending=False)["label"].iloc[0]
        outside = top_group is not None and first not in top_group
        if outside or rho < 0.5:
            where = (
                ""
                if top_group is None
                else f", {'not in' if outside else 'in'} the effect's top group "
                f"({', '.join(top_group)})"
            )
            notes.append(
                f"order: {name} ranks {first} first{where}; Spearman's rho {rho:+.2f} between "
                f"the two over {len(valid)} cards"
            )
    return notes


def verdict_changes(
    study: CardEffectStudy,
    other: CardEffectStudy,
    mark: Callable[[str, str, int], str] | None = None,
) -> list[str]:
    """Sentences where a card's verdict in ``study`` differs from its verdict in ``other``, the
    same cards under another policy (the best heuristic), at the player counts both played; one
    sentence saying so where no verdict changes.

    ``mark(verdict, which, row)``, where given, words each verdict a page prints: ``which`` is
    ``"study"`` or ``"other"`` and ``row`` the 0-based row of that study's ``effects`` table the
    verdict comes from (a page marks it against the file it writes that table to).
    """
    mark = mark or (lambda verdict, which, row: verdict)
    mine = _positioned(study.effects)
    theirs = _positioned(other.effects)
    policy = _policy_name(study)
    other_policy = _policy_name(other)
    out = []
    for players in sorted(
        set(mine.index.get_level_values(0)) & set(theirs.index.get_level_values(0))
    ):
        changed = []
        for label, row in theirs.loc[players].iterrows():
            base = mine.loc[(players, label)]
            if row["verdict"] != base["verdict"]:
                now = mark(row["verdict"], "other", int(row["row"]))
                before = mark(base["verdict"], "study", int(base["row"]))
                changed.append(
                    f"{label} {now} under {other_policy} ({_pp(row['effect'])}), "
                    f"{before} under {policy} ({_pp(base['effect'])})"
                )
        table = theirs.loc[players]["table"].iloc[0]
        if changed:
            cards = "card" if len(changed) == 1 else "cards"
            out.append(
                f"{table}: the verdict changes for {len(changed)} {cards}: " + "; ".join(changed)
            )
        else:
            out.append(
                f"{table}: every card keeps its verdict under {other_policy} "
                f"({other.meta['games']:,} games an arm)"
            )
    return out


def _positioned(effects: pd.DataFrame) -> pd.DataFrame:
    """``effects`` keyed by player count and label, each row's 0-based position kept."""
    return effects.assign(row=np.arange(len(effects))).set_index(["players", "label"])


def _pp(value: float) -> str:
    """A difference of shares in signed percentage points, as the pages print them
    (``+0.4 pp``; ``0.0 pp`` where it rounds to zero)."""
    text = f"{100 * float(value):+.1f}"
    return f"{text.lstrip('+-') if float(text) == 0 else text} pp"


def _policy_name(study: CardEffectStudy) -> str:
    names = {p for lineup in study.meta["policies"].values() for p in lineup}
    return ", ".join(sorted(names))


__all__ = [
    "CardEffectStudy",
    "card_effects",
    "disagreement_notes",
    "disagreements",
    "effect_cards",
    "forced_differences",
    "forced_setup",
    "verdict_changes",
]
