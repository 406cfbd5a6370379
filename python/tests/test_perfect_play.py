"""Perfect play from Python: moves to conversion (probe_mtc), the move of
perfect play (best_move with .mtc tables) and the values and moves under
article 6.2 (probe_rules, best_move_rules), on the 2-4 piece tables built
with `dtb gen --mtc` (every one of them within the rule's 50 plies)."""
import pytest

import dtb
from cli import probe_json
from sampling import fens_of, materials_in, sample_positions

ARTICLE62_PLIES = 50  # article 6.2: 25 moves of each side
# The materials of the 6.3 and 6.4 classes up to 4 pieces (either colour
# strong), where the class count, not the 6.2 count, decides.
CLASS_MATERIALS = {"KvK", "KKvK", "KvKK", "KMvK", "KvKM", "KKKvK", "KvKKK", "KKMvK", "KvKKM", "KMMvK", "KvKMM"}


@pytest.fixture(scope="module")
def sample(mtc_dir):
    return sample_positions(materials_in(mtc_dir, ".mtc"), per_material=4, seed=62)


def converts(position: dtb.Position, move: dtb.Move) -> bool:
    """A capture or a man move: what starts the 6.2 count again."""
    kings = position.squares(position.turn, kings=True)
    return move.is_capture or move.from_square not in kings


@pytest.mark.parametrize("count", [0, 37, 49])
def test_mtc_best_move_and_rule_values_agree_with_the_cli(mtc_tb, mtc_dir, dtb_binary, sample, count):
    fens = fens_of(sample)
    # No class count: a class was entered at the last conversion (both counts equal).
    expected = probe_json(dtb_binary, mtc_dir, fens, plies_in_class=None, plies_since_conversion=count)
    many_mtc = mtc_tb.probe_mtc_many(sample)
    # The class materials need .rule tables, which this directory lacks.
    outside = [i for i, fen in enumerate(fens) if dtb.Position(fen).material not in CLASS_MATERIALS]
    many_rules = dict(zip(outside, mtc_tb.probe_rules_many(sample[outside], count)))
    decided = drawn_by_rule = 0
    for i, (fen, batch_mtc) in enumerate(zip(fens, many_mtc)):
        answer = expected[fen]
        assert "error" not in answer, answer
        mtc = mtc_tb.probe_mtc(fen)
        assert str(mtc.wdl) == answer["wdl"], fen
        assert answer["mtc"] == mtc.plies and (mtc.plies is None) == (mtc.wdl == dtb.Wdl.DRAW), fen
        assert (int(batch_mtc["wdl"]), int(batch_mtc["plies"])) == (mtc.wdl, -1 if mtc.plies is None else mtc.plies), fen
        best = mtc_tb.best_move(fen)
        assert (None if best is None else best.text) == answer["best_move"], fen
        moves = mtc_tb.moves(fen)
        # Generation order in the package, best first in the CLI (dtb_probe_root).
        assert sorted((m.move.text, m.mtc or 0) for m in moves) == sorted((m["move"], m["mtc"] or 0) for m in answer["moves"]), fen
        if best is not None and mtc.wdl != dtb.Wdl.DRAW:
            assert next(m.mtc for m in moves if m.move == best) == mtc.plies, fen
        if answer["rules_wdl"] is None:  # the CLI has no value when a .rule table is missing
            assert i not in many_rules, fen
            with pytest.raises(dtb.MissingTableError):
                mtc_tb.probe_rules(fen, count)
            continue
        rule = mtc_tb.probe_rules(fen, count)
        assert str(rule) == answer["rules_wdl"] and int(many_rules.get(i, rule)) == rule, fen
        if dtb.Position(fen).material in CLASS_MATERIALS:  # the report leaves the 6.2 move out there
            assert answer["rules_best_move"] is None, fen
        else:
            best_rules = mtc_tb.best_move_rules(fen, count)
            assert (None if best_rules is None else best_rules.text) == answer["rules_best_move"], fen
        decided += mtc.wdl != dtb.Wdl.DRAW
        drawn_by_rule += mtc.wdl != dtb.Wdl.DRAW and rule == dtb.Wdl.DRAW
    assert decided > 50
    if count == 49:
        assert drawn_by_rule > 0, "a count of 49 leaves one ply: most wins must be drawn"


