"""Values from the package against the `dtb probe --json` command line, on
random positions of every 2-4 piece material (and every 2-3 piece material
with .dtw/.rule tables)."""
import pytest

import dtb
from cli import probe_json
from sampling import fens_of, materials_in, sample_positions

RANK = {"win": 2, "draw": 1, "loss": 0}


@pytest.fixture(scope="module")
def sample(wdl_dir):
    return sample_positions(materials_in(wdl_dir), per_material=6, seed=15)


def test_wdl_and_moves_agree_with_the_cli(tb, wdl_dir, dtb_binary, sample):
    fens = fens_of(sample)
    expected = probe_json(dtb_binary, wdl_dir, fens)
    batch = tb.probe_wdl_many(sample)
    for fen, batch_value in zip(fens, batch):
        answer = expected[fen]
        assert "error" not in answer, answer
        assert str(tb.probe_wdl(fen)) == answer["wdl"], fen
        assert str(dtb.Wdl(int(batch_value))) == answer["wdl"], fen
        # The package lists moves in generation order, the CLI best first
        # (dtb_probe_root): the same moves, each with the same value.
        moves = tb.moves(fen, dtw=False)
        assert sorted((m.move.text, str(m.wdl)) for m in moves) == sorted((m["move"], m["wdl"]) for m in answer["moves"])
        assert sorted(m.move.text for m in moves if m.keeps_best) == sorted(answer["best"]), fen
        assert sorted(m.text for m in dtb.Position(fen).legal_moves()) == sorted(m["move"] for m in answer["moves"])
        ranks = [RANK[m["wdl"]] for m in answer["moves"]]
        assert ranks == sorted(ranks, reverse=True), fen
    # The sample covers every result and both sides to move.
    assert {int(v) for v in batch} == {-1, 0, 1}
    assert set(sample["side_to_move"]) == {0, 1}


@pytest.mark.parametrize("plies_in_class", [0, 4, 9])
def test_dtw_and_rule_values_agree_with_the_cli(dtw_tb, dtw_dir, dtb_binary, plies_in_class):
    sample = sample_positions(materials_in(dtw_dir, ".dtw"), per_material=10, seed=plies_in_class)
    fens = fens_of(sample)
    expected = probe_json(dtb_binary, dtw_dir, fens, plies_in_class)
    in_class = 0
    for fen in fens:
        answer = expected[fen]
        distance = dtw_tb.probe_dtw(fen)
        assert str(distance.wdl) == answer["wdl"], fen
        # A draw has no distance: None in Python, null in the JSON.
        assert answer["dtw"] == distance.plies and (distance.plies is None) == (distance.wdl == dtb.Wdl.DRAW), fen
        if answer["rule_wdl"] is not None:
            in_class += 1
            assert str(dtw_tb.probe_rule(fen, plies_in_class)) == answer["rule_wdl"], fen
        else:
            with pytest.raises(dtb.NotInClassError):
                dtw_tb.probe_rule(fen, plies_in_class)
    assert in_class > 0


def test_rule_budget_is_the_least_budget_the_cli_finds(dtw_tb, dtw_dir, dtb_binary):
    # The CLI gives the rule value at one count; over all counts 0..10 the
    # budget is the least number of plies left at which it is still decided.
    sample = sample_positions(["KKvK", "KvKK", "KMvK", "KvKM", "KvK"], per_material=20, seed=64)
    fens = fens_of(sample)
    by_count = [probe_json(dtb_binary, dtw_dir, fens, c) for c in range(11)]
    for fen in fens:
        decided = [10 - c for c in range(11) if by_count[c][fen]["rule_wdl"] != "draw"]
        budget = dtw_tb.probe_rule_budget(fen)
        if decided:
            assert budget.plies == min(decided), fen
            assert str(budget.wdl) == by_count[0][fen]["rule_wdl"], fen
        else:  # no count decides it within the limit (a budget over 10 plies, or none)
            assert budget.wdl == dtb.Wdl.DRAW or budget.plies > 10, fen
