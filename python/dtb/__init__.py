"""dtb: endgame tablebases of international draughts (10x10, FMJD rules) from Python.

Probe the tables that draughts-tb's ``dtb gen`` writes, in the manner of
python-chess's ``chess.syzygy``::

    import dtb

    with dtb.open_tablebase("tables", cache_mb=64) as tb:
        pos = dtb.Position("W:WK46,28:B3")
        tb.probe_wdl(pos)                  # Wdl.WIN (for the side to move)
        tb.probe_dtw(pos)                  # Distance(wdl=Wdl.WIN, plies=...)   (.dtw tables)
        tb.probe_rule(pos, plies_in_class=20)   # under the 6.3/6.4 draw limits (.rule tables)
        tb.moves(pos)                      # every legal move with its value
        tb.best_move(pos)                  # the move of perfect play (least moves to conversion, .mtc)
        tb.probe_mtc(pos)                  # Distance(wdl=Wdl.WIN, plies=...): moves to conversion (.mtc)
        tb.probe_rules(pos, plies_since_conversion=30)   # under article 6.2 (and 6.3/6.4 in their classes)
        tb.best_move_rules(pos, plies_since_conversion=30)  # the move that keeps that value
        tb.probe_root(pos, plies_since_conversion=30)       # every move, best first, with its values

        # Statistics: a whole material in one call, on every core, without the GIL.
        positions = dtb.material_positions("KKMvK")
        wdl = tb.probe_wdl_many(positions) # numpy int8 array of -1/0/1

Positions: :class:`Position` (FEN in and out, legal moves, push/pop, moves
in FMJD notation). Values: :class:`Wdl` (-1/0/1), :class:`Distance`.
Errors: :class:`DtbError` and its subclasses, carrying the C status, the
message (file, block) and the material.

Build the tables with ``dtb gen --max-pieces 4 --out tables`` (add ``--mtc``
for ``.mtc`` tables, ``--dtw`` for ``.dtw`` and ``.rule`` tables); see the
project README.
"""
from .errors import (ClosedTablebaseError, CorruptedTableError, DtbError, IllegalMoveError,
                     InvalidArgumentError, InvalidFenError, InvalidPositionError, MissingTableError,
                     NotExactError, NotInClassError, NotInTablesError, OutOfMemoryError, Status, TableIOError,
                     TooManyPiecesError)
from .move import Move
from .position import STARTING_FEN, Position, Side
from .position_array import (DISTANCE_DTYPE, POSITION_DTYPE, as_position_array, material_positions,
                             material_size)
from .tablebase import MoveValue, RootMove, Tablebase, open_tablebase
from .wdl import Distance, Wdl

__version__ = "0.3.0"

__all__ = [
    "ClosedTablebaseError", "CorruptedTableError", "DISTANCE_DTYPE", "Distance", "DtbError",
    "IllegalMoveError", "InvalidArgumentError", "InvalidFenError", "InvalidPositionError",
    "MissingTableError", "Move", "MoveValue", "NotExactError", "NotInClassError", "NotInTablesError", "OutOfMemoryError", "POSITION_DTYPE",
    "Position", "RootMove", "STARTING_FEN", "Side", "Status", "TableIOError", "Tablebase", "TooManyPiecesError",
    "Wdl", "as_position_array", "material_positions", "material_size", "open_tablebase",
]
