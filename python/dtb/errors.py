"""Exceptions of the dtb package.

Every failure of the C probe library arrives as a :class:`DtbError` subclass
carrying the C status (:class:`Status`), the library's message (which names
the table file and, for a damaged one, the block), the material of the table
involved and, for batch calls, the index of the first position that failed::

    try:
        tb.probe_wdl(position)
    except dtb.MissingTableError as e:
        print(e.status, e.material)     # Status.TABLE_MISSING KKMvK
    except dtb.CorruptedTableError as e:
        print(e.material, e.block)      # the damaged block of the file

Errors of the caller's input are also ``ValueError`` (bad FEN, illegal move or
position, a closed tablebase), so code written for built-in exceptions works.
"""
from __future__ import annotations

import enum
from typing import Dict, Optional, Type


class Status(enum.IntEnum):
    """The C API's ``dtb_status`` codes (stable numbers)."""

    OK = 0
    TABLE_MISSING = 1
    TOO_MANY_PIECES = 2
    INVALID_POSITION = 3
    CORRUPTED_TABLE = 4
    OUT_OF_MEMORY = 5
    IO_ERROR = 6
    INVALID_ARGUMENT = 7
    NOT_IN_CLASS = 8
    GAME_OVER = 9
    NOT_EXACT = 10
    NOT_CACHED = 11


class DtbError(Exception):
    """A call into the probe library failed.

    Attributes:
        status: the C status code.
        message: the library's explanation (file, block, square, ...).
        material: material of the table involved (``"KKMvK"``), or None.
        block: number of the damaged block of a corrupted table, or None.
        index: for batch calls, the index of the first position that failed.
    """

    def __init__(self, status: Status, message: str, *, status_text: Optional[str] = None,
                 material: Optional[str] = None, block: Optional[int] = None,
                 index: Optional[int] = None) -> None:
        self.status = Status(status)
        self.status_text = status_text or self.status.name.lower().replace("_", " ")
        self.message = message
        self.material = material or None
        self.block = block if block is not None and block >= 0 else None
        self.index = index if index is not None and index >= 0 else None
        super().__init__(f"{self.status_text}: {message}")

    def __str__(self) -> str:
        # KeyError (a base of the "not in the tables" errors) would quote it.
        return f"{self.status_text}: {self.message}"


class NotInTablesError(DtbError, KeyError):
    """The tables cannot answer: a table is missing or the position has too many pieces.

    A ``KeyError``, as in python-chess's ``chess.syzygy``: ``except KeyError`` catches it, and
    the ``get_*`` calls of ``Tablebase`` return ``None`` instead of raising it.
    """


class MissingTableError(NotInTablesError):
    """No table file for a material the probe needs (``.wdl``, ``.dtw``, ``.rule``, ``.mtc`` or ``.r62``)."""


class TooManyPiecesError(NotInTablesError):
    """The position has more pieces than the largest table of the directory (and is not resolved by
    a forced capture into the tables)."""


class InvalidPositionError(DtbError, ValueError):
    """A position that cannot occur: overlapping pieces, a man on its promotion row, ..."""


class CorruptedTableError(DtbError):
    """A table file is damaged: bad header, truncated, or a block fails its checksum (see ``block``)."""


class OutOfMemoryError(DtbError, MemoryError):
    """The library could not allocate memory (a cache, a decoded block)."""


class TableIOError(DtbError, OSError):
    """A table directory or file exists but cannot be read."""


class InvalidArgumentError(DtbError, ValueError):
    """An argument the library refuses (a count out of range, a bad material name, ...)."""


class InvalidFenError(InvalidArgumentError):
    """Text that is not a PDN FEN."""


class IllegalMoveError(InvalidArgumentError):
    """A move that is not legal in the position (or text naming none, or several)."""


class ClosedTablebaseError(InvalidArgumentError):
    """A probe on a tablebase that was closed."""


class NotInClassError(DtbError):
    """A draw-limit probe of a material outside the 6.3/6.4 classes."""


class NotExactError(DtbError):
    """A value under article 6.2 the tables cannot give exactly: the material converts into a line
    longer than 50 plies and has no ``.r62`` table (``dtb gen --mtc --article62`` builds one)."""


_BY_STATUS: Dict[Status, Type[DtbError]] = {
    Status.TABLE_MISSING: MissingTableError,
    Status.TOO_MANY_PIECES: TooManyPiecesError,
    Status.INVALID_POSITION: InvalidPositionError,
    Status.CORRUPTED_TABLE: CorruptedTableError,
    Status.OUT_OF_MEMORY: OutOfMemoryError,
    Status.IO_ERROR: TableIOError,
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.NOT_IN_CLASS: NotInClassError,
    Status.NOT_EXACT: NotExactError,
}

# What the extension was refusing when it reports DTB_INVALID_ARGUMENT.
_BY_SUBJECT: Dict[str, Type[DtbError]] = {"fen": InvalidFenError, "move": IllegalMoveError, "closed": ClosedTablebaseError}


def _from_c(status: int, status_text: str, message: str, material: str, block: int, subject: str,
            index: int) -> DtbError:
    """Build the exception for a failed C call (called by the extension module)."""
    cls: Type[DtbError] = _BY_STATUS.get(Status(status), DtbError)
    if status == Status.INVALID_ARGUMENT:
        cls = _BY_SUBJECT.get(subject, cls)
    return cls(Status(status), message, status_text=status_text, material=material, block=block, index=index)