def test_mtc_falls_by_one_with_every_king_move_of_perfect_play(mtc_tb, mtc_dir, sample):
    # best_move in a win takes the least MTC: after a king move the loser's
    # MTC is one less; a conversion ends the phase within the MTC.
    wins = 0
    for record in sample:
        position = dtb.Position.from_record(record)
        mtc = mtc_tb.probe_mtc(position)
        if mtc.wdl != dtb.Wdl.WIN:
            continue
        wins += 1
        plies = 0
        while True:
            move = mtc_tb.best_move(position)
            assert move is not None, position.fen()
            plies += 1
            if converts(position, move):
                break
            position.push(move)
            after = mtc_tb.probe_mtc(position)
            if not position.legal_moves():  # the move ended the game: it counts as the conversion
                assert after == dtb.Distance(dtb.Wdl.LOSS, 0) and plies == mtc.plies, position.fen()
                break
            assert after == dtb.Distance(dtb.Wdl.LOSS if plies % 2 else dtb.Wdl.WIN, mtc.plies - plies), position.fen()
            assert plies < mtc.plies, position.fen()
        assert plies == mtc.plies, record
    assert wins > 20


def test_without_mtc_tables_probe_mtc_and_best_move_raise_as_in_c(tb):
    with pytest.raises(dtb.MissingTableError) as raised:
        tb.probe_mtc("W:WK1,K10:B45")
    assert ".mtc" in raised.value.message
    with pytest.raises(dtb.MissingTableError):  # dtb_best_move: DTB_TABLE_MISSING, HTTP null
        tb.best_move("W:WK1,K10:B45")
    assert tb.best_move("W:WK46:BK5") is not None  # a draw needs no .mtc table
    with pytest.raises(dtb.MissingTableError):
        tb.probe_rules("W:WK1,K10:B45", 0)


def play_under_the_rule(tb, position: dtb.Position, count: int):
    """Both sides play best_move_rules until the game ends, the count reaches 50
    or a 6.3/6.4 class is entered (its own count decides from there: its
    theoretical value is yielded); yields (position, count, rule value for the
    side to move) before each move, and at the end (None once the game is over)."""
    while True:
        if not position.legal_moves():
            yield position, count, None
            return
        if position.material in CLASS_MATERIALS:  # entered by a conversion: the class count starts at 0
            yield position, count, tb.probe_wdl(position)  # (this directory has no .rule tables)
            return
        if count == ARTICLE62_PLIES:
            yield position, count, dtb.Wdl.DRAW
            return
        value = tb.probe_rules(position, count)
        move = tb.best_move_rules(position, count)
        yield position, count, value
        count = 0 if converts(position, move) else count + 1
        position.push(move)


def test_best_move_rules_wins_every_game_the_rule_calls_won(mtc_tb):
    # From wins under 6.2 at a late count, both sides playing best_move_rules:
    # the value never changes (the winner keeps the win), the count never
    # reaches 50, and the game ends lost for the loser or in a class
    # material that the rule still calls won.
    sample = sample_positions(["KKvM", "KMvM", "KKvKM", "KMvKM", "KKvMM", "MMvKM"], per_material=12, seed=7)
    played = ended = 0
    for count in (20, 40):
        for record in sample:
            start = dtb.Position.from_record(record)
            if mtc_tb.probe_rules(start, count) != dtb.Wdl.WIN:
                continue
            played += 1
            winner_to_move = True
            for position, c, value in play_under_the_rule(mtc_tb, start, count):
                assert c < ARTICLE62_PLIES, (record.tolist(), position.fen())
                if value is None:  # the game is over: the side to move has lost
                    assert not winner_to_move, position.fen()
                    ended += 1
                else:
                    assert value == (dtb.Wdl.WIN if winner_to_move else dtb.Wdl.LOSS), position.fen()
                winner_to_move = not winner_to_move
    assert played > 10 and ended > 0


def test_rule_values_need_the_conversion_in_time(mtc_tb, sample):
    # Every 2-4 piece table converts within 50 plies, so outside the classes a
    # win or loss survives exactly while its MTC fits what is left of the count.
    checked = 0
    for record in sample:
        position = dtb.Position.from_record(record)
        if position.material in CLASS_MATERIALS:
            continue  # 6.3/6.4 classes: the class count decides
        mtc = mtc_tb.probe_mtc(position)
        for count in (0, 25, 49):
            in_time = mtc.plies is not None and mtc.plies <= ARTICLE62_PLIES - count  # None: a draw
            expected = mtc.wdl if in_time else dtb.Wdl.DRAW
            assert mtc_tb.probe_rules(position, count) == expected, (position.fen(), count)
            checked += 1
    assert checked > 100


def test_bad_counts_are_refused(mtc_tb):
    for count in (-1, 50):
        with pytest.raises(dtb.InvalidArgumentError):
            mtc_tb.probe_rules("W:WK1,K10:B45", count)
        with pytest.raises(dtb.InvalidArgumentError):
            mtc_tb.best_move_rules("W:WK1,K10:B45", count)
    with pytest.raises(dtb.InvalidArgumentError):
        mtc_tb.probe_rules_many(["W:WK1,K10:B45"], 50)


