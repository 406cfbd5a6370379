"""Moves."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Tuple

from .squares import squares_of


@dataclass(frozen=True)
class Move:
    """A legal move of some position, with its FMJD notation.

    Moves come from :meth:`Position.legal_moves`, :meth:`Position.parse_move`
    and the tablebase; ``str(move)`` is the notation (``"32-28"``, ``"28x19"``,
    ``"37x37(14,19,32,41)"`` when two captures share start and end square).
    Two moves are equal when they have the same squares and captured pieces.
    """

    from_square: int
    to_square: int
    captured_bitboard: int
    text: str = field(compare=False)

    @property
    def captured(self) -> Tuple[int, ...]:
        """The squares of the captured pieces, ascending (empty for a quiet move)."""
        return squares_of(self.captured_bitboard)

    @property
    def is_capture(self) -> bool:
        return self.captured_bitboard != 0

    def __str__(self) -> str:
        return self.text
