#!/usr/bin/python3
"""Distance-to-win histogram of one material, from the .dtw tables.

Every position of the material with the chosen side to move is probed in one
batch call (numpy, all cores, no GIL); the script prints the counts and the
longest win and draws wins and losses by their length in plies.

usage: python/examples/dtw_histogram.py MATERIAL [--tables tables] [--turn white|black]
                                        [--out FILE.svg] [--json]
e.g.   python/examples/dtw_histogram.py KKMvK --tables tables --out kkmvk-dtw.svg

MATERIAL is a table name (White's kings and men, v, Black's: KKMvK, MvM).
Needs its .dtw table: ``dtb gen --max-pieces 4 --dtw --out tables``.
"""
import argparse
import json
import os
import sys

import numpy as np

import dtb


def dtw_summary(tb: dtb.Tablebase, material: str, turn: dtb.Side) -> dict:
    """Counts, longest win and the histograms of win and loss lengths (plies -> positions)."""
    positions = dtb.material_positions(material, turn)
    distances = tb.probe_dtw_many(positions)
    wins = distances["wdl"] == dtb.Wdl.WIN
    losses = distances["wdl"] == dtb.Wdl.LOSS
    summary = {
        "material": material, "to_move": turn.name.lower(), "positions": len(positions),
        "win": int(wins.sum()), "draw": int((distances["wdl"] == dtb.Wdl.DRAW).sum()), "loss": int(losses.sum()),
        "longest_win_dtw": None, "longest_win_dtw_fen": None,  # None: no win, as in `dtb stats --json`
    }
    if wins.any():
        longest = int(np.argmax(np.where(wins, distances["plies"], -1)))
        summary["longest_win_dtw"] = int(distances["plies"][longest])
        summary["longest_win_dtw_fen"] = dtb.Position.from_record(positions[longest]).fen()
    for key, chosen in (("histogram", wins), ("loss_histogram", losses)):
        counts = np.bincount(distances["plies"][chosen])
        summary[key] = {int(plies): int(n) for plies, n in enumerate(counts) if n}
    return summary


def plot(summary: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")  # files only
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5))
    for key, label, colour in (("histogram", "side to move wins", "tab:green"),
                               ("loss_histogram", "side to move loses", "tab:red")):
        h = summary[key]
        if h:
            ax.bar(list(h), list(h.values()), color=colour, label=f"{label} ({sum(h.values()):,})")
    ax.set_yscale("log")
    ax.set_xlabel("distance to win: plies to the end of the game with perfect play")
    ax.set_ylabel("positions (log scale)")
    ax.set_title(f"{summary['material']}, {summary['to_move']} to move: {summary['positions']:,} positions, "
                 f"{summary['draw']:,} draws; longest win {summary['longest_win_dtw']} plies")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("material")
    parser.add_argument("--tables", default=os.environ.get("DTB_TABLES", "tables"))
    parser.add_argument("--turn", default="white", choices=["white", "black"])
    parser.add_argument("--out", help="write the histogram figure here (.svg, .png)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    try:
        with dtb.open_tablebase(args.tables) as tb:
            summary = dtw_summary(tb, args.material, dtb.Side[args.turn.upper()])
    except dtb.DtbError as e:
        print(f"dtw_histogram: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['material']}, {summary['to_move']} to move: {summary['positions']:,} positions, "
              f"{summary['win']:,} wins, {summary['draw']:,} draws, {summary['loss']:,} losses")
        print(f"longest win: {summary['longest_win_dtw']} plies ({summary['longest_win_dtw_fen']})")
    if args.out:
        plot(summary, args.out)
        print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
