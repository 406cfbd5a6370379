#include "gen/cost_model.h"

#include <algorithm>

#include "solver/level_states.h"
#include "solver/slice_order.h"
#include "solver/unit_solver.h"
#include "index/position_index.h"

namespace dtb::gen {

std::string UnitMemory::dominant() const {
  const std::uint64_t top = std::max({values, slice_lists, level_state, writer, mtc});
  if (top == values) return spilled_values ? "packed values of the largest level" : "packed values of the unit";
  if (top == mtc) return "MTC values of the unit";
  if (top == level_state) return "working state of the largest level";
  if (top == slice_lists) return "slice lists";
  return "writer's compressed frames";
}

std::uint64_t UnitMemory::total() const {
  if (!one_level) return values + slice_lists + level_state + writer + mtc;
  // finalize_releasing: while it fills the values, every state byte it has
  // read is released except those of the current batch (2^25 positions),
  // so the values outgrow the released states by one batch's values at most
  // (4 bits a position).
  // The MTC pages of the level (here: the unit) are given back before that.
  const std::uint64_t batch_values = std::min(values, (std::uint64_t{1} << 25) / 2);
  return slice_lists + std::max(level_state + std::max(batch_values, mtc), values + writer);
}

UnitMemory unit_memory(const Material& m, bool with_mtc, bool compact_states, bool spilled_values) {
  UnitMemory u;
  u.unit = m;
  u.compact_states = compact_states;
  u.spilled_values = spilled_values;
  std::vector<std::vector<std::uint64_t>> levels;
  std::uint64_t largest_table = 0;
  for (const Material& t : unit_of(m)) {
    const PositionIndex index(t);
    levels.push_back(positions_by_advancement(t));
    u.values += UnitValues::bytes_for(index.size());
    u.slice_lists += SliceLevels::memory_bytes_for(
        index.slice_count(), *std::max_element(levels.back().begin(), levels.back().end()) / index.kings_per_slice());
    largest_table = std::max(largest_table, index.size());
  }
  // Each table keeps its state array at the size of its largest level so far
  // (resize_for_overwrite in large_array.h), so the unit holds every table's
  // largest level at once, even where those are different levels.
  std::uint64_t largest_level = 0;
  for (const auto& l : levels) largest_level += *std::max_element(l.begin(), l.end());
  // A state byte and a capture bit per position (or both in a nibble:
  // level_states.h), and two pending flags per 4096 positions.
  u.level_state = (compact_states ? NibbleStates::bytes_for(largest_level) : ByteStates::bytes_for(largest_level)) +
                  largest_level / 2048;
  // Spilled values: resident are the pages of one level (the level above
  // while a level is solved, dropped before its finalize writes its own),
  // stored level by level, so one run of pages per array, and the level
  // order (4 bytes a slice, level_order.h).
  if (spilled_values) {
    std::uint64_t slices = 0;
    for (const Material& t : unit_of(m)) slices += PositionIndex(t).slice_count();
    u.values = UnitValues::bytes_for(largest_level) + slices * sizeof(std::uint32_t) + 4 * 4096;
  }
  // With MTC in scratch files, the pages of the level being solved (a byte
  // a position), given back after each level (unit_solver.cpp).
  if (with_mtc) u.mtc = MtcValues::bytes_for(largest_level);
  // The writer holds the compressed frames of one table (table_writer.cpp):
  // at most a sixteenth of its packed size for `.wdl` (2 bits a position),
  // and for `.mtc` (a byte a position) at most 2 bits a position (the 5
  // kings v 2 `.mtc` tables, the least compressible measured: 1.3), plus the
  // packed blocks its dictionary is trained on (256 of 16384 positions).
  const std::uint64_t training = std::uint64_t{256} * 16384;  // positions
  u.writer = largest_table / 64 + training / 4;
  if (with_mtc) u.writer = std::max(u.writer, largest_table / 4 + training);
  u.one_level = levels.front().size() == 1;
  return u;
}

UnitMemory unit_memory_within(const Material& m, bool with_mtc, std::uint64_t budget) {
  const UnitMemory bytes = unit_memory(m, with_mtc);
  if (bytes.total() + kBuildOverheadBytes <= budget) return bytes;
  if (m.men() != 0) {  // spilled, if that needs less (not so for units of tiny slices: the level order costs more)
    if (bytes.one_level) return bytes;
    const UnitMemory spilled = unit_memory(m, with_mtc, false, true);
    return spilled.total() < bytes.total() ? spilled : bytes;
  }
  return unit_memory(m, with_mtc, true);
}

std::uint64_t coordinator_unit_bytes(const Material& m) {
  const UnitMemory u = unit_memory(m);
  // The check of its levels before it is written (verify/verifier.h) keeps
  // slice lists of its own and a byte of state a position of a level.
  return u.values + 2 * u.slice_lists + u.level_state + u.writer;
}

double BuildPlan::seconds() const {
  double s = 0;
  for (const PieceCountPlan& c : counts) s += c.solve_seconds + c.write_seconds;
  return s;
}

double BuildPlan::disk_bytes() const {
  double b = 0;
  for (const PieceCountPlan& c : counts) b += c.disk_bytes;
  return b;
}

BuildPlan plan_build(int max_pieces, std::uint64_t budget, int threads, bool with_mtc) {
  BuildPlan plan;
  plan.budget = budget;
  std::uint64_t largest = 0;
  for (int n = 2; n <= max_pieces; ++n) {
    PieceCountPlan c;
    c.pieces = n;
    for (const auto& level : build_levels(n))
      for (const auto& unit : level) {
        if (unit.empty() || unit.front().pieces() != n) continue;
        std::uint64_t positions = 0;
        for (const Material& t : unit) positions += PositionIndex(t).size();
        c.positions += positions;
        if (with_mtc) c.mtc_scratch = std::max(c.mtc_scratch, MtcValues::bytes_for(positions));
        const UnitMemory u = unit_memory_within(unit.front(), with_mtc, budget);
        if (u.total() > c.largest.total()) c.largest = u;
      }
    const double positions = static_cast<double>(c.positions);
    c.solve_seconds = positions / (kSolvePositionsPerThreadSecond * threads);
    c.write_seconds = positions / (write_positions_per_thread_second(n) * threads);
    c.disk_bytes = positions * disk_bits_per_position(n) / 8;
    largest = std::max(largest, c.largest.total());
    plan.counts.push_back(c);
  }
  plan.least_budget = largest + kBuildOverheadBytes;
  plan.peak = plan.least_budget;
  return plan;
}

}  // namespace dtb::gen
