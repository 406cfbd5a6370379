"""dtb.Position: FEN, legal moves, push/pop, notation (checked against `dtb moves`)."""
import subprocess

import numpy as np

import pytest

import dtb


def cli_moves(binary: str, fen: str):
    result = subprocess.run([binary, "moves", fen], capture_output=True, text=True, check=True)
    return result.stdout.split()


@pytest.mark.parametrize("fen", [
    dtb.STARTING_FEN,
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",  # Woldouby
    "W:WK8:B19,21,29,44",          # two captures 8x16 told apart by the captured squares
    "B:W28:BK5,K1",
    "W:W6:B1",                     # White blocked: no legal move
])
def test_legal_moves_are_the_cli_moves(dtb_binary, fen):
    position = dtb.Position(fen)
    assert [m.text for m in position.legal_moves()] == cli_moves(dtb_binary, fen)


def test_fen_is_canonical_and_round_trips():
    position = dtb.Position("W:W35,31-33,K45:B3,K1,2.")
    assert position.fen() == "W:W31,32,33,35,K45:BK1,2,3"  # ascending squares, either colour's kings marked
    again = dtb.Position(position.fen())
    assert again == position and again.fen() == position.fen()
    assert position.turn == dtb.Side.WHITE
    assert position.squares(dtb.Side.WHITE, kings=True) == (45,)
    assert position.squares(dtb.Side.WHITE, kings=False) == (31, 32, 33, 35)
    assert position.squares(dtb.Side.BLACK, kings=True) == (1,)
    assert position.material == "KMMMMvKMM"
    assert position.piece_count == 8
    assert repr(position) == f"Position({position.fen()!r})"


def test_from_bitboards_and_records_give_the_same_position():
    position = dtb.Position("B:WK46,28:B3")
    same = dtb.Position.from_bitboards(position.white, position.black, position.kings, position.turn)
    assert same == position
    record = dtb.as_position_array([position])[0]
    assert dtb.Position.from_record(record) == position
    assert (1 << 45) & position.kings and not (1 << 27) & position.kings


def test_push_and_pop_play_and_take_back():
    position = dtb.Position()
    start = position.copy()
    first = position.push("32-28")
    assert first.text == "32-28" and not first.is_capture
    assert position.turn == dtb.Side.BLACK
    reply = position.push(position.parse_move("19-23"))
    capture = position.push("28x19")
    assert capture.is_capture and capture.captured == (23,)
    assert position.move_stack == [first, reply, capture]
    copy = position.copy()
    assert position.pop() == capture and position.pop() == reply and position.pop() == first
    assert position == start
    assert copy.move_stack == [first, reply, capture]  # a copy is independent
    with pytest.raises(IndexError):
        position.pop()


def test_move_notation_forms():
    position = dtb.Position("W:WK8:B19,21,29,44")
    moves = {m.text: m for m in position.legal_moves()}
    assert set(moves) == {"8x50", "8x16(19,21,29)", "8x16(19,21,44)"}
    assert position.parse_move("8x16(19,21,44)") == moves["8x16(19,21,44)"]
    assert moves["8x16(19,21,44)"].captured == (19, 21, 44)
    assert str(moves["8x50"]) == "8x50"
    men = dtb.Position("W:W28:B23,13")
    landing = men.parse_move("28x19x8")  # the landing-square form names the same capture
    assert landing == men.parse_move("28x8") and landing.captured == (13, 23)


def test_a_side_without_moves_has_none():
    assert dtb.Position("W:W6:B1").legal_moves() == []


def test_material_positions_in_slices():
    size = dtb.material_size("KMvM")
    for turn in dtb.Side:
        every = dtb.material_positions("KMvM", turn)
        assert len(every) == size
        assert (every["side_to_move"] == int(turn)).all()
        assert np.array_equal(dtb.material_positions("KMvM", turn, start=10, stop=20), every[10:20])
        assert np.array_equal(dtb.material_positions("KMvM", turn, start=-3), every[-3:])
        assert len(dtb.material_positions("KMvM", turn, start=size, stop=size + 5)) == 0
        for record in every[:: size // 20]:
            assert dtb.Position.from_record(record).material == "KMvM"
    assert len({tuple(r) for r in dtb.material_positions("KvK")}) == dtb.material_size("KvK") == 50 * 49
