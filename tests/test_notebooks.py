"""Notebooks run top to bottom in this environment's Python, without errors."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
kernelspec = pytest.importorskip("jupyter_client.kernelspec")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
GRANDE_FINALE = NOTEBOOKS / "fantastique_grande_finale.ipynb"
CONCERTO_SOLO = NOTEBOOKS / "concerto_solo.ipynb"
FAIRYLAND = NOTEBOOKS / "fairyland_card_balance.ipynb"
WHAT_IF = NOTEBOOKS / "what_if.ipynb"
CUSTOM_POLICY = NOTEBOOKS / "custom_policy.ipynb"
CONCERTO_CARDS = NOTEBOOKS / "concerto_card_balance.ipynb"
KERNEL = "python3"
CELL_TIMEOUT_S = 240  # the first cell that plays games also loads (or compiles) the engine
PYTHON_NAMES = {
    "python",
    f"python{sys.version_info[0]}",
    "python{}.{}".format(*sys.version_info[:2]),
}


def kernel_python() -> str:
    """The interpreter the python3 kernel will start, as jupyter_client resolves it."""
    try:
        spec = kernelspec.KernelSpecManager().get_kernel_spec(KERNEL)
    except kernelspec.NoSuchKernel:
        pytest.fail(f"no '{KERNEL}' kernel found: install the dev extras (ipykernel) in this venv")
    # jupyter_client runs a bare "python"/"python3" argv[0] with sys.executable.
    return sys.executable if spec.argv[0] in PYTHON_NAMES else spec.argv[0]


def test_python3_kernel_is_this_interpreter():
    assert os.path.realpath(kernel_python()) == os.path.realpath(sys.executable), (
        f"the '{KERNEL}' kernel would run {kernel_python()}, not {sys.executable}: a kernelspec "
        "outside this venv shadows ipykernel's own; notebooks would not see this fairysim"
    )


def execute(path: Path) -> nbformat.NotebookNode:
    """Run a notebook in memory (the file is not modified); raise on the first failing cell."""
    nb = nbformat.read(path, as_version=4)
    # One extra cell at the end reports the kernel's interpreter back to the test.
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    client = nbclient.NotebookClient(
        nb,
        kernel_name=KERNEL,
        timeout=CELL_TIMEOUT_S,
        allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def outputs(nb, tag: str | None = None) -> list[dict]:
    return [
        out
        for cell in nb.cells
        if cell.cell_type == "code" and (tag is None or tag in cell.metadata.get("tags", []))
        for out in cell.get("outputs", [])
    ]


@pytest.fixture(scope="module")
def grande_finale():
    if os.path.realpath(kernel_python()) != os.path.realpath(sys.executable):
        pytest.fail("the python3 kernel is not this interpreter (see the kernel test)")
    return execute(GRANDE_FINALE)


def test_grande_finale_runs_without_errors(grande_finale):
    errors = [o for o in outputs(grande_finale) if o.output_type == "error"]
    assert errors == []
    last = grande_finale.cells[-1].outputs[0]["text"].strip()
    assert os.path.realpath(last) == os.path.realpath(sys.executable)


def test_grande_finale_key_outputs(grande_finale):
    ranking = [o for o in outputs(grande_finale, "ranking") if "text/html" in o.get("data", {})]
    assert ranking, "the ranking table was not displayed"
    table = ranking[0]["data"]["text/html"]
    for fan in ("I", "II", "III", "IV", "V", "VI"):
        assert f"<td>{fan}</td>" in table, fan
    figures = [o for o in outputs(grande_finale, "figure") if "image/png" in o.get("data", {})]
    assert len(figures) == 4, "the four figures were not drawn"
    text = "".join(o.get("text", "") for o in outputs(grande_finale) if o.output_type == "stream")
    assert "the finale decides" in text
    assert "significant" in text


@pytest.fixture(scope="module")
def concerto_solo():
    if os.path.realpath(kernel_python()) != os.path.realpath(sys.executable):
        pytest.fail("the python3 kernel is not this interpreter (see the kernel test)")
    return execute(CONCERTO_SOLO)


def test_concerto_solo_runs_without_errors(concerto_solo):
    errors = [o for o in outputs(concerto_solo) if o.output_type == "error"]
    assert errors == []
    last = concerto_solo.cells[-1].outputs[0]["text"].strip()
    assert os.path.realpath(last) == os.path.realpath(sys.executable)


def test_concerto_solo_key_outputs(concerto_solo):
    tables = [o for o in outputs(concerto_solo, "policies") if "text/html" in o.get("data", {})]
    assert tables, "the policy table was not displayed"
    for policy in ("random", "greedy", "chaser", "maestro", "denier", "lookahead"):
        assert f"<td>{policy}</td>" in tables[0]["data"]["text/html"], policy
    figures = [o for o in outputs(concerto_solo, "figure") if "image/png" in o.get("data", {})]
    assert len(figures) == 3, "the three figures were not drawn"
    text = "".join(o.get("text", "") for o in outputs(concerto_solo) if o.output_type == "stream")
    assert "PROVISIONAL" in text
    assert "lookahead wins" in text and "significant" in text
    assert "instead of" in text  # the paired fixed-setup comparison ran


@pytest.fixture(scope="module")
def fairyland():
    if os.path.realpath(kernel_python()) != os.path.realpath(sys.executable):
        pytest.fail("the python3 kernel is not this interpreter (see the kernel test)")
    return execute(FAIRYLAND)


def test_fairyland_runs_without_errors(fairyland):
    errors = [o for o in outputs(fairyland) if o.output_type == "error"]
    assert errors == []
    last = fairyland.cells[-1].outputs[0]["text"].strip()
    assert os.path.realpath(last) == os.path.realpath(sys.executable)


def test_fairyland_key_outputs(fairyland):
    tables = [o for o in outputs(fairyland, "cards") if "text/html" in o.get("data", {})]
    assert tables, "the card balance table was not displayed"
    for card in ("Squirrel", "Red flower", "Goblin", "Ogre (taken)", "Garland"):
        assert f"<td>{card}</td>" in tables[0]["data"]["text/html"], card
    figures = [o for o in outputs(fairyland, "figure") if "image/png" in o.get("data", {})]
    assert len(figures) == 4, "the four figures were not drawn"
    text = "".join(o.get("text", "") for o in outputs(fairyland) if o.output_type == "stream")
    assert "PROVISIONAL" in text
    assert "Not significant after Holm" in text and "court of no effect" in text


def executed(path: Path) -> nbformat.NotebookNode:
    if os.path.realpath(kernel_python()) != os.path.realpath(sys.executable):
        pytest.fail("the python3 kernel is not this interpreter (see the kernel test)")
    return execute(path)


def assert_ran(nb) -> None:
    errors = [o for o in outputs(nb) if o.output_type == "error"]
    assert errors == []
    last = nb.cells[-1].outputs[0]["text"].strip()
    assert os.path.realpath(last) == os.path.realpath(sys.executable)


def html(nb, tag: str) -> str:
    tables = [o for o in outputs(nb, tag) if "text/html" in o.get("data", {})]
    assert tables, f"the {tag} table was not displayed"
    return tables[0]["data"]["text/html"]


def stream_text(nb) -> str:
    return "".join(o.get("text", "") for o in outputs(nb) if o.output_type == "stream")


def figure_count(nb) -> int:
    return len([o for o in outputs(nb, "figure") if "image/png" in o.get("data", {})])


@pytest.fixture(scope="module")
def what_if():
    return executed(WHAT_IF)


def test_what_if_runs_without_errors(what_if):
    assert_ran(what_if)


def test_what_if_key_outputs(what_if):
    table = html(what_if, "positions")
    for column in ("turn position", "games", "difference", "low", "high", "p_holm", "verdict"):
        assert f"<th>{column}</th>" in table, column
    for variant in ("finale gold 30", "twelve 8s"):
        assert f"<td>{variant}</td>" in table, variant
    narrowing = html(what_if, "narrowing")
    assert "median se_ratio" in narrowing
    assert figure_count(what_if) == 1, "the difference figure was not drawn"
    text = stream_text(what_if)
    # The re-valued medal keeps the deals: every game replays the baseline's turn order.
    finale = next(line for line in text.splitlines() if line.startswith("finale gold 30: the"))
    games = re.search(r"in ([\d,]+) of ([\d,]+) games", finale)
    assert games and games.group(1) == games.group(2), finale
    # A 30-point finale gold helps the seat that plays for the finale, well past the interval.
    hoarder = next(line for line in text.splitlines() if "seat 0 (hoarder)" in line)
    assert hoarder.startswith("finale gold 30") and hoarder.endswith(": significant."), hoarder
    assert "corrected interval" in text


@pytest.fixture(scope="module")
def custom_policy():
    return executed(CUSTOM_POLICY)


def test_custom_policy_runs_without_errors(custom_policy):
    assert_ran(custom_policy)


def test_custom_policy_key_outputs(custom_policy):
    ratings = html(custom_policy, "ratings")  # sorted strongest first
    entries = ["__main__:collector", "greedy", "hoarder", "random"]
    at = {entry: ratings.find(f"<td>{entry}</td>") for entry in entries}
    assert all(i >= 0 for i in at.values()), at
    assert at["greedy"] < at["random"], "the tournament did not rank random below greedy"
    assert at["__main__:collector"] < at["random"], "the cell's policy did not beat random"
    matrix = html(custom_policy, "head_to_head")
    assert "<th>__main__:collector</th>" in matrix
    turns = html(custom_policy, "turn_order")
    for column in ("turn_position", "deals", "seat_games", "win_share", "low", "high"):
        assert f"<th>{column}</th>" in turns, column
    assert figure_count(custom_policy) == 3, "the three figures were not drawn"
    text = stream_text(custom_policy)
    assert "collector takes stack 2: value 8" in text  # the hand-made decision
    assert "refused: policies: __main__:halfway returns float64" in text
    assert "16 mixes x 3 rotations" in text


@pytest.fixture(scope="module")
def concerto_cards():
    return executed(CONCERTO_CARDS)


def test_concerto_card_balance_runs_without_errors(concerto_cards):
    assert_ran(concerto_cards)


def test_concerto_card_balance_key_outputs(concerto_cards):
    lifts = html(concerto_cards, "lifts")
    for column in ("seat_games", "held", "lift", "lift_low", "lift_high", "lift_significant"):
        assert f"<th>{column}</th>" in lifts, column
    for card in range(1, 27):
        assert f"<td>S{card:02d}</td>" in lifts, card
    assert "<td>conductor</td>" in html(concerto_cards, "contests")
    turns = html(concerto_cards, "turn_order")
    for column in ("players", "turn_position", "games", "win_share", "low", "high", "significant"):
        assert f"<th>{column}</th>" in turns, column
    assert figure_count(concerto_cards) == 5, "the five figures were not drawn"
    text = stream_text(concerto_cards)
    assert "PROVISIONAL" in text
    assert "corrected over 26 cards" in text and "associations" in text
    assert "Completion, easiest" in text and "Completion, hardest" in text
    assert "Honors, most decisive" in text


def test_tune_a_card_file_finds_the_planted_number():
    if os.path.realpath(kernel_python()) != os.path.realpath(sys.executable):
        pytest.fail("the python3 kernel is not this interpreter (see the kernel test)")
    nb = execute(NOTEBOOKS / "tune_a_card_file.ipynb")
    assert [o for o in outputs(nb) if o.output_type == "error"] == []
    text = "".join(o.get("text", "") for o in outputs(nb, "changes") if o.output_type == "stream")
    assert "every target met: True" in text
    changes = [o for o in outputs(nb, "changes") if "text/html" in o.get("data", {})]
    assert "grande_finale_medals.gold" in changes[0]["data"]["text/html"]
