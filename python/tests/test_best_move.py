"""best_move and the distances of moves."""
import numpy as np

import dtb
from sampling import materials_in, sample_positions


def play_out(choose, position):
    """Both sides play choose(position) until the game ends; returns the plies played."""
    plies = 0
    while (move := choose(position)) is not None:
        position.push(move)
        plies += 1
        if position.white == 0 or position.black == 0:
            break
        assert plies < 200, position.fen()
    return plies


def test_best_move_dtw_ends_the_game_in_dtw_plies(dtw_tb, dtw_dir):
    sample = sample_positions(materials_in(dtw_dir, ".dtw"), per_material=3, seed=11)
    decided = 0
    for record in sample:
        position = dtb.Position.from_record(record)
        distance = dtw_tb.probe_dtw(position)
        if distance.wdl == dtb.Wdl.DRAW:
            continue
        decided += 1
        moves = dtw_tb.moves(position)
        best = dtw_tb.best_move_dtw(position)
        # The best move's distance is the position's; the loser's last move too.
        if moves:
            assert next(m.dtw for m in moves if m.move == best) == distance.plies
        assert play_out(dtw_tb.best_move_dtw, position) == distance.plies, record
        # The side to move at the end has lost: it cannot move or has no piece.
        assert position.legal_moves() == [] or 0 in (position.white, position.black)
    assert decided > 20


def test_move_distances_are_one_more_than_the_position_after(dtw_tb):
    position = dtb.Position("W:WK2,6:BK50")
    for value in dtw_tb.moves(position):
        after = position.copy()
        after.push(value.move)
        answer = dtw_tb.probe_dtw(after)
        assert value.wdl == -answer.wdl
        assert value.dtw == (None if answer.wdl == dtb.Wdl.DRAW else answer.plies + 1)
    assert dtw_tb.moves(position, dtw=False)[0].dtw is None


def test_best_move_keeps_the_value(mtc_tb):
    tb = mtc_tb
    rng = np.random.default_rng(5)
    positions = dtb.material_positions("KMvKM")
    for i in rng.choice(len(positions), 40, replace=False):
        position = dtb.Position.from_record(positions[i])
        value = tb.probe_wdl(position)
        move = tb.best_move(position)
        if move is None:
            assert value == dtb.Wdl.LOSS and position.legal_moves() == []
            continue
        position.push(move)
        after = tb.probe_wdl(position) if position.black and position.white else dtb.Wdl.LOSS
        assert after == -value


def test_no_legal_move_no_best_move(tb):
    assert tb.best_move("W:W6:B1") is None
    assert tb.best_move_dtw("W:W6:B1") is None
    assert tb.moves("W:W6:B1") == []
    assert tb.probe_wdl("W:W6:B1") == dtb.Wdl.LOSS
