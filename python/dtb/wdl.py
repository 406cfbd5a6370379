"""Game-theoretic values."""
from __future__ import annotations

import enum
from typing import NamedTuple, Optional


class Wdl(enum.IntEnum):
    """Win, draw or loss for the side to move (or, for a move, for the side that made it).

    The numbers are the sign of the result, as in chess.syzygy, so arrays of
    them can be summed and averaged: ``LOSS = -1``, ``DRAW = 0``, ``WIN = 1``
    (the C API's ``DTB_LOSS``/``DTB_DRAW``/``DTB_WIN`` are 0/1/2; JSON says
    ``"loss"``/``"draw"``/``"win"``: docs/engine-guide.md#vocabulary).
    """

    LOSS = -1
    DRAW = 0
    WIN = 1

    def __str__(self) -> str:
        return self.name.lower()  # "win", "draw", "loss": the words of `dtb probe`


# Wdl members by value + 1. Wdl(v) goes through the enum machinery (about
# half a microsecond, as long as the probe and its call together); the single
# probes look their answer up here instead.
_BY_VALUE = (Wdl.LOSS, Wdl.DRAW, Wdl.WIN)


def wdl_of(value: int) -> Wdl:
    """The Wdl member of -1, 0 or 1, quickly."""
    return _BY_VALUE[value + 1]


class Distance(NamedTuple):
    """A result with its distance in plies.

    ``probe_dtw``: ``plies`` is the number of plies to the end of the game with
    perfect play (the winner the shortest, the loser the longest; odd for a
    win, even for a loss, 0 for a position already lost). ``probe_rule_budget``:
    ``plies`` is the least number of plies that must remain in the 6.3/6.4
    count to force ``wdl``. ``probe_mtc``: ``plies`` to the next conversion
    (a capture or a man move; the end of the game counts as one). A draw has
    no distance: ``plies is None`` (C's ``DTB_UNKNOWN``, JSON's null).
    """

    wdl: Wdl
    plies: Optional[int]
