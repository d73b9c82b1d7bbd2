"""The HTML page of a report: a small, game-independent writer that stages every file atomically.

A :class:`Report` collects headings, paragraphs, figures and tables in memory; nothing touches
the disk until :meth:`Report.write`, which stages every file next to its destination and only
then renames them into place, the HTML last. A run that fails while analysing or plotting
therefore writes nothing, and a run that fails while writing leaves the previous report intact.

The HTML is self-contained: figures are embedded as base64 PNG (matplotlib's Agg renderer, see
:mod:`fairysim.analysis.report.plots` for the figures themselves). The same figures are written as
PNG and SVG files and every table as a CSV file beside the HTML. Sections and figures are numbered
in page order. A table that carries comparisons (``low``, ``high`` and ``significant`` columns, with
a prefix where it holds several families) is checked before it is kept: an interval that disagrees
with its verdict is a bug, and the report refuses to write it. Only the standard library, pandas and
matplotlib are used (no template engine).
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.verdict_marks import to_spans, verdict_cells
from fairysim.runtime.errors import ParameterError
from fairysim.runtime.files import write_bytes, write_files

DPI = 110
"""Resolution of embedded and saved figures (dots per inch)."""

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 60rem;
       margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #ccc; padding-bottom: .3rem; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; }
figcaption, .caption { color: #555; font-size: .92rem; }
table.data { border-collapse: collapse; font-size: .88rem; margin: .5rem 0 1.2rem; }
table.data th, table.data td { border-bottom: 1px solid #ddd; padding: .25rem .6rem;
                               text-align: right; }
table.data th { background: #f4f4f4; }
table.data td:first-child, table.data th:first-child { text-align: left; }
.meta { background: #f7f7f7; border-left: 4px solid #888; padding: .6rem 1rem; }
code { background: #f2f2f2; padding: 0 .25rem; overflow-wrap: anywhere; }
.wide { overflow-x: auto; max-width: 100%; }
.files { font-size: .88rem; color: #555; }
.answer { border: 2px solid #4c72b0; border-radius: 6px; padding: .2rem 1rem .6rem;
          margin: 1rem 0; }
.answer h2 { margin: .5rem 0 0; border: none; font-size: 1.3rem; }
.answer .caption { margin: 0; font-size: .82rem; }
.answer .question p { margin: .5rem 0 .1rem; }
.answer ul { margin: 0 0 .1rem; font-size: .84rem; line-height: 1.3; }
.answer .headline { font-weight: 600; }
.answer .skill { background: #fbe3c8; color: #7a3e00; border-radius: 3px; padding: 0 .35rem;
                 font-size: .85rem; font-weight: 600; }
.answer .note { list-style: none; color: #7a3e00; }
details.methods { margin: 1rem 0; }
details.methods > summary { cursor: pointer; color: #444; font-weight: 600; }
"""


# --------------------------------------------------------------------------------------------
# Files


def atomic_write_bytes(path: str | Path, data: bytes, option: str = "out_dir") -> Path:
    """Write ``data`` to ``path`` atomically (:func:`fairysim.runtime.files.write_bytes`): readers
    see the old file or the new one, never half of one; a failed write raises naming ``option``.

    Parameters
    ----------
    path : str or Path
        Destination file.
    data : bytes
        Content.
    option : str
        What a failed write's error names.

    Returns
    -------
    Path
        ``path``.
    """
    return write_bytes(path, data, option)


def atomic_write_text(path: str | Path, text: str, option: str = "out_dir") -> Path:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    return atomic_write_bytes(path, text.encode("utf-8"), option)


# --------------------------------------------------------------------------------------------
# Figures as PNG


