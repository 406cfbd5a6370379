#!/usr/bin/python3
"""Which wins of a material does FMJD article 6.2 draw, at each count?

Article 6.2 draws the game after 50 plies (25 moves each) with only kings
moving and no capture. For every position of the material (White to move, as
the tables store it) this asks the probe library twice, in batch calls over
numpy arrays: ``probe_mtc_many`` for the theoretical value and the moves to
conversion, and ``probe_rules_many`` for the value under the rule with c plies
already counted. A win that the rule turns into a draw at count c is counted
in ``wins_drawn_at[c]``. The numbers come from the probe's own 6.2 values (its
``.mtc`` tables, and ``.r62`` tables where a material converts past 50 plies),
not from the report's counts, so they check ``dtb rules --article 6.2 --json``.

usage: python/examples/article62_counts.py MATERIAL [MATERIAL ...] [--tables tables]
                                           [--counts 0,10,20,30,40,49] [--json]
e.g.   python/examples/article62_counts.py KKvKM KMvMM --tables tables

Needs the .mtc tables (``dtb gen --max-pieces 5 --mtc --out tables``). The
6.3/6.4 class materials are refused: their own, shorter class count decides
there (``probe_rule``), not 6.2.
"""
import argparse
import json
import os
import sys
from typing import List

import dtb

def in_draw_class(tb: dtb.Tablebase, material: str) -> bool:
    """Whether the material is in a 6.3/6.4 class, as the probe library decides it
    (probe_rule refuses other materials before it looks for a table)."""
    try:
        tb.probe_rule(dtb.Position.from_record(dtb.material_positions(material, stop=1)[0]), 0)
    except dtb.NotInClassError:
        return False
    except dtb.MissingTableError:
        pass
    return True


CHUNK = 1 << 22  # positions probed per batch: ~130 MB of position records


def article62_counts(tb: dtb.Tablebase, material: str, counts: List[int]) -> dict:
    """Wins, losses, the longest conversion of a win and of a loss, and the wins and
    losses drawn at each count; the material's positions in chunks of CHUNK."""
    size = dtb.material_size(material)
    summary = {
        "material": material, "positions": size, "win": 0, "draw": 0, "loss": 0,
        "longest_win_mtc": None, "longest_loss_mtc": None,  # None: no win (loss), as in the report
        "wins_drawn_at": {c: 0 for c in counts}, "losses_drawn_at": {c: 0 for c in counts},
    }
    for start in range(0, size, CHUNK):
        positions = dtb.material_positions(material, start=start, stop=min(size, start + CHUNK))
        theory = tb.probe_mtc_many(positions)
        for key, value in (("win", dtb.Wdl.WIN), ("draw", dtb.Wdl.DRAW), ("loss", dtb.Wdl.LOSS)):
            chosen = theory["wdl"] == value
            summary[key] += int(chosen.sum())
            if key != "draw" and chosen.any():
                longest = f"longest_{key}_mtc"
                summary[longest] = max(summary[longest] or 0, int(theory["plies"][chosen].max()))
            if key == "draw":
                continue
            for c in counts:
                rule = tb.probe_rules_many(positions[chosen], c)
                if ((rule != 0) & (rule != value)).any():
                    raise AssertionError(f"{material}: article 6.2 turned a {key} into another result than a draw")
                summary[f"{key}s_drawn_at" if key == "win" else "losses_drawn_at"][c] += int((rule == 0).sum())
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("materials", nargs="+", metavar="MATERIAL")
    parser.add_argument("--tables", default=os.environ.get("DTB_TABLES", "tables"))
    parser.add_argument("--counts", default="0,10,20,30,40,49",
                        help="plies already counted, comma-separated (0..49)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per material")
    args = parser.parse_args()
    try:
        counts = [int(c) for c in args.counts.split(",")]
    except ValueError:
        parser.error(f"--counts must be whole numbers separated by commas, not {args.counts!r}")
    try:
        with dtb.open_tablebase(args.tables) as tb:
            for material in args.materials:
                if in_draw_class(tb, material):
                    print(f"article62_counts: {material} is a 6.3/6.4 class material: its class count decides, "
                          "not article 6.2", file=sys.stderr)
                    return 1
                summary = article62_counts(tb, material, counts)
                if args.json:
                    print(json.dumps(summary))
                    continue
                drawn = ", ".join(f"{n:,} at c={c}" for c, n in summary["wins_drawn_at"].items())
                print(f"{material}: {summary['win']:,} wins (longest conversion {summary['longest_win_mtc']} plies); "
                      f"drawn by article 6.2: {drawn}")
    except dtb.DtbError as e:
        print(f"article62_counts: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
