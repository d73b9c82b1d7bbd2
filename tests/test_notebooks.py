"""Notebooks run top to bottom in this environment's Python, without errors."""

from __future__ import annotations

import os
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