def test_not_exact_has_its_own_exception():
    error = dtb.errors._from_c(int(dtb.Status.NOT_EXACT), "not exact", "KKKMvKM.mtc converts after 53 plies",
                               "KKKMvKM", -1, "", -1)
    assert isinstance(error, dtb.NotExactError) and error.material == "KKKMvKM"


def test_best_move_rule_plays_class_wins_out_within_the_count(dtw_tb, dtw_dir, dtb_binary):
    # Inside a 6.3/6.4 class the class count decides (best_move_rule). KMvK
    # W:W6,K7:BK50 with 3 of its 10 plies played is won by 7-12 only: the
    # least-MTC 7-11 leaves a 9-ply win with 6 plies to go. Then every 6.4 win
    # of a sample at every count, both sides playing best_move_rule: the
    # budget falls by one with each ply (these materials stay in the 6.4
    # class to the end) and the loser runs out of moves within the limit;
    # each first move equals `dtb probe`'s rules_best_move.
    tight = dtb.Position.from_fen("W:W6,K7:BK50")
    assert str(dtw_tb.best_move_rule(tight, 3)) == "7-12"
    assert dtw_tb.probe_rule(tight, 9) == dtb.Wdl.DRAW
    limit = 10
    played = 0
    starts = {}
    for record in sample_positions(["KKvK", "KMvK"], per_material=40, seed=64):
        start = dtb.Position.from_record(record)
        for count in range(limit):
            value = dtw_tb.probe_rule(start, count)
            if value == dtb.Wdl.DRAW:
                break
            starts.setdefault(count, []).append(start.fen())
            position, c = start.copy(), count
            budget = dtw_tb.probe_rule_budget(position).plies
            while True:
                move = dtw_tb.best_move_rule(position, c)
                if move is None:
                    break
                position.push(move)
                c += 1
                assert c <= limit, (start.fen(), count)
                if position.material not in CLASS_MATERIALS or not position.legal_moves():
                    break  # the last piece taken, or the side to move blocked
                now = dtw_tb.probe_rule_budget(position).plies
                assert now == budget - 1, (start.fen(), count, position.fen())
                budget = now
            played += 1
    assert played > 30
    for count, fens in starts.items():
        answers = probe_json(dtb_binary, dtw_dir, fens, plies_in_class=count, plies_since_conversion=0)
        for fen in fens:
            position = dtb.Position.from_fen(fen)
            best = dtw_tb.best_move_rule(position, count)
            assert answers[position.fen()]["rules_best_move"] == (None if best is None else str(best)), fen
            counted = dtw_tb.best_move_rules(position, 0, count)  # both counts: the class count decides
            assert (None if counted is None else str(counted)) == (None if best is None else str(best)), fen


def test_class_limit_and_counts_after_follow_the_rules():
    # RULES.md: 6.3 (three pieces, one a king, against a lone king) 32 plies,
    # 6.4 (two or fewer) 10, none for men alone against a king.
    assert dtb.Position.from_fen("W:WK1,K2,K3:BK50").class_limit == 32
    assert dtb.Position.from_fen("B:WK1,28:BK50").class_limit == 10
    assert dtb.Position.from_fen("W:W31,32:BK3").class_limit == 0
    assert dtb.Position.from_fen("W:WK1,K10:B45").class_limit == 0
    six_three = dtb.Position.from_fen("W:WK1,K2,37:BK50")
    assert six_three.counts_after("37-32", 4, 7) == (0, 8)   # a man move: a conversion, same class
    assert six_three.counts_after("1-6", 4, 7) == (5, 8)     # a king move
    capture = dtb.Position.from_fen("B:WK1,K2,K28:BK32")
    assert capture.counts_after("32x23", 4, 7) == (0, 0)     # the lone king takes one of three: 6.4, fresh
    entering = dtb.Position.from_fen("W:WK1,K10:BK50,14")    # KKvKM: in no class
    assert entering.counts_after("10x19", 12, None) == (0, 0)  # takes the man: KKvK, a fresh 6.4 count
    assert dtb.Position.from_fen("W:WK1,K10:BK50,15").counts_after("1-6", 12, None) == (13, None)
    last = dtb.Position.from_fen("W:W28:B23")
    assert last.counts_after("28x19", 3, None) == (0, None)    # the game is over
    assert last.counts_after("28x19", 3, -1) == (0, None)      # C's DTB_NOT_COUNTED is read as None
    with pytest.raises(dtb.IllegalMoveError):
        six_three.counts_after("50-45", 0, 0)
