#!/usr/bin/python3
"""Does perfect play without counts win the 6.3/6.4 class endings within their counts?

In a 6.3/6.4 class material (three pieces or fewer, at least one a king,
against a lone king) the class count decides: 32 plies for 6.3, 10 for 6.4,
counted from the moment the class was entered. For every ``--stride``-th
position of each class material (White, the strong side, to move) and every
count c that ``probe_rule`` still calls won, two games are played against the
longest resistance under the count (``best_move_rule`` for the defender):
once with the winner playing ``best_move`` (perfect play without counts: the
quickest end of the game where the directory has ``.dtw`` tables for every
successor, else the least moves to conversion, the C API's dtb_best_move)
and once with ``best_move_rule`` (the move that needs the least of the class
count). The class count is carried with ``Position.counts_after``. A game
fails when the count runs out before the defender is left without a move.
The least-MTC winner fails where a man move (a conversion) comes soon but
the win then takes longer than the count has left; even the quickest win can
fail, where the rule-aware winner instead gives up a piece to the lone king,
whose capture enters the 6.4 class and starts a fresh count (RULES.md). The
rule-aware winner must never fail.

usage: python/examples/class_play.py [--tables tables] [--stride 7] [--materials KKKvK,KMvK] [--json]

Needs the .wdl, .mtc and .rule tables of the class materials
(``dtb gen --max-pieces 4 --mtc --out T`` and ``dtb rules --build T``; the
latter adds .dtw tables of the class materials too, so for the least-MTC
winner use a directory without them).
"""
import argparse
import json
import os
import sys
from typing import Callable, Optional

import dtb

CLASS_MATERIALS = ["KKKvK", "KKMvK", "KMMvK", "KKvK", "KMvK"]


def winner_wins(tb: dtb.Tablebase, start: dtb.Position, count: int,
                winner_move: Callable[[dtb.Position, int], Optional[dtb.Move]]) -> bool:
    """White (to move, winning under the class count) plays `winner_move`, Black best_move_rule."""
    position, in_class = start.copy(), count
    while True:
        if in_class is not None and in_class >= position.class_limit and position.legal_moves():
            return False  # the class count ran out with the game still going
        if not position.legal_moves():
            return position.turn == dtb.Side.BLACK
        if in_class is None:  # left the classes (never for these materials but by the end of the game)
            return tb.probe_wdl(position) == (dtb.Wdl.WIN if position.turn == dtb.Side.WHITE else dtb.Wdl.LOSS)
        if position.turn == dtb.Side.WHITE:
            move = winner_move(position, in_class)
        else:
            move = tb.best_move_rule(position, in_class)
        _, in_class = position.counts_after(move, 0, in_class)
        position.push(move)
        if not (position.white and position.black):
            return not position.black  # the last piece taken


def class_play(tb: dtb.Tablebase, material: str, stride: int) -> dict:
    summary = {"material": material, "wins": 0, "lost_by_best_move": 0, "lost_by_best_move_rule": 0,
               "example": None}
    positions = dtb.material_positions(material)[::stride]
    for record in positions:
        start = dtb.Position.from_record(record)
        limit = start.class_limit
        for count in range(limit):
            if tb.probe_rule(start, count) != dtb.Wdl.WIN:
                break  # a draw at c is a draw at every later count
            summary["wins"] += 1
            if not winner_wins(tb, start, count, lambda p, c: tb.best_move(p)):
                summary["lost_by_best_move"] += 1
                first, rule_aware = str(tb.best_move(start)), str(tb.best_move_rule(start, count))
                # The example: the first failure whose very first moves differ, if any.
                if summary["example"] is None or (first != rule_aware and
                                                  summary["example"]["best_move"] == summary["example"]["best_move_rule"]):
                    summary["example"] = {"fen": start.fen(), "plies_in_class": count,
                                          "best_move": first, "best_move_rule": rule_aware}
            if not winner_wins(tb, start, count, tb.best_move_rule):
                summary["lost_by_best_move_rule"] += 1
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default=os.environ.get("DTB_TABLES", "tables"))
    parser.add_argument("--stride", type=int, default=7, help="every n-th position of each material")
    parser.add_argument("--materials", default=",".join(CLASS_MATERIALS))
    parser.add_argument("--json", action="store_true", help="print one JSON object per material")
    args = parser.parse_args()
    if args.stride < 1:
        parser.error("--stride must be at least 1")
    materials = args.materials.split(",")
    for material in materials:
        if material not in CLASS_MATERIALS:
            parser.error(f"{material} is not a class material with White strong (one of {', '.join(CLASS_MATERIALS)})")
    try:
        with dtb.open_tablebase(args.tables) as tb:
            for material in materials:
                s = class_play(tb, material, args.stride)
                if args.json:
                    print(json.dumps(s))
                else:
                    print(f"{material}: {s['wins']:,} (position, count) wins; a winner playing best_move lets "
                          f"{s['lost_by_best_move']:,} run out, one playing best_move_rule {s['lost_by_best_move_rule']:,}"
                          + (f" (e.g. {s['example']['fen']} at {s['example']['plies_in_class']}: "
                             f"{s['example']['best_move']} instead of {s['example']['best_move_rule']})"
                             if s["example"] else ""))
                sys.stdout.flush()
    except dtb.DtbError as e:
        print(f"class_play: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
