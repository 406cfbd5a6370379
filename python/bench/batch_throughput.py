#!/usr/bin/python3
"""Throughput of the batch probe (probe_wdl_many) against a Python loop of single probes.

usage: python/bench/batch_throughput.py TABLES [--runs 5] [--threads 2]

Two workloads, on a warm cache (every run probes the same positions again):
- scan: every position of KKMvK (White to move) in table order, what
  statistics over a material do;
- random: 500,000 positions drawn from every 4-piece material of TABLES,
  both sides to move, in random order.
The Python loop calls tb.probe_wdl on prepared Position objects (its cheapest
form) over the first 100,000 positions of each workload. The three take
turns in each of --runs rounds; figures are medians, in positions per second,
and medians of the per-round ratios.
"""
import argparse
import os
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

import numpy as np

import dtb


def interleaved_rates(runs: int, works: Dict[str, Tuple[int, Callable[[], object]]]) -> Dict[str, List[float]]:
    """Positions per second of each work in each round. The works take turns
    within a round, so a burst of load on this shared machine hits them alike
    and the per-round ratios stay meaningful."""
    rates: Dict[str, List[float]] = {name: [] for name in works}
    for _ in range(runs):
        for name, (count, work) in works.items():
            begin = time.perf_counter()
            work()
            rates[name].append(count / (time.perf_counter() - begin))
    return rates


def median_ratio(a: List[float], b: List[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b))


def random_positions(tables: str, count: int, seed: int = 15) -> np.ndarray:
    rng = np.random.default_rng(seed)
    materials = [f[:-4] for f in os.listdir(tables) if f.endswith(".wdl") and len(f) == 9]  # 4 pieces: "KKMvK.wdl"
    parts = []
    for i, (material, turn) in enumerate((m, t) for m in sorted(materials) for t in dtb.Side):
        size = dtb.material_size(material)
        share = count // (2 * len(materials)) + (1 if i < count % (2 * len(materials)) else 0)
        for start in rng.choice(size, size=share, replace=False):
            parts.append(dtb.material_positions(material, turn, start=start, stop=start + 1))
    positions = np.concatenate(parts)
    return positions[rng.permutation(len(positions))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    workloads = {"scan": dtb.material_positions("KKMvK"), "random": random_positions(args.tables, 500_000)}
    with dtb.open_tablebase(args.tables) as tb:
        for name, positions in workloads.items():
            positions = dtb.as_position_array(positions)
            objects = [dtb.Position.from_record(p) for p in positions[:100_000]]
            tb.probe_wdl_many(positions)  # warm the cache
            rates = interleaved_rates(args.runs, {
                "loop": (len(objects), lambda: [tb.probe_wdl(p) for p in objects]),
                "one": (len(positions), lambda: tb.probe_wdl_many(positions, threads=1)),
                "many": (len(positions), lambda: tb.probe_wdl_many(positions, threads=args.threads)),
            })
            loop, one, many = (statistics.median(rates[k]) for k in ("loop", "one", "many"))
            print(f"{name:6} {len(positions):>9,} positions (median of {args.runs}): "
                  f"Python loop {loop / 1e6:5.2f} M/s; batch, 1 thread {one / 1e6:5.2f} M/s "
                  f"({median_ratio(rates['one'], rates['loop']):4.1f}x the loop); batch, {args.threads} threads "
                  f"{many / 1e6:5.2f} M/s ({median_ratio(rates['many'], rates['loop']):4.1f}x the loop, "
                  f"{median_ratio(rates['many'], rates['one']):4.2f}x 1 thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
