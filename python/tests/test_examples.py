"""The researcher examples run and agree with the command line tool."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import stats_json

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True,
                          check=True)


@pytest.mark.parametrize("material, draw", [("KMvK", True), ("MvMM", False), ("KvM", False)])
def test_dtw_histogram_matches_dtb_stats(dtw_dir, dtb_binary, tmp_path, material, draw):
    figure = tmp_path / "dtw.svg"  # drawn once: matplotlib takes seconds to start
    out = run_example("dtw_histogram.py", material, "--tables", dtw_dir, "--json",
                      *(["--out", str(figure)] if draw else []))
    summary = json.loads(out.stdout.splitlines()[0])
    stats = stats_json(dtb_binary, dtw_dir)[material]  # White to move, as the tables
    for key in ("positions", "win", "draw", "loss", "longest_win_dtw"):
        assert summary[key] == stats[key], key
    assert sum(summary["histogram"].values()) == summary["win"]
    assert sum(summary["loss_histogram"].values()) == summary["loss"]
    assert not draw or figure.stat().st_size > 1000


def test_dtw_histogram_reports_a_missing_table(wdl_dir):
    result = subprocess.run([sys.executable, str(EXAMPLES / "dtw_histogram.py"), "KKMvK", "--tables", wdl_dir],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "KKMvK.dtw" in result.stderr


def check_report(entries, reference) -> None:
    by_key = {(e["material"], e["to_move"]): e for e in reference}
    for entry in entries:
        expected = by_key[(entry["material"], entry["to_move"])]
        for key, value in entry.items():
            if key.endswith("histogram"):
                assert {int(k): v for k, v in value.items()} == {int(k): v for k, v in expected[key].items()}
            else:
                assert value == expected[key], (entry["material"], entry["to_move"], key)


def test_rules_figures_of_article_6_4(dtw_dir, tmp_path):
    # The 2-3 piece tables hold the 6.4 class (6.3 needs 4 pieces: skipped).
    numbers = tmp_path / "rules.json"
    out = run_example("rules_figures.py", "--tables", dtw_dir, "--out", str(tmp_path), "--json", str(numbers))
    assert out.stdout.split() == [str(tmp_path / "rules-6.4.svg")]
    entries = json.loads(numbers.read_text())
    assert {e["material"] for e in entries} == {"KvK", "KKvK", "KMvK"}
    for e in entries:  # the report's invariants, from independent probes
        assert e["win"] + e["draw"] + e["loss"] == e["positions"]
        assert sum(e["win_in_class_histogram"].values()) + e["win_unbounded"] == e["win"]
        assert e["longest_win_in_class"] == max(map(int, e["win_in_class_histogram"]), default=None)
    # The report's finding: no 6.4 win is lost from a fresh count.
    assert all(e["rule_win"] == e["win"] and e["rule_loss"] == e["loss"] for e in entries)


@pytest.mark.skipif(not os.environ.get("DTB_PYTHON_RULE_TABLES"),
                    reason="DTB_PYTHON_RULE_TABLES (a directory of `dtb gen --max-pieces 4 --dtw`) not set")
def test_rules_figures_equal_the_dtb_rules_report(dtb_binary, tmp_path):
    # Heavy (4-piece .rule tables take minutes to build): run by hand.
    tables = os.environ["DTB_PYTHON_RULE_TABLES"]
    numbers = tmp_path / "rules.json"
    run_example("rules_figures.py", "--tables", tables, "--out", str(tmp_path), "--json", str(numbers))
    reference = json.loads(subprocess.run([dtb_binary, "rules", "--json", tables], capture_output=True,
                                          text=True, check=True).stdout)
    entries = json.loads(numbers.read_text())
    assert len(entries) == len(reference) == 12
    check_report(entries, reference)


def test_article62_counts_equal_the_dtb_rules_report(mtc_dir, dtb_binary):
    # The example counts with the probe's 6.2 values over every position; the
    # report counts MTC values (from the .mtc-stats sidecars): they must agree.
    materials = ["KKvM", "MvKK", "KMvM", "KKvKM", "KMvKM", "MMvKM", "KvMM"]
    out = run_example("article62_counts.py", *materials, "--tables", mtc_dir, "--counts", "0,25,45,48,49", "--json")
    entries = [json.loads(line) for line in out.stdout.splitlines()]
    report = json.loads(subprocess.run([dtb_binary, "rules", "--article", "6.2", "--json", mtc_dir],
                                       capture_output=True, text=True, check=True).stdout)
    reference = {e["material"]: e for e in report}
    drawn = 0
    for entry in entries:
        expected = reference[entry["material"]]
        for key in ("positions", "win", "draw", "loss", "longest_win_mtc", "longest_loss_mtc"):
            assert entry[key] == expected[key], (entry["material"], key)
        for c, n in entry["wins_drawn_at"].items():
            assert n == expected["wins_drawn_at"][int(c)], (entry["material"], c)
            drawn += n
    assert [e["material"] for e in entries] == materials and drawn > 0


def test_article62_counts_refuses_a_class_material(mtc_dir):
    result = subprocess.run([sys.executable, str(EXAMPLES / "article62_counts.py"), "KKvK", "--tables", mtc_dir],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "class" in result.stderr


def test_class_play_wins_every_6_4_class_win_with_the_rule_aware_move(dtw_dir):
    # The 6.4 materials (the directory's .rule tables): every sampled win at
    # every count is won by best_move_rule against the longest resistance.
    out = run_example("class_play.py", "--tables", dtw_dir, "--materials", "KKvK,KMvK", "--stride", "13", "--json")
    entries = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["material"] for e in entries] == ["KKvK", "KMvK"]
    for entry in entries:
        assert entry["wins"] > 500 and entry["lost_by_best_move_rule"] == 0, entry


def test_class_play_refuses_other_materials(dtw_dir):
    result = subprocess.run([sys.executable, str(EXAMPLES / "class_play.py"), "--tables", dtw_dir,
                             "--materials", "KKvM"], capture_output=True, text=True)
    assert result.returncode == 2 and "class material" in result.stderr
