"""FMJD square numbers and bitboards: square s (1..50) is bit s-1."""
from __future__ import annotations

from typing import Tuple


def squares_of(bitboard: int) -> Tuple[int, ...]:
    """The squares set in a bitboard, ascending."""
    return tuple(s + 1 for s in range(50) if bitboard >> s & 1)
