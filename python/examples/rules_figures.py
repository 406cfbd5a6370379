#!/usr/bin/python3
"""Reproduce the 6.3 / 6.4 draw-limit report figures (docs/rules-*.svg) from Python.

For every position of the draw-limit class materials, both sides to move,
the .rule tables give the least number of plies the winner needs inside the
class from a fresh count (``probe_rule_budget``, the report's "win length").
This script counts them with the dtb package, in the keys of
``dtb rules --json``, and draws the figures with the same plotting code as
``scripts/plot-rules``, so the figures match the report's when the numbers do.

usage: python/examples/rules_figures.py [--tables tables] [--out docs] [--json FILE]

Needs the .dtw and .rule tables: ``dtb gen --max-pieces 4 --dtw --out tables``
(6.4 alone needs only 3 pieces: a class whose tables are missing is skipped).
Runs under Debian's /usr/bin/python3 (numpy, matplotlib) with dtb installed.
"""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections import Counter

import numpy as np

import dtb

# The class materials with the strong side White (RULES.md, articles 6.3 and
# 6.4): the lone piece must be a king; the limits count plies in the class.
# In the order of `dtb rules` (build order), which is the figures' legend order.
CLASSES = {"6.4": (10, ["KvK", "KKvK", "KMvK"]), "6.3": (32, ["KKKvK", "KKMvK", "KMMvK"])}


def histogram(plies: np.ndarray) -> dict:
    return {int(k): int(v) for k, v in sorted(Counter(plies.tolist()).items())}


def report_entry(tb: dtb.Tablebase, material: str, turn: dtb.Side, article: str, limit: int) -> dict:
    """One object of `dtb rules --json`: a class material with one side to move."""
    positions = dtb.material_positions(material, turn)
    theory = tb.probe_dtw_many(positions)         # the theoretical value, with its distance
    budget = tb.probe_rule_budget_many(positions)  # the rule budget: result and win length
    rule = np.where(budget["plies"] <= limit, budget["wdl"], 0)  # the value from a fresh count
    wins = budget["wdl"] == dtb.Wdl.WIN
    losses = budget["wdl"] == dtb.Wdl.LOSS
    longest = int(budget["plies"][wins].max()) if wins.any() else None
    first_longest = int(np.flatnonzero(wins & (budget["plies"] == longest))[0]) if wins.any() else None
    theory_wins = theory["wdl"] == dtb.Wdl.WIN
    return {
        "material": material, "to_move": turn.name.lower(), "article": article, "limit_plies": limit,
        "positions": len(positions),
        "win": int(theory_wins.sum()), "draw": int((theory["wdl"] == 0).sum()),
        "loss": int((theory["wdl"] == dtb.Wdl.LOSS).sum()),
        "rule_win": int((rule == 1).sum()), "rule_draw": int((rule == 0).sum()), "rule_loss": int((rule == -1).sum()),
        "win_unbounded": int((theory_wins & (budget["wdl"] == dtb.Wdl.DRAW)).sum()),
        "longest_win_in_class": longest,
        "longest_win_in_class_fen": (dtb.Position.from_record(positions[first_longest]).fen()
                                     if longest is not None else None),
        "longest_win_dtw": int(theory["plies"][theory_wins].max()) if theory_wins.any() else None,
        "longest_loss_in_class": int(budget["plies"][losses].max()) if losses.any() else None,
        "win_in_class_histogram": histogram(budget["plies"][wins]),
        "loss_in_class_histogram": histogram(budget["plies"][losses]),
    }


def report(tb: dtb.Tablebase) -> list:
    """Every entry whose tables exist; a class with a missing table is left out (and said so)."""
    entries = []
    for article, (limit, materials) in CLASSES.items():
        try:
            entries += [report_entry(tb, m, turn, article, limit) for m in materials for turn in dtb.Side]
        except (dtb.MissingTableError, dtb.TooManyPiecesError) as e:  # e.g. only the 3-piece tables
            print(f"rules_figures: article {article} skipped: {e}", file=sys.stderr)
    return entries


def plot_rules_module():
    """scripts/plot-rules, the report's own plotting code, loaded as a module."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "plot-rules")
    loader = importlib.machinery.SourceFileLoader("plot_rules", path)  # a script: no .py suffix
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("plot_rules", loader))
    loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default=os.environ.get("DTB_TABLES", "tables"))
    parser.add_argument("--out", default="docs", help="directory for rules-6.3.svg and rules-6.4.svg")
    parser.add_argument("--format", default="svg", choices=["svg", "png"])
    parser.add_argument("--json", help="also write the numbers (the keys of `dtb rules --json`) to this file")
    args = parser.parse_args()
    with dtb.open_tablebase(args.tables) as tb:
        entries = report(tb)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(entries, f, indent=1)
    plot_rules = plot_rules_module()
    os.makedirs(args.out, exist_ok=True)
    for article in CLASSES:
        path = os.path.join(args.out, f"rules-{article}.{args.format}")
        if plot_rules.plot_class(entries, article, path):
            print(path)
    return 0 if entries else 1


if __name__ == "__main__":
    sys.exit(main())
