"""Writes never go through a link someone planted, and a log never waits on a pipe (issue 24).

Someone with write access to a shared folder plants ``report.svg -> ~/.bashrc`` (or a FIFO where the
transcript goes): the command must refuse in one line, leave the link's target untouched, and never block.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import run_cli

from analytics_agent.cli.output import save_results
from analytics_agent.errors import DatabaseError, ExportError
from analytics_agent.paths import write_file
from analytics_agent.present.results import CallResult, export_names

TREND = ["tools", "call", "revenue_trend", '{"period": "2026-01-01..2026-10-31", "grain": "month"}']
PRECIOUS = "keep me\n"


def _planted(tmp_path: Path, name: str) -> tuple[Path, Path]:
    victim = tmp_path / "victim.txt"
    victim.write_text(PRECIOUS)
    link = tmp_path / name
    link.symlink_to(victim)
    return link, victim


def test_chart_file_refuses_a_planted_link_and_leaves_its_target_alone(sample_db, tmp_path):
    link, victim = _planted(tmp_path, "trend.svg")
    result = run_cli(["--db", str(sample_db), *TREND, "--chart-file", str(link)], cwd=tmp_path)
    assert result.returncode == 1
    assert "symbolic link" in result.stderr and "Traceback" not in result.stderr
    assert victim.read_text() == PRECIOUS and link.is_symlink()


def test_save_results_refuses_a_planted_link_inside_the_folder(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    call = CallResult(name="run_sql", arguments="{}", content='{"n": 1}')
    _, victim = _planted(folder, export_names([call])[0])
    with pytest.raises(ExportError, match="symbolic link"):
        save_results(folder, [call])
    assert victim.read_text() == PRECIOUS


def test_semantic_init_refuses_a_planted_link(sample_db, tmp_path):
    link, victim = _planted(tmp_path, "model.semantic.yaml")
    result = run_cli(["--db", str(sample_db), "semantic", "init", "-o", str(link), "--force"], cwd=tmp_path)
    assert result.returncode == 1 and "symbolic link" in result.stderr and "Traceback" not in result.stderr
    assert victim.read_text() == PRECIOUS


def test_a_planted_wal_link_is_refused_before_duckdb_writes_through_it(tmp_path):
    from analytics_agent.db.connect import open_writer

    db = tmp_path / "data.duckdb"
    _, victim = _planted(tmp_path, "data.duckdb.wal")
    with pytest.raises(DatabaseError, match="symbolic link"), open_writer(db):
        pass
    assert victim.read_text() == PRECIOUS


def test_write_file_replaces_whole_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "a.csv"
    target.write_text("old, longer than the new text\n")
    target.chmod(0o640)
    write_file(target, "new\n")
    assert target.read_text() == "new\n"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv"]


def test_transcript_refuses_a_planted_link(tmp_path):
    from analytics_agent.present.transcript import Transcript

    link, victim = _planted(tmp_path, "t.jsonl")
    warnings: list[str] = []
    transcript = Transcript(link, warn=warnings.append)
    assert not transcript.working
    assert len(warnings) == 1 and "symbolic link" in warnings[0]
    assert victim.read_text() == PRECIOUS


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_transcript_to_a_fifo_is_refused_instead_of_waiting_for_a_reader(tmp_path):
    from bounded_run import run_capped

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # in a child: the old code blocked in open() forever; the safety-net timeout ends it then
    code = f"""
        from pathlib import Path
        from analytics_agent.present.transcript import Transcript
        t = Transcript(Path({str(fifo)!r}), warn=lambda m: print("WARN", m))
        print("working", t.working)
    """
    result = run_capped(code, cpu_seconds=30, timeout=60)
    assert "working False" in result.stdout
    assert "not a regular file" in result.stdout
