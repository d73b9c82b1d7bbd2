"""One game replayed as the rulebook tells it: the reference engine's event records as text
lines and as an HTML page.

Every game's reference engine records plain event records when given a log
(``reference.play_game(setup, game, log=[])``); its package's ``narrate`` module names the
game's cards and decisions and turns its own events into lines. What every game shares is
rendered here once: a decision (the seat, what it decides, the choice it took among those it
had), the score after each round, and the final breakdown with ranks and win shares.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from fairysim.sim.game import GameSpec

SHOWN_CHOICES = 12
"""Choices listed on a decision line; a longer list (every way to pay from a hand) is cut with a
count."""

DECISION_MARK = "  > "
"""Start of every decision line (one per decision the reference engine made)."""


@dataclass(frozen=True)
class Line:
    """One line of a replay: ``kind`` is ``"heading"``, ``"decision"``, ``"score"`` or
    ``"text"`` (the HTML page styles them), ``text`` the words."""

    kind: str
    text: str


@dataclass(frozen=True)
class Replay:
    """A replayed game: its event records, its lines and the outcome the reference engine gave.

    Attributes
    ----------
    events : list of dict
        The reference engine's records, in the order they happened.
    lines : list of Line
        The game as text.
    score : list of float
        Per seat, in rulebook points, as the fast engine's rows (the reference engine's units
        divided by the game's ``narrate.UNIT``).
    rank : list of int
    win_share : list of float
    """

    events: list[dict]
    lines: list[Line]
    score: list[float]
    rank: list[int]
    win_share: list[float]

    @property
    def text(self) -> str:
        """The lines joined, headings undecorated."""
        return "\n".join(line.text for line in self.lines)

    @property
    def decisions(self) -> list[dict]:
        """The decision records."""
        return [event for event in self.events if event["event"] == "decision"]


def has_narrator(spec: GameSpec) -> bool:
    """Whether the game's package has a ``narrate`` module, found without importing it (it
    loads the reference engine and its compiled policies; ``fairysim replay --help`` lists the
    games without them)."""
    return importlib.util.find_spec(f"{spec.package}.narrate") is not None


def narrator(spec: GameSpec) -> ModuleType | None:
    """The game's ``narrate`` module (``<package>.narrate``), or None if it has none."""
    if not has_narrator(spec):
        return None
    return importlib.import_module(f"{spec.package}.narrate")


def replay(spec: GameSpec, setup: Any, game: int) -> Replay:
    """Play game ``game`` of ``setup`` with the reference engine and narrate it.

    Parameters
    ----------
    spec : GameSpec
        The game; its package must have a ``narrate`` module.
    setup : object
        From the game's ``make_setup`` (the same setup a run plays).
    game : int
        Index of the game in the run.

    Returns
    -------
    Replay
    """
    narrate = narrator(spec)
    if narrate is None:
        raise ValueError(f"{spec.title} has no narrate module")
    events = narrate.record(setup, game)
    final = next(event for event in reversed(events) if event["event"] == "final")
    return Replay(
        events=events,
        lines=render(narrate, setup, events, f"{spec.title}, game {game} of seed {setup.seed}"),
        score=[x / narrate.UNIT for x in final["score"]],
        rank=[int(x) for x in final["rank"]],
        win_share=[float(x) for x in final["win_share"]],
    )


def decision_text(narrate: ModuleType, setup: Any, event: dict) -> str:
    """A decision as one line: who, what, the choice taken, and the choices there were."""
    choices = event["choices"]
    taken = narrate.choice(setup, event["decision"], choices[event["chosen"]])
    what = narrate.DECISIONS.get(event["decision"], event["decision"])
    if not event["asked"]:
        had = "the only choice, not asked"
    else:
        shown = [narrate.choice(setup, event["decision"], row) for row in choices[:SHOWN_CHOICES]]
        more = len(choices) - len(shown)
        had = f"of {len(choices)}: " + " | ".join(shown) + (f" | ... {more} more" if more else "")
    return f"{DECISION_MARK}{narrate.seat_label(setup, event['seat'])} {what}: {taken} ({had})"


def render(narrate: ModuleType, setup: Any, events: list[dict], title: str) -> list[Line]:
    """The event records as lines (the game's own events through ``narrate.describe``)."""
    final = next(event for event in reversed(events) if event["event"] == "final")
    label = [narrate.seat_label(setup, s) for s in range(len(final["score"]))]
    lines = [Line("heading", title), Line("heading", "The deal")]
    rounds = 0
    for event in events:
        kind = event["event"]
        if kind == "decision":
            lines.append(Line("decision", decision_text(narrate, setup, event)))
            continue
        if kind in ("round_start", "turn_start"):
            lines += [Line("heading", text) for text in narrate.describe(setup, event)]
            continue
        if kind == "final":
            lines.append(Line("heading", "Final scoring"))
        lines += [Line("text", text) for text in narrate.describe(setup, event)]
        if kind == "round_end":
            rounds += 1
            scores = ", ".join(
                f"{name} {narrate.points(score)}"
                for name, score in zip(label, event["scores"], strict=True)
            )
            lines.append(Line("score", f"Score after round {rounds}: {scores}"))
        if kind == "final":
            lines += final_lines(narrate, label, event)
    return lines


def final_lines(narrate: ModuleType, label: list[str], event: dict) -> list[Line]:
    """The final breakdown: each seat's parts, total, rank and win share."""
    out = []
    for s, name in enumerate(label):
        parts = ", ".join(narrate.part(part, event["parts"][part][s]) for part in narrate.PARTS)
        out.append(
            Line(
                "score",
                f"{name}: {parts}; total {narrate.points(event['score'][s])}, "
                f"rank {event['rank'][s]}, win share {event['win_share'][s]:g}",
            )
        )
    winners = [name for name, share in zip(label, event["win_share"], strict=True) if share > 0]
    tie = f" (tied: {len(winners)} share the win)" if len(winners) > 1 else ""
    out.append(Line("score", "Winner: " + " and ".join(winners) + tie))
    return out


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #ccc; }
h2 { margin: 1.4rem 0 .3rem; font-size: 1.1rem; border-bottom: 1px solid #ddd; }
p { margin: .15rem 0; }
p.decision { margin-left: 1.5rem; font-family: ui-monospace, monospace; font-size: .9rem; }
p.score { font-weight: 600; }
"""


def html_page(result: Replay) -> str:
    """The replay as a self-contained HTML page (every text escaped)."""
    body = []
    for i, line in enumerate(result.lines):
        text = html.escape(line.text)
        if line.kind == "heading":
            tag = "h1" if i == 0 else "h2"
            body.append(f"<{tag}>{text}</{tag}>")
        else:
            body.append(f'<p class="{line.kind}">{text.removeprefix("  &gt; ")}</p>')
    title = html.escape(result.lines[0].text)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}'
        f"</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def write_html(result: Replay, path: str | Path, option: str = "html") -> Path:
    """Write :func:`html_page` to ``path`` atomically (a failure names ``option``)."""
    from fairysim.runtime.files import write_text

    return write_text(path, html_page(result), option)