def figure_png(fig: Figure, dpi: int = DPI) -> bytes:
    """Render ``fig`` to PNG bytes with the Agg canvas.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, default :data:`DPI`
        Resolution.

    Returns
    -------
    bytes
        The PNG file's content.
    """
    buffer = io.BytesIO()
    # savefig renders PNG with Agg whatever canvas the figure has (pyplot-made figures too).
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def figure_svg(fig: Figure, laid_out: bool = False) -> bytes:
    """Render ``fig`` to SVG bytes (text kept as text, so the file is searchable and scales).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    laid_out : bool, default False
        True when ``fig`` has just been rendered (:func:`figure_png`): its layout engine is
        not run again, so the SVG has the PNG's layout and costs one drawing, not two
        (matplotlib draws a figure with a layout engine once to place it, once to print it).

    Returns
    -------
    bytes
        The SVG file's content.
    """
    buffer = io.BytesIO()
    engine = fig.get_layout_engine()
    settings = {"svg.fonttype": "none", "svg.hashsalt": "fairysim"}
    # None (not "none", a placeholder engine) so that savefig skips its placing draw too; the
    # rc settings make None mean no engine whatever the user's matplotlibrc says.
    settings |= {"figure.autolayout": False, "figure.constrained_layout.use": False}
    with matplotlib.rc_context(settings):
        if laid_out:
            fig.set_layout_engine(None)
        try:
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        finally:
            fig.set_layout_engine(engine)
    return buffer.getvalue()


def png_data_uri(png: bytes) -> str:
    """``data:image/png;base64,...`` URI of PNG bytes, for an ``<img src>``.

    Parameters
    ----------
    png : bytes
        PNG content.

    Returns
    -------
    str
        The data URI.
    """
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


# --------------------------------------------------------------------------------------------
# The report


@dataclass
class _Asset:
    name: str
    data: bytes


