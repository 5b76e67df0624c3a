"""Feedback: decisions exported by the real HTML report, stored in the corpus, and their stats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_support import CHROMIUM, NO_CHROMIUM, build_result, export_decisions

from sciverify.errors import ExitCode, InputError
from sciverify.feedback import feedback_stats, import_decisions
from sciverify.report import result_to_html
from sciverify.store.db import Store, open_store

PAPER = "cer__example3_clin_sci2014.pdf"
SHA = "ab" * 32


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with open_store(tmp_path / "corpus") as s:
        yield s


def _write(tmp_path: Path, value: Any, name: str = "decisions.json") -> Path:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def _file(decisions: list[tuple[str, str, str | None]], run_id: str | None = "run-1",
          sha: str = SHA) -> dict[str, Any]:
    return {"run_id": run_id, "draft_sha256": sha,
            "decisions": [{"paragraph_id": p, "decision": d, "risk": r, "note": "",
                           "decided_at": "2025-11-30T10:00:00.000Z"} for p, d, r in decisions]}


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_import_a_file_exported_by_the_real_page(shared_corpora: Path, tmp_path: Path,
                                                 store: Store) -> None:
    result = build_result(shared_corpora / "pdfs" / PAPER)
    report = tmp_path / "report.html"
    report.write_text(result_to_html(result), encoding="utf-8")
    clicks = [("p_001", "accept", ""), ("p_002", "revise", "the source says the opposite"),
              ("p_003", "reject", "")]
    shown, downloaded = export_decisions(report, tmp_path / "profile", clicks, tmp_path / "dl")
    assert json.loads(downloaded.read_text()) == shown
    assert import_decisions(downloaded, store=store) == 3
    rows = store.rows("SELECT run_id, draft_sha256, paragraph_id, decision, risk, note,"
                      " decided_at, imported_at FROM feedback ORDER BY paragraph_id")
    assert [(r["paragraph_id"], r["decision"], r["risk"], r["note"]) for r in rows] == [
        ("p_001", "accept", "blue", ""), ("p_002", "revise", "red", "the source says the opposite"),
        ("p_003", "reject", "yellow", "")]
    assert {r["run_id"] for r in rows} == {"run-0001"}
    assert {r["draft_sha256"] for r in rows} == {result.draft_sha256}
    assert all(r["decided_at"].tzinfo is None and r["imported_at"] for r in rows)
    # Importing the same export again replaces, it does not duplicate.
    assert import_decisions(downloaded, store=store) == 3
    assert store.scalar("SELECT count(*) FROM feedback") == 3
    stats = feedback_stats(store)
    assert stats["risk_coverage"] == 1.0  # p_002 (red) and p_003 (yellow) were both flagged
    assert stats["adoption_rate"] == 1.0  # and both were acted on


def test_stats_on_a_hand_computed_case(tmp_path: Path, store: Store) -> None:
    first = _file([("p_001", "revise", "red"), ("p_002", "reject", "red"),
                   ("p_003", "accept", "red"), ("p_004", "revise", "yellow"),
                   ("p_005", "accept", "yellow"), ("p_006", "reject", "blue"),
                   ("p_007", "accept", "blue"), ("p_008", "accept", "blue")])
    second = _file([("p_001", "reject", None)], run_id=None, sha="cd" * 32)
    assert import_decisions(_write(tmp_path, first, "a.json"), store=store) == 8
    assert import_decisions(_write(tmp_path, second, "b.json"), store=store) == 1
    stats = feedback_stats(store)
    # problematic (revise/reject, risk known): red 2 + yellow 1 + blue 1 = 4, of which flagged 3
    # flagged (red/yellow) decided: 3 + 2 = 5, of which acted on (revise/reject): 3
    assert stats["risk_coverage"] == 3 / 4
    assert stats["adoption_rate"] == 3 / 5
    assert (stats["problematic"], stats["flagged"], stats["flagged_problematic"]) == (4, 5, 3)
    assert stats["decisions"] == 9 and stats["runs"] == 2
    assert stats["by_decision"] == {"accept": 4, "revise": 2, "reject": 3}
    assert stats["by_risk"] == {"red": 3, "yellow": 2, "blue": 3, "unknown": 1}
    assert stats["by_risk_and_decision"]["red"] == {"accept": 1, "revise": 1, "reject": 1}
    one = feedback_stats(store, run_id="run-1")
    assert one["decisions"] == 8 and one["by_risk"]["unknown"] == 0 and one["runs"] == 1


def test_stats_of_no_feedback_have_no_shares(store: Store) -> None:
    stats = feedback_stats(store)
    assert stats["decisions"] == 0
    assert stats["risk_coverage"] is None and stats["adoption_rate"] is None


def test_a_later_export_replaces_the_earlier_decision(tmp_path: Path, store: Store) -> None:
    import_decisions(_write(tmp_path, _file([("p_001", "accept", "red")]), "a.json"), store=store)
    import_decisions(_write(tmp_path, _file([("p_001", "reject", "red")]), "b.json"), store=store)
    assert store.rows("SELECT paragraph_id, decision FROM feedback") == [
        {"paragraph_id": "p_001", "decision": "reject"}]


def _entry(**change: Any) -> dict[str, Any]:
    base = _file([("p_001", "accept", "red")])
    base["decisions"][0].update(change)
    return base


@pytest.mark.parametrize(("content", "expected"), [
    ("{not json", "not valid JSON: line 1 column 2"),
    ({"run_id": "r", "draft_sha256": SHA}, 'field "decisions": Field required'),
    (_entry(decision="maybe"), 'field "decisions[0].decision": Input should be'),
    (_entry(colour="red"), 'field "decisions[0].colour": Extra inputs are not permitted'),
    (_entry(paragraph_id="paragraph one"), 'field "decisions[0].paragraph_id"'),
    (_entry(decided_at="yesterday"), 'field "decisions[0].decided_at"'),
    (_entry(risk="green"), 'field "decisions[0].risk"'),
    ({**_file([]), "draft_sha256": "abc"}, 'field "draft_sha256"'),
    ([1, 2], 'field "(top level)"'),
    (_file([("p_001", "accept", "red"), ("p_001", "reject", "red")]),
     'field "decisions[1].paragraph_id": p_001 is decided twice'),
])
def test_malformed_decision_files_name_the_file_and_the_field(
        tmp_path: Path, store: Store, content: Any, expected: str) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(InputError) as caught:
        import_decisions(path, store=store)
    assert str(caught.value).startswith(f"{path}: ")
    assert expected in str(caught.value)
    assert caught.value.hint and caught.value.exit_code == ExitCode.INPUT
    assert store.scalar("SELECT count(*) FROM feedback") == 0


def test_missing_file_and_read_only_corpus(tmp_path: Path, store: Store) -> None:
    with pytest.raises(InputError, match="file not found"):
        import_decisions(tmp_path / "nope.json", store=store)
    path = _write(tmp_path, _file([("p_001", "accept", "red")]))
    store.close()
    with (open_store(tmp_path / "corpus", read_only=True) as reader,
          pytest.raises(InputError, match="read-only")):
        import_decisions(path, store=reader)


def test_decisions_for_a_run_of_another_draft_are_refused(tmp_path: Path, store: Store) -> None:
    store.execute("INSERT INTO runs (run_id, command, input_hash, created_at)"
                  " VALUES ('run-1', 'verify', ?, now())", ["ef" * 32])
    with pytest.raises(InputError, match='field "draft_sha256": run run-1 verified another'):
        import_decisions(_write(tmp_path, _file([("p_001", "accept", "red")])), store=store)
    store.execute("UPDATE runs SET input_hash = ?", [SHA])
    assert import_decisions(_write(tmp_path, _file([("p_001", "accept", "red")])),
                            store=store) == 1
