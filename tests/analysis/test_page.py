"""The HTML page writer: escaping, the files it keeps beside the page, and atomic writing."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from fairysim.analysis.report.page import Report, atomic_write_text
from fairysim.analysis.report.plots import new_figure
from fairysim.runtime import files
from fairysim.runtime.errors import FairysimError


def test_report_escapes_text_and_keeps_files(tmp_path):
    report = Report("A <b>title</b>", "r.html", prefix="x-")
    report.heading("Section & more")
    report.paragraph("1 < 2 and `code <here>`")
    report.bullets(["a & b"])
    report.table("t", pd.DataFrame({"a": [1, 2], "b": ["<x>", "y"]}), "caption")
    report.data("hidden", pd.DataFrame({"z": [3]}))
    fig, (ax,) = new_figure(2, 2)
    ax.plot([0, 1], [0, 1])
    png = report.figure("fig", fig, "A figure")
    assert png.startswith(b"\x89PNG")
    html = report.html()
    assert "A &lt;b&gt;title&lt;/b&gt;" in html
    assert "1 &lt; 2 and <code>code &lt;here&gt;</code>" in html
    assert "&lt;x&gt;" in html and "<x>" not in html
    path = report.write(tmp_path / "sub")
    assert path == tmp_path / "sub" / "r.html"
    names = sorted(p.name for p in path.parent.iterdir())
    assert names == ["r.html", "x-fig.png", "x-fig.svg", "x-hidden.csv", "x-t.csv"]
    svg = (path.parent / "x-fig.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    mode = os.stat(path).st_mode & 0o777
    assert mode & 0o600 == 0o600  # at least readable and writable by the owner
    with pytest.raises(ValueError, match="already"):
        report.data("t", pd.DataFrame())
    with pytest.raises(ValueError, match="file name"):
        report.data("../escape", pd.DataFrame())


def test_atomic_write_cleans_up_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "a.txt"
    atomic_write_text(target, "first")

    def no_sync(_fd):
        raise OSError("no space")

    monkeypatch.setattr(files.os, "fsync", no_sync)
    with pytest.raises(
        FairysimError, match=f"out_dir: cannot write {target} .no space.; {target} untouched"
    ):
        atomic_write_text(target, "second")
    assert target.read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_metadata_is_kept_as_json_beside_the_page(tmp_path):
    report = Report("Meta", "m.html", prefix="m-")
    assert report.metadata({"games": 10, "cards": tmp_path / "c.toml"}) == "m-metadata.json"
    report.write(tmp_path)
    meta = json.loads((tmp_path / "m-metadata.json").read_text())
    assert meta == {"games": 10, "cards": str(tmp_path / "c.toml")}  # a path as its text


def test_sections_and_figures_are_numbered_in_page_order():
    report = Report("T", "t.html")
    assert report.section("First") == "1. First"
    fig, _ = new_figure(2, 2)
    report.figure("a", fig, "A caption.")
    report.section("Second")
    report.figure("b", fig)
    html = report.html()
    assert '<h2 id="1-first">1. First</h2>' in html and "2. Second" in html
    assert "Figure 1. A caption." in html and "Figure 2." in html


def test_a_table_whose_interval_disagrees_with_its_verdict_is_refused():
    report = Report("T", "t.html")
    good = pd.DataFrame({"low": [0.1, -0.1], "high": [0.2, 0.1], "significant": [True, False]})
    report.table("good", good)
    shifted = good.assign(null=[0.15, 0.0])  # the first interval covers its own reference
    with pytest.raises(ValueError, match=r"'shifted'.*rows \[0\]"):
        report.table("shifted", shifted)
    prefixed = pd.DataFrame({"lift_low": [0.1], "lift_high": [0.2], "lift_significant": [False]})
    with pytest.raises(ValueError, match="lift_interval"):
        report.table("prefixed", prefixed)


def test_a_laid_out_figures_svg_keeps_its_layout_and_draws_once(monkeypatch):
    from matplotlib.figure import Figure

    from fairysim.analysis.report.page import figure_png, figure_svg

    fig, (ax,) = new_figure(4, 3)
    ax.barh([f"a long label {i}" for i in range(8)], range(8))
    ax.set_xlabel("games (count)")
    figure_png(fig)
    placed = ax.get_position().bounds
    engine = fig.get_layout_engine()
    solved, drawn = [], []
    monkeypatch.setattr(type(engine), "execute", lambda self, f: solved.append(f))
    draw = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: drawn.append(draw(self, renderer)))
    svg = figure_svg(fig, laid_out=True)
    assert (solved, len(drawn)) == ([], 1)  # the PNG's layout kept; one drawing, no placing
    assert ax.get_position().bounds == placed
    assert fig.get_layout_engine() is engine  # put back for whoever draws it next
    assert b"a long label 7" in svg
    figure_svg(fig)
    assert (solved, len(drawn)) == ([fig], 3)  # a figure not yet drawn is placed as usual