@dataclass
class Report:
    """An HTML report assembled in memory and written atomically.

    Parameters
    ----------
    title : str
        Page title and top heading.
    filename : str
        Name of the HTML file :meth:`write` creates (e.g. ``"fantastique-report.html"``).
    prefix : str, default ``""``
        Prefix for the CSV and PNG files (e.g. ``"fantastique-"``), so several reports can
        share a folder.

    Examples
    --------
    >>> report = Report("Demo", "demo.html")
    >>> report.paragraph("Hello & welcome")
    >>> "Hello &amp; welcome" in report.html()
    True
    """

    title: str
    filename: str
    prefix: str = ""
    blocks: list[str] = field(default_factory=list)
    assets: list[_Asset] = field(default_factory=list)
    sections: int = 0
    figures: int = 0
    anchors: dict[str, str] = field(default_factory=dict)
    answers: list[Any] = field(default_factory=list)
    """The answer card's questions (:mod:`fairysim.analysis.report.answer`), once built."""

    def section(self, text: str) -> str:
        """Add the next numbered section heading (``"3. Seat advantage"``); return its text.

        Parameters
        ----------
        text : str
            The heading without its number.
        """
        self.sections += 1
        numbered = f"{self.sections}. {text}"
        self.heading(numbered)
        return numbered

    def heading(self, text: str, level: int = 2) -> None:
        """Add a heading with an anchor derived from its text.

        Parameters
        ----------
        text : str
            Plain text (escaped).
        level : int, default 2
            2 for sections, 3 for subsections (the title is the only level 1).
        """
        anchor = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
        self.anchors.setdefault(text, anchor)
        self.blocks.append(f'<h{level} id="{anchor}">{html.escape(text)}</h{level}>')

    def paragraph(self, text: str, css_class: str | None = None) -> None:
        """Add a paragraph.

        Parameters
        ----------
        text : str
            Plain text (escaped); spans in backticks become ``<code>``.
        css_class : str, optional
            CSS class of the paragraph (``"meta"`` draws the run-information box).
        """
        self.blocks.append(f"<p{_class(css_class)}>{_inline(text)}</p>")

    def bullets(self, items: Iterable[str]) -> None:
        """Add a bulleted list.

        Parameters
        ----------
        items : iterable of str
            Plain-text items (escaped; backticks mark code).
        """
        lines = "".join(f"<li>{_inline(item)}</li>" for item in items)
        self.blocks.append(f"<ul>{lines}</ul>")

    def anchor(self, title: str) -> tuple[str, str] | None:
        """The id and text of the first heading whose text, without its number, starts with
        ``title`` (``"Seat advantage"`` finds ``"5. Seat advantage by turn order"``); None
        for none."""
        for text, anchor in self.anchors.items():
            if re.sub(r"^\d+\.\s*", "", text).startswith(title):
                return anchor, text
        return None

    def open_fold(self, summary: str) -> None:
        """Start a fold, closed when the page opens: what follows, up to :meth:`close_fold`,
        shows only when the reader opens ``summary`` (the methods behind the answers)."""
        self.blocks.append(f'<details class="methods"><summary>{_inline(summary)}</summary>')

    def close_fold(self) -> None:
        """End the fold :meth:`open_fold` started."""
        self.blocks.append("</details>")

    def reserve(self) -> int:
        """Keep the next place on the page for a block written later (:meth:`fill`): the
        answer card sits first but is built once every section it links to is in place."""
        self.blocks.append("")
        return len(self.blocks) - 1

    def fill(self, place: int, markup: str) -> None:
        """Put trusted HTML at a place :meth:`reserve` kept."""
        self.blocks[place] = markup

    def raw(self, markup: str) -> None:
        """Add trusted HTML as it is.

        Parameters
        ----------
        markup : str
            HTML the caller built and escaped itself.
        """
        self.blocks.append(markup)

    def figure(self, name: str, fig: Figure, caption: str = "") -> bytes:
        """Render ``fig`` now, embed it and keep it as ``<prefix><name>.png`` and ``.svg``;
        the caption is numbered (``"Figure 3. ..."``).

        Parameters
        ----------
        name : str
            File stem of the PNG (letters, digits, ``-`` and ``_``).
        fig : matplotlib.figure.Figure
            The figure; rendered once here, so it can be discarded afterwards.
        caption : str
            Plain-text caption.

        Returns
        -------
        bytes
            The PNG content.
        """
        png = figure_png(fig)
        filename = self._asset(f"{name}.png", png)
        svg = self._asset(f"{name}.svg", figure_svg(fig, laid_out=True))
        self.figures += 1
        caption = f"Figure {self.figures}. {caption}" if caption else f"Figure {self.figures}."
        alt = html.escape(caption)
        self.blocks.append(
            f'<figure><img alt="{alt}" src="{png_data_uri(png)}">'
            f"<figcaption>{_inline(caption)} (<code>{html.escape(filename)}</code>, "
            f"<code>{html.escape(svg)}</code>)</figcaption></figure>"
        )
        return png

    def table(
        self,
        name: str | None,
        data: pd.DataFrame,
        caption: str = "",
        display: pd.DataFrame | None = None,
    ) -> None:
        """Add a table; keep ``data`` as ``<prefix><name>.csv`` unless ``name`` is None.

        Parameters
        ----------
        name : str or None
            CSV file stem; None shows the table without writing a CSV.
        data : pandas.DataFrame
            Full-precision table written to CSV (and shown when ``display`` is None).
        caption : str
            Plain-text caption shown above the table.
        display : pandas.DataFrame, optional
            A formatted version (strings, fewer columns) to show instead of ``data``.
        """
        _check_verdicts(name, data)
        shown = data if display is None else display
        note = ""
        if name is not None:
            filename = self.data(name, data)
            shown = verdict_cells(shown, data, filename)
            note = f" (<code>{html.escape(filename)}</code>)"
        if caption or note:
            self.blocks.append(f'<p class="caption">{_inline(caption)}{note}</p>')
        # A table wider than the page scrolls inside its box; the page itself never does.
        markup = shown.to_html(index=False, border=0, classes="data", na_rep="", escape=True)
        self.blocks.append(f'<div class="wide">{markup}</div>')

    def data(self, name: str, data: pd.DataFrame) -> str:
        """Keep a table as ``<prefix><name>.csv`` without showing it.

        Parameters
        ----------
        name : str
            File stem (letters, digits, ``-``, ``_``, ``.``).
        data : pandas.DataFrame
            The table, written in full precision without the index.

        Returns
        -------
        str
            The file name.
        """
        return self._asset(f"{name}.csv", as_file(data).to_csv(index=False).encode("utf-8"))

    def file(self, name: str, data: bytes) -> str:
        """Keep an extra file (e.g. JSON metadata) to write beside the report.

        Parameters
        ----------
        name : str
            File name after the prefix (letters, digits, ``-``, ``_``, ``.``).
        data : bytes
            Content.

        Returns
        -------
        str
            The file name.
        """
        return self._asset(name, data)

    def metadata(self, meta: dict[str, Any]) -> str:
        """Keep a study's configuration as ``<prefix>metadata.json`` (indented JSON; values
        JSON cannot hold, such as paths, as their text).

        Parameters
        ----------
        meta : dict
            The study's ``meta``.

        Returns
        -------
        str
            The file name.
        """
        return self.file("metadata.json", json.dumps(meta, indent=2, default=str).encode("utf-8"))

    def html(self) -> str:
        """The complete, self-contained HTML page.

        Returns
        -------
        str
            The page, figures embedded as base64 PNG.
        """
        body = to_spans("\n".join(self.blocks))
        title = html.escape(self.title)
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
        )

    def write(self, out_dir: str | Path) -> Path:
        """Write the HTML page and every CSV and PNG into ``out_dir``; return the HTML path.

        All files are first staged as temporary files in ``out_dir``; only when every one is
        complete are they renamed into place, the HTML last. If anything fails, the staged
        files are removed and no file of the report is half-written.

        Parameters
        ----------
        out_dir : str or Path
            Destination folder (created if missing).

        Returns
        -------
        Path
            The HTML file.
        """
        out = Path(out_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = error.strerror or str(error)
            raise ParameterError("out_dir", f"cannot make {out} ({reason})") from None
        files = [(out / a.name, a.data) for a in self.assets]
        files.append((out / self.filename, self.html().encode("utf-8")))
        # Staged all, then renamed, the HTML last; a failure removes every staged file.
        write_files(files, "out_dir")
        return out / self.filename

    def _asset(self, name: str, data: bytes) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise ValueError(f"file name {name!r}: use letters, digits, '-', '_' and '.'")
        filename = f"{self.prefix}{name}"
        if any(a.name == filename for a in self.assets):
            raise ValueError(f"the report already has a file {filename}")
        self.assets.append(_Asset(filename, data))
        return filename


def as_file(data: pd.DataFrame) -> pd.DataFrame:
    """A table as a results file holds it: a turn position (``position``, an index from 0
    inside the analysis) as ``turn_position`` counted from 1, the first to act, as every
    results file counts it (docs/vocabulary.md)."""
    if "position" not in data.columns:
        return data
    at = data.columns.get_loc("position")
    turn = data["position"] + 1
    data = data.drop(columns="position")
    data.insert(at, "turn_position", turn)
    return data


def _check_verdicts(name: str | None, data: pd.DataFrame) -> None:
    """Refuse a table whose printed interval disagrees with its verdict on any row, for every
    corrected family it holds (:func:`fairysim.stats.corrections.verdict_prefixes`)."""
    from fairysim.stats.corrections import interval_agrees, verdict_prefixes

    for prefix in verdict_prefixes(data):
        tested = data[f"{prefix}significant"].notna() & data[f"{prefix}low"].notna()
        agrees = interval_agrees(data[tested], prefix)
        if not agrees.all():
            rows = list(data[tested].index[~agrees.to_numpy()])
            raise ValueError(
                f"table {name!r}: rows {rows} show a {prefix}interval that disagrees with "
                "their verdict"
            )


def _class(css_class: str | None) -> str:
    return f' class="{html.escape(css_class)}"' if css_class else ""


def _inline(text: str) -> str:
    """Escape plain text; `backticks` become <code> spans."""
    parts = str(text).split("`")
    return "".join(
        f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p) for i, p in enumerate(parts)
    )


__all__ = [
    "DPI",
    "Report",
    "atomic_write_bytes",
    "atomic_write_text",
    "figure_png",
    "png_data_uri",
]
