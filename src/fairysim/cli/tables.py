"""Results that read whole at any terminal width, 80 columns included.

Every command prints its results through :class:`ResultsConsole` (``common.stdout_console``):

- a table's columns wrap at spaces instead of cutting a cell with an ellipsis; where even the
  columns' longest words do not fit side by side, each row is printed as a block of
  ``header: cell`` lines (:func:`stacked`), so that no header or cell is ever cut;
- where the width is the reader's (a terminal, or ``COLUMNS`` set), a line of text wraps at
  spaces at it, a word longer than the width (a path) kept whole on a line of its own, so that
  it can still be copied;
- a shell command is broken with ``\\`` continuations (:func:`command_lines`), so that the
  printed lines paste back as one command.

Nothing here reads a header's words: the layout is chosen from the widths alone, so a table's
wording can change without its layout code.
"""

from __future__ import annotations

import os
import shlex
import textwrap
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

INDENT = "  "
"""What a stacked row's cells and a broken command's continuation lines start with."""


def plain(cell: RenderableType | None) -> str:
    """A cell or header as one line of plain text (a cell's own line breaks become spaces)."""
    if cell is None:
        return ""
    text = cell.plain if isinstance(cell, Text) else str(cell)
    return " ".join(text.split())


def wrapped(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` characters, each paragraph on
    its own, a word longer than the width (a path) kept whole on a line of its own; lines after
    a paragraph's first start with ``indent``."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(
            paragraph,
            width,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        ) or [""]
    return lines


def column_widths(table: Table, console: Console) -> list[int] | None:
    """Widths for ``table``'s columns (with their padding) within the console's width, no
    column narrower than its longest word, the columns that need the least room to print
    unwrapped given it first; None where even the longest words do not fit side by side.

    The measures are rich's own (``Table._measure_column``, ``_extra_width`` and
    ``_get_padding_width``, private in rich 13 to 15), so that the widths are the ones rich
    lays out; ``tests/cli/test_tables.py`` checks them against what rich prints."""
    ranges = [table._measure_column(console, console.options, c) for c in table.columns]
    available = console.width - table._extra_width
    lows = [r.minimum for r in ranges]
    highs = [max(r.maximum, r.minimum) for r in ranges]
    if sum(lows) > available:
        return None
    widths = list(lows)
    spare = available - sum(lows)
    for index in sorted(range(len(widths)), key=lambda i: highs[i] - lows[i]):
        given = min(spare, highs[index] - lows[index])
        widths[index] += given
        spare -= given
    return widths


def stacked(table: Table, width: int) -> str:
    """``table`` one row at a time: the row's first cell after its header, then each other
    cell indented after its own header, the title (if any) above, every line within ``width``
    (:func:`wrapped`)."""
    lines = wrapped(plain(table.title), width) if table.title else []
    headers = [plain(column.header) for column in table.columns]
    columns = [[plain(cell) for cell in column.cells] for column in table.columns]
    for row in zip(*columns, strict=True):
        for position, (header, cell) in enumerate(zip(headers, row, strict=True)):
            lead = "" if position == 0 else INDENT
            shown = f"{lead}{header}: {cell}" if header else lead + cell
            lines += wrapped(shown, width, lead + INDENT)
    return "\n".join(lines)


def fitted(table: Table, console: Console) -> Table | str:
    """``table`` as printed at the console's width: its columns wrapping at spaces, each at
    least as wide as its longest word (:func:`column_widths`), where they fit side by side;
    else :func:`stacked`. No header or cell is cut with an ellipsis either way."""
    for column in table.columns:
        column.no_wrap = False
        column.overflow = "fold"
    widths = column_widths(table, console)
    if widths is None:
        return stacked(table, console.width)
    natural = [table._measure_column(console, console.options, c) for c in table.columns]
    if sum(r.maximum for r in natural) <= console.width - table._extra_width:
        return table
    for index, (column, width) in enumerate(zip(table.columns, widths, strict=True)):
        column.width = width - table._get_padding_width(index)
        column.min_width = None
    return table


def command_lines(command: str, width: int) -> list[str]:
    """A shell command broken at spaces between its words into lines of at most ``width``
    characters (a word longer than that on a line of its own), each line but the last ending
    in ``\\`` and each after the first indented, so that the lines paste as one command.

    Examples
    --------
    >>> command_lines("fairysim simulate mygame --games 10 --seed 3", 30)
    ['fairysim simulate mygame \\\\', '  --games 10 --seed 3']
    """
    lines: list[str] = []
    line = ""
    for word in (shlex.quote(w) for w in shlex.split(command)):
        candidate = f"{line} {word}" if line else word
        if line and len(candidate) + len(" \\") > width:
            lines.append(line)
            line = INDENT + word
        else:
            line = candidate
    return [f"{line} \\" for line in lines] + [line]


class ResultsConsole(Console):
    """The console of a command's results (stdout): tables fitted to the width
    (:func:`fitted`); where the width is the reader's (a terminal, or ``COLUMNS`` set), every
    text line wrapped at spaces at it with a longer word kept whole, whatever ``soft_wrap`` a
    caller passes, since a line past a terminal's width breaks in the middle of a word or a
    number. Piped without ``COLUMNS``, a sentence stays on one line (for grep)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.wraps_text = self.is_terminal or bool(os.environ.get("COLUMNS", "").isdigit())
        """Whether text lines wrap at the width (it is the reader's)."""

    def print(self, *objects: Any, **options: Any) -> None:
        """Print as :meth:`rich.console.Console.print`, each table :func:`fitted` and each
        string :func:`wrapped` to the width (as plain text: results carry no markup, and a
        ``[...]`` in them is text)."""
        options.pop("soft_wrap", None)
        options.setdefault("markup", False)
        if not objects:
            super().print(**options)
        for shown in objects:
            if isinstance(shown, Table):
                shown = fitted(shown, self)
            if isinstance(shown, str):
                lines = wrapped(shown, self.width) if self.wraps_text else shown.split("\n")
                for line in lines:
                    super().print(line, soft_wrap=True, **options)
            else:
                super().print(shown, **options)

    def print_command(self, lead: str, command: str) -> None:
        """Print ``lead`` and ``command`` as one line (the command in backticks) where it fits
        the width, else ``lead:`` and the command on lines that paste as one command
        (:func:`command_lines`)."""
        quiet = {"soft_wrap": True, "markup": False, "highlight": False}
        one_line = f"{lead} `{command}`."
        if len(one_line) <= self.width or not self.wraps_text:
            super().print(one_line, **quiet)
            return
        super().print(f"{lead}:", **quiet)
        for line in command_lines(command, self.width):
            super().print(line, **quiet)
