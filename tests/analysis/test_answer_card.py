"""The answer card says what its sections say: every verdict on it, under every rung, is the
verdict of the section table it summarises (read back from the CSV file that section wrote),
and the card shows it on the page. The first screen of every report, opened in a real browser
at 1400 x 900, is the card, with no paragraph about methods (they sit in a closed fold under it).

The browser is headless Chromium from Debian's packages driven through selenium, as
``test_pages_in_browser.py`` drives it; the pages are small studies of every report
(``report_pages.py``), built once for the module."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.report.answer import (
    turn_order_question,
)
from fairysim.analysis.report.answer_card import AnswerCard, Question, RungAnswer

from .chromium import headless_chromium, needs_chromium
from .report_pages import write_reports


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    return write_reports(tmp_path_factory.mktemp("answer"))


def _csv(path, name: str) -> pd.DataFrame:
    return pd.read_csv(path.parent / f"{path.name.removesuffix('report.html')}{name}.csv")


def _question(report, topic: str) -> Question:
    found = [q for q in report.answers if q.topic.startswith(topic)]
    assert len(found) == 1, (topic, [q.topic for q in report.answers])
    return found[0]


def _rung(question: Question, rung: str) -> RungAnswer:
    found = [a for a in question.answers if a.rung == rung]
    assert len(found) == 1, (rung, [a.rung for a in question.answers])
    return found[0]


def _sign(value: float) -> int:
    return 1 if value > 0 else -1


def _turn_findings(rows: pd.DataFrame, significant: str, share: str) -> frozenset:
    off = rows[rows[significant].astype(bool)]
    return frozenset(
        (int(r.players), int(r.position), _sign(getattr(r, share) - r.fair))
        for r in off.itertuples()
    )


@pytest.mark.parametrize("name", ["fantastique", "concerto", "fairyland"])
def test_turn_order_answers_are_the_sections_verdicts(written, name):
    report, path = written[name]
    question = _question(report, "Turn order")
    turn = _csv(path, "turn_order")
    greedy = _rung(question, "greedy")
    assert greedy.findings == _turn_findings(turn, "significant", "win_share")
    positions = _csv(path, "ladder_positions")
    ladder_rungs = [a for a in question.answers if a is not greedy]
    assert ladder_rungs, "the best heuristic's rung is on the card"
    for answer in ladder_rungs:
        rows = positions[positions["policy"] == answer.rung]
        assert not rows.empty, answer.rung
        assert answer.findings == _turn_findings(rows, "position_significant", "win_share")
        # the ladder section's own column says the same positions
        off = _csv(path, "ladder").set_index(["players", "policy"])["off_fair"].astype(object)
        off = off.where(off.notna(), "")
        for players in rows["players"].unique():
            said = {part.split()[0] for part in off.loc[(players, answer.rung)].split(", ") if part}
            mine = {f for f in answer.findings if f[0] == players}
            assert len(said) == len(mine)
    mixed = {a.findings for a in question.answers}
    assert question.depends_on_skill == (len(mixed) > 1)
    # one interval, one game count: the card names the games the turn-order section names
    summary = _csv(path, "balance")
    for g, r in zip(summary["games"], summary["runs"], strict=True):
        words = f"{int(g):,} games" + (f", each in {int(r)} runs" if r > 1 else "")
        per_count = words.replace(" games", " games per player count", 1)
        assert per_count in greedy.games or words in greedy.games, (greedy.games, words)


@pytest.mark.parametrize(
    ("name", "topic", "check"),
    [
        ("fantastique", "Fans", "fan_check"),
        ("concerto", "Score cards", "score_card_check"),
        ("fairyland", "Queen's Court", "court_check"),
    ],
)
def test_check_answers_are_the_checks_verdicts(written, name, topic, check):
    report, path = written[name]
    question = _question(report, topic)
    table = _csv(path, check)
    for prefix, rung in (("base_", "greedy"), ("best_", question.answers[-1].rung)):
        answer = _rung(question, rung)
        kept = table[table[f"{prefix}verdict"] != "not separated"]
        assert sorted(f[2] for f in answer.findings) == sorted(kept[f"{prefix}verdict"])
    changed = int(table["changed"].sum())
    assert (f"{changed} of the {len(table)}" in question.note) == (changed > 0)
    assert question.depends_on_skill == (changed > 0)


@pytest.mark.parametrize("name", ["fantastique", "concerto", "concerto-solo", "fairyland"])
def test_card_effect_answers_are_the_sections_verdicts(written, name):
    report, path = written[name]
    question = _question(report, "Cards")
    effects = _csv(path, "card_effects")
    answer = question.answers[0]
    kept = effects[effects["effect_significant"].astype(bool)]
    assert answer.findings == frozenset(
        (int(r.players), str(r.label), _sign(r.effect)) for r in kept.itertuples()
    )


@pytest.mark.parametrize("name", ["fantastique", "concerto", "fairyland"])
def test_skill_answers_are_the_ladders_gaps(written, name):
    report, path = written[name]
    answer = _question(report, "Skill").answers[0]
    gaps = _csv(path, "ladder_gaps")
    above = {(int(r.players), "above") for r in gaps.itertuples() if r.low > 0.5}
    below = {(int(r.players), "below") for r in gaps.itertuples() if r.high < 0.5}
    assert answer.findings == frozenset(above | below)


def test_solo_answers_are_the_policy_tables(written):
    report, path = written["concerto-solo"]
    policies = _csv(path, "policies").set_index("policy")
    hard = _question(report, "How hard")
    assert sorted(a.rung for a in hard.answers) == sorted(policies.index)
    shares = [policies.loc[a.rung, "win_share"] for a in hard.answers]
    assert shares == sorted(shares)  # weakest first
    for answer in hard.answers:
        row = policies.loc[answer.rung]
        assert f"{100 * row['win_share']:.1f}%" in answer.short
        assert f"{int(row['games']):,} games" == answer.games
    for answer in _question(report, "Skill").answers:
        row = policies.loc[answer.rung.removesuffix(" against greedy")]
        sign = _sign(row["gain"]) if row["gain_significant"] else 0
        assert answer.findings == frozenset({("solo", sign)})
        name = answer.rung.removesuffix(" against greedy")
        words = {1: "more often", -1: "less often", 0: "not separated"}[sign]
        said = next(
            part for part in _question(report, "Skill").headline().split("; ") if name in part
        )
        assert words in said, (name, said)


@pytest.mark.parametrize("name", ["fantastique", "concerto", "concerto-solo", "fairyland"])
def test_the_page_shows_every_answer_first(written, name):
    report, path = written[name]
    page = path.read_text()
    card = page.index('<section class="answer"')
    assert card < page.index('<details class="methods">') < page.index("How to read the numbers")
    page = re.sub(r"<[^>]+>", "", page)
    for question in report.answers:
        assert html.escape(question.headline()) in page
        for answer in question.answers:
            assert html.escape(answer.detail) in page
            assert answer.games == "" or html.escape(answer.games) in page


def _card(turn: pd.DataFrame, positions: pd.DataFrame) -> Question:
    games = turn.groupby("players", sort=True)["games"].max()
    summary = pd.DataFrame({"players": games.index, "games": games.to_numpy(), "runs": 1})
    card = SimpleNamespace(turn_order=turn, summary=summary)
    ladder = SimpleNamespace(
        meta={"ladder": ["random", "greedy", "balancer"]},
        rungs=pd.DataFrame({"policy": ["balancer"], "games": [500], "weights": [""]}),
        positions=positions,
    )
    return turn_order_question(card, ladder, "greedy")


def _turn_rows(advantage: list[float], significant: list[bool], players: int = 3) -> dict:
    fair = 1 / players
    share = np.array(advantage) + fair
    return {
        "players": players,
        "position": np.arange(players),
        "fair": fair,
        "win_share": share,
        "advantage": advantage,
        "low": share - 0.01,
        "high": share + 0.01,
        "significant": significant,
        "games": 1000,
    }


def test_a_verdict_that_changes_with_skill_is_marked_and_worded():
    turn = pd.DataFrame(_turn_rows([0.004, -0.002, -0.002], [False, False, False]))
    best = pd.DataFrame(_turn_rows([-0.03, 0.02, 0.01], [True, True, False])).assign(
        policy="balancer"
    )
    positions = best.rename(
        columns={"low": "position_low", "high": "position_high", "significant": "x"}
    ).assign(position_significant=best["significant"])
    question = _card(turn, positions)
    assert question.depends_on_skill
    headline = question.headline()
    assert headline.startswith(
        "depends on skill: under greedy, no turn position shown off the fair share; "
        "under balancer, "
    )
    assert "the 1st to act loses 3.0 pp at every player count" in headline
    assert "the 2nd to act wins 2.0 pp" in headline
    same = _card(turn, positions.assign(position_significant=False))
    assert not same.depends_on_skill
    assert same.headline() == (
        "no turn position shown off the fair share under every rung played (greedy, balancer)"
    )
    markup = AnswerCard([question, same]).html(lambda section: None)
    assert markup.count("depends on skill</span>") == 1


WIDTH, HEIGHT = 1400, 900
"""The browser window, in CSS pixels."""

METHOD_WORDS = ("Played to a precision", "How to read the numbers", "Reproduce with")
"""Words that open the methods' paragraphs."""

