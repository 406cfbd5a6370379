"""Every failure reaches Python as an exception with the C status and message, never a crash."""
import os

import numpy as np
import pytest

import dtb

FIVE_PIECES = "W:WK1,K2,K3:BK49,K50"


def damage_last_quarter(path) -> None:
    """Flip one byte in the last quarter of a table file: block data (the header comes first)."""
    data = bytearray(path.read_bytes())
    data[len(data) * 3 // 4] ^= 0x5A
    path.write_bytes(bytes(data))


def test_bad_fen_names_the_problem():
    with pytest.raises(dtb.InvalidFenError) as caught:
        dtb.Position("W:W31,32:B51")
    error = caught.value
    assert error.status == dtb.Status.INVALID_ARGUMENT
    assert "51" in error.message and str(error).startswith("invalid argument: ")
    assert isinstance(error, ValueError)
    with pytest.raises(dtb.InvalidFenError):
        dtb.Position("hello")


def test_bad_fen_in_a_batch_gives_its_index(tb):
    with pytest.raises(dtb.InvalidFenError) as caught:
        tb.probe_wdl_many(["W:WK46,28:B3", "W:WK46,28:B3", "not a fen", "also not"])
    assert caught.value.index == 2
    assert caught.value.message.startswith("position 2: ")


def test_illegal_positions_are_refused_with_the_reason(tb):
    with pytest.raises(dtb.InvalidPositionError) as caught:
        dtb.Position.from_bitboards(white=0b11, black=0b10, kings=0)  # square 2 is both colours
    assert caught.value.status == dtb.Status.INVALID_POSITION
    assert "white and a black" in caught.value.message
    with pytest.raises(dtb.InvalidPositionError):
        dtb.Position.from_bitboards(white=1 << 50, black=1, kings=0)  # a square past 50
    with pytest.raises(dtb.InvalidPositionError):
        dtb.Position.from_bitboards(white=1, black=1 << 40, kings=0)  # a white man on square 1
    # A damaged row of a position array is refused by the batch probe, with its index.
    positions = dtb.as_position_array(["W:WK46,28:B3"] * 3)
    positions[1]["kings"] = 1 << 20  # a king on an empty square
    with pytest.raises(dtb.InvalidPositionError) as caught:
        tb.probe_wdl_many(positions)
    assert caught.value.index == 1


def test_illegal_moves_are_refused():
    position = dtb.Position()
    with pytest.raises(dtb.IllegalMoveError) as caught:
        position.push("32-26")
    assert "32-26" in caught.value.message
    with pytest.raises(dtb.IllegalMoveError):
        position.parse_move("31x22")
    other = dtb.Position("W:WK8:B19,21,29,44")
    with pytest.raises(dtb.IllegalMoveError):
        other.parse_move("8x16")  # two captures 8x16: the captured squares must say which
    with pytest.raises(dtb.IllegalMoveError):
        position.push(other.parse_move("8x50"))  # a move of another position
    assert position == dtb.Position()  # nothing was played


def test_too_many_pieces(tb):
    with pytest.raises(dtb.TooManyPiecesError) as caught:
        tb.probe_wdl(FIVE_PIECES)
    assert caught.value.status == dtb.Status.TOO_MANY_PIECES
    assert "5 pieces" in caught.value.message
    with pytest.raises(dtb.TooManyPiecesError) as caught:
        tb.probe_wdl_many(["W:WK46,28:B3", FIVE_PIECES])
    assert caught.value.index == 1
    with pytest.raises(dtb.TooManyPiecesError):
        tb.moves(FIVE_PIECES)


def test_a_missing_table_names_its_material(wdl_dir, copy_of):
    tables = copy_of(wdl_dir)
    os.remove(tables / "KKvK.wdl")
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(dtb.MissingTableError) as caught:
            tb.probe_wdl("W:WK1,K2:BK50")
        assert caught.value.status == dtb.Status.TABLE_MISSING
        assert caught.value.material == "KKvK"
        assert "KKvK.wdl" in caught.value.message
        with pytest.raises(dtb.MissingTableError) as caught:
            tb.probe_wdl_many(dtb.material_positions("KKvK"))
        assert caught.value.index == 0
        assert tb.probe_wdl("B:WK1,K2:BK50") in dtb.Wdl  # KvKK is still there


def test_missing_dtw_and_rule_tables(tb):
    with pytest.raises(dtb.MissingTableError) as caught:
        tb.probe_dtw("W:WK2,6:BK50")
    assert "KMvK.dtw" in caught.value.message
    with pytest.raises(dtb.MissingTableError):
        tb.probe_rule("W:WK2,6:BK50", 0)
    with pytest.raises(dtb.MissingTableError):
        tb.probe_rule_budget_many(["W:WK2,6:BK50"])
    # Moves still come, without distances; best_move falls back to WDL.
    assert all(m.dtw is None for m in tb.moves("W:WK2,6:BK50"))


def test_a_damaged_block_is_reported_with_its_number(wdl_dir, copy_of):
    tables = copy_of(wdl_dir)
    damage_last_quarter(tables / "KKMvK.wdl")
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(dtb.CorruptedTableError) as caught:
            tb.probe_wdl_many(dtb.material_positions("KKMvK"), threads=2)
        error = caught.value
        assert error.status == dtb.Status.CORRUPTED_TABLE
        assert error.material == "KKMvK" and "KKMvK.wdl" in error.message
        assert error.block is not None and error.index is not None
        # The same position alone fails the same way: never a value from a bad block.
        bad = dtb.Position.from_record(dtb.material_positions("KKMvK")[error.index])
        with pytest.raises(dtb.CorruptedTableError):
            tb.probe_wdl(bad)


def test_a_damaged_dtw_block_is_reported(dtw_dir, copy_of):
    tables = copy_of(dtw_dir)
    damage_last_quarter(tables / "KMvK.dtw")
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(dtb.CorruptedTableError) as caught:
            tb.probe_dtw_many(dtb.material_positions("KMvK"))
        assert caught.value.material == "KMvK" and caught.value.block is not None


def test_a_truncated_table(wdl_dir, copy_of):
    tables = copy_of(wdl_dir)
    path = tables / "KKvK.wdl"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(dtb.CorruptedTableError) as caught:
            tb.probe_wdl("W:WK1,K2:BK50")
        assert "KKvK.wdl" in caught.value.message
        assert caught.value.block is None  # the header already disagrees with the size


def test_an_unreadable_directory():
    with pytest.raises(dtb.TableIOError) as caught:
        dtb.open_tablebase("/nonexistent/dtb-tables")
    assert caught.value.status == dtb.Status.IO_ERROR
    assert "/nonexistent/dtb-tables" in caught.value.message
    assert isinstance(caught.value, OSError)


def test_a_closed_tablebase_refuses_every_call(wdl_dir):
    with dtb.open_tablebase(wdl_dir) as tb:
        assert not tb.closed
    assert tb.closed
    tb.close()  # twice is fine
    calls = [lambda: tb.probe_wdl("W:WK46,28:B3"), lambda: tb.probe_dtw("W:WK46,28:B3"),
             lambda: tb.probe_rule("W:WK46,28:B3", 0), lambda: tb.probe_rule_budget("W:WK46,28:B3"),
             lambda: tb.moves("W:WK46,28:B3"), lambda: tb.best_move("W:WK46,28:B3"),
             lambda: tb.probe_wdl_many(["W:WK46,28:B3"]), lambda: tb.probe_dtw_many(["W:WK46,28:B3"]),
             lambda: tb.probe_rule_many(["W:WK46,28:B3"], 0),
             lambda: tb.probe_rule_budget_many(["W:WK46,28:B3"]), lambda: tb.max_pieces,
             lambda: tb.probe_mtc("W:WK46,28:B3")]
    for call in calls:
        with pytest.raises(dtb.ClosedTablebaseError) as caught:
            call()
        assert caught.value.status == dtb.Status.INVALID_ARGUMENT


def test_the_extension_refuses_a_closed_handle_too(wdl_dir):
    # The low-level handle guards itself, for code that kept a reference to it.
    tables = dtb._dtb.Tables(wdl_dir, 1 << 20)
    tables.close()
    with pytest.raises(dtb.ClosedTablebaseError):
        tables.probe_wdl(dtb._dtb.parse_fen("W:WK46,28:B3"))
    with pytest.raises(dtb.ClosedTablebaseError):
        tables.probe_wdl_many(dtb.as_position_array(["W:WK46,28:B3"]), 1)


def test_draw_limit_errors(dtw_tb):
    with pytest.raises(dtb.NotInClassError) as caught:
        dtw_tb.probe_rule("W:W31,32:BK3", 0)  # two men against a king: no class until a promotion
    assert caught.value.material == "MMvK"
    with pytest.raises(dtb.InvalidArgumentError) as caught:
        dtw_tb.probe_rule("W:WK2,6:BK50", 11)  # 6.4 counts 10 plies
    assert "0..10" in caught.value.message
    with pytest.raises(dtb.InvalidArgumentError):
        dtw_tb.probe_rule_many(["W:WK2,6:BK50"], -1)
    with pytest.raises(dtb.NotInClassError):
        dtw_tb.probe_rule_budget("W:W31,32:BK3")


def test_bad_arguments(tb):
    with pytest.raises(dtb.InvalidArgumentError) as caught:
        dtb.material_positions("MKvK")  # men before kings: not a table name
    assert "MKvK" in caught.value.message
    with pytest.raises(ValueError):
        tb.probe_wdl_many(["W:WK46,28:B3"], threads=0)
    with pytest.raises(TypeError):
        tb.probe_wdl_many(np.zeros(3, dtype=np.uint64))
    with pytest.raises(TypeError):
        tb.probe_wdl_many([42])
    with pytest.raises(TypeError):
        tb.probe_wdl(42)
    with pytest.raises(dtb.InvalidArgumentError):
        tb.probe_wdl_many(dtb.as_position_array(["W:WK46,28:B3"] * 4).reshape(2, 2))
    with pytest.raises(ValueError):
        dtb.open_tablebase(".", cache_mb=0)


def test_not_in_the_tables_is_a_key_error(tb, tmp_path):
    # Code written for python-chess's chess.syzygy catches KeyError.
    with pytest.raises(KeyError) as caught:
        tb.probe_wdl(FIVE_PIECES)
    assert isinstance(caught.value, dtb.TooManyPiecesError)
    assert str(caught.value).startswith("too many pieces: ")  # not quoted as a KeyError would
    empty = dtb.open_tablebase(tmp_path)
    with pytest.raises(KeyError):
        empty.probe_wdl("W:WK46,28:B3")
    assert empty.get_wdl("W:WK46,28:B3") is None
    assert empty.get_mtc("W:WK46,28:B3") is None
    assert empty.get_dtw("W:WK46,28:B3") is None


def test_get_calls_answer_like_the_probes(tb):
    assert tb.get_wdl("W:WK46,28:B3") == tb.probe_wdl("W:WK46,28:B3")
    assert tb.get_wdl(FIVE_PIECES) is None


def test_a_forced_capture_past_the_tables_is_answered(tb):
    # Five pieces against 2-4 tables: White's man must take 32x21, into the tables.
    assert tb.max_pieces == 4
    value = tb.probe_wdl("W:W32,K40:B27,K3,K50")
    assert value == -tb.probe_wdl("B:WK40,21:BK3,K50")
