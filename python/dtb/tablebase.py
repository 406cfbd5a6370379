"""Probing a directory of draughts-tb tables."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, List, Optional, Union

import numpy as np

from . import _dtb
from .errors import ClosedTablebaseError, MissingTableError, NotInTablesError, Status
from .move import Move
from .position import Position
from .position_array import PositionsLike, as_position_array
from .wdl import Distance, Wdl, wdl_of

PositionLike = Union[Position, str]


@dataclass(frozen=True)
class MoveValue:
    """A legal move with what it keeps, from the view of the side that makes it.

    Attributes:
        move: the move.
        wdl: the result after the move with perfect play.
        dtw: plies to the end of the game counting this move (a win is odd,
            a loss even) from the ``.dtw`` tables; None for a draw or when the
            directory has no ``.dtw`` table for the position after the move.
        keeps_best: whether ``wdl`` is the best result among all moves.
        mtc: plies to the next conversion through this move: 1 if it converts
            (a capture or a man move) or ends the game, else 1 + the MTC of
            the position after it (``.mtc`` tables); None for a draw or
            without that table. The perfect move's equals ``probe_mtc``'s.
    """

    move: Move
    wdl: Wdl
    dtw: Optional[int]
    keeps_best: bool
    mtc: Optional[int] = None


@dataclass(frozen=True)
class RootMove:
    """A legal move as the root probe gives it (``dtb_probe_root``), from the view of the side that makes it.

    Attributes:
        move: the move.
        wdl: the result after the move with perfect play; None where a table it needs is missing.
        keeps_best: whether ``wdl`` is the best of the known results.
        mtc: plies to the next conversion through the move (1 if it converts or ends the game,
            else 1 + the MTC after it); None for a draw or without the ``.mtc`` table.
        rules_wdl: the result under the draw rules with the counts carried on; None without
            counts, or where the tables cannot give it exactly.
        plies_since_conversion: the 6.2 count after the move (0 after a conversion); None without counts.
        plies_in_class: the 6.3/6.4 class count after the move; None without counts, out of the
            classes, or when the move ends the game.
    """

    move: Move
    wdl: Optional[Wdl]
    keeps_best: bool
    mtc: Optional[int]
    rules_wdl: Optional[Wdl]
    plies_since_conversion: Optional[int]
    plies_in_class: Optional[int]


def _wdl_or_none(value: Optional[int]) -> Optional[Wdl]:
    return None if value is None else wdl_of(value)


def _threads(threads: Optional[int]) -> int:
    """The extension's thread count: 0 means one per core."""
    if threads is None:
        return 0
    if threads < 1:
        raise ValueError(f"threads must be at least 1 (or None for one per core), not {threads}")
    return threads


def _raw(position: PositionLike) -> Any:
    if isinstance(position, Position):
        return position._raw
    if isinstance(position, str):
        return _dtb.parse_fen(position)
    raise TypeError(f"expected a dtb.Position or a FEN string, not {type(position).__name__}")


