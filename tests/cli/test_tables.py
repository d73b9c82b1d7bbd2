"""Tables fitted to a terminal's width (``fairysim.cli.tables``): columns wrapped at spaces, none
narrower than its longest word, or each row stacked where even that does not fit; no cell is
ever cut with an ellipsis, whatever the headers say."""

from __future__ import annotations

import io
import shlex

import pytest
from rich.table import Table

from fairysim.cli.tables import ResultsConsole, command_lines, stacked

HEADERS = ("entry", "a rather long header", "interval corrected", "verdict")
ROWS = [
    ("0", "balancer (finale=2, count=3)", "[22.8%, 27.6%]", "not significant"),
    ("1", "greedy#2", "[20.1%, 24.9%]", "differs from fair"),
]


def table() -> Table:
    shown = Table(title="A title longer than the narrowest terminal it is printed at")
    for header in HEADERS:
        shown.add_column(header, no_wrap=True)
    for row in ROWS:
        shown.add_row(*row)
    return shown


def printed(width: int) -> str:
    out = io.StringIO()
    ResultsConsole(width=width, file=out).print(table())
    return out.getvalue()


def words(text: str) -> set[str]:
    return {word for line in text for word in line.split()}


@pytest.mark.parametrize("width", [120, 80, 60, 30])
def test_no_cell_is_cut_and_no_word_broken_at_any_width(width):
    text = printed(width)
    assert "…" not in text
    assert all(len(line) <= width for line in text.splitlines()), text
    shown = {word.removesuffix(":") for word in text.replace("│", " ").replace("┃", " ").split()}
    assert words([*HEADERS, *(cell for row in ROWS for cell in row)]) <= shown, text


def test_the_table_stacks_its_rows_only_where_the_words_do_not_fit_side_by_side():
    assert "┃" in printed(80) and "┃" in printed(60)
    narrow = printed(30)
    assert "┃" not in narrow
    assert narrow.startswith(stacked(table(), 30))
    assert "\nentry: 0\n  a rather long header:\n    balancer (finale=2," in narrow


def test_a_broken_command_pastes_back_as_the_same_words():
    command = "fairysim tournament fantastique --policy 'a b',greedy --players 4 --games 50"
    lines = command_lines(command, 30)
    assert all(len(line) <= 30 for line in lines) and len(lines) > 1
    assert all(line.endswith(" \\") for line in lines[:-1])
    assert shlex.split(" ".join(line.removesuffix("\\") for line in lines)) == shlex.split(command)
