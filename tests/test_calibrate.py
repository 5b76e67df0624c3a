"""sciverify calibrate: thresholds and risk levels fitted to stored decisions, written only
with --write (and a diff)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.calibrate import YELLOW_GRID, Candidate, calibrate, toml_update
from sciverify.cli import app
from sciverify.errors import InputError

DRAFT = """# Thromboprophylaxis in trauma

Level one evidence currently supports the use of low molecular weight heparins for
thromboprophylaxis in trauma patients.

Failed filter retrieval rates in trauma patients were reported between 0% and 4%, with a
calculated rate of 12.8%.

Level one evidence proves that low molecular weight heparins are the best thromboprophylaxis
for all patients.

Mechanical compression devices can result in local soft tissue injury, bleeding and patient
non-compliance.
"""
PAIRS = [
    {"premise": "Failed retrieval rates in trauma patients are reported between 0% and 4% with "
                "a calculated rate of 2.8%.",
     "hypothesis": "The calculated rate of failed retrieval was 2.8%.", "label": "entailment"},
    {"premise": "Failed retrieval rates in trauma patients are reported between 0% and 4% with "
                "a calculated rate of 2.8%.",
     "hypothesis": "The calculated rate of failed retrieval was 12.8%.", "label": "contradiction"},
    {"premise": "The risks of heparin include bleeding and heparin induced thrombocytopenia.",
     "hypothesis": "Heparin has no risk of bleeding.", "label": "contradiction"},
    {"premise": "The risks of heparin include bleeding and heparin induced thrombocytopenia.",
     "hypothesis": "Filters were placed at the bedside.", "label": "neutral"},
]


@pytest.fixture(scope="module")
def decided(small_corpus: Path,
            tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple]]:
    """A corpus with one logged run of DRAFT and a reviewer's decisions: the contradicted
    paragraph rejected, everything else (the yellow one too) accepted as written."""
    corpus = tmp_path_factory.mktemp("cal") / "corpus"
    shutil.copytree(small_corpus, corpus)
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus) as store:
        result = sv.log_run(store, sv.verify(DRAFT, store=store, settings=settings,
                                             source="dvt.md"), settings, text=DRAFT)
    risks = {p.paragraph_id: (p.risk, p.risk_score, p.text) for p in result.paragraphs}
    for pid, (risk, _, _) in risks.items():
        result.decide(pid, "reject" if risk == "red" else "accept")
    return corpus, risks


def test_calibrate_improves_adoption_without_losing_coverage_or_adding_flags(
        decided: tuple[Path, dict[str, tuple]]) -> None:
    corpus, risks = decided
    hedge = next(v for v in risks.values() if "proves that" in v[2])
    assert hedge[0] == "yellow" and hedge[1] < max(YELLOW_GRID)  # accepted: a flag not needed
    assert sum(v[0] == "red" for v in risks.values()) == 1
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        report = calibrate(store=store, settings=settings, pairs=PAIRS)
    before, after = report.before, report.after
    assert (before.red, before.yellow) == (1, 1) and before.decided == 4
    assert before.risk_coverage == 1.0 and before.adoption_rate == 0.5
    assert after.risk_coverage == 1.0 and after.adoption_rate == 1.0
    assert after.flagged < before.flagged
    assert report.changes and report.chosen != report.current
    assert after.pair_macro_f1 is not None and before.pair_macro_f1 is not None
    assert after.pair_macro_f1 >= before.pair_macro_f1 - 0.02
    assert report.candidates >= 48 * 30


def test_calibrate_writes_only_with_write_and_shows_the_diff(
        decided: tuple[Path, dict[str, tuple]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    corpus, _ = decided
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "sciverify.toml"
    config.write_text("# lab settings\n[search]\nk = 12  # more hits\n", encoding="utf-8")
    runner = CliRunner()
    dry = runner.invoke(app, ["calibrate", "--corpus", str(corpus), "-f", "json", "-q"])
    assert dry.exit_code == 0, dry.stderr
    data = json.loads(dry.stdout)
    assert data["after"]["adoption_rate"] == 1.0 and data["changes"]
    assert "+risk_yellow_min" in dry.stderr or "+[verify" in dry.stderr
    assert "rerun with --write" in dry.stderr
    assert config.read_text(encoding="utf-8") == "# lab settings\n[search]\nk = 12  # more hits\n"

    wrote = runner.invoke(app, ["calibrate", "--corpus", str(corpus), "--write", "-q"])
    assert wrote.exit_code == 0, wrote.stderr
    assert "--- sciverify.toml (now)" in wrote.stderr and "wrote sciverify.toml" in wrote.stderr
    text = config.read_text(encoding="utf-8")
    assert text.startswith("# lab settings\n[search]\nk = 12  # more hits\n")
    settings = sv.load_settings(corpus=corpus)
    for key, (_, new) in data["changes"].items():
        block = settings.verify if key.startswith("risk_") else settings.verify.thresholds
        assert getattr(block, key) == new
    assert settings.search.k == 12

    again = runner.invoke(app, ["calibrate", "--corpus", str(corpus), "--write", "-q"])
    assert again.exit_code == 0, again.stderr
    assert "nothing to write" in again.stderr
    assert config.read_text(encoding="utf-8") == text


def test_toml_update_replaces_keys_in_place_and_keeps_comments() -> None:
    old = ("[verify]\n# fitted by hand\nrisk_red_min = 0.8  # strict\n\n"
           "[verify.thresholds]\nentail_min = 0.3\n\n[index]\nmodel = \"x\"\n")
    new = toml_update(old, Candidate(0.6, 0.5, 0.35, 0.75, 0.4))
    import tomllib

    parsed = tomllib.loads(new)
    assert parsed["verify"] == {"risk_red_min": 0.75, "risk_yellow_min": 0.4,
                                "thresholds": {"entail_min": 0.6, "contradict_min": 0.5,
                                               "partial_min": 0.35}}
    assert parsed["index"] == {"model": "x"} and "# fitted by hand" in new
    assert toml_update(new, Candidate(0.6, 0.5, 0.35, 0.75, 0.4)) == new


def test_calibrate_without_decisions_is_an_input_error(small_corpus: Path) -> None:
    settings = sv.load_settings(corpus=small_corpus)
    with sv.open_store(small_corpus, read_only=True) as store, pytest.raises(
            InputError, match="no decisions to calibrate on"):
        calibrate(store=store, settings=settings)