class Tablebase:
    """An open directory of tables, written by ``dtb gen`` (``.wdl``; with ``--dtw`` also ``.dtw``, ``.rule``).

    Open it with :func:`open_tablebase`, preferably as a context manager.
    Values are for the side to move; positions may be :class:`Position`
    objects or FEN strings. Tables are opened on first use and memory-mapped;
    decoded blocks live in a cache of ``cache_mb`` MiB shared by all threads.

    Thread safety: probes may run from many threads at once; the batch probes
    run without the GIL on threads of their own. Closing waits for nothing:
    a probe already running finishes with the tables it started with; later
    calls raise ClosedTablebaseError.
    """

    def __init__(self, directory: Union[str, "os.PathLike[str]"], cache_mb: int = 64) -> None:
        if cache_mb < 1:
            raise ValueError(f"cache_mb must be at least 1, not {cache_mb}")
        self.directory = os.fspath(directory)
        self._tables: Optional[Any] = _dtb.Tables(self.directory, cache_mb << 20)

    # -- lifetime ----------------------------------------------------------

    def close(self) -> None:
        """Release the tables (idempotent)."""
        tables, self._tables = self._tables, None
        if tables is not None:
            tables.close()

    @property
    def closed(self) -> bool:
        return self._tables is None

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open_tables(self) -> Any:
        tables = self._tables
        if tables is None:
            raise ClosedTablebaseError(Status.INVALID_ARGUMENT, f"the tablebase {self.directory} is closed")
        return tables

    @property
    def max_pieces(self) -> int:
        """Pieces of the largest table in the directory (0 if none)."""
        return self._open_tables().max_pieces

    # -- one position --------------------------------------------------------

    def probe_wdl(self, position: PositionLike) -> Wdl:
        """Win, draw or loss with perfect play for the side to move (the 6.3/6.4 limits not applied).

        Raises MissingTableError, TooManyPiecesError, CorruptedTableError, ...
        """
        return wdl_of(self._open_tables().probe_wdl(_raw(position)))

    def get_wdl(self, position: PositionLike) -> Optional[Wdl]:
        """``probe_wdl``, or None where the tables cannot answer (a missing table, too many pieces)."""
        try:
            return self.probe_wdl(position)
        except NotInTablesError:
            return None

    def get_mtc(self, position: PositionLike) -> Optional[Distance]:
        """``probe_mtc``, or None where the tables cannot answer (a missing table, too many pieces)."""
        try:
            return self.probe_mtc(position)
        except NotInTablesError:
            return None

    def get_dtw(self, position: PositionLike) -> Optional[Distance]:
        """``probe_dtw``, or None where the tables cannot answer (a missing table, too many pieces)."""
        try:
            return self.probe_dtw(position)
        except NotInTablesError:
            return None

    def probe_dtw(self, position: PositionLike) -> Distance:
        """Result and plies to the end of the game with perfect play, from the ``.dtw`` tables.

        The winner takes the shortest way, the loser the longest; the move that
        takes the last piece or leaves the opponent without a move is the last
        ply. ``Distance(Wdl.DRAW, None)`` for a draw (no distance). Raises MissingTableError
        without the material's ``.dtw`` table (``dtb gen --dtw``).
        """
        wdl, plies = self._open_tables().probe_dtw(_raw(position))
        return Distance(wdl_of(wdl), plies)

    def probe_mtc(self, position: PositionLike) -> Distance:
        """Result and moves to conversion, from the ``.mtc`` tables (``dtb gen --mtc``).

        ``plies`` is the number of plies to the next conversion (a capture or a
        man move by either side; the end of the game counts as one) with
        perfect play, the winner the fewest, the loser the most: 0 for a
        position already lost, 1 when the side to move must capture.
        ``Distance(Wdl.DRAW, None)`` for a draw (a draw has no MTC). Raises
        MissingTableError without the material's ``.mtc`` table (draws and
        capture positions need none).
        """
        wdl, plies = self._open_tables().probe_mtc(_raw(position))
        return Distance(wdl_of(wdl), plies)

    def probe_rules(self, position: PositionLike, plies_since_conversion: int,
                    plies_in_class: Optional[int] = None) -> Wdl:
        """The value under the draw rules with both counts, for every material.

        Article 6.2: ``plies_since_conversion`` plies (0..49) have been played
        since the last capture or man move; after 50 with only kings moving
        the game is drawn. In the 6.3/6.4 classes the class count decides:
        ``plies_in_class`` as in :meth:`probe_rule` (None: the class was
        entered at the last conversion, so it equals the 6.2 count).

        WIN or LOSS only if the result can be forced within the counts, else
        DRAW. Needs the ``.mtc`` tables (and ``.rule`` tables for class
        materials). Where a table converts into a line longer than 50 plies
        the answer comes from its ``.r62`` table (``dtb gen --article62``);
        without one, a win or loss raises NotExactError rather than guess.
        """
        count = -1 if plies_in_class is None else plies_in_class
        return wdl_of(self._open_tables().probe_rules(_raw(position), plies_since_conversion, count))

    def best_move_rules(self, position: PositionLike, plies_since_conversion: int,
                        plies_in_class: Optional[int] = None) -> Optional[Move]:
        """The move of perfect play under the draw rules with both counts (``dtb_best_move_counted``).

        Keeps the :meth:`probe_rules` value with the same counts: a win under
        the rules stays one (every king move shortens what the rule still
        needs), which the least-MTC :meth:`best_move` does not guarantee (it
        can convert into a line too long for the count). Article 6.2 with
        ``plies_since_conversion`` plies counted; in a 6.3/6.4 class the class
        count decides, ``plies_in_class`` as in :meth:`probe_rules` (None: the
        class was entered at the last conversion). The JSON's
        ``rules_best_move``. None if there is no legal move.
        """
        count = -1 if plies_in_class is None else plies_in_class
        parts = self._open_tables().best_move_rules(_raw(position), plies_since_conversion, count)
        return None if parts is None else Move(*parts)

    def probe_root(self, position: PositionLike, plies_since_conversion: Optional[int] = None,
                   plies_in_class: Optional[int] = None) -> List[RootMove]:
        """Every legal move, best first, as the C API's ``dtb_probe_root`` and the JSON's ``moves`` order them.

        Wins, draws, losses; among wins those that win under the rules first
        (with counts), then the least ``mtc``; among losses the greatest; ties in
        generation order. Without counts (``plies_since_conversion`` None) the
        first move is :meth:`best_move`'s. With them each move carries its
        value under the rules and the counts after it (``plies_in_class`` as in
        :meth:`probe_rules`). A missing table leaves only the fields that need
        it None. An empty list: the side to move has lost.
        """
        counted = plies_since_conversion is not None
        since = plies_since_conversion if counted else 0
        count = -1 if plies_in_class is None else plies_in_class
        return [RootMove(Move(from_square, to_square, captured, text), _wdl_or_none(wdl), keeps_best, mtc,
                         _wdl_or_none(rules_wdl), since_after, in_class_after)
                for from_square, to_square, captured, text, wdl, keeps_best, mtc, rules_wdl, since_after,
                in_class_after in self._open_tables().probe_root(_raw(position), counted, since, count)]

    def best_move_rule(self, position: PositionLike, plies_in_class: int) -> Optional[Move]:
        """The move of perfect play in a 6.3/6.4 class with ``plies_in_class`` plies of its count played.

        Keeps the :meth:`probe_rule` value: in a win the move that needs the
        least of the count (the budget of :meth:`probe_rule_budget` falls by
        one with every ply), in a loss the one that needs the most, in a draw
        one that keeps it. The least-MTC :meth:`best_move` can instead spend
        the count (``W:W6,K7:BK50`` with 3 plies played). None if there is no
        legal move; errors as :meth:`probe_rule`.
        """
        parts = self._open_tables().best_move_rule(_raw(position), plies_in_class)
        return None if parts is None else Move(*parts)

    def probe_rule(self, position: PositionLike, plies_in_class: int) -> Wdl:
        """The value under the FMJD draw limits (articles 6.3 and 6.4).

        ``plies_in_class`` plies (0..32 for 6.3, 0..10 for 6.4) have been
        played since the material class was entered: WIN or LOSS only if the
        result can still be forced before the count runs out, else DRAW.
        Raises NotInClassError for a material in neither class,
        InvalidArgumentError for a count out of range, MissingTableError
        without the ``.rule`` table.
        """
        return wdl_of(self._open_tables().probe_rule(_raw(position), plies_in_class))

    def probe_rule_budget(self, position: PositionLike) -> Distance:
        """The number a ``.rule`` table stores for a 6.3/6.4 position: the result that can be
        forced and the least plies of the count it needs (the report's "win length").

        ``probe_rule(position, c)`` is ``wdl`` if ``plies <= limit - c``, else a
        draw; ``Distance(Wdl.DRAW, None)`` if no count forces a result.
        """
        wdl, plies = self._open_tables().probe_rule_budget(_raw(position))
        return Distance(wdl_of(wdl), plies)

    def moves(self, position: PositionLike, *, dtw: bool = True, mtc: bool = True) -> List[MoveValue]:
        """Every legal move with its value for the mover, in generation order.

        With ``dtw`` and ``mtc`` (the defaults) each move also gets its
        distance to the end (``.dtw`` tables) and to the next conversion
        (``.mtc`` tables) where they exist, one more probe per move each;
        ``dtw=False`` or ``mtc=False`` skips it and leaves the field None.
        """
        tables = self._open_tables()
        return [MoveValue(Move(from_square, to_square, captured, text), wdl_of(wdl), distance, keeps_best, plies)
                for from_square, to_square, captured, text, wdl, keeps_best, distance, plies
                in tables.probe_moves(_raw(position), dtw, mtc)]

    def best_move(self, position: PositionLike) -> Optional[Move]:
        """The move of perfect play, as the C API, ``dtb play``, the CLI and the HTTP API give it
        (``dtb_best_move``); None if there is no legal move (the side to move has lost).

        In a win the value-keeping move of least moves to conversion, in a loss the greatest, in a
        draw a drawing move; ties to the first in generation order. A won ending is played out,
        never shuffled. Needs the ``.mtc`` tables (``dtb gen --mtc``) for a win or a loss: raises
        MissingTableError without them (draws and forced captures need none).
        """
        move = self._open_tables().best_move(_raw(position))  # None: no legal move
        return None if move is None else Move(*move)

    def best_move_dtw(self, position: PositionLike) -> Optional[Move]:
        """The quickest win (the slowest loss) to the end of the game, from the ``.dtw`` tables;
        a drawing move in a draw; None if there is no legal move. Ties to the first in generation
        order. Not the perfect play of ``best_move``, which counts to the next conversion: the
        two differ where the quickest end of the game is not the quickest conversion. Raises
        MissingTableError where a successor's ``.dtw`` table is missing.
        """
        values = self.moves(position, mtc=False)
        if not values:
            return None
        best = max(v.wdl for v in values)
        keeping = [v for v in values if v.wdl == best]
        if best == Wdl.DRAW:
            return keeping[0].move
        if any(v.dtw is None for v in keeping):
            raise MissingTableError(Status.TABLE_MISSING,
                                    "best_move_dtw needs the .dtw table of every position a move leads to "
                                    "(dtb gen --dtw)")
        distances = [v.dtw for v in keeping]
        return keeping[distances.index(min(distances) if best == Wdl.WIN else max(distances))].move

    # -- many positions ------------------------------------------------------

    def probe_wdl_many(self, positions: PositionsLike, threads: Optional[int] = None) -> np.ndarray:
        """probe_wdl of every position, as an int8 array of -1/0/1 (Wdl values).

        ``positions``: a POSITION_DTYPE array (see material_positions), or FEN
        strings or Position objects. Runs on ``threads`` threads (default: one
        per core) without the GIL. The first failure (lowest index) raises,
        with ``index`` set on the exception.
        """
        return self._open_tables().probe_wdl_many(as_position_array(positions), _threads(threads))

    def probe_dtw_many(self, positions: PositionsLike, threads: Optional[int] = None) -> np.ndarray:
        """probe_dtw of every position, as a DISTANCE_DTYPE array (fields ``wdl``, ``plies``; -1 for a draw)."""
        return self._open_tables().probe_dtw_many(as_position_array(positions), _threads(threads))

    def probe_rule_many(self, positions: PositionsLike, plies_in_class: int,
                        threads: Optional[int] = None) -> np.ndarray:
        """probe_rule of every position with the same count, as an int8 array of -1/0/1."""
        return self._open_tables().probe_rule_many(as_position_array(positions), plies_in_class, _threads(threads))

    def probe_mtc_many(self, positions: PositionsLike, threads: Optional[int] = None) -> np.ndarray:
        """probe_mtc of every position, as a DISTANCE_DTYPE array (fields ``wdl``, ``plies``; -1 for a draw)."""
        return self._open_tables().probe_mtc_many(as_position_array(positions), _threads(threads))

    def probe_rules_many(self, positions: PositionsLike, plies_since_conversion: int,
                         plies_in_class: Optional[int] = None, threads: Optional[int] = None) -> np.ndarray:
        """probe_rules of every position with the same counts, as an int8 array of -1/0/1."""
        count = -1 if plies_in_class is None else plies_in_class
        return self._open_tables().probe_rules_many(as_position_array(positions), plies_since_conversion, count,
                                                    _threads(threads))

    def probe_rule_budget_many(self, positions: PositionsLike, threads: Optional[int] = None) -> np.ndarray:
        """probe_rule_budget of every position, as a DISTANCE_DTYPE array (fields ``wdl``, ``plies``; -1 for a draw)."""
        return self._open_tables().probe_rule_budget_many(as_position_array(positions), _threads(threads))

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<dtb.Tablebase {self.directory!r} ({state})>"


def open_tablebase(directory: Union[str, "os.PathLike[str]"], cache_mb: int = 64) -> Tablebase:
    """Open a table directory written by ``dtb gen``::

        with dtb.open_tablebase("tables", cache_mb=64) as tb:
            print(tb.probe_wdl("W:WK46,28:B3"))      # Wdl.WIN

    Raises TableIOError if the directory cannot be read. Tables are opened
    lazily: a missing or damaged table is reported by the probe that needs it.
    """
    return Tablebase(directory, cache_mb)