VISIBLE_TEXT = """
const height = window.innerHeight;
const out = [];
for (const el of document.querySelectorAll('p, li, h1, h2, h3, td, th, summary')) {
  const box = el.getBoundingClientRect();
  const shown = el.checkVisibility() && el.innerText.trim() !== '';
  if (shown && box.height > 0 && box.top < height && box.bottom > 0) out.push(el.innerText);
}
return out;
"""

FOLDED_SHOWN = """
const out = [];
for (const el of document.querySelectorAll('details.methods > :not(summary)')) {
  const box = el.getBoundingClientRect();
  const shown = el.checkVisibility() && el.innerText.trim() !== '';
  if (shown && box.height > 0 && box.top < window.innerHeight) out.push(el.innerText);
}
return out;
"""

FIRST_ANSWER = """
const line = document.querySelector('section.answer .question .headline');
if (!line) return null;
const box = line.getBoundingClientRect();
return [box.top, box.bottom, line.innerText];
"""


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium(WIDTH, HEIGHT, viewport=True)


@needs_chromium
@pytest.mark.parametrize("name", ["fantastique", "concerto", "concerto-solo", "fairyland"])
def test_the_first_screen_is_the_answer_card(browser, written, name):
    report, path = written[name]
    browser.get(path.as_uri())
    assert browser.execute_script("return window.innerHeight;") == HEIGHT
    top, bottom, text = browser.execute_script(FIRST_ANSWER)
    first = report.answers[0]
    assert text == first.headline()
    assert 0 < top < bottom < HEIGHT, (name, top, bottom)  # the first answer, whole
    visible = browser.execute_script(VISIBLE_TEXT)
    assert any(first.headline() in line for line in visible)
    answered = [q.headline() for q in report.answers if any(q.headline() in v for v in visible)]
    assert len(answered) >= 2, (name, answered)  # more than one answer on the first screen
    methods = [line for line in visible if any(word in line for word in METHOD_WORDS)]
    assert methods == [], (name, methods)
    assert browser.execute_script(FOLDED_SHOWN) == []  # every method paragraph is folded
    # the methods are on the page, folded: opening the fold shows them
    browser.execute_script("document.querySelector('details.methods').open = true;")
    folded = browser.execute_script("return document.querySelector('details.methods').innerText;")
    assert "How to read the numbers" in folded


def test_a_question_without_its_check_holds_the_answers_before_it():
    from fairysim.analysis.report.answer import check_question

    pooled = RungAnswer("greedy", "none out of band", "none out of band", "100 games", "Fans")
    question = check_question(None, "Fans", "is a fan out of band?", str, str, "Fans",
                              before=(pooled,))  # fmt: skip
    assert question.answers == (pooled,) and not question.depends_on_skill
