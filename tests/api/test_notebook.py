"""The Python API in a real Jupyter kernel: tests/api/api_tour.ipynb executed by nbclient (ipykernel).

The notebook opens a database, loads a CSV, calls ``aggregate`` and asks a loopback stand-in model; the
test checks what Jupyter would render: each result's HTML (a table with the ``--chart-file`` SVG) and text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from example_model import ExampleModel
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
CSV = HERE.parent / "data" / "real" / "flights.csv"


def _output(cell: Any, kind: str) -> str:
    for output in cell.outputs:
        if output.output_type == "error":
            raise AssertionError("\n".join(output.traceback))
        if kind == "stream" and output.output_type == "stream":
            return str(output.text)
        if output.output_type == "execute_result" and kind in output.data:
            return str(output.data[kind])
    raise AssertionError(f"no {kind} output in cell: {cell.source}")


@pytest.mark.slow
def test_the_notebook_runs_and_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = nbformat.read(HERE / "api_tour.ipynb", as_version=4)
    with ExampleModel() as model:
        monkeypatch.setenv("AA_DB", str(tmp_path / "flights.duckdb"))
        monkeypatch.setenv("AA_CSV", str(CSV))
        monkeypatch.setenv("OPENAI_BASE_URL", model.url)
        client = NotebookClient(
            notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        )
        client.execute()
        assert model.requests == 2  # the question: a tool call, then the answer

    _, opened, loaded, called, sql, asked = notebook.cells
    assert "flights.duckdb" in _output(opened, "text/plain")
    assert _output(loaded, "stream").startswith("Loaded 2,909 rows into flights (19 columns)")

    html = _output(called, "text/html")
    assert html.count("<svg") == 1 and "<title>aggregate: count by carrier</title>" in html
    assert '<tr><td>UA</td><td style="text-align:right">535</td></tr>' in html
    assert _output(called, "text/plain").startswith("<Result aggregate: 3 rows x 2 columns>")
    assert "GROUP BY" in _output(sql, "stream")

    answer = _output(asked, "text/html")
    assert "<b>UA had the most flights: 535.</b>" in answer and "<svg" in answer
    assert "[unverified]" not in answer
    assert "UA had the most flights: 535." in _output(asked, "text/plain")
