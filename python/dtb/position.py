"""Positions of international draughts (10x10, FMJD rules)."""
from __future__ import annotations

import enum
from typing import Any, List, Optional, Tuple, Union

from . import _dtb
from .move import Move
from .squares import squares_of

STARTING_FEN = "W:W31-50:B1-20"


class Side(enum.IntEnum):
    """A colour; the numbers are the C API's (``DTB_WHITE``, ``DTB_BLACK``)."""

    WHITE = 0
    BLACK = 1


def _move(parts: Any) -> Move:
    from_square, to_square, captured, text = parts
    return Move(from_square, to_square, captured, text)


class Position:
    """A position: the pieces of both colours and the side to move.

    Built from a PDN FEN (``Position("W:W31,32,K45:B1,2,K3")``; ranges such as
    ``W31-35`` are read, :meth:`fen` writes the canonical form), from
    bitboards (:meth:`from_bitboards`) or from a row of a position array
    (:meth:`from_record`). Squares are numbered 1..50 as in FMJD notation;
    in a bitboard square s is bit s-1.

    Like a python-chess board it is mutable: :meth:`push` plays a move and
    :meth:`pop` takes the last one back. The rules (the capture majority rule,
    promotion, ...) are the C++ move generator's.
    """

    __slots__ = ("_raw", "_stack")

    def __init__(self, fen: str = STARTING_FEN) -> None:
        self._raw = _dtb.parse_fen(fen)
        self._stack: List[Any] = []  # (raw position before, move) per pushed move

    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        """Parse a PDN FEN. Raises InvalidFenError (with the reason) for bad text."""
        return cls(fen)

    @classmethod
    def from_bitboards(cls, white: int, black: int, kings: int, turn: Side = Side.WHITE) -> "Position":
        """A position from bitboards (bit s-1 = square s); ``kings`` marks which pieces are kings.

        Raises InvalidPositionError if the position cannot occur (overlapping
        pieces, a man on its promotion row, the side not to move without pieces).
        """
        return cls._from_raw(_dtb.RawPosition(white, black, kings, int(turn)))

    @classmethod
    def from_record(cls, record: Any) -> "Position":
        """The position in one row of a POSITION_DTYPE array (see dtb.material_positions)."""
        return cls.from_bitboards(int(record["white"]), int(record["black"]), int(record["kings"]),
                                  Side(int(record["side_to_move"])))

    @classmethod
    def _from_raw(cls, raw: Any) -> "Position":
        position = cls.__new__(cls)
        position._raw = raw
        position._stack = []
        return position

    def fen(self) -> str:
        """The canonical FEN: side, White's pieces then Black's, ascending, kings prefixed with K."""
        return _dtb.to_fen(self._raw)

    @property
    def turn(self) -> Side:
        """The side to move."""
        return Side(self._raw.side_to_move)

    @property
    def white(self) -> int:
        """Bitboard of the white pieces."""
        return self._raw.white

    @property
    def black(self) -> int:
        """Bitboard of the black pieces."""
        return self._raw.black

    @property
    def kings(self) -> int:
        """Bitboard of the kings of both colours."""
        return self._raw.kings

    def squares(self, side: Side, kings: bool) -> Tuple[int, ...]:
        """The squares of one side's kings (``kings=True``) or men, ascending."""
        pieces = self.white if side == Side.WHITE else self.black
        return squares_of(pieces & self.kings if kings else pieces & ~self.kings)

    @property
    def piece_count(self) -> int:
        return bin(self.white | self.black).count("1")

    @property
    def material(self) -> str:
        """The material as the tables name it: White's kings and men, ``v``, Black's (``"KKMvK"``)."""
        def side(pieces: int) -> str:
            kings = bin(pieces & self.kings).count("1")
            return "K" * kings + "M" * (bin(pieces).count("1") - kings)
        return side(self.white) + "v" + side(self.black)

    @property
    def class_limit(self) -> int:
        """Plies the FMJD 6.3/6.4 class of the position allows: 32 (6.3), 10 (6.4), 0 outside them."""
        return _dtb.class_limit(self._raw)

    def counts_after(self, move: Union[Move, str], plies_since_conversion: int,
                     plies_in_class: Optional[int]) -> Tuple[int, Optional[int]]:
        """Both draw-rule counts after a legal move: ``(plies_since_conversion, plies_in_class)``.

        The 6.2 count is 0 after a capture or man move, else one more; the
        class count one more in the same 6.3/6.4 class, 0 on entering a class
        (``plies_in_class`` None: the position is in none), None out of the
        classes or when the game is over. Raises IllegalMoveError for a move
        that is not legal.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        since, in_class = _dtb.counts_after(self._raw, move.from_square, move.to_square, move.captured_bitboard,
                                            plies_since_conversion, -1 if plies_in_class is None else plies_in_class)
        return since, None if in_class < 0 else in_class

    def legal_moves(self) -> List[Move]:
        """Every legal move (captures only when one is possible, with the majority rule).

        An empty list means the side to move has lost (FMJD: a side that cannot move loses).
        """
        return [_move(parts) for parts in _dtb.legal_moves(self._raw)]

    def parse_move(self, text: str) -> Move:
        """The legal move that FMJD text names: ``"32-28"``, ``"28x19"``, ``"28x19x10"``
        (landing squares), ``"37x37(14,19,32,41)"``. Raises IllegalMoveError otherwise."""
        return _move(_dtb.parse_move(self._raw, text))

    def push(self, move: Union[Move, str]) -> Move:
        """Play a move (a Move or its text) and return it. Raises IllegalMoveError if it is not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        after = _dtb.make_move(self._raw, move.from_square, move.to_square, move.captured_bitboard)
        self._stack.append((self._raw, move))
        self._raw = after
        return move

    def pop(self) -> Move:
        """Take back the last pushed move and return it (IndexError if none)."""
        self._raw, move = self._stack.pop()
        return move

    @property
    def move_stack(self) -> List[Move]:
        """The moves pushed so far, oldest first."""
        return [move for _, move in self._stack]

    def copy(self) -> "Position":
        """An independent copy (with the same move stack)."""
        position = Position._from_raw(self._raw)
        position._stack = list(self._stack)
        return position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._raw == other._raw

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"
