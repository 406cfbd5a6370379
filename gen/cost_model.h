// The generator's measured resource use, for `dtb plan` (index/plan.h).
//
// Measured on the full 2..5 piece build (85 tables, 1.613e9 positions,
// `dtb gen --max-pieces 5 --threads 2`, zstd level 9, 16384 positions per
// block or fewer for tables that compress poorly, with dictionaries) on the
// 2-core machine, nearly idle: `scripts/bench-gen --pieces 5 --runs 3`,
// median 249 s wall, peak RSS 795 MiB. So 6.5e6 positions per second with
// two threads, counted below as 3.2e6 per thread (the solver scales ~1.9x
// from one thread to two).
//
// Memory, per position of the unit being solved: 1 byte of solver state,
// 1/8 byte of capture bitset, and while a table is written 3 bytes (uint16
// value + don't-care byte) per position of ONE of the unit's two tables,
// i.e. 1.5 per unit position (large units write one table at a time,
// gen/table_builder.cpp). On top: the WdlStore, 1/4 byte per position of
// every finished table (about 0.4 GB for 2..5 pieces, 12 GB for 2..6).
#pragma once

#include <cstdint>

#include "index/plan.h"

namespace dtb::gen {

inline constexpr double kMeasuredPositionsPerCpuSecond = 3.2e6;  // per thread

inline GeneratorCostModel measured_cost_model(int threads = 2) {
  GeneratorCostModel model;
  model.bytes_per_position = 1.0 + 1.0 / 8 + 1.5;
  model.positions_per_second = kMeasuredPositionsPerCpuSecond * threads;
  return model;
}

/// Bytes of the WdlStore once every table up to max_pieces is finished.
std::uint64_t store_bytes(int max_pieces);

}  // namespace dtb::gen
