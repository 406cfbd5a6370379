"""Positions as numpy arrays, for batch probing and statistics.

A position array has the record type :data:`POSITION_DTYPE`, fields
``white``, ``black``, ``kings`` (uint64 bitboards, bit s-1 = square s) and
``side_to_move`` (0 White, 1 Black): the C struct ``dtb_position``, so batch
probes read the array in place.
"""
from __future__ import annotations

from typing import Iterable, Optional, Union

import numpy as np

from . import _dtb
from .position import Position, Side

#: Record type of a position array (the C struct dtb_position).
POSITION_DTYPE: np.dtype = _dtb.POSITION_DTYPE

#: Record type of the batch distance probes: ``wdl`` (int8, -1/0/1) and ``plies`` (int32).
DISTANCE_DTYPE: np.dtype = _dtb.DISTANCE_DTYPE

PositionsLike = Union[np.ndarray, Iterable[Union[str, Position]]]


def as_position_array(positions: PositionsLike) -> np.ndarray:
    """A POSITION_DTYPE array from FEN strings, Position objects, or such an array (returned as is).

    Raises InvalidFenError (with ``index``) for the first FEN that does not parse.
    """
    if isinstance(positions, np.ndarray):
        if positions.dtype == POSITION_DTYPE:
            return np.ascontiguousarray(positions)
        # The same fields in another layout: numpy drops the C struct's padding
        # when it concatenates position arrays, for instance.
        wanted = POSITION_DTYPE.names or ()
        if set(positions.dtype.names or ()) != set(wanted):
            raise TypeError(f"a position array has the fields of dtb.POSITION_DTYPE "
                            f"{wanted}, not dtype {positions.dtype}")
        converted = np.empty(positions.shape, dtype=POSITION_DTYPE)
        for name in wanted:
            converted[name] = positions[name]
        return converted
    items = list(positions)
    if all(isinstance(p, str) for p in items):
        return _dtb.parse_fens(items)
    out = np.empty(len(items), dtype=POSITION_DTYPE)
    for i, p in enumerate(items):
        if isinstance(p, str):
            p = Position(p)
        elif not isinstance(p, Position):
            raise TypeError(f"position {i}: expected a FEN string or a dtb.Position, not {type(p).__name__}")
        out[i] = (p.white, p.black, p.kings, int(p.turn))
    return out


def material_positions(material: str, turn: Side = Side.WHITE, start: int = 0,
                       stop: Optional[int] = None) -> np.ndarray:
    """The positions of a material with ``turn`` to move, as a POSITION_DTYPE array.

    ``material`` is a table name: White's kings then men, ``v``, Black's
    (``"KKMvK"``, ``"MvM"``). The positions are all placements of the pieces
    (men off their promotion rows), numbered 0 .. material_size(material) - 1
    in the order of the table that holds them, so probing the array reads each
    block of the table once. ``start`` and ``stop`` select a range as a slice
    would (for a material too large for one array, or a random sample)::

        kkmvk = dtb.material_positions("KKMvK")                 # White (the strong side) to move
        lone_king = dtb.material_positions("KKMvK", dtb.Side.BLACK)
        first_thousand = dtb.material_positions("KKMvK", stop=1000)
    """
    size = material_size(material)
    start, stop, _ = slice(start, stop).indices(size)
    return _dtb.material_positions(material, int(turn), start, max(start, stop))


def material_size(material: str) -> int:
    """Number of positions of a material with one side to move."""
    return _dtb.material_size(material)
