"""The batch probes: same values as single probes, any thread count, without the GIL."""
import sys
import threading
import time

import numpy as np
import pytest

import dtb
from sampling import fens_of, materials_in, sample_positions


def test_batch_equals_single_probes_for_every_input_form(tb, wdl_dir):
    sample = sample_positions(materials_in(wdl_dir), per_material=4, seed=7)
    single = np.array([tb.probe_wdl(dtb.Position.from_record(p)) for p in sample], dtype=np.int8)
    fens = fens_of(sample)
    assert np.array_equal(tb.probe_wdl_many(sample), single)
    assert np.array_equal(tb.probe_wdl_many(fens), single)
    assert np.array_equal(tb.probe_wdl_many([dtb.Position(f) for f in fens]), single)
    mixed = [f if i % 2 else dtb.Position(f) for i, f in enumerate(fens)]
    assert np.array_equal(tb.probe_wdl_many(mixed), single)
    assert tb.probe_wdl_many(sample).dtype == np.int8


def test_empty_batches():
    with dtb.open_tablebase("/") as tb:  # no table needed for nothing
        assert tb.probe_wdl_many([]).shape == (0,)
        assert tb.probe_dtw_many(np.empty(0, dtype=dtb.POSITION_DTYPE)).dtype == dtb.DISTANCE_DTYPE


@pytest.mark.parametrize("material", ["KKMvK", "MMvKM"])
def test_any_thread_count_gives_the_same_array(tb, material):
    for turn in dtb.Side:
        positions = dtb.material_positions(material, turn, stop=300_000)
        one = tb.probe_wdl_many(positions, threads=1)
        for threads in (2, 5):
            assert np.array_equal(tb.probe_wdl_many(positions, threads=threads), one)
        # Spot checks against single probes, spread over the array.
        for i in range(0, len(positions), len(positions) // 50):
            assert tb.probe_wdl(dtb.Position.from_record(positions[i])) == one[i]


def test_whole_material_counts_match_the_cli_stats(dtw_tb, dtw_dir, dtb_binary):
    # Every 2-3 piece material (`dtb stats` of the 4-piece set takes too long here).
    from cli import stats_json
    stats = stats_json(dtb_binary, dtw_dir)
    assert set(stats) == set(materials_in(dtw_dir))
    for material, entry in stats.items():
        values = dtw_tb.probe_wdl_many(dtb.material_positions(material))  # White to move, as the tables
        assert len(values) == entry["positions"] == dtb.material_size(material)
        assert (values == 1).sum() == entry["win"], material
        assert (values == 0).sum() == entry["draw"], material
        assert (values == -1).sum() == entry["loss"], material


def test_distance_and_rule_batches_equal_single_probes(dtw_tb, dtw_dir):
    sample = sample_positions(materials_in(dtw_dir, ".dtw"), per_material=15, seed=3)
    distances = dtw_tb.probe_dtw_many(sample, threads=2)
    for record, got in zip(sample, distances):
        expected = dtw_tb.probe_dtw(dtb.Position.from_record(record))
        # A draw has no distance: None in a single probe, -1 (C's DTB_UNKNOWN) in an array.
        assert (int(got["wdl"]), int(got["plies"])) == (expected.wdl, -1 if expected.plies is None else expected.plies)
        assert (expected.plies is None) == (expected.wdl == dtb.Wdl.DRAW)
    kmvk = dtb.material_positions("KMvK", dtb.Side.BLACK)
    budgets = dtw_tb.probe_rule_budget_many(kmvk, threads=3)
    for count in (0, 5, 10):
        rule = dtw_tb.probe_rule_many(kmvk, count, threads=2)
        from_budget = np.where(budgets["plies"] <= 10 - count, budgets["wdl"], 0)
        assert np.array_equal(rule, from_budget)
    for i in range(0, len(kmvk), 997):
        b = dtw_tb.probe_rule_budget(dtb.Position.from_record(kmvk[i]))
        assert (b.wdl, -1 if b.plies is None else b.plies) == (budgets["wdl"][i], budgets["plies"][i])


def test_python_threads_share_one_tablebase(tb):
    positions = dtb.material_positions("KMMvK", stop=500_000)
    expected = tb.probe_wdl_many(positions, threads=1)
    fens = fens_of(positions[::2000])
    singles = [tb.probe_wdl(f) for f in fens]
    results, failures = {}, []

    def work(k):
        try:
            if k % 2:
                results[k] = tb.probe_wdl_many(positions, threads=2)
            else:
                results[k] = [tb.probe_wdl(f) for f in fens]
        except Exception as e:  # reported below: an exception in a thread is otherwise lost
            failures.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    for k, value in results.items():
        if k % 2:
            assert np.array_equal(value, expected)
        else:
            assert value == singles


def spin_until(event: threading.Event) -> int:
    ticks = 0
    while not event.is_set():
        ticks += 1
    return ticks


def test_a_batch_runs_without_the_gil(tb):
    # While a batch runs in another thread, this one keeps executing Python.
    # Holding the GIL, the batch would let it run one switch interval at most
    # (set to 1 ms here), about 1% of the batch; released, nearly all of it.
    positions = dtb.material_positions("KKMvK", stop=1_000_000)
    begin = time.perf_counter()
    tb.probe_wdl_many(positions, threads=1)
    alone = time.perf_counter() - begin
    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    spins_per_second = spin_until(stop) / 0.1

    started, done = threading.Event(), threading.Event()

    def batch():
        started.set()
        tb.probe_wdl_many(positions, threads=1)
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        worker = threading.Thread(target=batch)
        worker.start()
        started.wait()
        ticks = spin_until(done)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert ticks > 0.2 * spins_per_second * alone, (ticks, spins_per_second, alone)


def test_closing_during_a_batch_is_safe(wdl_dir):
    positions = dtb.material_positions("KKMvK", stop=1_000_000)
    with dtb.open_tablebase(wdl_dir) as reference:
        expected = reference.probe_wdl_many(positions)
    tb = dtb.open_tablebase(wdl_dir)
    outcome = {}

    def run():
        try:
            outcome["values"] = tb.probe_wdl_many(positions, threads=2)
        except dtb.ClosedTablebaseError as e:  # close() came first: also fine
            outcome["closed"] = e

    worker = threading.Thread(target=run)
    worker.start()
    tb.close()  # the batch keeps its own reference to the tables until it ends
    worker.join()
    assert "closed" in outcome or np.array_equal(outcome["values"], expected)
